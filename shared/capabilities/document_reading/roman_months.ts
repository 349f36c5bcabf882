/**
 * Months printed in Roman numerals (`17.III.2017`, older French and Belgian-style booklets) that OCR
 * read as digits: tesseract reads `III` as `11` or `111`, which would pass for November.
 *
 * A card prints its dates one way. On a page where another date's month is plainly Roman (it
 * holds a V or an X: `27.IV.1984`, `01.XII.2032`), a month read as ones alone cannot be a digit
 * month (November there is `XI`): it is that many strokes, `I`, `II` or `III`. How many is
 * measured, not counted from the characters OCR gave (it drops a stroke): the month's span over
 * the pitch of a stroke, which is about half the print's height (an `I` with its gap), when the
 * engine gave the characters' boxes; the characters read otherwise.
 *
 * @module
 */

/** A word's box: left, top, right, bottom in pixels. */
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A word as the reader holds it, with its characters' boxes when the engine gave them. */
interface Word {
  text: string;
  box: Box;
  glyphs?: readonly { text: string; box: Box }[];
}

// A month that is plainly Roman: between a day and a year, strokes with a V or an X.
const PLAINLY_ROMAN = /(?<!\d)\d{1,2}\s?[.\-\/]\s?[IVXl1|]*[VXvx][IVXl1|]*\s?[.\-\/]\s?[12]\d{3}/;
// A month read as strokes alone: `17.11.2017`, `17.111.2017`, `17.Il.2017`.
const STROKES_ONLY = /^(\d{1,2}[.\-\/])([1Il|]{1,3})([.\-\/][12]\d{3}\D?)$/;
// An I and the gap after it, as a share of the print's height.
const STROKE_PITCH = 0.45;

/** Whether a page's text prints a month in Roman numerals that OCR read as such. */
export function printsRomanMonths(texts: readonly string[]): boolean {
  return texts.some((text) => PLAINLY_ROMAN.test(text));
}

/**
 * A date word whose month OCR read as ones, with its month written as the strokes it holds
 * (`17.11.2017` → `17.III.2017`), on a page that prints Roman months; any other word as it is.
 */
export function withRomanMonth<W extends Word>(word: W): W {
  const match = STROKES_ONLY.exec(word.text);
  if (!match) return word;
  return { ...word, text: `${match[1]}${"I".repeat(strokes(word, match))}${match[3]}` };
}

// How many strokes the month holds: measured from its characters' boxes when there are any.
function strokes(word: Word, match: RegExpExecArray): number {
  const read = match[2].length;
  const glyphs = word.glyphs;
  if (!glyphs || glyphs.length !== word.text.length) return read;
  const month = glyphs.slice(match[1].length, match[1].length + read);
  const span = Math.max(...month.map((glyph) => glyph.box.x1)) -
    Math.min(...month.map((glyph) => glyph.box.x0));
  const height = word.box.y1 - word.box.y0;
  if (height <= 0) return read;
  return Math.min(3, Math.max(1, Math.round(span / (STROKE_PITCH * height))));
}
