/**
 * The output check: what a tool returned must match its output schema, or
 * the call fails (INTERNAL_ERROR: the tool broke its contract, not the
 * caller). The execute step runs it inside the call's transaction, so a
 * side-effecting tool's bad result commits nothing.
 *
 * @module
 */
import type { z } from "zod";
import { ok, type ToolOk } from "@shared/contract/mod.ts";
import type { AnyTool } from "@shared/registry/registry.ts";

/**
 * The tool's answer for `data`, parsed by its output schema.
 *
 * @throws {Error} When `data` does not match the schema (the message names the tool).
 */
export function checkOutput(tool: AnyTool, data: unknown): ToolOk<unknown> {
  const output = (tool.output as z.ZodType).safeParse(data);
  if (!output.success) {
    throw new Error(`output does not match ${tool.name}'s schema: ${output.error.message}`);
  }
  return ok(output.data);
}
