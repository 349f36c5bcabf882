/**
 * What an answer (or the lack of one) from a Slack incoming webhook means,
 * in one place for every sender: the staff notifications' transport and the
 * automations' `slack_notify`.
 *
 * Slack answers `200 ok`, or a status with one plain-text word:
 * `400 invalid_payload`/`no_text`, `401 invalid_token`, `403
 * action_prohibited`, `404 no_service`/`channel_not_found`, `410
 * channel_is_archived`, `429` with `Retry-After`, `5xx`. Only 408, 429 and
 * 5xx are worth sending again; the rest need someone to fix the webhook.
 *
 * A POST that got no answer is another matter: only a connection that was
 * never made (refused, or a name that did not resolve) certainly did not
 * reach Slack. A timeout or a connection cut after the request went out may
 * have been posted, and sending it again may post it twice.
 *
 * @module
 */

/** Slack's answer to one POST, for a sender to act on. */
export type SlackAnswer =
  | { ok: true }
  | {
    ok: false;
    /** Whether sending the same message later may succeed. */
    retryable: boolean;
    /** Short reason (`slack 404 no_service`): the status and Slack's word, no secret. */
    reason: string;
    /** Slack asked to wait this long (HTTP 429 `Retry-After`). */
    retryAfterMs?: number;
  };

/**
 * Maps one webhook answer: any 2xx took the message; 408, 429 and 5xx may
 * be sent again (429 after `retryAfterMs`); every other status is final.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifySlackResponse } from "@shared/capabilities/slack/mod.ts";
 *
 * assert.deepEqual(classifySlackResponse(200, "ok"), { ok: true });
 * assert.equal(classifySlackResponse(401, "invalid_token").ok, false);
 * ```
 */
export function classifySlackResponse(
  status: number,
  body: string,
  retryAfterMs?: number,
): SlackAnswer {
  if (status >= 200 && status < 300) return { ok: true };
  const reason = `slack ${status}${body ? ` ${body}` : ""}`;
  if (status === 429) return { ok: false, retryable: true, reason, retryAfterMs };
  if (status === 408 || status >= 500) return { ok: false, retryable: true, reason };
  // 400 invalid_payload/no_text, 401 invalid_token, 403 action_prohibited, 404
  // no_service/channel_not_found, 410 channel_is_archived: the same thing to the same webhook
  // cannot do better.
  return { ok: false, retryable: false, reason };
}

/**
 * Slack's one-word error from an answer's body (`channel_not_found`), safe to
 * show staff; null when the body is anything else (an HTML page, a proxy's).
 */
export function slackErrorWord(body: string): string | null {
  const word = body.trim();
  return /^[a-z_]{1,60}$/.test(word) ? word : null;
}

// What a fetch throws when no connection was made: refused, or a name that does not resolve.
const NEVER_CONNECTED =
  /connection refused|dns error|failed to lookup address|name or service not known|nodename nor servname|no such host|ECONNREFUSED|ENOTFOUND/i;

/**
 * What a POST that threw (no answer) means: `not_sent` when the connection
 * was never made, so the message certainly did not reach Slack and may be
 * sent again; `unknown` otherwise (a timeout, a connection cut after the
 * request went out), when Slack may have posted it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifySlackFailure } from "@shared/capabilities/slack/mod.ts";
 *
 * assert.equal(classifySlackFailure(new TypeError("tcp connect error: Connection refused")), "not_sent");
 * assert.equal(classifySlackFailure(new DOMException("Signal timed out.", "TimeoutError")), "unknown");
 * ```
 */
export function classifySlackFailure(error: unknown): "not_sent" | "unknown" {
  const texts: string[] = [];
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    if (cause instanceof Error) {
      if (cause.name === "TimeoutError" || cause.name === "AbortError") return "unknown";
      texts.push(cause.message, String((cause as { code?: unknown }).code ?? ""));
      cause = cause.cause;
    } else {
      texts.push(String(cause));
      break;
    }
  }
  return texts.some((text) => NEVER_CONNECTED.test(text)) ? "not_sent" : "unknown";
}
