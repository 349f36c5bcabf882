/**
 * Two engines as one: the first reads every page, and the second is asked
 * only about pages the first read as a document (or a document it could not
 * read) with a field missing or doubtful. Field by field, a checked value
 * wins (`mergeReadings`). Tesseract first and PaddleOCR second costs one
 * tesseract look on a clean page and reads blurred and small cards that
 * tesseract's own sharper second look could not (docs/ocr.md). With a
 * `budgetMs`, the second engine is asked only while what the first spent and
 * what the second has cost on average still fit the page's budget.
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
  /**
   * The page's budget, in `clock` milliseconds: the second engine is asked only when the first's
   * time plus the second's mean cost so far fits in it (its first read always runs, to learn the
   * cost). @default no budget (the second engine is always asked when the first was not enough)
   */
  budgetMs?: number;
  /** The clock the budget is kept by, in milliseconds. @default `performance.now` (wall time) */
  clock?: () => number;
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
  const clock = options.clock ?? (() => performance.now());
  // What the second engine's reads have cost, for the budget.
  let secondSpent = 0;
  let secondReads = 0;
  return {
    provider: `${first.provider}+${second.provider}`,
    async read(request: OcrRequest) {
      const started = clock();
      const reading = await first.read(request);
      // A receipt or a photo stays refused: a second engine is no reason to accept it (and on
      // the dev sets' pages tesseract read as no document, PaddleOCR found none either).
      if (reading.kind === "not_a_document" || enough(reading)) return reading;
      const spent = clock() - started;
      if (
        options.budgetMs !== undefined && secondReads > 0 &&
        spent + secondSpent / secondReads > options.budgetMs
      ) {
        return reading;
      }
      const asked = clock();
      const opinion = await second.read(request);
      secondSpent += clock() - asked;
      secondReads++;
      return mergeReadings(reading, opinion);
    },
    async close() {
      await Promise.all([first.close?.(), second.close?.()]);
    },
  };
}
