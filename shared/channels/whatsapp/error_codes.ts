/**
 * The Cloud API error codes the sender acts on, and which failures are worth
 * retrying. Meta reports them in a send's error reply (`error.code`) and, for
 * messages it accepted first, in a `failed` status webhook
 * (`statuses[].errors[].code`).
 *
 * @module
 */

/** Meta error codes with a defined reaction. */
export const WA_ERROR = {
  /** Not a Meta code: the request never got a Graph API answer (network, timeout, bad reply). */
  transport: 0,
  /** Unknown error: retry with backoff. */
  unknown: 131000,
  /** More than 24 hours since the user's last message: send an approved template. */
  reEngagement: 131047,
  /** Undeliverable (not on WhatsApp, old client): do not retry. */
  undeliverable: 131026,
  /** Throughput of the business number reached: back off and retry. */
  throughput: 130429,
  /** Pair rate limit (same user too fast): delay that user's queue. */
  pairRate: 131056,
  /** Spam rate limit: do not retry; alert staff. */
  spamRate: 131048,
  /** Meta chose not to deliver (ecosystem engagement): do not retry; alert staff. */
  notDelivered: 131049,
} as const;

// Temporary failures: rate limits, Meta-side outages and maintenance.
const RETRYABLE = new Set<number>([
  1, // API unknown
  2, // API service (temporary)
  4, // application request limit
  80007, // WhatsApp business account rate limit
  130429, // throughput
  131000, // unknown
  131016, // service unavailable
  131056, // pair rate
  131057, // account in maintenance mode
  133004, // server temporarily unavailable
]);

/**
 * Whether a failure with this Meta error code may succeed when retried
 * unchanged. Parameter, permission, template and policy errors may not.
 *
 * @param code A Meta error code.
 * @returns True for rate limits and temporary outages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRetryableCode, WA_ERROR } from "./error_codes.ts";
 *
 * assert.equal(isRetryableCode(WA_ERROR.throughput), true);
 * assert.equal(isRetryableCode(WA_ERROR.undeliverable), false);
 * ```
 */
export function isRetryableCode(code: number): boolean {
  return RETRYABLE.has(code);
}

/**
 * Whether the code means Meta is limiting the business number's reach
 * (131048 spam rate limit, 131049 not delivered for engagement): such
 * messages are not retried and staff should hear about it.
 *
 * @param code A Meta error code.
 * @returns True for 131048 and 131049.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStaffAlertCode } from "./error_codes.ts";
 *
 * assert.equal(isStaffAlertCode(131049), true);
 * ```
 */
export function isStaffAlertCode(code: number): boolean {
  return code === WA_ERROR.spamRate || code === WA_ERROR.notDelivered;
}
