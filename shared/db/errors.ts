/**
 * Maps Postgres errors raised inside a tool onto contract codes, so a row
 * refused by RLS reads as AUTH_ERROR rather than INTERNAL_ERROR.
 *
 * @module
 */
import type { ErrorCode } from "@shared/contract/mod.ts";

const BY_SQLSTATE: Record<string, ErrorCode> = {
  "42501": "AUTH_ERROR", // insufficient_privilege, incl. "violates row-level security policy"
  "23505": "CONFLICT", // unique_violation
  "23503": "NOT_FOUND", // foreign_key_violation: the referenced row is missing or not visible
  "23514": "VALIDATION_ERROR", // check_violation
  "23502": "VALIDATION_ERROR", // not_null_violation
  "22P02": "VALIDATION_ERROR", // invalid_text_representation (e.g. a malformed uuid)
  "22003": "VALIDATION_ERROR", // numeric_value_out_of_range
  "57014": "TIMEOUT", // query_canceled by statement_timeout
  "40001": "CONFLICT", // serialization_failure
  "40P01": "CONFLICT", // deadlock_detected
  "P0002": "NOT_FOUND", // no_data_found, raised by our functions for an unknown reference
  "P0409": "CONFLICT", // ours: a state conflict (invalid order move, slot full, offer taken)
  "P0402": "CONFLICT", // ours: fulfilment before the payment is settled
  "PT429": "RATE_LIMIT", // ours: a staff member's send budget is spent (PostgREST answers 429)
};

/** The contract code for a database error, or undefined when it is not one. */
export function classifyDbError(error: unknown): ErrorCode | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? BY_SQLSTATE[code] : undefined;
}

/**
 * How long a refusal of the database's own rate limits (`PT429`) asks the
 * caller to wait, from its hint (`retry in <n> s`), in milliseconds; undefined
 * for any other error.
 */
export function dbRetryAfterMs(error: unknown): number | undefined {
  const { code, hint } = (error ?? {}) as { code?: unknown; hint?: unknown };
  if (code !== "PT429" || typeof hint !== "string") return undefined;
  const seconds = /^retry in (\d{1,6}) s$/.exec(hint)?.[1];
  return seconds === undefined ? undefined : Number(seconds) * 1000;
}
