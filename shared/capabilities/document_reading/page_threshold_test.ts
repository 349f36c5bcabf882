import assert from "node:assert/strict";
import { inkThreshold } from "./page_image.ts";
import { sauvola } from "./page_threshold.ts";
import type { GreyPage } from "./page_image.ts";

function page(
  width: number,
  height: number,
  paint: (x: number, y: number) => number,
): GreyPage {
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) grey[y * width + x] = paint(x, y);
  }
  return { width, height, grey };
}

/** Letter-like strokes: 3 px bars, 12 px high, every 8 px, on rows 20–32 and 60–72. */
function stroke(x: number, y: number): boolean {
  const row = (y >= 20 && y < 32) || (y >= 60 && y < 72);
  return row && x >= 10 && x < 290 && x % 8 < 3;
}

Deno.test("sauvola: strokes on a pale box and on paper are ink; the box's fill is paper", () => {
  // Paper 250; a pale pink-grey box (205) under the second row; strokes 90 everywhere.
  const boxed = (x: number, y: number) => y >= 52 && y < 80 && x >= 5 && x < 295;
  const original = page(300, 100, (x, y) => stroke(x, y) ? 90 : boxed(x, y) ? 205 : 250);
  const out = sauvola(original, { window: 25 });
  let strokesInk = 0;
  let strokes = 0;
  let fillInk = 0;
  let fill = 0;
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 300; x++) {
      const value = out.grey[y * 300 + x];
      assert.ok(value === 0 || value === 255);
      if (stroke(x, y)) {
        strokes++;
        if (value === 0) strokesInk++;
      } else if (boxed(x, y) && x > 20 && x < 280 && (y < 58 || y > 74)) {
        fill++;
        if (value === 0) fillInk++;
      }
    }
  }
  assert.equal(strokesInk, strokes);
  assert.ok(fillInk / fill < 0.02, `${fillInk} of ${fill} fill pixels became ink`);
  // The page itself is untouched.
  assert.equal(original.grey[55 * 300 + 7], 205);
});

Deno.test("sauvola: a vignette's dark corner is paper, its strokes ink (one global threshold loses them)", () => {
  // Light falling from 250 at the left to 110 at the right; strokes 60 darker than the paper.
  const paper = (x: number) => Math.round(250 - (140 * x) / 299);
  const shaded = page(300, 100, (x, y) => stroke(x, y) ? paper(x) - 60 : paper(x));
  const global = inkThreshold(shaded);
  // With one threshold the right end's paper is as dark as the left end's print.
  let paperAsInk = 0;
  for (let x = 200; x < 300; x++) if (shaded.grey[45 * 300 + x] <= global) paperAsInk++;
  assert.ok(paperAsInk > 50, `global threshold ${global}`);
  const out = sauvola(shaded, { window: 25 });
  for (let x = 10; x < 290; x++) {
    assert.equal(out.grey[45 * 300 + x], 255, `paper at x=${x}`);
    if (x % 8 === 1) assert.equal(out.grey[25 * 300 + x], 0, `stroke at x=${x}`);
  }
});
