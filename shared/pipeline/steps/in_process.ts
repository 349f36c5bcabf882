/**
 * The in-process step, for tools that neither write nor use the database:
 * pure computation and outside APIs run under the tool's deadline with no
 * database at all (their token was leased by the rate limit step). Other
 * tools pass through.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { type Call, type CallStep, type NextStep, NO_DATABASE } from "../call.ts";
import type { Deadlines } from "../deadlines.ts";
import { withDeadline } from "./_deadline.ts";
import { failureResult } from "./_failure.ts";

/** Options for {@link inProcessStep}. */
export interface InProcessStepOptions {
  /** The shared timer. */
  deadlines: Deadlines;
  /** Where failures are logged. */
  log: Logger;
}

/** The step that runs a no-database tool under its deadline (TIMEOUT). */
export function inProcessStep(options: InProcessStepOptions): CallStep {
  const { deadlines, log } = options;
  return function inProcess(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const tool = call.tool!;
    if (tool.writes || tool.usesDatabase) return next(call);
    const controller = new AbortController();
    call.db = NO_DATABASE;
    call.signal = controller.signal;
    return withDeadline(
      deadlines,
      Promise.resolve(next(call)),
      tool.timeoutMs,
      controller,
      call.now,
    )
      .then(undefined, (error) => failureResult(error, call, log));
  };
}
