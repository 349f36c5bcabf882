/**
 * Words of letter-spaced print, rebuilt from where OCR saw each character.
 *
 * Cards print plates, names and numbers in widely spaced capitals
 * (`R A B 1 2 3 C`). The space between two letters is then as wide as a
 * word space, and tesseract decides word by word which is which: it returns
 * the letters as one-letter words (`R A B 1 2 3 C`), or glues the value to
 * its label (`VINNoMD6NG8AB0C1967246`, `Owner'snameINGABIRE`), and the field
 * checks see neither a plate nor a VIN. Two cases are rebuilt: a run of
 * one-character words on one baseline (joined where the gap is the run's
 * letter gap, split where it is clearly wider: the word space, which
 * letter-spacing widens as much as every other gap), and a word whose
 * characters (tesseract's symbols, with their boxes) are a lower-case label
 * in ordinary print followed by a spaced stretch (split there, the stretch
 * grouped the same way). Ordinary words are never re-split by their
 * characters' gaps: tesseract's character boxes are too rough for that (the
 * first two letters of a word often overlap). Nothing is joined across a gap
 * wider than {@link COLUMN_GAP} character heights (a column), or between
 * characters not on one baseline.
 *
 * @module
 */

/** A rectangle on the page, in pixels (the reader's `Box`). */
interface GlyphBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One character OCR read, with its box. */
export interface OcrGlyph {
  text: string;
  box: GlyphBox;
}

/** A word as the engine gave it (the reader's `OcrWord`), with its characters when it gave them. */
export interface WordWithGlyphs {
  text: string;
  confidence: number;
  box: GlyphBox;
  glyphs?: readonly OcrGlyph[];
}

/** A gap wider than this share of the line's character height is a word space in ordinary print. */
export const WORD_SPACE = 0.3;
/** Within a letter-spaced stretch, a gap this many times its typical gap ends a word. */
export const WORD_BREAK = 1.3;
/** A gap wider than this many character heights is a column gap: never joined across. */
export const COLUMN_GAP = 2;
/** The fewest characters a letter-spaced stretch has (fewer: `Cat. A B` is two words). */
const MIN_RUN = 3;

/** A gap at most this share of a capital's height is between letters of ordinary print. */
const TIGHT = 0.15;

const ALNUM = /^[\p{L}\p{N}]$/u;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The height of a line's capitals: the upper quartile of its characters' heights. */
function capHeight(boxes: readonly GlyphBox[]): number {
  const heights = boxes.map((box) => box.y1 - box.y0).sort((a, b) => a - b);
  return Math.max(1, heights[Math.floor(heights.length * 0.75)] ?? 1);
}

function unionOf(boxes: readonly GlyphBox[]): GlyphBox {
  return {
    x0: Math.min(...boxes.map((box) => box.x0)),
    y0: Math.min(...boxes.map((box) => box.y0)),
    x1: Math.max(...boxes.map((box) => box.x1)),
    y1: Math.max(...boxes.map((box) => box.y1)),
  };
}

/**
 * Characters into words: a gap up to {@link WORD_BREAK} times the stretch's typical gap joins,
 * a wider one ends a word.
 */
function group(glyphs: readonly OcrGlyph[], confidence: number): WordWithGlyphs[] {
  const gaps = glyphs.slice(1).map((glyph, i) => glyph.box.x0 - glyphs[i].box.x1);
  const typical = median(gaps);
  const out: WordWithGlyphs[] = [];
  let first = 0;
  for (let i = 0; i < glyphs.length; i++) {
    if (i < gaps.length && gaps[i] <= WORD_BREAK * typical) continue;
    const part = glyphs.slice(first, i + 1);
    out.push({
      text: part.map((glyph) => glyph.text).join(""),
      confidence,
      box: unionOf(part.map((glyph) => glyph.box)),
      glyphs: part,
    });
    first = i + 1;
  }
  return out;
}

/**
 * A word tesseract glued together from a label in ordinary print and the letter-spaced value
 * after it (`NoRAB123C`), split: a tight stretch (its letters at most {@link TIGHT} of a capital's
 * height apart) followed by at least {@link MIN_RUN} characters each set apart by a gap wider
 * than a word space of ordinary print. Any other word stays as it is.
 */
