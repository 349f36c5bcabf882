import assert from "node:assert/strict";
import type { GreyPage } from "./page_image.ts";
import type { ColourPage } from "./page_colour.ts";
import { colouredShade, evenShadows, MAX_COLOURED_SHADE } from "./page_shadow.ts";

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

/**
 * A colour photo: cream paper with dark grey print; from column 180 on, either the same paper in
 * a 25% shadow (`shade`) or a red band with sparse white print (`band`).
 */
function colourPhoto(right: "shade" | "band"): ColourPage {
  const width = 320, height = 192;
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const print = y % 16 >= 5 && y % 16 < 11 && x % 9 < 5;
      let colour = print ? [30, 30, 30] : [251, 243, 220];
      if (x >= 180 && right === "shade") colour = colour.map((value) => Math.round(value * 0.25));
      if (x >= 180 && right === "band") {
        colour = print && x % 27 < 5 ? [250, 250, 250] : [198, 40, 40];
      }
      rgb.set(colour, (y * width + x) * 3);
    }
  }
  return { width, height, rgb };
}

Deno.test("colouredShade tells a red band from cream paper in shadow", () => {
  assert.ok(colouredShade(colourPhoto("shade")) < 0.1, `${colouredShade(colourPhoto("shade"))}`);
  assert.ok(colouredShade(colourPhoto("band")) > 0.9, `${colouredShade(colourPhoto("band"))}`);
  // No dark pixels at all: nothing coloured in shade.
  assert.equal(colouredShade({ width: 2, height: 1, rgb: new Uint8Array(6).fill(240) }), 0);
});

Deno.test("evenShadows leaves a page whose dark areas are coloured bands, and evens a shadow", () => {
  // The grey page is the same in both cases (a hard shadow's cells); only the colours differ.
  const banded = printedPage(hardShadow);
  const before = banded.grey.slice();
  const band = evenShadows(banded, { coloured: () => colouredShade(colourPhoto("band")) });
  assert.equal(band.evened, false, JSON.stringify(band));
  assert.ok((band.coloured ?? 0) >= MAX_COLOURED_SHADE);
  assert.deepEqual(banded.grey, before);
  const shaded = printedPage(hardShadow);
  const shadow = evenShadows(shaded, { coloured: () => colouredShade(colourPhoto("shade")) });
  assert.equal(shadow.evened, true, JSON.stringify(shadow));
  assert.ok(mean(shaded, false, 260) > 200);
});
