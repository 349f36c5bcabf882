/**
 * The PDF renderer as a service: pdf-lib, fontkit and the embedded font
 * weigh about 2.4 MiB, so only the functions that lay documents out (tools,
 * payments, the dev server) provide `renderPdf` as {@link PDF_RENDERER}; the
 * agent function provides `remotePdfRenderer`, which asks tools; elsewhere
 * the platform provides {@link PDF_RENDERER_NOT_HERE}, and `generate_pdf`
 * answers SERVICE_UNAVAILABLE rather than carrying the stack in every bundle.
 * This module imports the renderer's type only.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/mod.ts";
import { serviceKey } from "@shared/registry/define_tool.ts";
import type { renderPdf } from "./pdf_render.ts";

/** Lays a document's content out as PDF bytes (`renderPdf` of pdf_render.ts). */
export type PdfRenderer = typeof renderPdf;

/** The service key of the PDF renderer. */
export const PDF_RENDERER = serviceKey<PdfRenderer>("documents.pdf_renderer");

/** What a function that issues no documents provides. */
export const PDF_RENDERER_NOT_HERE: PdfRenderer = () => {
  throw new ToolFailure(
    "SERVICE_UNAVAILABLE",
    "Documents are not issued here: call generate_pdf through the tools or agent function",
  );
};