function splitGlued(word: WordWithGlyphs): WordWithGlyphs[] {
  const glyphs = (word.glyphs ?? []).filter((glyph) => glyph.text.trim());
  if (glyphs.length < MIN_RUN + 2) return [word];
  const h = capHeight(glyphs.map((glyph) => glyph.box));
  const gaps = glyphs.slice(1).map((glyph, i) => glyph.box.x0 - glyphs[i].box.x1);
  // The spaced tail: the longest run of wide gaps ending at the word's end.
  let tail = gaps.length;
  while (tail > 0 && gaps[tail - 1] > WORD_SPACE * h && gaps[tail - 1] <= COLUMN_GAP * h) tail--;
  const spaced = gaps.length - tail;
  // Gap `tail` is the label's end (glyph `tail` its last letter); the head's gaps all tight.
  // The head is ordinary print: most of its gaps tight (a label's own word spaces aside).
  if (spaced < MIN_RUN || tail < 1 || median(gaps.slice(0, tail)) > TIGHT * h) return [word];
  const value = glyphs.slice(tail + 1);
  if (!value.every((glyph) => ALNUM.test(glyph.text))) return [word];
  const head = glyphs.slice(0, tail + 1);
  // A label is written in lower case or ends in a colon or a stop; a head in capitals is more
  // likely the first letters of the spaced value itself, whose boxes OCR often gets wrong
  // (`TU` of `T U Y I S E N G E`, the two boxes overlapping).
  const headText = head.map((glyph) => glyph.text).join("");
  if (!/\p{Ll}|[:.]$/u.test(headText)) return [word];
  // The label's words, apart where their gap is a word space.
  const label: WordWithGlyphs[] = [];
  let from = 0;
  for (let i = 0; i < head.length; i++) {
    if (i < head.length - 1 && gaps[i] <= WORD_SPACE * h) continue;
    const part = head.slice(from, i + 1);
    label.push({
      text: part.map((glyph) => glyph.text).join(""),
      confidence: word.confidence,
      box: unionOf(part.map((glyph) => glyph.box)),
      glyphs: part,
    });
    from = i + 1;
  }
  return [
    ...label,
    ...group(value, word.confidence).map((part) => ({ ...part, spaced: true })),
  ];
}

/**
 * One line's words, with letter-spaced print rebuilt: a label glued to its spaced value split
 * off, and a run of at least {@link MIN_RUN} one-character words on one baseline, no two
 * further apart than {@link COLUMN_GAP} character heights, joined where their gaps are the
 * run's letter gap (`R A B 1 2 3 C` → `RAB 123 C`). Elsewhere the words are the engine's.
 */
export function respaceWords(words: readonly WordWithGlyphs[]): WordWithGlyphs[] {
  const split: Array<WordWithGlyphs & { spaced?: boolean }> = words.flatMap(splitGlued);
  const out: WordWithGlyphs[] = [];
  // A one-character word, or a spaced value split off its label (its letters may run on in
  // one-character words).
  const single = (word: WordWithGlyphs & { spaced?: boolean }) =>
    ALNUM.test(word.text) || word.spaced === true;
  for (let i = 0; i < split.length;) {
    if (!single(split[i])) {
      out.push(split[i++]);
      continue;
    }
    let end = i;
    const h = capHeight(split.map((word) => word.box));
    while (
      end + 1 < split.length && single(split[end + 1]) &&
      split[end + 1].box.x0 - split[end].box.x1 <= COLUMN_GAP * h &&
      Math.abs(split[end + 1].box.y1 - split[end].box.y1) <= 0.3 * h
    ) end++;
    const run = split.slice(i, end + 1);
    const glyphs = run.flatMap((word) =>
      word.glyphs?.length && word.spaced ? word.glyphs : [{ text: word.text, box: word.box }]
    );
    if (glyphs.length >= MIN_RUN && run.length > 1) {
      out.push(...group(glyphs, Math.min(...run.map((word) => word.confidence))));
    } else out.push(...run);
    i = end + 1;
  }
  return out.map(({ text, confidence, box, glyphs }) => ({ text, confidence, box, glyphs }));
}
