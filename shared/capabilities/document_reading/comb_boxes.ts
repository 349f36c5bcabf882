/**
 * Values written one character per box (a form's "comb": `|R|A|B| |1|2|3| |C|`), rebuilt from
 * where OCR saw each character.
 *
 * Tesseract reads a comb's box edges as characters of the value: `|`, `/`, `[`, `]`, `(`, `)`,
 * and, as often, as a thin `I`, `J`, `i`, `j`, `l` or `1` (`TjoivjoiT|a|` for `TOYOTA`,
 * `IMJU|K/AIMJA|N/A|` for `MUKAMANA`), and a boxed capital O or C as lower case. No field check
 * passes on such a word. An edge is known by its shape, not by what OCR named it: it is a
 * character box far thinner than the word's letters (a vertical rule has no width), while a
 * boxed `1` or `I` is as wide as a letter's box. A word is a comb when two of its edges were read as rules or brackets (in ordinary print an `I`, `i` or
 * `l` is as thin: tesseract boxes its stroke): its edges are dropped, a character OCR read twice over one box (`X` and `x` inside
 * it) is read once, its letters are upper-case (values in boxes are printed in capitals), and
 * an empty box (a gap as wide as two letters) splits the value into words (`RAB 123 C`).
 * Ordinary words are returned as they are.
 *
 * @module
 */
import type { OcrGlyph, WordWithGlyphs } from "./letter_spacing.ts";

/** Characters OCR names a box's edge by: punctuation, or a thin letter or digit. */
const EDGE_TEXT = /^[|/\\[\](){}!IJijl1]$/;

/** An edge is at most this share of the word's median letter width. */
const EDGE_WIDTH = 0.3;

/** A gap between two letters wider than this many times the typical one is an empty box. */
const EMPTY_BOX = 1.6;

const width = (glyph: OcrGlyph) => Math.max(0, glyph.box.x1 - glyph.box.x0);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/**
 * A word without its comb's box edges: the letters it boxes, in one word per run of filled
 * boxes. A word that is no comb (fewer than two edges, or no glyphs) comes back as it was.
 */
export function withoutCombEdges(word: WordWithGlyphs): WordWithGlyphs[] {
  const glyphs = word.glyphs ?? [];
  if (glyphs.length < 2) return [word];
  const grouped = numbersInBoxes(word, glyphs);
  if (grouped) return grouped;
  const letters = glyphs.filter((glyph) => /^[\p{L}\p{N}]$/u.test(glyph.text));
  if (letters.length === 0) return [word];
  const typical = median(letters.map(width));
  const edge = (glyph: OcrGlyph) =>
    EDGE_TEXT.test(glyph.text) && width(glyph) <= EDGE_WIDTH * typical;
  // Only edges read as rules or brackets make a comb: in ordinary print an I, i, l or 1 is as
  // thin (tesseract boxes its stroke), and a date's or a licence number's slashes are printed.
  // (One is enough in a word of a box or two: "[F]", "7|".)
  const edges = glyphs.filter((glyph) => edge(glyph) && /^[|\\[\](){}!]$/.test(glyph.text)).length;
  if (edges < (glyphs.length <= 4 ? 1 : 2)) return [word];
  // Letters inside another letter's box are one character read twice ("X" and "x").
  const kept = glyphs.filter((glyph) =>
    !edge(glyph) && /^[\p{L}\p{N}]$/u.test(glyph.text) &&
    !glyphs.some((other) =>
      other !== glyph && !edge(other) && width(other) > width(glyph) &&
      other.box.x0 <= glyph.box.x0 && other.box.x1 >= glyph.box.x1
    )
  ).sort((a, b) => a.box.x0 - b.box.x0);
  if (kept.length === 0) return [];
  // The pitch of the boxes: the typical distance from one letter's middle to the next.
  const centres = kept.map((glyph) => (glyph.box.x0 + glyph.box.x1) / 2);
  const steps = centres.slice(1).map((centre, i) => centre - centres[i]);
  const pitch = steps.length ? median(steps) : 0;
  const runs: OcrGlyph[][] = [[kept[0]]];
  for (let i = 1; i < kept.length; i++) {
    if (steps[i - 1] > EMPTY_BOX * pitch) runs.push([]);
    runs.at(-1)!.push(kept[i]);
  }
  return runs.map((run) => ({
    text: run.map((glyph) => glyph.text.toUpperCase()).join(""),
    confidence: word.confidence,
    box: {
      x0: Math.min(...run.map((glyph) => glyph.box.x0)),
      y0: word.box.y0,
      x1: Math.max(...run.map((glyph) => glyph.box.x1)),
      y1: word.box.y1,
    },
    glyphs: run.map((glyph) => ({ ...glyph, text: glyph.text.toUpperCase() })),
  }));
}

/** A box's edge as OCR names it when it reads it as a rule or a bracket. */
const BOX_EDGE = /^[|\[\](){}!]$/;

/**
 * Numbers printed several digits a box (a date's day, month and year boxes: `[18][03]|2015|`),
 * which are no comb: one word per box, every digit kept. The comb's rules would read it as one
 * character a box and drop a thin `1` as an edge or a digit inside another's loose box as read
 * twice (`8 3` for `18 03`). Known by its text: two edges or more, and between them groups of
 * digits, at least one of two digits or more. Each box's word sits on the print's own line (the
 * shortest digit's height), not the brackets' taller one, so a caption under the boxes is no
 * part of its row.
 */
function numbersInBoxes(
  word: WordWithGlyphs,
  glyphs: readonly OcrGlyph[],
): WordWithGlyphs[] | null {
  if (glyphs.length !== word.text.length) return null;
  const edges = glyphs.filter((glyph) => BOX_EDGE.test(glyph.text)).length;
  if (edges < 2) return null;
  const groups: OcrGlyph[][] = [[]];
  for (const glyph of glyphs) {
    if (BOX_EDGE.test(glyph.text)) {
      if (groups.at(-1)!.length) groups.push([]);
    } else groups.at(-1)!.push(glyph);
  }
  const boxes = groups.filter((group) => group.length > 0);
  if (
    boxes.length < 2 || !boxes.every((group) => group.every((glyph) => /^\d$/.test(glyph.text))) ||
    !boxes.some((group) => group.length >= 2) || boxes.some((group) => group.length > 4)
  ) return null;
  const digits = boxes.flat();
  const line = digits.reduce((low, glyph) =>
    glyph.box.y1 - glyph.box.y0 < low.box.y1 - low.box.y0 ? glyph : low
  );
  return boxes.map((group) => ({
    text: group.map((glyph) => glyph.text).join(""),
    confidence: word.confidence,
    box: {
      x0: Math.min(...group.map((glyph) => glyph.box.x0)),
      y0: line.box.y0,
      x1: Math.max(...group.map((glyph) => glyph.box.x1)),
      y1: line.box.y1,
    },
    glyphs: group,
  }));
}
