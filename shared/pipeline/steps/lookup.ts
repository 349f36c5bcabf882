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

/** The step that finds the tool (NOT_FOUND when there is none). */
export function lookupStep(options: LookupStepOptions): CallStep {
  const { registry } = options;
  return function lookup(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const tool = registry.get(call.request.tool, { tenantId: call.context.org_id });
    if (!tool) return fail("NOT_FOUND", `Unknown tool "${safeName(call.request.tool)}"`);
    call.tool = tool;
    return next(call);
  };
}

/** Only a name-shaped prefix of what the caller sent, safe to echo back. */
export function safeName(name: unknown): string {
  return typeof name === "string" ? name.replace(/[^A-Za-z0-9_.:-]/g, "").slice(0, 64) : "";
}
