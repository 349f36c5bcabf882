/**
 * The WhatsApp channel's outbound side.
 *
 * - {@link textMessage}, {@link buttonsMessage}, {@link listMessage},
 *   {@link templateMessage}: Graph API message bodies, checked against Meta's
 *   limits ({@link LIMITS}); {@link toWaId} / {@link toE164} for numbers.
 * - {@link recordInbound} / {@link isWindowOpen}: the 24-hour
 *   customer-service window in `public.wa_contacts`.
 * - {@link enqueueMessage}: queue a message in the caller's transaction,
 *   idempotently; {@link applyStatus}: status webhooks, forward only.
 * - {@link createGraphAdapter} / {@link createLocalAdapter}: the
 *   {@link WhatsAppTransport}s (Meta, or nothing leaves the machine).
 * - {@link createDispatcher}: sends the outbox within Meta's limits and
 *   reacts to its error codes ({@link WA_ERROR}).
 *
 * Tests start a fake Graph API from `testing/graph_server.ts`.
 *
 * @module
 */
export * from "./messages.ts";
export * from "@shared/contract/wa_id.ts";
export * from "./window.ts";
export * from "./error_codes.ts";
export * from "./outbox.ts";
export * from "./messaging.ts";
export * from "./transport.ts";
export * from "./graph_adapter.ts";
export * from "./local_adapter.ts";
export * from "./dispatcher.ts";
export * from "./inbound.ts";
export * from "./ingest.ts";
export * from "./inbound_processor.ts";
export * from "./signature.ts";
export * from "./payloads.ts";
