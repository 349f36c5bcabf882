/**
 * The sending half of staff notifications. Tools only stage a message (a
 * `notification_outbox` row written in their transaction, see
 * `channels.ts`); after commit the notification dispatcher hands each row to
 * the {@link NotificationTransport} of its channel. A provider (Slack, an SMS
 * gateway) plugs in by implementing that one interface.
 *
 * Also the small HTTP helpers the transports share: a JSON POST with a
 * timeout that never puts the endpoint (often a secret) into an error, and
 * `Retry-After` parsing.
 *
 * @module
 */
import type { Logger } from "@shared/runtime/log.ts";

/**
 * The channels staff can be notified on, as in `notification_outbox.channel`;
 * `inbox` opens a staged ticket in the Admin Inbox (`inbox_tickets.ts`).
 */
export type NotificationChannel = "slack" | "sms" | "inbox";

/** The ticket an `inbox` row asks for (`notification_outbox.ticket_request`). */
export interface TicketRequest {
  /** `notify_staff`'s idempotency key (1–255 characters): one ticket per key. */
  key: string;
  /** Short reason (1–200 characters). */
  reason: string;
  /** What staff need to know (1–2000 characters). */
  summary: string;
  /** @default "high" */
  priority?: "low" | "medium" | "high" | "urgent";
  /** The conversation the ticket is about. */
  convo_id?: string;
}

/** One staged message, as the dispatcher hands it to a transport. */
export interface OutgoingNotification {
  /** The message (`[priority] reason: summary`, written by the tool). */
  text: string;
  /** Whether the ticket is urgent. */
  urgent: boolean;
  /** The staff ticket it is about, if any. */
  ticketId: string | null;
  /** The tenant. */
  orgId: string;
  /** For the `inbox` channel: the ticket to open. */
  ticketRequest?: TicketRequest;
}

/** What a transport reports for one message. */
export type SendResult =
  | {
    ok: true;
    /**
     * Where it went, stored in `notification_outbox.target` (a label, never
     * a secret or a phone number: the ticket's requester can read the row).
     */
    target?: string;
    /** The ticket the message opened (`inbox`), stored in `notification_outbox.ticket_id`. */
    ticketId?: string;
  }
  | {
    ok: false;
    /** Whether sending the same message later may succeed. */
    retryable: boolean;
    /** Short reason, stored in `last_error` (no secrets). */
    reason: string;
    /** The provider asked us to wait this long (HTTP 429 `Retry-After`). */
    retryAfterMs?: number;
    /**
     * The request went out and no answer came (a timeout): the provider may
     * have delivered it. Never sent again (that may deliver it twice); the
     * row is marked `unknown` for staff to check. Comes with `retryable: false`.
     */
    unknown?: true;
  };

/** Sends staged notifications over one channel. */
export interface NotificationTransport {
  /** The outbox channel it serves. */
  readonly channel: NotificationChannel;
  /** Sends one message; never throws for a provider or network failure. */
  send(message: OutgoingNotification): Promise<SendResult>;
}

/** Options for the local transports (`createLocalSlackTransport`, `createLocalSmsTransport`). */
export interface LocalTransportOptions {
  /** Told about each message not sent (channel and ticket id, never the text). */
  log?: Pick<Logger, "info">;
}

/** The `fetch` a transport uses (tests pass their own). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Bytes of a response body kept for the error reason. */
const MAX_BODY_CHARS = 200;

/** A finished HTTP exchange, or a network failure. */
export type PostOutcome =
  | { kind: "response"; status: number; body: string; retryAfterMs?: number }
  | {
    kind: "error";
    reason: string;
    /** What fetch threw, for a provider's classifier (never stored: it may quote the URL). */
    error: unknown;
  };

/** Options for {@link postJson}. */
export interface PostJsonOptions {
  /** The endpoint; never appears in an outcome. */
  url: string;
  /** The JSON body. */
  body: unknown;
  /** Extra headers (`Authorization`). */
  headers?: Record<string, string>;
  /** Gives up after this long. */
  timeoutMs: number;
  /** The fetch to use. */
  fetch: FetchLike;
  /** Strings to blank out of error messages (the URL, keys). */
  secrets: readonly string[];
}

/**
 * POSTs JSON and reads the (short) answer. Network errors and timeouts come
 * back as `{kind: "error"}` with every secret and URL removed from the
 * reason, since fetch errors quote the URL.
 */
export async function postJson(options: PostJsonOptions): Promise<PostOutcome> {
  let response: Response;
  try {
    response = await options.fetch(options.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      body: JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    if (name === "TimeoutError" || name === "AbortError") {
      return { kind: "error", reason: `timeout after ${options.timeoutMs} ms`, error };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "error", reason: `network error: ${scrub(message, options.secrets)}`, error };
  }
  let body = "";
  try {
    body = await response.text();
  } catch {
    // The status is what matters; a body cut short is not.
  }
  return {
    kind: "response",
    status: response.status,
    body: scrub(body, options.secrets).replace(/\s+/g, " ").trim().slice(0, MAX_BODY_CHARS),
    retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
  };
}

/** Removes secrets and any URL from text bound for a log or a database column. */
export function scrub(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret) result = result.replaceAll(secret, "[redacted]");
  }
  return result.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi, "[url]").slice(0, 300);
}

/**
 * Milliseconds to wait from a `Retry-After` header: delay-seconds or an
 * HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: () => number = Date.now,
): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}

/**
 * Checks an endpoint URL without echoing it: `https:`, or `http:` to a
 * loopback host (local fakes and tests).
 *
 * @throws {TypeError} naming only `what`, never the URL.
 */
export function checkEndpoint(url: string, what: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Cannot use ${what} as it is not a valid URL`);
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname);
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopback)) {
    throw new TypeError(`Cannot use ${what} as it must be an https URL`);
  }
}
