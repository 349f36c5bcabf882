import assert from "node:assert/strict";
import { type ColourPage, lumaOf } from "./page_colour.ts";
import type { GreyPage } from "./page_image.ts";
import { findQuad, homography, type Point, rectify } from "./page_perspective.ts";

/**
 * A white card with three dark bars across it (lines of print), drawn inside `corners` on a
 * grey table: each photo pixel is mapped into the card's own unit square.
 */
function cardAt(corners: Point[], width = 640, height = 400): ColourPage {
  const toCard = homography(corners, [[0, 0], [1, 0], [1, 1], [0, 1]]);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = toCard[6] * x + toCard[7] * y + 1;
      const u = (toCard[0] * x + toCard[1] * y + toCard[2]) / w;
      const v = (toCard[3] * x + toCard[4] * y + toCard[5]) / w;
      const onCard = u >= 0 && u <= 1 && v >= 0 && v <= 1;
      const bar = onCard && u > 0.1 && u < 0.9 &&
        [0.2, 0.5, 0.8].some((at) => v > at && v < at + 0.04);
      const colour = !onCard ? [140, 138, 133] : bar ? [20, 20, 20] : [250, 250, 246];
      rgb.set(colour, (y * width + x) * 3);
    }
  }
  return { width, height, rgb };
}

/** The middle row of the first bar's ink in columns `x0…x1` (the bar's height there). */
function barRow(page: GreyPage, x0: number, x1: number): number {
  const rows: number[] = [];
  for (let y = 0; y < page.height; y++) {
    let ink = 0;
    for (let x = x0; x < x1; x++) if (page.grey[y * page.width + x] < 128) ink++;
    if (ink > (x1 - x0) / 2) rows.push(y);
  }
  // The first run of ink rows is the top bar.
  let end = 0;
  while (end + 1 < rows.length && rows[end + 1] === rows[end] + 1) end++;
  return (rows[0] + rows[end]) / 2;
}

// The card's left edge is the far one: 160 px tall against the right's 320.
const steep: Point[] = [[80, 120], [600, 40], [600, 360], [80, 280]];

Deno.test("findQuad finds the corners of a card photographed at an angle", () => {
  const quad = findQuad(cardAt(steep));
  assert.ok(quad, "a trapezoid on a table is found");
  assert.ok(quad.keystone < 0.6, `left over right is 0.5: ${quad.keystone}`);
  for (const [i, [x, y]] of quad.corners.entries()) {
    const [tx, ty] = steep[i];
    assert.ok(Math.hypot(x - tx, y - ty) < 10, `corner ${i}: ${x},${y} for ${tx},${ty}`);
  }
});

Deno.test("rectify straightens lines that converge on a card seen at an angle", () => {
  const photo = cardAt(steep);
  const grey = lumaOf(photo);
  // In the photo the top bar climbs towards the near edge…
  const before = Math.abs(barRow(grey, 150, 156) - barRow(grey, 440, 446));
  assert.ok(before > 20, `the bar is slanted in the photo: ${before} px`);
  const quad = findQuad(photo)!;
  const upright = rectify(grey, quad);
  // …and once warped it runs level across the card, wider than tall.
  const at = (share: number) => Math.floor(share * upright.width);
  const after = Math.abs(
    barRow(upright, at(0.15), at(0.15) + 6) - barRow(upright, at(0.8), at(0.8) + 6),
  );
  assert.ok(after <= 2, `the bar runs level once rectified: ${after} px`);
  assert.ok(upright.width > upright.height, `${upright.width} × ${upright.height}`);
});

Deno.test("findQuad leaves a card seen square on, and a photo that is all card, alone", () => {
  const square: Point[] = [[80, 60], [560, 60], [560, 340], [80, 340]];
  assert.equal(findQuad(cardAt(square)), null, "a rectangle: nothing to warp");
  // The whole photo is the card's paper: it touches every edge.
  const edgeToEdge: Point[] = [[-10, -10], [650, -10], [650, 410], [-10, 410]];
  assert.equal(findQuad(cardAt(edgeToEdge)), null, "no table around the card");
  // The photo is the card inside its dark border, and a shadow cuts its paper on a slant.
  const shadowed: ColourPage = { width: 640, height: 400, rgb: new Uint8Array(640 * 400 * 3) };
  for (let y = 0; y < shadowed.height; y++) {
    for (let x = 0; x < shadowed.width; x++) {
      const frame = x < 8 || y < 8 || x >= shadowed.width - 8 || y >= shadowed.height - 8;
      const colour = frame ? [60, 60, 60] : x > 400 + 0.5 * y ? [50, 50, 70] : [250, 250, 246];
      shadowed.rgb.set(colour, (y * shadowed.width + x) * 3);
    }
  }
  assert.equal(findQuad(shadowed), null, "a shadow's edge is no card's edge");
  // A card seen square on with a finger over its top left corner: the cut corner is no keystone.
  const fingered = cardAt(square);
  for (let y = 0; y < fingered.height; y++) {
    for (let x = 0; x < fingered.width; x++) {
      if (x + y < 260) fingered.rgb.set([190, 130, 100], (y * fingered.width + x) * 3);
    }
  }
  assert.equal(findQuad(fingered), null, "a corner hidden by a finger");
});
