/**
 * The execute step, last in the chain: the tool's `prepare` (unless the
 * write step ran it already), its `execute` with the database, signal and
 * key the step before set, then the output check. A tool that returns after
 * its deadline has passed counts as timed out.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import type { ToolServices } from "@shared/registry/define_tool.ts";
import { type Call, type CallStep, NOT_PREPARED } from "../call.ts";
import { Timeout } from "./_failure.ts";
import { checkOutput } from "./output.ts";

/** Options for {@link executeStep}. */
export interface ExecuteStepOptions {
  /** Adapters handed to tools. */
  services: ToolServices;
}

/** The step that runs the tool and checks its output. */
export function executeStep(options: ExecuteStepOptions): CallStep {
  const { services } = options;
  return async function execute(call: Call): Promise<ToolResult> {
    const tool = call.tool!;
    const context = call.context;
    const signal = call.signal!;
    let prepared = call.prepared;
    if (prepared === NOT_PREPARED && tool.prepare) {
      prepared = await prepareCall(call, call.db, services);
    }
    const data = await tool.execute(call.args, {
      trace_id: context.trace_id,
      org_id: context.org_id,
      user_id: context.user_id,
      convo_id: context.convo_id,
      agent_id: context.agent_id,
      db: call.db,
      signal,
      idempotency_key: call.idempotencyKey,
      services,
      prepared: prepared === NOT_PREPARED ? undefined : prepared,
    });
    if (signal.aborted) throw new Timeout();
    return checkOutput(tool, data);
  };
}

/** Runs the call's tool's `prepare`, its reads going to `read`. */
export function prepareCall(call: Call, read: Queryable, services: ToolServices): Promise<unknown> {
  const context = call.context;
  return call.tool!.prepare!(call.args, {
    read,
    trace_id: context.trace_id,
    org_id: context.org_id,
    user_id: context.user_id,
    convo_id: context.convo_id,
    agent_id: context.agent_id,
    signal: call.signal!,
    idempotency_key: call.idempotencyKey,
    services,
  });
}
