/**
 * The validation step: the arguments checked against the tool's input
 * (VALIDATION_ERROR naming the fields). Arguments that fail are read again
 * with maps sent as JSON text decoded (Gemini cannot send a map: its export
 * asks for the JSON), so such a call validates, and is fingerprinted,
 * exactly like the native one; native calls never pay for it.
 *
 * @module
 */
import { type ToolResult, validationFailure } from "@shared/contract/mod.ts";
import { decodeToolArguments } from "@shared/export/encoded_maps.ts";
import type { Call, CallStep, NextStep } from "../call.ts";

/** The step that checks the arguments (VALIDATION_ERROR with the fields). */
export function validationStep(): CallStep {
  return function validation(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const tool = call.tool!;
    const args = call.request.args ?? {};
    let parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const decoded = decodeToolArguments(tool, args);
      if (decoded !== args) parsed = tool.input.safeParse(decoded);
    }
    if (!parsed.success) return validationFailure(parsed.error);
    call.args = parsed.data;
    return next(call);
  };
}
