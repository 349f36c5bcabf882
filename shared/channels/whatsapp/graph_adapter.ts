/**
 * The Graph API transport: `POST {baseUrl}/{phone-number-id}/messages` with
 * the business number's bearer token. It turns every outcome into a
 * {@link SendResult}: Meta's success and error envelopes, HTTP failures
 * without one, network errors and timeouts (the last two retryable). It
 * never logs and never puts the token in a result.
 *
 * @module
 */
import { isRetryableCode, WA_ERROR } from "./error_codes.ts";
import type { MessageBody } from "./messages.ts";
import type { SendRejected, SendResult, WhatsAppTransport } from "./transport.ts";

/** Options for {@link createGraphAdapter}. */
export interface GraphAdapterOptions {
  /** A system-user access token with `whatsapp_business_messaging`. */
  token: string;
  /** The business number's phone-number id (not the phone number). */
  phoneNumberId: string;
  /** The Graph API root including the version. @default "https://graph.facebook.com/v21.0" */
  baseUrl?: string;
  /** The fetch to use (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** How long one request may take, in milliseconds. @default 10000 */
  timeoutMs?: number;
}

/** The default Graph API root. */
export const GRAPH_BASE_URL = "https://graph.facebook.com/v21.0";

interface GraphError {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  error_data?: { details?: unknown } | null;
  fbtrace_id?: unknown;
}

/**
 * Creates a transport that sends through Meta's Graph API.
 *
 * @param options Token, phone-number id, and optionally base URL, fetch and timeout.
 * @returns The transport.
 * @throws {TypeError} When the token or phone-number id is missing.
 *
 * @example Sending through a local fake of the Graph API
 * ```ts ignore
 * const transport = createGraphAdapter({
 *   token: Deno.env.get("WHATSAPP_TOKEN")!,
 *   phoneNumberId: "106540352242922", // the number's id, from tenant_whatsapp_numbers
 * });
 * const result = await transport.send("250788123456", textMessage("Muraho").body);
 * if (result.ok) console.log(result.wamid);
 * ```
 */
export function createGraphAdapter(options: GraphAdapterOptions): WhatsAppTransport {
  const { token, phoneNumberId } = options;
  if (typeof token !== "string" || token.trim() === "") {
    throw new TypeError("Cannot create the Graph API adapter as the token is empty");
  }
  if (typeof phoneNumberId !== "string" || !/^[0-9]+$/.test(phoneNumberId)) {
    throw new TypeError(
      `Cannot create the Graph API adapter as phoneNumberId must be digits: current value is ${
        JSON.stringify(phoneNumberId)
      }`,
    );
  }
  const baseUrl = (options.baseUrl ?? GRAPH_BASE_URL).replace(/\/+$/, "");
  const url = `${baseUrl}/${phoneNumberId}/messages`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    async send(to: string, body: MessageBody): Promise<SendResult> {
      let response: Response;
      let payload: unknown;
      try {
        response = await doFetch(url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json",
          },
          body: JSON.stringify({
            messaging_product: "whatsapp",
            recipient_type: "individual",
            to,
            ...body,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        try {
          payload = text ? JSON.parse(text) : undefined;
        } catch {
          payload = undefined;
        }
      } catch (error) {
        return transportFailure(error, timeoutMs);
      }
      return readReply(response, payload);
    },
  };
}

function transportFailure(error: unknown, timeoutMs: number): SendRejected {
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return {
      ok: false,
      code: WA_ERROR.transport,
      title: `Graph API request timed out after ${timeoutMs} ms`,
      retryable: true,
    };
  }
  const reason = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    code: WA_ERROR.transport,
    title: `Graph API request failed: ${reason.slice(0, 200) || "network error"}`,
    retryable: true,
  };
}

function readReply(response: Response, payload: unknown): SendResult {
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  const extra = retryAfterMs === undefined ? {} : { retryAfterMs };
  const error = (payload as { error?: GraphError } | undefined)?.error;
  if (error && typeof error === "object" && typeof error.code === "number") {
    const message = typeof error.message === "string" ? error.message : "Graph API error";
    const details = typeof error.error_data?.details === "string"
      ? error.error_data.details
      : undefined;
    return {
      ok: false,
      code: error.code,
      title: message.replace(/^\(#\d+\)\s*/, ""),
      ...(details === undefined ? {} : { details }),
      retryable: isRetryableCode(error.code),
      ...extra,
    };
  }
  const wamid = (payload as { messages?: Array<{ id?: unknown }> } | undefined)?.messages?.[0]?.id;
  if (response.ok && typeof wamid === "string" && wamid !== "") return { ok: true, wamid };
  // No Graph envelope: a proxy or load balancer answered. Server-side trouble is
  // worth retrying; a 2xx without a wamid may have been sent, so it is not retried.
  return {
    ok: false,
    code: WA_ERROR.transport,
    title: `Unexpected Graph API reply: HTTP ${response.status}`,
    retryable: response.status >= 500 || response.status === 429,
    ...extra,
  };
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
