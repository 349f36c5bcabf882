/**
 * Staff notifications by SMS to the on-call numbers.
 *
 * {@link createHttpSmsTransport} speaks a generic JSON gateway:
 *
 * ```http
 * POST <endpoint>
 * Authorization: Bearer <apiKey>
 * Content-Type: application/json
 *
 * {"from": "<sender>", "to": ["+250788000001"], "text": "<sender> #5b8f0c2e [urgent] …"}
 * ```
 *
 * and treats any 2xx as sent, 408/425/429/5xx and network failures as worth
 * retrying, and other 4xx (bad key, bad payload) as final.
 *
 * A specific provider (Africa's Talking, Twilio, …) plugs in by implementing
 * `NotificationTransport` (`notification_transport.ts`) with its own
 * request format (Africa's Talking: form-encoded `username`/`to`/`message`
 * with an `apiKey` header; Twilio: one form POST per number with basic auth)
 * and, where the provider answers 2xx with per-recipient statuses, by
 * reading those. The dispatcher does not change.
 *
 * Phone numbers are personal data: they are never stored as the outbox
 * target nor left in error reasons.
 *
 * @module
 */
import {
  checkEndpoint,
  type FetchLike,
  type LocalTransportOptions,
  type NotificationTransport,
  type OutgoingNotification,
  postJson,
  type SendResult,
} from "./notification_transport.ts";

/** Options for {@link createHttpSmsTransport}. */
export interface HttpSmsOptions {
  /** The gateway's send URL (https). */
  endpoint: string;
  /** Sent as `Authorization: Bearer <apiKey>`; a secret. */
  apiKey: string;
  /** Sender id or number (`from`). */
  sender: string;
  /** The on-call staff numbers, E.164 (`+250…`). */
  to: string[];
  /** The fetch to use. @default globalThis.fetch */
  fetch?: FetchLike;
  /** Gives up on one POST after this long. @default 5000 */
  timeoutMs?: number;
  /** Label stored as the outbox row's target once sent. @default "sms:on-call" */
  target?: string;
  /** Longest text sent (two GSM-7 segments by default). @default 306 */
  maxChars?: number;
}

/** The JSON body the generic gateway receives. */
export interface HttpSmsRequest {
  /** Sender id. */
  from: string;
  /** Recipients. */
  to: string[];
  /** The message. */
  text: string;
}

/**
 * The SMS text for one message: a short ticket reference under the sender id
 * (`SMS_SENDER`, the deployment's name), then the staged text.
 */
export function formatSmsText(
  message: OutgoingNotification,
  maxChars = 306,
  sender = "",
): string {
  const ticket = message.ticketId ? `#${message.ticketId.slice(0, 8)}` : "";
  const reference = [sender, ticket].filter(Boolean).join(" ");
  const text = `${reference} ${message.text}`.replace(/\s+/g, " ").trim();
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}

/** Maps a gateway answer to a send result. */
export function classifySmsResponse(
  status: number,
  body: string,
  retryAfterMs?: number,
): SendResult {
  if (status >= 200 && status < 300) return { ok: true };
  const reason = `sms ${status}${body ? ` ${body}` : ""}`;
  if (status === 429) return { ok: false, retryable: true, reason, retryAfterMs };
  if (status === 408 || status === 425 || status >= 500) {
    return { ok: false, retryable: true, reason };
  }
  return { ok: false, retryable: false, reason };
}

/**
 * A transport posting `{from, to, text}` with a bearer key to a generic
 * HTTP SMS gateway.
 *
 * @throws {TypeError} when the endpoint is not https, or there is no key,
 * sender or recipient.
 */
export function createHttpSmsTransport(options: HttpSmsOptions): NotificationTransport {
  checkEndpoint(options.endpoint, "the SMS endpoint");
  if (!options.apiKey) throw new TypeError("Cannot send SMS as the API key is empty");
  if (!options.sender) throw new TypeError("Cannot send SMS as the sender is empty");
  const to = options.to.map((number) => number.trim()).filter(Boolean);
  if (to.length === 0) throw new TypeError("Cannot send SMS as there is no recipient");
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 5000;
  const target = options.target ?? "sms:on-call";
  const secrets = [options.endpoint, options.apiKey, ...to];
  return {
    channel: "sms",
    async send(message) {
      const body: HttpSmsRequest = {
        from: options.sender,
        to,
        text: formatSmsText(message, options.maxChars, options.sender),
      };
      const outcome = await postJson({
        url: options.endpoint,
        body,
        headers: { authorization: `Bearer ${options.apiKey}` },
        timeoutMs,
        fetch,
        secrets,
      });
      if (outcome.kind === "error") {
        return { ok: false, retryable: true, reason: `sms ${outcome.reason}` };
      }
      const result = classifySmsResponse(outcome.status, outcome.body, outcome.retryAfterMs);
      return result.ok ? { ok: true, target } : result;
    },
  };
}

/**
 * The local default: succeeds without sending, so staged rows are marked
 * sent with target `local`.
 */
export function createLocalSmsTransport(
  options: LocalTransportOptions = {},
): NotificationTransport {
  return {
    channel: "sms",
    send(message) {
      options.log?.info("notification_local", { channel: "sms", ticket_id: message.ticketId });
      return Promise.resolve({ ok: true, target: "local" });
    },
  };
}
