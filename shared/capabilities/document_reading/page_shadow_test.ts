import assert from "node:assert/strict";
import type { GreyPage } from "./page_image.ts";
import { evenShadows } from "./page_shadow.ts";

/** Lines of print-like dashes, 6 px high every 16 px, on paper; `shade(x, y)` scales the light. */
function printedPage(
  shade: (x: number, y: number) => number,
  colours = { paper: 245, ink: 20 },
): GreyPage {
  const width = 320, height = 192;
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const print = y % 16 >= 5 && y % 16 < 11 && x % 9 < 5;
      grey[y * width + x] = Math.round((print ? colours.ink : colours.paper) * shade(x, y));
    }
  }
  return { width, height, grey };
}

/** A shadow with a hard, slanted edge over the right part of the page: 25% of the light. */
const hardShadow = (x: number, y: number) => x > 180 + 0.3 * y ? 0.25 : 1;

/** The mean of the pixels of `page` that were paper (or ink) in the print pattern, within `x0…`. */
function mean(page: GreyPage, print: boolean, x0: number): number {
  let sum = 0, count = 0;
  for (let y = 0; y < page.height; y++) {
    for (let x = x0; x < page.width; x++) {
      if ((y % 16 >= 5 && y % 16 < 11 && x % 9 < 5) !== print) continue;
      sum += page.grey[y * page.width + x];
      count++;
    }
  }
  return sum / count;
}

Deno.test("evenShadows brings paper in deep shadow up to the sunlit paper, keeping its print", () => {
  const page = printedPage(hardShadow);
  // In the shadow the paper (61) is darker than one threshold between sun paper and ink allows.
  assert.ok(mean(page, false, 260) < 70);
  const shadows = evenShadows(page);
  assert.equal(shadows.evened, true, JSON.stringify(shadows));
  // Far enough right to be all shadow: paper as light as the sun's, print still dark.
  assert.ok(mean(page, false, 260) > 200, `shaded paper: ${mean(page, false, 260)}`);
  assert.ok(mean(page, true, 260) < 60, `shaded print: ${mean(page, true, 260)}`);
  // The sunlit part is as it was.
  assert.ok(mean(page, false, 0) > 235 && mean(page, true, 0) < 30);
});

Deno.test("evenShadows leaves an evenly lit page, and light print on a dark band, as they are", () => {
  const even = printedPage(() => 1);
  const before = even.grey.slice();
  assert.equal(evenShadows(even).evened, false);
  assert.deepEqual(even.grey, before);
  // White print on a dark band over the right part: the band's print is lighter than it.
  const band = printedPage(() => 1, { paper: 245, ink: 20 });
  for (let y = 0; y < band.height; y++) {
    for (let x = 180; x < band.width; x++) {
      const print = y % 16 >= 5 && y % 16 < 11 && x % 9 < 5;
      band.grey[y * band.width + x] = print ? 240 : 40;
    }
  }
  const banded = band.grey.slice();
  const result = evenShadows(band);
  assert.equal(result.evened, false, JSON.stringify(result));
  assert.deepEqual(band.grey, banded);
});
