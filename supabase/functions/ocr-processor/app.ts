/**
 * The `ocr-processor` function's API: `POST /ocr-processor` reads one
 * document photo from our Storage by running `ocr_extract` through the
 * pipeline as the signed-in caller (tenancy, rate limit, idempotency ledger,
 * trace), like the tools function does for any tool.
 *
 * ```
 * POST /functions/v1/ocr-processor
 * Authorization: Bearer <token>
 * Idempotency-Key: <key>
 * {"file_url": "storage://media/<org>/<conversation>/<file>", "document_type": "vehicle_registration"}
 * ```
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { fail, validationFailure } from "@shared/contract/mod.ts";
import type { CallerResolver } from "@shared/auth/caller.ts";
import { contractResponse, readJsonBody } from "@shared/http/respond.ts";
import { type BodyLimits, refusalResponse } from "@shared/http/body.ts";
import type { Platform } from "@shared/platform/platform.ts";

/** What the app needs. */
export interface OcrAppOptions {
  /** The platform (its OCR_ENGINE provision reads the pages). */
  platform: Platform;
  /** Resolves bearer tokens to callers. */
  resolveCaller: CallerResolver;
  /** Body limits. @default 16 KiB within 10 s (the photo itself is in Storage) */
  body?: Partial<BodyLimits>;
}

const OcrBody = z.strictObject({
  file_url: z.string(),
  document_type: z.string(),
  convo_id: z.uuid().optional(),
  agent_id: z.string().max(64).optional(),
  trace_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/).optional(),
});

/** Builds the Hono app, mounted at `/ocr-processor` as Supabase serves it. */
export function createOcrApp(options: OcrAppOptions): Hono {
  const { platform, resolveCaller } = options;
  const app = new Hono().basePath("/ocr-processor");
  app.post("/", async (c) => {
    const caller = await resolveCaller(c.req.header("authorization"), c.req.header("x-org-id"));
    if ("ok" in caller) return contractResponse(caller);
    const read = await readJsonBody(c.req.raw, { maxBytes: 16 * 1024, ...options.body });
    if (!read.ok) return refusalResponse(read);
    const body = OcrBody.safeParse(read.body);
    if (!body.success) {
      return contractResponse(
        validationFailure(body.error, "Invalid request: expected {file_url, document_type}"),
      );
    }
    const key = c.req.header("idempotency-key");
    if (!key) {
      return contractResponse(
        fail("VALIDATION_ERROR", "Invalid request: an Idempotency-Key header is required", {
          fields: [{ path: "idempotency_key", message: "required" }],
        }),
      );
    }
    const { file_url, document_type, ...context } = body.data;
    const traceId = context.trace_id ?? c.req.header("x-trace-id") ?? crypto.randomUUID();
    const result = await platform.call({
      tool: "ocr_extract",
      args: { file_url, document_type },
      caller,
      context: { trace_id: traceId, agent_id: context.agent_id, convo_id: context.convo_id },
      idempotencyKey: key,
      confirmation: null,
    });
    return contractResponse(result, { "x-trace-id": traceId });
  });
  return app;
}
