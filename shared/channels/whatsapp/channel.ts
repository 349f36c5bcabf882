/**
 * The WhatsApp channel assembled: signature verifier, inbound processor with
 * its handler, outbound dispatcher with its transport (Graph API when
 * `WHATSAPP_TOKEN` and `WHATSAPP_PHONE_NUMBER_ID` are set, else the local
 * recorder), and the webhook app.
 *
 * @module
 */
import type { ConversationHandler } from "./conversation.ts";
import type { Runtime } from "@shared/pipeline/platform.ts";
import {
  createInboundProcessor,
  type InboundFailure,
  type InboundProcessor,
  type InboundProcessorOptions,
} from "./inbound_processor.ts";
import {
  createDispatcher,
  createGraphAdapter,
  createLocalAdapter,
  type Dispatcher,
  type WhatsAppTransport,
} from "./mod.ts";
import { createSignatureVerifier } from "./signature.ts";
import type { Hono } from "hono";
import { createWebhookApp } from "./webhook_app.ts";
import { createWhatsAppHandler } from "./handler.ts";

/** Settings of the channel. */
export interface WhatsAppChannelConfig {
  /** Meta app secret (signs webhooks). */
  appSecret: string;
  /** Verify token for the GET challenge. */
  verifyToken: string;
  /** The org (id or slug) that owns the business number. */
  org: string;
  /** Graph API credentials; the local recorder when absent. */
  graph?: { token: string; phoneNumberId: string; baseUrl?: string };
  /**
   * Answers non-vendor messages: the LangGraph agent in production
   * (`shared/platform/whatsapp.ts` wires it), a flow of its own in tests.
   */
  conversation: ConversationHandler;
  /** Runs work after a response (Supabase: through `EdgeRuntime.waitUntil`). */
  background?: (task: () => Promise<unknown>) => void;
  /** Retry policy of inbound processing. @default 5 attempts, backoff from 30 s to 1 h */
  retries?: Pick<InboundProcessorOptions, "maxAttempts" | "maxDeferrals" | "backoff">;
  /** How long a rate-limited message waits before its next attempt. @default 60000 */
  rateLimitRetryMs?: number;
  /** Webhook body limits. @default 1 MiB within 10 s */
  body?: { maxBytes?: number; timeoutMs?: number };
}

/** A running channel. */
export interface WhatsAppChannel {
  /** The webhook app. */
  app: Hono;
  /** Inbound processing. */
  processor: InboundProcessor;
  /** Outbound sending. */
  dispatcher: Dispatcher;
  /** The transport in use. */
  transport: WhatsAppTransport;
  /** Starts the background sweep and dispatch loops. */
  start(): void;
  /** Stops them, waiting for work in progress. */
  stop(): Promise<void>;
}

/**
 * Builds the channel on a runtime.
 *
 * @throws {Error} when the org is unknown.
 */
export function createWhatsAppChannel(
  runtime: Runtime,
  config: WhatsAppChannelConfig,
): WhatsAppChannel {
  const { platform } = runtime;
  const tenant = platform.tenants.get(config.org) ?? platform.tenants.bySlug(config.org);
  if (!tenant) throw new Error(`Unknown org for the WhatsApp number: ${config.org}`);
  const transport = config.graph ? createGraphAdapter(config.graph) : createLocalAdapter();
  const dispatcher = createDispatcher({
    db: platform.db,
    transport,
    log: platform.log,
    // Meta's one-message-per-6-s pair limit does not apply when nothing leaves the machine.
    pairIntervalMs: config.graph ? undefined : 0,
  });
  // Send what a turn queued straight away; the dispatch loop retries anything left.
  const kick = async () => {
    await dispatcher.dispatchDue().catch((error) =>
      platform.log.error("wa_dispatch_failed", { error: String(error) })
    );
  };
  // A message that used up its attempts: one inbox ticket for it, however often this runs.
  const reportFailed = async (failure: InboundFailure) => {
    const result = await platform.call({
      tool: "notify_staff",
      args: {
        channel: "inbox",
        payload: {
          reason: "WhatsApp message could not be processed",
          summary: `Message ${failure.wamid} from +${failure.from} failed ${failure.attempts} ` +
            `times and will not be retried: ${failure.reason}`.slice(0, 2000),
          priority: "high",
        },
      },
      caller: { claims: { role: "service_role" }, org_id: tenant.id },
      idempotencyKey: `wa-inbound-failed:${failure.wamid}`.slice(0, 255),
    });
    if (!result.ok) throw new Error(`notify_staff failed: ${result.error.code}`);
  };
  const processor = createInboundProcessor({
    db: platform.db,
    log: platform.log,
    ...config.retries,
    onFailed: reportFailed,
    handle: createWhatsAppHandler({
      platform,
      orgId: tenant.id,
      conversation: config.conversation,
      onQueued: kick,
      rateLimitRetryMs: config.rateLimitRetryMs,
    }),
  });
  const app = createWebhookApp({
    platform,
    verifySignature: createSignatureVerifier(config.appSecret),
    verifyToken: config.verifyToken,
    orgId: tenant.id,
    processor,
    background: config.background,
    maxBodyBytes: config.body?.maxBytes,
    bodyTimeoutMs: config.body?.timeoutMs,
    resolveCaller: runtime.resolveCaller,
    afterSweep: async () => {
      await dispatcher.recoverStale({ olderThanMs: 300_000 });
      return (await dispatcher.drain()).sent;
    },
  });
  return {
    app,
    processor,
    dispatcher,
    transport,
    start() {
      processor.start();
      dispatcher.start({ intervalMs: 1000 });
    },
    async stop() {
      await processor.stop();
      await dispatcher.stop();
    },
  };
}
