/**
 * The `wa-webhook` function: the WhatsApp webhook (verify, store,
 * answer 200) whose new messages are handed to the `agent` function by a
 * wake-up call. It imports no agent, no model client and no sender, so its
 * bundle stays small.
 *
 * Deployed settings: the runtime's (`env.ts`) plus `WHATSAPP_VERIFY_TOKEN`,
 * the app secrets the business numbers name
 * (`tenant_whatsapp_numbers.app_secret_name`; each message is stored for the
 * tenant owning the number it was sent to), the
 * agent function's URL (`EASYMO_AGENT_URL`, default
 * `$SUPABASE_URL/functions/v1/agent`) and a service-role token for it
 * (`EASYMO_AGENT_TOKEN`, default `SUPABASE_SERVICE_ROLE_KEY`, which Supabase
 * sets for every function).
 *
 * @module
 */
import { type AgentWakeOptions, createAgentWake } from "@shared/channels/whatsapp/agent_wake.ts";
import {
  createWebhookIngress,
  type WebhookIngressConfig,
} from "@shared/channels/whatsapp/ingress.ts";
import type { Runtime } from "@shared/pipeline/platform.ts";
import { edgeBackground, openRuntimeFromEnv, requireEnv } from "./env.ts";

/** Options for {@link createWebhookFunction}. */
export interface WebhookFunctionConfig extends WebhookIngressConfig {
  /** Where and how to wake the agent function. */
  agent: Omit<AgentWakeOptions, "log">;
}

/** The function as a host runs it. */
export interface WebhookFunction {
  /** Answers requests under `/wa-webhook`. */
  fetch(request: Request): Response | Promise<Response>;
  /** Waits for wake-up calls in flight. */
  stop(): Promise<void>;
}

/** Builds the webhook function on a runtime. */
export function createWebhookFunction(
  runtime: Runtime,
  config: WebhookFunctionConfig,
): WebhookFunction {
  const wake = createAgentWake({ ...config.agent, log: runtime.platform.log });
  const app = createWebhookIngress(runtime, {
    ...config,
    processor: wake.processor,
    afterSweep: wake.afterSweep,
  });
  return { fetch: app.fetch, stop: () => wake.processor.stop() };
}

/**
 * The deployed webhook, from the environment.
 *
 * @throws {Error} when a variable is missing.
 */
export async function openWebhookFunctionFromEnv(): Promise<WebhookFunction> {
  const agentUrl = Deno.env.get("EASYMO_AGENT_URL") ||
    `${requireEnv("SUPABASE_URL").replace(/\/+$/, "")}/functions/v1/agent`;
  const agentToken = Deno.env.get("EASYMO_AGENT_TOKEN") ||
    requireEnv("SUPABASE_SERVICE_ROLE_KEY");
  const verifyToken = requireEnv("WHATSAPP_VERIFY_TOKEN");
  const runtime = await openRuntimeFromEnv();
  return createWebhookFunction(runtime, {
    secrets: (name) => Deno.env.get(name),
    verifyToken,
    background: edgeBackground(),
    agent: { url: agentUrl, token: () => agentToken },
  });
}
