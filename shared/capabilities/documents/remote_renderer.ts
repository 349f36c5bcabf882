/**
 * The PDF renderer of a function that does not carry the documents stack.
 * Laying a PDF out takes pdf-lib, fontkit and the embedded font, 2.4 MiB of
 * a bundle; the `agent` function issues documents rarely (a `generate_pdf`
 * call, a certificate after a payment) and starts on every conversation, so
 * it asks the `tools` function, which lays documents out, over HTTP:
 * `POST /functions/v1/tools/documents/render` with the service-role key and
 * `{content, options}` as JSON, answered with the PDF's bytes. The bytes are
 * the same as a local render's (rendering is deterministic).
 *
 * Failures are {@link ToolFailure}s: the tools function unreachable, slow or
 * answering an error is `SERVICE_UNAVAILABLE` (the caller's tool answers so,
 * and a sweep retries on its next run); the content refused is
 * `VALIDATION_ERROR`. The key never appears in a message.
 *
 * @module
 */
import { z } from "zod";
import { LANGUAGES } from "@shared/contract/language.ts";
import { ToolFailure } from "@shared/contract/mod.ts";
import { readBody } from "@shared/http/body.ts";
import type { PdfRenderer } from "./pdf_renderer.ts";

const line = z.string().max(2000);

/** A document's content on the wire (`date` as an ISO instant). */
export const DocumentContentWire = z.strictObject({
  title: line.min(1),
  subtitle: line.optional(),
  sections: z.array(z.strictObject({
    heading: line.optional(),
    fields: z.array(z.strictObject({ label: line, value: line })).max(200),
  })).max(50),
  table: z.strictObject({
    columns: z.array(z.strictObject({
      header: line,
      numeric: z.boolean().optional(),
      width: z.number().positive().max(1000),
    })).min(1).max(12),
    rows: z.array(z.array(line).max(12)).max(500),
    total: z.array(line).max(12).optional(),
  }).optional(),
  notes: z.array(line).max(50).optional(),
  date: z.iso.datetime({ offset: true }).transform((iso) => new Date(iso)),
});

/** A render request: the content and the renderer's options. */
export const RenderRequest = z.strictObject({
  content: DocumentContentWire,
  options: z.strictObject({
    id: z.string().regex(/^[0-9a-f]{32}$/, "32 hex digits"),
    language: z.enum(LANGUAGES),
  }),
});

/** Largest render request a renderer sends or the endpoint reads. */
export const MAX_RENDER_REQUEST_BYTES = 256 * 1024;

/** Largest PDF a remote renderer accepts back. */
export const MAX_RENDERED_BYTES = 10 * 1024 * 1024;

/** Options for {@link remotePdfRenderer}. */
export interface RemotePdfRendererOptions {
  /** The render endpoint, e.g. `${SUPABASE_URL}/functions/v1/tools/documents/render`. */
  url: string;
  /** The service-role key (sent as `apikey` and bearer, as Supabase's clients do). */
  key: string;
  /** How long one render may take, ms. @default 20000 */
  timeoutMs?: number;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * A {@link PdfRenderer} that asks the tools function.
 *
 * @example
 * ```ts ignore
 * const renderPdf = remotePdfRenderer({
 *   url: `${Deno.env.get("SUPABASE_URL")}/functions/v1/tools/documents/render`,
 *   key: Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!,
 * });
 * ```
 */
export function remotePdfRenderer(options: RemotePdfRendererOptions): PdfRenderer {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 20_000;
  return async (content, renderOptions) => {
    const body = JSON.stringify({
      content: { ...content, date: content.date.toISOString() },
      options: renderOptions,
    });
    if (body.length > MAX_RENDER_REQUEST_BYTES) {
      throw new ToolFailure("VALIDATION_ERROR", "The document is too long to lay out");
    }
    let response: Response;
    try {
      response = await send(options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          apikey: options.key,
          authorization: `Bearer ${options.key}`,
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new ToolFailure("SERVICE_UNAVAILABLE", "Documents cannot be laid out right now");
    }
    // Read under a cap while streaming, refusal or PDF alike: a response is never trusted to
    // be small.
    const read = await readBody(response, { maxBytes: MAX_RENDERED_BYTES, timeoutMs });
    const bytes = read.ok ? read.bytes : new Uint8Array();
    if (response.status === 400) {
      throw new ToolFailure("VALIDATION_ERROR", refusalMessage(bytes));
    }
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.startsWith("application/pdf") || !startsWithPdfHeader(bytes)) {
      throw new ToolFailure("SERVICE_UNAVAILABLE", "Documents cannot be laid out right now");
    }
    return bytes;
  };
}

// The refusal's own message (`{ok:false, error:{msg}}`), else a plain one.
function refusalMessage(bytes: Uint8Array): string {
  try {
    const msg = JSON.parse(new TextDecoder().decode(bytes))?.error?.msg;
    if (typeof msg === "string") return msg.slice(0, 300);
  } catch {
    // Not the contract's JSON.
  }
  return "Invalid document";
}

function startsWithPdfHeader(bytes: Uint8Array): boolean {
  return bytes.length > 5 && new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-";
}
