/**
 * Two engines as one: the first reads every page, and the second is asked
 * only about pages the first read as a document (or a document it could not
 * read) with a field missing or doubtful. Field by field, a checked value
 * wins (`mergeReadings`). Tesseract first and PaddleOCR second costs one
 * tesseract look on a clean page and reads blurred and small cards that
 * tesseract's own sharper second look could not (docs/ocr.md).
 *
 * @module
 */
import type { OcrEngine, OcrRequest } from "./ocr_engine.ts";
import { type DocumentReading, isComplete, mergeReadings } from "./read_document.ts";

/** Options for {@link withSecondOpinion}. */
export interface SecondOpinionOptions {
  /**
   * Whether the first engine's reading is enough (no second opinion).
   * @default every field found and passing its checks ({@link isComplete})
   */
  enough?: (reading: DocumentReading) => boolean;
}

/**
 * Reads with `first`, and with `second` when `first` did not read enough.
 *
 * @example Tesseract, with PaddleOCR's opinion on pages it leaves incomplete
 * ```ts ignore
 * const engine = withSecondOpinion(
 *   createTesseractEngine({ enough: () => true }),
 *   createPaddleEngine(),
 * );
 * ```
 */
export function withSecondOpinion(
  first: OcrEngine,
  second: OcrEngine,
  options: SecondOpinionOptions = {},
): OcrEngine {
  const enough = options.enough ?? isComplete;
  return {
    provider: `${first.provider}+${second.provider}`,
    async read(request: OcrRequest) {
      const reading = await first.read(request);
      // A receipt or a photo stays refused: a second engine is no reason to accept it.
      if (reading.kind === "not_a_document" || enough(reading)) return reading;
      return mergeReadings(reading, await second.read(request));
    },
    async close() {
      await Promise.all([first.close?.(), second.close?.()]);
    },
  };
}
