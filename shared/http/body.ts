/**
 * Reads a request body while it streams in, never past a limit: a declared
 * `Content-Length` over the limit is refused before a byte is read; a body
 * (chunked or not) that grows past it is refused the moment it does, and the
 * stream is cancelled so the rest is never read; a body that does not finish
 * within its deadline (a slow, trickling client) is refused too. Every edge
 * function reads its body through here, each with its own stated limit.
 *
 * @module
 */
import { fail, type ToolFail } from "@shared/contract/mod.ts";

/** How much of a body a function reads, and for how long. */
export interface BodyLimits {
  /** The most bytes read; one more and the request is refused with 413. */
  maxBytes: number;
  /** How long the whole body may take to arrive, from the first read. @default 10000 */
  timeoutMs?: number;
}

/** The default body deadline: far longer than a 1 MiB upload takes, far shorter than a stall. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** A body that was not read: the status to answer with and the contract error. */
export interface BodyRefusal {
  ok: false;
  /** 413 too large, 408 too slow, 400 unreadable. */
  status: 400 | 408 | 413;
  /** The contract error to send. */
  result: ToolFail;
}

/** The body's bytes, or why it was refused. */
export type BodyRead = { ok: true; bytes: Uint8Array } | BodyRefusal;

function tooLarge(maxBytes: number): BodyRefusal {
  const message = `Request body is larger than ${maxBytes} bytes`;
  return {
    ok: false,
    status: 413,
    result: fail("VALIDATION_ERROR", message, { fields: [{ path: "body", message }] }),
  };
}

function tooSlow(timeoutMs: number): BodyRefusal {
  return {
    ok: false,
    status: 408,
    result: fail("TIMEOUT", `Request body did not arrive within ${timeoutMs} ms`),
  };
}

function unreadable(): BodyRefusal {
  const message = "Request body could not be read";
  return {
    ok: false,
    status: 400,
    result: fail("VALIDATION_ERROR", message, { fields: [{ path: "body", message }] }),
  };
}

/** The refusal as an HTTP response in the contract's shape. */
export function refusalResponse(refusal: BodyRefusal): Response {
  // The rest of the body is not read: tell the client this connection is done with.
  return Response.json(refusal.result, {
    status: refusal.status,
    headers: { connection: "close" },
  });
}

/**
 * Reads `request`'s body up to `limits.maxBytes` within `limits.timeoutMs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBody } from "./body.ts";
 *
 * const read = await readBody(new Request("http://x/", { method: "POST", body: "12345" }), {
 *   maxBytes: 4,
 * });
 * assert.equal(read.ok ? 200 : read.status, 413);
 * ```
 */
export async function readBody(
  request: Pick<Request, "headers" | "body">,
  limits: BodyLimits,
): Promise<BodyRead> {
  const { maxBytes } = limits;
  const timeoutMs = limits.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return tooLarge(maxBytes);
  }
  if (!request.body) return { ok: true, bytes: new Uint8Array() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    while (true) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "timeout") {
        reader.cancel().catch(() => {});
        return tooSlow(timeoutMs);
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        return tooLarge(maxBytes);
      }
      chunks.push(next.value);
    }
  } catch {
    // The client went away or sent a malformed chunked encoding.
    reader.cancel().catch(() => {});
    return unreadable();
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0] };
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/**
 * Thrown where a handler cannot return a response itself (inside a helper):
 * the app's error path answers with {@link refusalResponse}.
 */
export class BodyRefused extends Error {
  /** Why the body was refused. */
  readonly refusal: BodyRefusal;

  /** Wraps a refusal. */
  constructor(refusal: BodyRefusal) {
    super(refusal.result.error.msg);
    this.name = "BodyRefused";
    this.refusal = refusal;
  }
}
