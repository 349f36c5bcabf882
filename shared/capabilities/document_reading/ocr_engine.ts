/**
 * The OCR engine ocr_extract reads documents with, as a service the
 * composition root provides (`OCR_ENGINE`), so neither tesseract's
 * WebAssembly nor the OpenAI client lands in a function that does not read
 * documents. Two engines: `tesseract_engine.ts` (offline, the default
 * locally) and `openai_engine.ts` (OpenAI vision with structured output);
 * `OCR_PROVIDER` chooses (see docs/ocr.md).
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/result.ts";
import { serviceKey } from "@shared/registry/pack.ts";
import type { DocumentReading, DocumentType } from "./read_document.ts";

/** What an engine is asked to read. */
export interface OcrRequest {
  /** The image's bytes (JPEG, PNG or WebP). */
  bytes: Uint8Array;
  /** Its MIME type. */
  contentType: string;
  /** The type the user says it is (a hint: the page decides). */
  documentType: DocumentType;
  /** Today, for date checks. */
  today: Date;
  /** Aborted when the call's deadline passes. */
  signal?: AbortSignal;
}

/**
 * Reads a document image. Throws `ToolFailure` with `SERVICE_UNAVAILABLE` or
 * `TIMEOUT` when the provider fails: an engine never invents fields.
 */
export interface OcrEngine {
  /** Which provider reads (`tesseract`, `openai`, `none`), recorded with each extraction. */
  readonly provider: string;
  /** Reads one image. */
  read(request: OcrRequest): Promise<DocumentReading>;
  /** Frees the engine's workers. */
  close?(): Promise<void>;
}

/** The key ocr_extract reads its engine by. */
export const OCR_ENGINE = serviceKey<OcrEngine>("document_reading.ocr_engine");

/**
 * The engine of a function that does not read documents itself: every read
 * is `SERVICE_UNAVAILABLE`, saying where documents are read. The functions
 * that read documents (ocr-processor, the dev server) provide a real one.
 */
export const OCR_NOT_HERE: OcrEngine = {
  provider: "none",
  read() {
    return Promise.reject(
      new ToolFailure(
        "SERVICE_UNAVAILABLE",
        "Reading documents is not available here: send the photo through the ocr-processor function",
      ),
    );
  },
};
