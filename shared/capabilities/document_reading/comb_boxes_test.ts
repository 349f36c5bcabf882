import assert from "node:assert/strict";
import type { OcrGlyph, WordWithGlyphs } from "./letter_spacing.ts";
import { withoutCombEdges } from "./comb_boxes.ts";
import { type OcrLine, readDocument } from "./read_document.ts";

/**
 * A word as tesseract reads a comb: each `[text, width]` a character box laid left to right
 * from `x`, one pixel apart (a box's edge is 1–3 px wide, a letter 9–20 px).
 */
function word(x: number, glyphs: Array<[string, number]>, height = 34): WordWithGlyphs {
  const boxes: OcrGlyph[] = [];
  let at = x;
  for (const [text, width] of glyphs) {
    boxes.push({ text, box: { x0: at, y0: 100, x1: at + width, y1: 100 + height } });
    at += width + (width <= 3 ? 5 : 4);
  }
  return {
    text: glyphs.map(([text]) => text).join(""),
    confidence: 80,
    box: { x0: x, y0: 100, x1: at, y1: 100 + height },
    glyphs: boxes,
  };
}

const texts = (words: WordWithGlyphs[]) => words.map((word) => word.text);

Deno.test("a comb's box edges are dropped, whatever OCR named them, and its letters upper-cased", () => {
  // TOYOTA in boxes, read "TjoivjoiT|a|": edges read as a thin j or i and as rules, the Y as v.
  const toyota = word(44, [
    ["T", 26],
    ["j", 2],
    ["o", 21],
    ["i", 1],
    ["v", 19],
    ["j", 1],
    ["o", 21],
    ["i", 1],
    ["T", 19],
    ["|", 2],
    ["a", 20],
    ["|", 1],
  ]);
  // ("v" is a letter's width: OCR's reading of a Y, kept.)
  assert.deepEqual(texts(withoutCombEdges(toyota)), ["TOVOTA"]);
  // A boxed 1 is as wide as any letter's box: it stays; a thin 1 is an edge.
  const digits = word(100, [
    ["|", 2],
    ["1", 12],
    ["|", 1],
    ["9", 13],
    ["/", 1],
    ["8", 12],
    [
      "1",
      2,
    ],
    ["2", 13],
    ["|", 1],
  ]);
  assert.deepEqual(texts(withoutCombEdges(digits)), ["1982"]);
  // One character OCR read twice over one box is read once.
  const doubled = word(200, [["|", 2], ["C", 18], ["|", 1], ["X", 20], ["|", 2]]);
  doubled.glyphs = [
    ...doubled.glyphs!,
    { text: "x", box: { x0: 236, y0: 100, x1: 241, y1: 134 } },
  ];
  assert.deepEqual(texts(withoutCombEdges(doubled)), ["CX"]);
});

Deno.test("an empty box splits a comb into words; a box or two needs only one edge", () => {
  // R A B, an empty box, 1 2 3: the letters' pitch doubles across the empty box.
  const plate = word(40, [["|", 2], ["R", 14], ["|", 2], ["A", 14], ["|", 2], ["B", 14], ["|", 2]]);
  const glyphs = [...plate.glyphs!];
  let at = plate.box.x1 + 25;
  for (const text of ["1", "|", "2", "|", "3", "]"]) {
    const width = /\d/.test(text) ? 14 : 2;
    glyphs.push({ text, box: { x0: at, y0: 100, x1: at + width, y1: 134 } });
    at += width + (width <= 3 ? 5 : 4);
  }
  const joined = { ...plate, text: plate.text + "1|2|3]", glyphs, box: { ...plate.box, x1: at } };
  const out = withoutCombEdges(joined);
  assert.deepEqual(texts(out), ["RAB", "123"]);
  // Each word keeps its own box: the second starts where its first letter does.
  assert.ok(out[1].box.x0 > out[0].box.x1);
  assert.deepEqual(texts(withoutCombEdges(word(10, [["[", 2], ["F", 22], ["]", 1]]))), ["F"]);
  assert.deepEqual(texts(withoutCombEdges(word(10, [["7", 17], ["|", 1]]))), ["7"]);
});

