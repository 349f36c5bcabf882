/**
 * The WhatsApp channel assembled in one process: the webhook app (store,
 * answer 200) and the worker (process, reply, send) wired together
 * in-process. Deployed, the two run apart: the `wa-webhook`
 * function mounts the webhook with a wake-up client (`createWebhookIngress`
 * (`ingress.ts`) with `agent_wake.ts`), the `agent` function mounts the worker
 * (`worker.ts`, `worker_app.ts`). Tests, the scenarios and the benchmarks
 * use this in-process assembly; the code that runs is the same.
 *
 * @module
 */
import type { Hono } from "hono";
import type { Runtime } from "@shared/pipeline/platform.ts";
import type { ConversationHandler } from "./conversation.ts";
import type { InboundProcessor, InboundProcessorOptions } from "./inbound_processor.ts";
import type { Dispatcher, WhatsAppTransport } from "./mod.ts";
import { createWebhookIngress, type WebhookIngressConfig } from "./ingress.ts";
import type { MediaSource } from "./media.ts";
import type { TenantNumbersConfig } from "./tenant_numbers.ts";
import { createWhatsAppWorker, type WhatsAppWorker } from "./worker.ts";

/** Settings of the channel. */
export interface WhatsAppChannelConfig extends WebhookIngressConfig {
  /**
   * Each tenant's replies leave from its own business number with the token
   * its row names. Wins over `graph`.
   */
  numbers?: TenantNumbersConfig;
  /** One number's Graph API credentials every tenant sends from; the local recorder when absent. */
  graph?: { token: string; phoneNumberId: string; baseUrl?: string };
  /**
   * Answers what no pack's counterpart claims: the LangGraph agent in production
   * (`shared/platform/` wires it), a flow of its own in tests.
   */
  conversation: ConversationHandler;
  /** Retry policy of inbound processing. @default 5 attempts, backoff from 30 s to 1 h */
  retries?: Pick<InboundProcessorOptions, "maxAttempts" | "maxDeferrals" | "backoff">;
  /** How long a rate-limited message waits before its next attempt. @default 60000 */
  rateLimitRetryMs?: number;
  /** Where inbound media bytes come from. @default the Graph API's with `graph`, else none */
  media?: MediaSource;
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
  /** The worker's sweep: pending messages, due sends, retention and the packs' sweeps. */
  sweep: WhatsAppWorker["sweep"];
  /** Starts the background sweep and dispatch loops. */
  start(): void;
  /** Stops them, waiting for work in progress. */
  stop(): Promise<void>;
}

/** Builds the channel on a runtime, webhook and worker in one process. */
export function createWhatsAppChannel(
  runtime: Runtime,
  config: WhatsAppChannelConfig,
): WhatsAppChannel {
  const worker = createWhatsAppWorker(runtime, config);
  const app = createWebhookIngress(runtime, {
    ...config,
    processor: worker.processor,
    afterSweep: async () => {
      await worker.dispatcher.recoverStale({ olderThanMs: 300_000 });
      return (await worker.dispatcher.drain()).sent;
    },
  });
  return {
    app,
    processor: worker.processor,
    dispatcher: worker.dispatcher,
    transport: worker.transport,
    sweep: worker.sweep,
    start: worker.start,
    stop: worker.stop,
  };
}
