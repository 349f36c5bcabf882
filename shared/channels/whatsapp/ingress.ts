/**
 * The webhook side of the WhatsApp channel, what `wa-webhook`
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
import { createSignatureVerifier, type SignatureVerifier } from "./signature.ts";
import type { SecretReader } from "./tenant_numbers.ts";
import { createWebhookApp, type TenantSignatureVerifier } from "./webhook_app.ts";

/** Settings of the webhook side. */
export interface WebhookIngressConfig {
  /**
   * Reads the app secrets the business numbers name
   * (`tenant_whatsapp_numbers.app_secret_name`). @default `Deno.env.get`
   */
  secrets?: SecretReader;
  /**
   * One Meta app's secret signing every number's deliveries, instead of the
   * secrets the numbers name (tests; deployments with one app).
   */
  appSecret?: string;
  /** Verify token for the GET challenge. */
  verifyToken: string;
  /** Runs work after a response (Supabase: through `EdgeRuntime.waitUntil`). */
  background?: (task: () => Promise<unknown>) => void;
  /** Webhook body limits. @default 1 MiB within 10 s */
  body?: { maxBytes?: number; timeoutMs?: number };
}

/**
 * Builds the webhook app on a runtime: it stores each delivered message for
 * the tenant owning the number it was sent to and hands new messages to
 * `processor` (in-process, or the agent function's wake-up).
 */
export function createWebhookIngress(
  runtime: Runtime,
  config: WebhookIngressConfig & {
    processor: InboundProcessor;
    afterSweep?: () => Promise<number>;
  },
): Hono {
  const { platform } = runtime;
  const tenants = platform.tenants;
  return createWebhookApp({
    platform,
    verifySignature: createTenantSignatureVerifier(runtime, config),
    orgOfNumber: (phoneNumberId) => tenants.byPhoneNumberId(phoneNumberId)?.orgId,
    verifyToken: config.verifyToken,
    processor: config.processor,
    background: config.background,
    maxBodyBytes: config.body?.maxBytes,
    bodyTimeoutMs: config.body?.timeoutMs,
    resolveCaller: runtime.resolveCaller,
    afterSweep: config.afterSweep,
  });
}

/**
 * Checks a body against the app secret of every known number (each distinct
 * secret once, in constant time) and answers the numbers whose secret signed
 * it. A secret that is not set signs nothing.
 */
function createTenantSignatureVerifier(
  runtime: Runtime,
  config: Pick<WebhookIngressConfig, "secrets" | "appSecret">,
): TenantSignatureVerifier {
  const read = config.secrets ?? ((name: string) => Deno.env.get(name));
  const verifiers = new Map<string, SignatureVerifier>();
  const verifierFor = (secret: string) => {
    let verifier = verifiers.get(secret);
    if (!verifier) verifiers.set(secret, verifier = createSignatureVerifier(secret));
    return verifier;
  };
  return async (body, header) => {
    // The numbers as they are now: one an operator added seconds ago is known (a live directory).
    await runtime.platform.tenants.fresh();
    const bySecret = new Map<string, string[]>();
    for (const number of runtime.platform.tenants.numbers()) {
      const secret = config.appSecret ?? read(number.appSecretName);
      if (!secret) continue;
      bySecret.set(secret, [...bySecret.get(secret) ?? [], number.phoneNumberId]);
    }
    // Without any number the one app's secret still decides 401/403 against 200.
    if (config.appSecret && !bySecret.size) bySecret.set(config.appSecret, []);
    let signed: Set<string> | null = null;
    for (const [secret, numbers] of bySecret) {
      if (!(await verifierFor(secret)(body, header))) continue;
      signed ??= new Set();
      for (const number of numbers) signed.add(number);
    }
    return signed;
  };
}
