/**
 * How a failure inside a call becomes its answer (private to the steps that
 * run tools): a caller's mistake or a refusal keeps its code, anything
 * unexpected becomes INTERNAL_ERROR with the details in the log only.
 *
 * @module
 */
import { type ErrorCode, fail, type ToolFail, ToolFailure } from "@shared/contract/mod.ts";
import { classifyDbError, dbRetryAfterMs } from "@shared/db/errors.ts";
import type { Logger } from "@shared/runtime/log.ts";
import type { Call } from "../call.ts";

/** The call's deadline passed. */
export class Timeout extends Error {}

/** The database refused the call's rate token. */
export class RateLimited extends Error {}

/**
 * Deterministic failures are stored in the ledger and replayed; transient ones
 * (our failure, timeouts, outages) roll back and let a retry run again.
 */
export const TRANSIENT: ReadonlySet<ErrorCode> = new Set([
  "INTERNAL_ERROR",
  "TIMEOUT",
  "SERVICE_UNAVAILABLE",
  "RATE_LIMIT",
]);

/** The answer for an error thrown while running the call's tool. */
export function failureResult(error: unknown, call: Call, log: Logger): ToolFail {
  const tool = call.tool!;
  const trace_id = call.context.trace_id;
  if (error instanceof RateLimited) return fail("RATE_LIMIT");
  if (error instanceof Timeout) {
    log.warn("tool_timeout", { trace_id, tool: tool.name, timeout_ms: tool.timeoutMs });
    return fail("TIMEOUT");
  }
  if (error instanceof ToolFailure) {
    return fail(error.code, error.userMessage, {
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.details ? { details: error.details } : {}),
    });
  }
  const code = classifyDbError(error);
  if (code) {
    log.warn("tool_db_refused", { trace_id, tool: tool.name, code, error: describe(error) });
    // A budget the database keeps says when it has room again.
    const retryAfterMs = dbRetryAfterMs(error);
    return fail(code, undefined, retryAfterMs ? { details: { retry_after_ms: retryAfterMs } } : {});
  }
  log.error("tool_failed", { trace_id, tool: tool.name, error: describe(error) });
  return fail("INTERNAL_ERROR");
}

/** An error as the log shows it (never the caller). */
export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(
    error,
  );
}
