/**
 * `generate_pdf` (the tool catalog's insurance section): renders a registered document template
 * (`shared/capabilities/documents/templates/`) in en, fr or rw, stores it in the
 * `documents` bucket at `<org>/<sha256>.pdf`, and answers a signed URL that
 * expires (`PDF_URL_TTL_DAYS`, default 7, at most 30).
 *
 * The same template, data and language give the same bytes, hence the same
 * path: a repeat (or a retry after a lost answer) overwrites the file with
 * itself and answers the same path with a fresh link. That makes the call
 * idempotent without a key or the ledger, so it runs outside a database
 * transaction and never holds a connection while Storage uploads. Templates that attest a fact (the
 * insurance certificate, the payment receipt) are issued by staff or the
 * service only; any member may render a quote.
 *
 * @module
 */
import { z } from "zod";
import { LANGUAGES } from "@shared/contract/language.ts";
import { payload, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool, type Tool } from "@shared/registry/define_tool.ts";
import {
  DocumentInputError,
  renderDocument,
} from "@shared/capabilities/documents/render_document.ts";
import { DOCUMENT_TEMPLATES } from "@shared/capabilities/documents/templates/mod.ts";
import { withMapShape } from "@shared/export/map_shapes.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { FILE_STORE, MAX_SIGNED_URL_SECONDS } from "@shared/storage/file_store.ts";
import { storeDocument } from "@shared/capabilities/documents/store_document.ts";

/** How long a PDF's link lasts unless configured. */
export const DEFAULT_PDF_URL_TTL_DAYS = 7;
/** The longest a PDF's link may last (the tool catalog: 30-day expiry). */
export const MAX_PDF_URL_TTL_DAYS = MAX_SIGNED_URL_SECONDS / 86_400;

// What `data` holds, for exports that cannot take a free-form map (Gemini): one
// template's fields. `data` itself stays a payload: the template named by
// template_id checks it in execute, with its own field paths.
const templateData = z.union(
  [...DOCUMENT_TEMPLATES.values()].map((template) =>
    template.schema.describe(`When template_id is ${template.id}: ${template.description}`)
  ) as [z.ZodType, ...z.ZodType[]],
);

const input = z.object({
  template_id: text({ min: 1, max: 64 }).describe(
    "The document: insurance_certificate, insurance_quote, payment_receipt, legal_case_summary, viewing_confirmation or proforma.",
  ),
  data: withMapShape(payload({ maxSize: 32_768 }), templateData).describe(
    "The template's fields (see docs/documents.md).",
  ),
  locale: z.enum(LANGUAGES).default("en").describe("The document's language: en, fr or rw."),
});

const output = z.object({
  pdf_url: z.url().describe(
    "A signed link to the PDF; anyone holding it may open it until expires_at.",
  ),
  expires_at: z.iso.datetime({ offset: true }),
  path: z.string().describe("Where the PDF is kept in the documents bucket."),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.int().positive(),
  template_id: z.string(),
  locale: z.enum(LANGUAGES),
});

/** Options for {@link createGeneratePdf}. */
export interface GeneratePdfOptions {
  /** Days a link lasts, 1 to 30. @default 7 */
  urlTtlDays?: number;
}

/**
 * The `generate_pdf` tool, its links lasting `urlTtlDays`.
 *
 * @throws {RangeError} when `urlTtlDays` is not a whole number from 1 to 30.
 */
export function createGeneratePdf(options: GeneratePdfOptions = {}): Tool {
  const days = options.urlTtlDays ?? DEFAULT_PDF_URL_TTL_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_PDF_URL_TTL_DAYS) {
    throw new RangeError(
      `Cannot build generate_pdf as PDF links must last 1 to ${MAX_PDF_URL_TTL_DAYS} whole days: current value is ${days}`,
    );
  }
  return defineTool({
    name: "generate_pdf",
    title: "Generate PDF",
    description: "Make a PDF document (insurance certificate, insurance quote, payment receipt, " +
      "viewing confirmation) " +
      `in English, French or Kinyarwanda and get a link to it that expires in ${days} days.`,
    category: "documents",
    input,
    output,
    examples: [{
      description: "A quote comparison in French",
      input: {
        template_id: "insurance_quote",
        locale: "fr",
        data: {
          reference: "Q-7F3A",
          product: "motor",
          category: "car",
          cover: "third_party",
          coverage_days: 365,
          quotes: [{
            insurer: "Prime Insurance",
            base: 74000,
            fees: 3000,
            tax: 13590,
            premium: 90590,
          }],
          valid_until: "2026-11-30T10:00:00+02:00",
          issued_at: "2026-11-23T10:00:00+02:00",
        },
      },
    }],
    // Its one effect, a file named by its own content's hash, is idempotent by
    // construction: no ledger, and so no transaction held open while Storage
    // uploads (reads, like the staff check, run in their own short ones).
    sideEffects: "none",
    auth: "user",
    latencyBudgetMs: 1500,
    // Laying out a PDF takes CPU: a caller gets a document at a time, not a print run.
    rateLimit: { perUser: { limit: 20, windowSec: 60 } },
    openWorld: true,
    async execute(args, ctx) {
      if (!ctx.org_id) throw new ToolFailure("AUTH_ERROR");
      const template = DOCUMENT_TEMPLATES.get(args.template_id);
      if (template?.attests && ctx.user_id) {
        const [{ staff }] = await ctx.db.query<{ staff: boolean }>(
          "select exists (select 1 from private.my_staff_org_ids() s where s = $1) as staff",
          [ctx.org_id],
        );
        if (!staff) {
          throw new ToolFailure(
            "AUTH_ERROR",
            `Only our team can issue a ${args.template_id.replaceAll("_", " ")}`,
          );
        }
      }
      let document;
      try {
        document = await renderDocument({
          templateId: args.template_id,
          data: args.data,
          language: args.locale,
          renderPdf: ctx.services.get(PDF_RENDERER),
        });
      } catch (error) {
        if (!(error instanceof DocumentInputError)) throw error;
        const named = error.fields.map((field) => field.path).join(", ");
        throw new ToolFailure("VALIDATION_ERROR", `Invalid request: check ${named}`, {
          fields: error.fields,
        });
      }
      const files = ctx.services.get(FILE_STORE);
      const { path, ...link } = await storeDocument(files, {
        orgId: ctx.org_id!,
        document,
        linkSeconds: days * 86_400,
      });
      return {
        pdf_url: link.url,
        expires_at: link.expiresAt.toISOString(),
        path,
        sha256: document.sha256,
        bytes: document.bytes.byteLength,
        template_id: args.template_id,
        locale: args.locale,
      };
    },
  });
}