Deno.test("ordinary print is never taken for a comb", () => {
  // Tesseract boxes an I, i or l by its stroke: as thin as an edge, but no rule or bracket.
  const label = word(10, [["I", 3], ["k", 10], ["i", 3], ["r", 7], ["a", 11], ["n", 11], [
    "g",
    11,
  ], ["o", 11]], 20);
  assert.deepEqual(withoutCombEdges(label), [label]);
  // A date's slashes are printed characters.
  const date = word(10, [["1", 9], ["1", 8], ["/", 2], ["0", 10], ["3", 10], ["/", 2], ["2", 10]]);
  assert.deepEqual(withoutCombEdges(date), [date]);
  // A bracket as wide as print's is print ("(PRIVATE)").
  const bracketed = word(10, [["(", 7], ["P", 13], ["R", 13], ["I", 5], ["V", 13], [")", 7]], 20);
  assert.deepEqual(withoutCombEdges(bracketed), [bracketed]);
  const plain: WordWithGlyphs = {
    text: "TOYOTA",
    confidence: 90,
    box: { x0: 0, y0: 0, x1: 90, y1: 20 },
  };
  assert.deepEqual(withoutCombEdges(plain), [plain]);
});

Deno.test("values in boxes are read under their labels, a name's two words across the empty box", () => {
  const label = (text: string, y: number): OcrLine => ({
    text,
    confidence: 90,
    words: text.split(" ").map((part, i) => ({
      text: part,
      confidence: 90,
      box: { x0: 40 + i * 110, y0: y, x1: 40 + i * 110 + part.length * 9, y1: y + 14 },
    })),
  });
  const boxed = (y: number, ...parts: Array<[number, string]>): OcrLine => {
    const words = parts.map(([x, text]) => {
      const read = word(
        x,
        [...text].map((char): [string, number] => [char, /\w/.test(char) ? 14 : 2]),
      );
      return {
        ...read,
        box: { ...read.box, y0: y, y1: y + 26 },
        glyphs: read.glyphs!.map((glyph) => ({
          ...glyph,
          box: { ...glyph.box, y0: y, y1: y + 26 },
        })),
      };
    });
    return { text: words.map((word) => word.text).join(" "), confidence: 80, words };
  };
  const lines: OcrLine[] = [
    label("NATIONAL IDENTITY CARD", 20),
    label("Amazina / Names", 60),
    // The empty box between the two words is wider than the small label's word space.
    boxed(80, [40, "|M|U|G|I|S|H|A|"], [260, "|J|E|A|N|"]),
    label("Igitsina / Sex", 130),
    boxed(150, [40, "[F]"]),
    label("Date of birth", 200),
    label("12/03/1984", 220),
  ];
  const reading = readDocument(lines, { today: new Date("2026-11-24T00:00:00Z") });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.full_name?.value, "MUGISHA JEAN");
  assert.equal(reading.fields.sex?.value, "F");
});

Deno.test("numbers several digits a box (a date's day, month and year) keep every digit", () => {
  // "(18][03]|2015|" as tesseract read a date in boxes: the brackets' boxes as tall as the box,
  // the 8's and the 3's loose boxes over the 1 and the 0 before them, the year on the print's line.
  const glyph = (text: string, x0: number, x1: number, y0 = 100, y1 = 152): OcrGlyph => ({
    text,
    box: { x0, y0, x1, y1 },
  });
  const glyphs = [
    glyph("(", 0, 18),
    glyph("1", 17, 35),
    glyph("8", 4, 65, 104, 148),
    glyph("]", 51, 70),
    glyph("[", 69, 87),
    glyph("0", 86, 104),
    glyph("3", 74, 137, 104, 148),
    glyph("]", 121, 139),
    glyph("|", 146, 148, 108, 144),
    glyph("2", 161, 176, 115, 137),
    glyph("0", 179, 195, 115, 137),
    glyph("1", 199, 213, 115, 137),
    glyph("5", 217, 232, 115, 137),
    glyph("|", 244, 246, 108, 144),
  ];
  const date: WordWithGlyphs = {
    text: glyphs.map((one) => one.text).join(""),
    confidence: 80,
    box: { x0: 0, y0: 100, x1: 246, y1: 152 },
    glyphs,
  };
  const read = withoutCombEdges(date);
  assert.deepEqual(texts(read), ["18", "03", "2015"]);
  // On the print's own line: a caption printed under the boxes is no part of its row.
  assert.ok(read.every((one) => one.box.y0 === 115 && one.box.y1 === 137));
  // One digit a box is still a comb.
  const comb = word(0, [["|", 2], ["1", 14], ["|", 2], ["2", 14], ["|", 2], ["3", 14], ["|", 2]]);
  assert.deepEqual(texts(withoutCombEdges(comb)), ["123"]);
});
