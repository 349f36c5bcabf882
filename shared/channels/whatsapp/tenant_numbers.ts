/**
 * One deployment for every tenant: the business numbers of
 * `public.tenant_whatsapp_numbers` (loaded into the platform's tenant
 * directory) pick the tenant of an inbound message, the app secret that must
 * have signed it, and the number and token a tenant's replies leave with.
 *
 * Rows name their secrets (environment variables); the values are read here,
 * through a {@link SecretReader}, and never stored or logged.
 *
 * @module
 */
import type { TenantDirectory, TenantNumber } from "@shared/registry/tenant_policy.ts";
import { createGraphAdapter } from "./graph_adapter.ts";
import { WA_ERROR } from "./error_codes.ts";
import type { MessageBody } from "./messages.ts";
import type { SendFrom, SendResult, WhatsAppTransport } from "./transport.ts";

/** Reads a secret by name (deployed: `Deno.env.get`). */
export type SecretReader = (name: string) => string | undefined;

/** How a tenant's numbers reach the Graph API. */
export interface TenantNumbersConfig {
  /** Reads the secrets the number rows name. */
  secrets: SecretReader;
  /** The Graph API root including the version. @default Meta's */
  baseUrl?: string;
  /** The fetch to use (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * The number a tenant's message leaves from: the one the recipient wrote to
 * (`preferred`) while it is still the tenant's, else the tenant's first by
 * phone-number id (a stable choice for people who never wrote).
 */
export function sendingNumber(
  tenants: TenantDirectory,
  orgId: string,
  preferred?: string,
): TenantNumber | undefined {
  const written = preferred === undefined ? undefined : tenants.byPhoneNumberId(preferred);
  if (written?.orgId === orgId) return written;
  return tenants.numbers(orgId).sort((a, b) => a.phoneNumberId.localeCompare(b.phoneNumberId))[0];
}

/**
 * A transport that sends each message from its tenant's business number
 * (the one its recipient wrote to), with that number's token (one Graph
 * adapter per number, built on first use).
 * A message of a tenant without a number, or whose token secret is unset,
 * is refused (not retried: it needs configuration, and the log says which
 * secret name is missing).
 */
export function createTenantTransport(
  tenants: TenantDirectory,
  config: TenantNumbersConfig,
): WhatsAppTransport {
  const adapters = new Map<string, { token: string; transport: WhatsAppTransport }>();
  const refuse = (title: string): SendResult => ({
    ok: false,
    code: WA_ERROR.transport,
    title,
    retryable: false,
  });
  return {
    async send(to: string, body: MessageBody, from?: SendFrom): Promise<SendResult> {
      if (!from) return refuse("No tenant given for the message");
      // A number an operator added, moved or removed a moment ago is seen (a live directory).
      await tenants.fresh();
      const number = sendingNumber(tenants, from.orgId, from.phoneNumberId);
      if (!number) return refuse(`Tenant ${from.orgId} has no WhatsApp number`);
      const token = config.secrets(number.tokenSecretName);
      if (!token) {
        return refuse(
          `The secret ${number.tokenSecretName} (token of a WhatsApp number) is not set`,
        );
      }
      let adapter = adapters.get(number.phoneNumberId);
      // A rotated token builds a new adapter; the old one is dropped.
      if (!adapter || adapter.token !== token) {
        adapter = {
          token,
          transport: createGraphAdapter({
            token,
            phoneNumberId: number.phoneNumberId,
            baseUrl: config.baseUrl,
            fetch: config.fetch,
          }),
        };
        adapters.set(number.phoneNumberId, adapter);
      }
      return await adapter.transport.send(to, body, from);
    },
  };
}
