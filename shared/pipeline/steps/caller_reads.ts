/**
 * The caller-reads step, for tools that read the database and write
 * nothing: each query runs in its own read-only transaction as the caller
 * (RLS), one round trip each, the rate token taken in the first flight
 * unless the key's lease has one (`Database.openCallerReads`). A refused
 * token makes the call RATE_LIMIT whatever its query saw. Other tools pass
 * through.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { Database } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { type Call, type CallStep, claimsOf, type NextStep } from "../call.ts";
import type { Deadlines } from "../deadlines.ts";
import { type LeasedRateLimiter, RATE_GRANT_GUARD, takeTokensStatement } from "../rate_limit.ts";
import { guard, withDeadline } from "./_deadline.ts";
import { failureResult, Timeout } from "./_failure.ts";

/** Options for {@link callerReadsStep}. */
export interface CallerReadsStepOptions {
  /** The database. */
  db: Database;
  /** Token leases, topped up from what the first flight was granted. */
  rateLimiter: Pick<LeasedRateLimiter, "tryTake" | "batchFor" | "credit">;
  /** The shared timer. */
  deadlines: Deadlines;
  /** Where failures are logged. */
  log: Logger;
}

/** The step that runs a read-only database tool as the caller. */
export function callerReadsStep(options: CallerReadsStepOptions): CallStep {
  const { db, rateLimiter, deadlines, log } = options;

  async function read(call: Call, next: NextStep): Promise<ToolResult> {
    const tool = call.tool!;
    const rate = call.rate!;
    const leased = rateLimiter.tryTake(rate.bucket);
    const want = leased ? 0 : rateLimiter.batchFor(rate.bucket, rate.limits);
    const reads = db.openCallerReads(claimsOf(call), {
      statementTimeoutMs: tool.timeoutMs,
      before: leased ? undefined : takeTokensStatement(rate.bucket, rate.limits, want),
      guard: leased ? undefined : RATE_GRANT_GUARD,
    });
    const controller = new AbortController();
    call.db = guard(reads, controller.signal);
    call.signal = controller.signal;
    let result: ToolResult | undefined;
    let failure: unknown;
    try {
      result = await withDeadline(
        deadlines,
        Promise.resolve(next(call)),
        tool.timeoutMs,
        controller,
      );
    } catch (error) {
      failure = error;
    }
    try {
      const taken = reads.before();
      if (taken && failure instanceof Timeout) {
        // Settle the lease when the answer comes; the caller has waited long enough.
        taken.then((rows) => rateLimiter.credit(rate.bucket, rate.limits, want, granted(rows)))
          .catch(() => {});
      } else if (taken) {
        // The token decides first: a refused call is RATE_LIMIT whatever its query saw.
        const count = granted(await taken);
        rateLimiter.credit(rate.bucket, rate.limits, want, count);
        if (count < 1) return fail("RATE_LIMIT");
      }
    } catch (error) {
      failure ??= error;
    } finally {
      // Gives the connection back once its last commit has answered, off the caller's path.
      void reads.end();
    }
    if (result && failure === undefined) return result;
    return failureResult(failure, call, log);
  }

  return function callerReads(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const tool = call.tool!;
    if (tool.writes || !tool.usesDatabase) return next(call);
    return read(call, next);
  };
}

function granted(rows: Record<string, unknown>[]): number {
  return Number(rows[0]?.granted ?? 0);
}
