/**
 * The webhook side of the WhatsApp channel, what `wa-webhook-buy-sell`
 * mounts: verifies, stores, answers 200, then hands the new messages to a
 * processor — the agent function's wake-up (`agent_wake.ts`) when deployed,
 * the worker itself in one process (`channel.ts`). It carries no agent and
 * no outbound sending.
 *
 * @module
 */
import type { Hono } from "hono";
import type { Runtime } from "@shared/pipeline/platform.ts";
import type { InboundProcessor } from "./inbound_processor.ts";
import { createSignatureVerifier } from "./signature.ts";
import { createWebhookApp } from "./webhook_app.ts";

/** Settings of the webhook side. */
export interface WebhookIngressConfig {
  /** Meta app secret (signs webhooks). */
  appSecret: string;
  /** Verify token for the GET challenge. */
  verifyToken: string;
  /** The org (id or slug) that owns the business number. */
  org: string;
  /** Runs work after a response (Supabase: through `EdgeRuntime.waitUntil`). */
  background?: (task: () => Promise<unknown>) => void;
  /** Webhook body limits. @default 1 MiB within 10 s */
  body?: { maxBytes?: number; timeoutMs?: number };
}

/**
 * Builds the webhook app on a runtime: it stores deliveries and hands new
 * messages to `processor` (in-process, or the agent function's wake-up).
 *
 * @throws {Error} when the org is unknown.
 */
export function createWebhookIngress(
  runtime: Runtime,
  config: WebhookIngressConfig & {
    processor: InboundProcessor;
    afterSweep?: () => Promise<number>;
  },
): Hono {
  const { platform } = runtime;
  const tenant = platform.tenants.get(config.org) ?? platform.tenants.bySlug(config.org);
  if (!tenant) throw new Error(`Unknown org for the WhatsApp number: ${config.org}`);
  return createWebhookApp({
    platform,
    verifySignature: createSignatureVerifier(config.appSecret),
    verifyToken: config.verifyToken,
    orgId: tenant.id,
    processor: config.processor,
    background: config.background,
    maxBodyBytes: config.body?.maxBytes,
    bodyTimeoutMs: config.body?.timeoutMs,
    resolveCaller: runtime.resolveCaller,
    afterSweep: config.afterSweep,
  });
}
