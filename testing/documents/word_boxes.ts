/**
 * OCR pages as words with boxes, for the reader's tests: laid out by hand
 * (`page`: each row a list of texts at x positions) or as tesseract read a
 * generated fixture (`readWordsFixture`: the JSON `bench/ocr_accuracy.ts
 * --dump-words` writes). Either way the field finder runs without OCR.
 *
 * @module
 */
import type { OcrLine, OcrWord } from "@shared/capabilities/document_reading/read_document.ts";
import type { FixtureEntry } from "./generate.ts";

/** How text is laid out in {@link page}. */
export interface PageLayout {
  /** Pixels per character. @default 12 */
  charWidth?: number;
  /** A word's height. @default 22 */
  height?: number;
  /** Pixels from one row's top to the next's. @default 40 */
  pitch?: number;
  /** OCR confidence of every word. @default 92 */
  confidence?: number;
}

/**
 * A page whose rows hold texts at x positions: `[[40, "Plate No."], [400,
 * "RAB 123 C"]]` is a label and its value on one row. Each row is one OCR
 * line (tesseract's single-block reading), each space-separated token a word.
 */
export function page(rows: Array<Array<[number, string]>>, layout: PageLayout = {}): OcrLine[] {
  const charWidth = layout.charWidth ?? 12;
  const height = layout.height ?? 22;
  const pitch = layout.pitch ?? 40;
  const confidence = layout.confidence ?? 92;
  return rows.map((row, index) => {
    const y0 = 20 + index * pitch;
    const words: OcrWord[] = [];
    for (const [x, text] of row) {
      let offset = 0;
      for (const token of text.split(/(\s+)/)) {
        if (token.trim()) {
          const x0 = x + offset * charWidth;
          words.push({
            text: token,
            confidence,
            box: { x0, y0, x1: x0 + token.length * charWidth, y1: y0 + height },
          });
        }
        offset += token.length;
      }
    }
    return { text: words.map((word) => word.text).join(" "), confidence, words };
  });
}

/** A fixture as tesseract read it: its manifest entry and its lines with word boxes. */
export interface WordsFixture {
  entry: FixtureEntry;
  lines: OcrLine[];
}

/** Reads one of `testing/documents/fixtures/words/*.json`. */
export async function readWordsFixture(name: string): Promise<WordsFixture> {
  return JSON.parse(
    await Deno.readTextFile(new URL(`./fixtures/words/${name}.json`, import.meta.url)),
  );
}
