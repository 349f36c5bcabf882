/**
 * The lookup step: the tool the call names, as the caller's tenant sees the
 * registry, or NOT_FOUND.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { ToolRegistry } from "@shared/registry/registry.ts";
import type { Call, CallStep, NextStep } from "../call.ts";

/** Options for {@link lookupStep}. */
export interface LookupStepOptions {
  /** The tools. */
  registry: Pick<ToolRegistry, "get">;
}

/**
 * The step that finds the tool: NOT_FOUND when there is none, with
 * `details.unknown_tool` naming it.
 */
export function lookupStep(options: LookupStepOptions): CallStep {
  const { registry } = options;
  return function lookup(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const tool = registry.get(call.request.tool, { tenantId: call.context.org_id });
    if (!tool) {
      // The name in details too: a caller tells "no such tool here" from a missing row by it.
      const name = safeName(call.request.tool);
      return fail("NOT_FOUND", `Unknown tool "${name}"`, { details: { unknown_tool: name } });
    }
    call.tool = tool;
    return next(call);
  };
}

/** Only a name-shaped prefix of what the caller sent, safe to echo back. */
export function safeName(name: unknown): string {
  return typeof name === "string" ? name.replace(/[^A-Za-z0-9_.:-]/g, "").slice(0, 64) : "";
}
