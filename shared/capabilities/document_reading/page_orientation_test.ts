import assert from "node:assert/strict";
import { quarterTurn, textRunsVertically } from "./page_orientation.ts";
import type { GreyPage } from "./page_image.ts";

/**
 * A card-like page: `lines` rows of word-like dashes (ink 20 on paper 245), in
 * two columns of label and value, as a form prints them.
 */
function linedPage(width: number, height: number, lines: number): GreyPage {
  const grey = new Uint8Array(width * height).fill(245);
  const pitch = Math.floor(height / (lines + 1));
  for (let line = 0; line < lines; line++) {
    const y0 = pitch * (line + 1) - 6;
    for (let y = y0; y < y0 + 12; y++) {
      for (let x = 20; x < width - 20; x++) {
        // Words of 5 letters 6 px wide with a 2 px gap between letters, 12 px between words,
        // and the gutter between the two columns.
        const inColumn = x < width / 2 - 20 || x > width / 2 + 20;
        const letter = (x % 44) < 40 && (x % 8) < 6;
        if (inColumn && letter) grey[y * width + x] = 20;
      }
    }
  }
  return { width, height, grey };
}

Deno.test("an upright card's text runs along rows; the same card on its side runs down columns", () => {
  const page = linedPage(600, 380, 8);
  const upright = textRunsVertically(page);
  assert.equal(upright.vertical, false);
  assert.ok(upright.rows > upright.columns, `${upright.rows} vs ${upright.columns}`);
  for (const quarters of [1, 3]) {
    const turned = textRunsVertically(quarterTurn(page, quarters));
    assert.equal(turned.vertical, true, `turned ${quarters * 90}°`);
  }
  // Upside down, the lines still run along rows: a projection cannot tell 0° from 180°.
  assert.equal(textRunsVertically(quarterTurn(page, 2)).vertical, false);
});

Deno.test("a blank page is upright", () => {
  const blank = { width: 200, height: 300, grey: new Uint8Array(200 * 300).fill(250) };
  assert.equal(textRunsVertically(blank).vertical, false);
});

Deno.test("quarterTurn turns clockwise pixel for pixel; four turns are the page itself", () => {
  // 3 × 2: a b c / d e f.
  const page: GreyPage = { width: 3, height: 2, grey: Uint8Array.from([1, 2, 3, 4, 5, 6]) };
  // Clockwise: d a / e b / f c.
  assert.deepEqual(quarterTurn(page, 1), {
    width: 2,
    height: 3,
    grey: Uint8Array.from([4, 1, 5, 2, 6, 3]),
  });
  assert.deepEqual(quarterTurn(page, 2).grey, Uint8Array.from([6, 5, 4, 3, 2, 1]));
  assert.deepEqual(quarterTurn(page, 3), {
    width: 2,
    height: 3,
    grey: Uint8Array.from([3, 6, 2, 5, 1, 4]),
  });
  let turned = page;
  for (let i = 0; i < 4; i++) turned = quarterTurn(turned, 1);
  assert.deepEqual(turned, page);
  assert.deepEqual(quarterTurn(page, 1), quarterTurn(page, -3));
});

Deno.test("a shadow or dark background down one side does not make an upright card look turned", () => {
  const page = linedPage(600, 380, 8);
  // The left quarter in shadow and a dark strip of table beside the card: one global threshold
  // takes both for ink, all in a few columns.
  for (let y = 0; y < 380; y++) {
    for (let x = 0; x < 150; x++) {
      page.grey[y * 600 + x] = Math.max(0, page.grey[y * 600 + x] - 130);
    }
    for (let x = 560; x < 600; x++) page.grey[y * 600 + x] = 25;
  }
  assert.equal(textRunsVertically(page).vertical, false);
  assert.equal(textRunsVertically(quarterTurn(page, 1)).vertical, true);
});
