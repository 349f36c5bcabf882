/**
 * HTTP helpers shared by the edge functions: the contract as a JSON response
 * with the status its error code maps to, and a request body reader that
 * refuses oversized or malformed input with VALIDATION_ERROR.
 *
 * @module
 */
import { fail, httpStatus, type ToolFail, type ToolResult } from "@shared/contract/mod.ts";

/** The contract as a JSON response. */
export function contractResponse(result: ToolResult, headers: HeadersInit = {}): Response {
  return Response.json(result, {
    status: result.ok ? 200 : httpStatus(result.error.code),
    headers,
  });
}

/** The default request body limit. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Reads a JSON object body, or returns the contract error to answer with. */
export async function readJsonBody(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
): Promise<{ ok: true; body: Record<string, unknown>; raw: Uint8Array } | ToolFail> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return fail("VALIDATION_ERROR", "Request body is too large");
  const raw = new Uint8Array(await request.arrayBuffer());
  if (raw.byteLength > maxBytes) return fail("VALIDATION_ERROR", "Request body is too large");
  try {
    const body = JSON.parse(new TextDecoder().decode(raw));
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      return fail("VALIDATION_ERROR", "Request body must be a JSON object");
    }
    return { ok: true, body, raw };
  } catch {
    return fail("VALIDATION_ERROR", "Request body is not valid JSON");
  }
}
