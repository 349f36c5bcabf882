/**
 * What a `tools/call` carries besides the tool's arguments: the
 * idempotency key and a confirmation token, as the tools function takes
 * them (`idempotency_key`, `confirmation`). A client sets them in the
 * request's `_meta`; a model that controls only the arguments may put them
 * there, and they are taken out unless the tool has arguments of those names.
 *
 * @module
 */
import { fail, type ToolFail } from "@shared/contract/mod.ts";
import type { AnyTool } from "@shared/registry/registry.ts";

/** The call's arguments and hints, or a VALIDATION_ERROR naming the bad hint. */
export type CallHints =
  | { ok: true; args: unknown; idempotencyKey: string | null; confirmation: string | null }
  | ToolFail;

const HINTS = ["idempotency_key", "confirmation"] as const;

/**
 * Separates the hints from the arguments.
 *
 * @param tool The tool called.
 * @param args The call's `arguments`.
 * @param meta The call's `_meta`.
 */
export function callHints(tool: AnyTool, args: unknown, meta: unknown): CallHints {
  const found: Record<(typeof HINTS)[number], string | null> = {
    idempotency_key: null,
    confirmation: null,
  };
  let rest = args ?? {};
  const own = tool.input.shape as Record<string, unknown>;
  for (const hint of HINTS) {
    const fromMeta = isRecord(meta) ? meta[hint] : undefined;
    const fromArgs = isRecord(rest) && !(hint in own) ? rest[hint] : undefined;
    if (fromArgs !== undefined && isRecord(rest)) {
      const { [hint]: _taken, ...others } = rest;
      rest = others;
    }
    if (fromMeta !== undefined && fromArgs !== undefined && fromMeta !== fromArgs) {
      return problem(hint, `Two different values given for ${hint}`);
    }
    const value = fromMeta ?? fromArgs;
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" || value.length === 0 || value.length > 4096) {
      return problem(hint, `${hint} must be a non-empty string`);
    }
    found[hint] = value;
  }
  return {
    ok: true,
    args: rest,
    idempotencyKey: found.idempotency_key,
    confirmation: found.confirmation,
  };
}

function problem(path: string, message: string): ToolFail {
  return fail("VALIDATION_ERROR", message, { fields: [{ path, message }] });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
