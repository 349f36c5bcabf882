/**
 * Words of letter-spaced print, rebuilt from where OCR saw each character.
 *
 * Cards print plates, names and numbers in widely spaced capitals
 * (`R A B 1 2 3 C`). The space between two letters is then as wide as a
 * word space, and tesseract decides word by word which is which: it returns
 * the letters as one-letter words (`R A B 1 2 3 C`), or glues the value to
 * its label (`VINNoMD6NG8AB0C1967246`, `Owner'snameINGABIRE`), and the field
 * checks see neither a plate nor a VIN. Its characters (symbols) still carry
 * their boxes: on one line, a run of characters each set apart from the next
 * by about the same gap, wider than a word space of ordinary print, is one
 * letter-spaced stretch. Inside it, a gap about as wide as the others joins
 * two characters into a word, and a clearly wider one (the word space, which
 * letter-spacing widens as much as every other gap) ends a word; so does the
 * wider gap between a label and the spaced value after it. Nothing is joined
 * across a gap wider than {@link COLUMN_GAP} character heights (a column), or
 * between characters not on one baseline.
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

interface Placed extends OcrGlyph {
  /** The index of the word it came from. */
  word: number;
}

/**
 * One line's words, with letter-spaced stretches rebuilt into words: their
 * characters joined where the gaps between them are the stretch's letter gap,
 * split where a gap is a word space or a label's end. Elsewhere the words are
 * the engine's. Words without characters are kept as they are.
 */
export function respaceWords(words: readonly WordWithGlyphs[]): WordWithGlyphs[] {
  const plain = (word: WordWithGlyphs): WordWithGlyphs => ({
    text: word.text,
    confidence: word.confidence,
    box: word.box,
  });
  if (words.some((word) => !word.glyphs?.length)) return words.map(plain);
  const glyphs: Placed[] = words.flatMap((word, index) =>
    word.glyphs!.filter((glyph) => glyph.text.trim()).map((glyph) => ({ ...glyph, word: index }))
  );
  if (glyphs.length < MIN_RUN) return words.map(plain);
  const heights = glyphs.filter((glyph) => /[\p{L}\p{N}]/u.test(glyph.text))
    .map((glyph) => glyph.box.y1 - glyph.box.y0).sort((a, b) => a - b);
  if (!heights.length) return words.map(plain);
  const height = heights[Math.floor(heights.length / 2)];
  const gaps = glyphs.slice(1).map((glyph, i) => glyph.box.x0 - glyphs[i].box.x1);
  // Whether gap i (between glyph i and i + 1) may be inside a letter-spaced stretch.
  const spacedGap = (i: number) => {
    const [a, b] = [glyphs[i], glyphs[i + 1]];
    const sameBaseline = Math.abs(a.box.y1 - b.box.y1) <= 0.45 * height;
    const alike = /[\p{L}\p{N}]/u.test(b.text);
    return gaps[i] > WORD_SPACE * height && gaps[i] <= COLUMN_GAP * height && sameBaseline &&
      alike;
  };
  // join[i]: glyphs i and i + 1 are in one word. To begin with, as the engine read them.
  const join = gaps.map((_, i) => glyphs[i].word === glyphs[i + 1].word);
  let changed = false;
  const decide = (i: number, joined: boolean) => {
    if (joined !== join[i]) changed = true;
    join[i] = joined;
  };
  const tight = (i: number) => i >= 0 && i < gaps.length && gaps[i] <= WORD_SPACE * height;
  for (let start = 0; start < gaps.length;) {
    if (!spacedGap(start)) {
      start++;
      continue;
    }
    let end = start;
    while (end + 1 < gaps.length && spacedGap(end + 1)) end++;
    // A word in ordinary print (its letters tight) either side of the stretch is a label or
    // another field: never part of the spaced value.
    let first = start;
    let last = end;
    if (tight(start - 1)) decide(first++, false);
    if (last >= first && tight(end + 1)) decide(last--, false);
    if (last - first + 2 >= MIN_RUN) {
      const run = gaps.slice(first, last + 1);
      const typical = [...run].sort((a, b) => a - b)[Math.floor(run.length / 2)];
      const letterGaps = run.filter((gap) => gap <= WORD_BREAK * typical).length;
      // Mostly one gap, repeated: letters spaced at one pitch, not a row of short words.
      if (letterGaps >= run.length / 2) {
        for (let i = first; i <= last; i++) decide(i, gaps[i] <= WORD_BREAK * typical);
      }
    }
    start = end + 1;
  }
  if (!changed) return words.map(plain);
  const out: WordWithGlyphs[] = [];
  let first = 0;
  for (let i = 0; i < glyphs.length; i++) {
    if (i < gaps.length && join[i]) continue;
    const part = glyphs.slice(first, i + 1);
    const sources = new Set(part.map((glyph) => glyph.word));
    out.push({
      text: part.map((glyph) => glyph.text).join(""),
      confidence: Math.min(...[...sources].map((index) => words[index].confidence)),
      box: {
        x0: Math.min(...part.map((glyph) => glyph.box.x0)),
        y0: Math.min(...part.map((glyph) => glyph.box.y0)),
        x1: Math.max(...part.map((glyph) => glyph.box.x1)),
        y1: Math.max(...part.map((glyph) => glyph.box.y1)),
      },
    });
    first = i + 1;
  }
  return out;
}
