/**
 * The trace step, outermost: every call, whatever its end, leaves a trace
 * record (queued off the hot path), and a call that threw anywhere in the
 * chain ends as INTERNAL_ERROR, its details in the log with the trace id and
 * nothing else leaving.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { Logger } from "@shared/runtime/log.ts";
import type { Call, CallStep, NextStep } from "../call.ts";
import type { TraceSink } from "../trace_sink.ts";
import { describe } from "./_failure.ts";
import { safeName } from "./lookup.ts";

/** Options for {@link traceStep}. */
export interface TraceStepOptions {
  /** Where the records go. */
  traces: Pick<TraceSink, "record">;
  /** Where crashes are logged. */
  log: Logger;
}

/** The step that records every call and turns a crash into INTERNAL_ERROR. */
export function traceStep(options: TraceStepOptions): CallStep {
  const { traces, log } = options;

  function record(call: Call, result: ToolResult): ToolResult {
    const tool = call.tool;
    const context = call.context;
    const durationMs = performance.now() - call.started;
    traces.record({
      tool: tool?.name ?? safeName(call.request.tool),
      org_id: context.org_id,
      user_id: context.user_id,
      agent_id: context.agent_id,
      convo_id: context.convo_id,
      trace_id: context.trace_id,
      ok: result.ok,
      error_code: result.ok ? null : result.error.code,
      duration_ms: durationMs,
      result,
      over_budget: tool ? durationMs > tool.latencyBudgetMs : false,
      replayed: call.replayed,
    });
    return result;
  }

  function crashed(call: Call, error: unknown): ToolResult {
    log.error("tool_pipeline_failed", {
      trace_id: call.context.trace_id,
      tool: call.request.tool,
      error: describe(error),
    });
    call.replayed = false;
    return fail("INTERNAL_ERROR");
  }

  return function trace(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    let answer: ToolResult | Promise<ToolResult>;
    try {
      answer = next(call);
    } catch (error) {
      return record(call, crashed(call, error));
    }
    if (!(answer instanceof Promise)) return record(call, answer);
    return answer.then(
      (result) => record(call, result),
      (error) => record(call, crashed(call, error)),
    );
  };
}
