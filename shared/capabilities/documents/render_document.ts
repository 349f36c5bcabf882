/**
 * One document from a template id, its data and a language: the data checked
 * against the template's schema, the content laid out as a PDF, and the
 * bytes' SHA-256 (the name the file is stored under). The same input gives
 * the same bytes: the PDF's /ID is a hash of the checked input.
 *
 * @module
 */
import type { FieldIssue } from "@shared/contract/mod.ts";
import type { Language } from "@shared/contract/language.ts";
import { canonicalJson, sha256Hex } from "@shared/runtime/canonical.ts";
import type { PdfRenderer } from "./pdf_renderer.ts";
import { DOCUMENT_TEMPLATES } from "./templates/mod.ts";

/** What to render. */
export interface DocumentRequest {
  /** A registered template id. */
  templateId: string;
  /** The template's data. */
  data: unknown;
  /** The document's language. */
  language: Language;
  /** Lays the content out (the `PDF_RENDERER` service, or `renderPdf` itself). */
  renderPdf: PdfRenderer;
}

/** A rendered document. */
export interface RenderedDocument {
  bytes: Uint8Array;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

/** The request cannot be rendered: these fields are wrong (paths from the request's root). */
export class DocumentInputError extends Error {
  /** The invalid fields, e.g. `template_id` or `data.vehicle.plate`. */
  readonly fields: FieldIssue[];

  /** Creates the error. */
  constructor(fields: FieldIssue[]) {
    super(`Invalid document request: ${fields.map((field) => field.path).join(", ")}`);
    this.name = "DocumentInputError";
    this.fields = fields;
  }
}

/** The ids of the templates that exist. */
export function templateIds(): string[] {
  return [...DOCUMENT_TEMPLATES.keys()];
}

/**
 * Renders a document.
 *
 * @throws {DocumentInputError} for an unknown template or data its schema refuses.
 */
export async function renderDocument(request: DocumentRequest): Promise<RenderedDocument> {
  const template = DOCUMENT_TEMPLATES.get(request.templateId);
  if (!template) {
    throw new DocumentInputError([{
      path: "template_id",
      message: `unknown template; use one of: ${templateIds().join(", ")}`,
    }]);
  }
  const parsed = template.schema.safeParse(request.data);
  if (!parsed.success) {
    throw new DocumentInputError(parsed.error.issues.map((issue) => ({
      path: ["data", ...issue.path.map(String)].join("."),
      message: issue.message,
    })));
  }
  const id = (await sha256Hex(canonicalJson({
    template: template.id,
    language: request.language,
    data: parsed.data,
  }))).slice(0, 32);
  const bytes = await request.renderPdf(template.content(parsed.data, request.language), {
    id,
    language: request.language,
  });
  return { bytes, sha256: await sha256Hex(bytes) };
}
