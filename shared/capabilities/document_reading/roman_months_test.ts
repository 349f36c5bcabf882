import assert from "node:assert/strict";
import { page } from "@testing/documents/word_boxes.ts";
import { readDocument } from "./read_document.ts";
import { printsRomanMonths, withRomanMonth } from "./roman_months.ts";

const TODAY = new Date("2026-06-01T00:00:00Z");

/** A date word of 17 px digits whose month's strokes span `monthSpan` px, as tesseract boxes it. */
function dateWord(text: string, monthSpan: number) {
  const [day, month] = text.split(".");
  let x = 100;
  const glyphs = [...text].map((character, index) => {
    const inMonth = index > day.length && index <= day.length + month.length;
    const width = inMonth ? monthSpan / month.length : character === "." ? 6 : 17;
    const box = { x0: x, y0: 10, x1: x + width, y1: 32 };
    x += width;
    return { text: character, box };
  });
  return { text, confidence: 90, box: { x0: 100, y0: 10, x1: x, y1: 32 }, glyphs };
}

Deno.test("a page prints Roman months when a month holds a V or an X, never digits alone", () => {
  assert.equal(printsRomanMonths(["[8 | 27.1V.1984", "01.x11.2032"]), true);
  assert.equal(printsRomanMonths(["Issued 28.X.2027"]), true);
  assert.equal(printsRomanMonths(["17.11.2017", "Date of issue 12/03/2021"]), false);
  // A plate or a code with a V is no date.
  assert.equal(printsRomanMonths(["RAV 123 X", "VIN VF1FYTM75AE832206"]), false);
});

Deno.test("a month read as ones is the strokes its width holds, not the characters OCR gave", () => {
  // Three strokes read as two ones (tesseract drops one): 27 px at a 22 px print is III.
  assert.equal(withRomanMonth(dateWord("17.11.2017", 27)).text, "17.III.2017");
  // Two strokes are II, one is I.
  assert.equal(withRomanMonth(dateWord("17.11.2017", 18)).text, "17.II.2017");
  assert.equal(withRomanMonth(dateWord("17.1.2017", 8)).text, "17.I.2017");
  // Without the characters' boxes, what OCR read.
  assert.equal(
    withRomanMonth({ text: "09.111.2013", box: { x0: 0, y0: 0, x1: 160, y1: 20 } }).text,
    "09.III.2013",
  );
  // Other words are left alone.
  assert.equal(withRomanMonth(dateWord("17.05.2017", 34)).text, "17.05.2017");
});

Deno.test("on a card whose dates are Roman, a month read as 11 is March, not November", () => {
  const lines = page([
    [[40, "VEHICLE REGISTRATION BOOK"]],
    [[40, "A | RCH 446 H"], [500, "B | 17.111.2017"]],
    [[40, "C.1 | MUKAMANA JOSIANE"], [500, "H | 01.XII.2032"]],
    [[40, "D.1 | FORD"], [500, "E | MNAC9N433AE345680"]],
    [[40, "A Registration number  B Date of first registration  C.1 Holder"]],
    [[40, "D.1 Make  E Chassis number  H Valid until"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.issue_date?.value, "2017-03-17");
  assert.equal(reading.fields.expiry_date?.value, "2032-12-01");
  // The same month on a page whose dates are digits stays November.
  const digits = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No. : RCH 446 H"], [500, "Date of issue : 17.11.2017"]],
    [[40, "Owner : MUKAMANA JOSIANE"], [500, "Make : FORD"]],
  ]);
  const read = readDocument(digits, { today: TODAY });
  assert.equal(read.kind === "document" && read.fields.issue_date?.value, "2017-11-17");
});
