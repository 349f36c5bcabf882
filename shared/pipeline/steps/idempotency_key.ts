/**
 * The idempotency key step, for gated tools (side-effecting or confirmed):
 * a side-effecting tool needs a well-formed key (VALIDATION_ERROR on
 * `idempotency_key`), and the call gets its scope and its arguments'
 * fingerprint, which the confirmation and the ledger are bound to. Other
 * tools pass straight through.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import { canonicalJson, sha256Hex } from "@shared/runtime/canonical.ts";
import type { Call, CallStep, NextStep } from "../call.ts";
import { MAX_KEY_LENGTH } from "../idempotency.ts";

/** The step that checks the key and fingerprints a gated call. */
export function idempotencyKeyStep(): CallStep {
  return function idempotencyKey(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const tool = call.tool!;
    if (!tool.writes && !tool.confirmRequired) return next(call);
    if (tool.writes) {
      const problem = keyProblem(call.request.idempotencyKey ?? null);
      if (problem) {
        return fail("VALIDATION_ERROR", problem, {
          fields: [{ path: "idempotency_key", message: problem }],
        });
      }
    }
    call.scope = `${call.context.org_id}:${
      call.context.user_id ?? call.request.caller.claims.role
    }`;
    return sha256Hex(`${tool.name}\n${canonicalJson(call.args)}`).then((fingerprint) => {
      call.fingerprint = fingerprint;
      return next(call);
    });
  };
}

/** What is wrong with a key, or null when it is usable. */
export function keyProblem(key: string | null): string | null {
  if (!key) return "An idempotency key is required for this action";
  if (key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    return `The idempotency key must be 1-${MAX_KEY_LENGTH} printable ASCII characters`;
  }
  return null;
}
