/**
 * HTTP helpers shared by the edge functions: the contract as a JSON response
 * with the status its error code maps to, and a JSON body reader that
 * refuses oversized (413), slow (408) or malformed (400) input.
 *
 * @module
 */
import { fail, httpStatus, type ToolResult } from "@shared/contract/mod.ts";
import { type BodyLimits, type BodyRefusal, readBody } from "./body.ts";

/** The contract as a JSON response. */
export function contractResponse(result: ToolResult, headers: HeadersInit = {}): Response {
  return Response.json(result, {
    status: result.ok ? 200 : httpStatus(result.error.code),
    headers,
  });
}

/** The default request body limit (the `tools` function's): 256 KiB. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Reads a JSON object body through {@link readBody} (streamed, never past
 * the limit, within the deadline), or returns the refusal to answer with:
 * 413 too large, 408 too slow, 400 not a JSON object.
 */
export async function readJsonBody(
  request: Request,
  limits: Partial<BodyLimits> = {},
): Promise<{ ok: true; body: Record<string, unknown>; raw: Uint8Array } | BodyRefusal> {
  const read = await readBody(request, { maxBytes: MAX_BODY_BYTES, ...limits });
  if (!read.ok) return read;
  const invalid = (message: string): BodyRefusal => ({
    ok: false,
    status: 400,
    result: fail("VALIDATION_ERROR", message, { fields: [{ path: "body", message }] }),
  });
  try {
    const body = JSON.parse(new TextDecoder().decode(read.bytes));
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      return invalid("Request body must be a JSON object");
    }
    return { ok: true, body, raw: read.bytes };
  } catch {
    return invalid("Request body is not valid JSON");
  }
}
