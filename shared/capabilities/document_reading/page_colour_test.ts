import assert from "node:assert/strict";
import {
  colourGrey,
  type ColourPage,
  cropTo,
  findCard,
  flattenIllumination,
  lumaOf,
  shrinkColour,
} from "./page_colour.ts";
import { type GreyPage, inkThreshold, rotate } from "./page_image.ts";

type Rgb = [number, number, number];

/** A colour page of one colour with `paint(x, y)` overriding pixels. */
function colourPage(
  width: number,
  height: number,
  paint: (x: number, y: number) => Rgb | null,
  base: Rgb,
): ColourPage {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = paint(x, y) ?? base;
      rgb.set(colour, (y * width + x) * 3);
    }
  }
  return { width, height, rgb };
}

/** Text-like strokes: dashes on three lines inside the box. */
function strokes(x: number, y: number, box: { x0: number; y0: number; x1: number; y1: number }) {
  if (x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1) return false;
  const line = Math.floor((y - box.y0) / 12);
  return (y - box.y0) % 12 < 5 && line < 3 && Math.floor(x / 5) % 3 !== 2;
}

const box = { x0: 20, y0: 20, x1: 160, y1: 56 };

Deno.test("colourGrey() makes yellow print on a light green band as dark as its colour difference", () => {
  // Yellow (#ffd400) on light green (#8bd88b): 12 grey levels apart, far apart in colour.
  const page = colourPage(
    180,
    80,
    (x, y) => (strokes(x, y, box) ? [255, 212, 0] : null),
    [139, 216, 139],
  );
  const plain = lumaOf(page);
  const text = 20 * 180 + 20;
  const band = 70 * 180 + 5;
  assert.ok(Math.abs(plain.grey[text] - plain.grey[band]) < 20, "plain grey hides the print");
  const { page: grey, recoloured } = colourGrey(page);
  assert.ok(recoloured > 0);
  assert.ok(grey.grey[band] - grey.grey[text] > 80, `${grey.grey[band]} vs ${grey.grey[text]}`);
  // The band itself keeps its grey: only the print is redrawn.
  assert.equal(grey.grey[band], plain.grey[band]);
  // Below the page's threshold: the print is ink.
  assert.ok(grey.grey[text] <= inkThreshold(grey) && grey.grey[band] > inkThreshold(grey));
});

Deno.test("colourGrey() leaves black print on yellow paper (and every neutral contrast) as its grey", () => {
  const page = colourPage(
    180,
    80,
    (x, y) => (strokes(x, y, box) ? [20, 20, 20] : x > 150 ? [128, 128, 128] : null),
    [247, 230, 124],
  );
  const { page: grey, recoloured } = colourGrey(page);
  assert.equal(recoloured, 0);
  assert.deepEqual(grey.grey, lumaOf(page).grey);
});

Deno.test("findCard() finds a card turned 12° on a checked cloth: its angle and box", () => {
  const width = 600, height = 460;
  const angle = 12 * Math.PI / 180;
  // The card: 360 × 180, centred, turned clockwise by 12° (y down), cream with dark strokes.
  const inCard = (x: number, y: number) => {
    const dx = x - width / 2, dy = y - height / 2;
    const u = dx * Math.cos(angle) + dy * Math.sin(angle);
    const v = -dx * Math.sin(angle) + dy * Math.cos(angle);
    return Math.abs(u) < 180 && Math.abs(v) < 90 ? { u, v } : null;
  };
  const page = colourPage(width, height, (x, y) => {
    const card = inCard(x, y);
    if (card) {
      // The card's edge: a thin dark border, as printed cards have.
      if (Math.abs(card.u) > 177 || Math.abs(card.v) > 87) return [70, 70, 70];
      return Math.abs(card.v - 20) < 3 && Math.abs(card.u) < 140 ? [30, 30, 30] : null;
    }
    // Gingham: white squares between red stripes, 24 px a check.
    const stripes = (Math.floor(x / 24) % 2) + (Math.floor(y / 24) % 2);
    return stripes === 0 ? [255, 255, 255] : stripes === 1 ? [222, 130, 130] : [200, 50, 50];
  }, [251, 243, 220]);
  const card = findCard(page);
  assert.ok(card, "a card is found");
  // Turning the photo by the answer undoes the card's 12° clockwise turn.
  assert.ok(Math.abs(card.angle + 12) < 1.5, `angle ${card.angle}`);
  assert.ok(card.share > 0.15 && card.share < 0.3, `share ${card.share}`);
  // Cropped out of the turned photo, the card is about 360 × 180, without the cloth.
  const upright = cropTo(rotate(lumaOf(page), card.angle), card.box);
  assert.ok(Math.abs(upright.width - 360) < 25, `width ${upright.width}`);
  assert.ok(Math.abs(upright.height - 180) < 25, `height ${upright.height}`);
  const middleRow = Math.floor(upright.height * 0.3);
  const row = upright.grey.subarray(middleRow * upright.width, (middleRow + 1) * upright.width);
  assert.ok(Math.min(...row.subarray(10, upright.width - 10)) > 200, "only paper on a paper row");
});

Deno.test("findCard() answers null for a page photographed edge to edge and for banded cards", () => {
  const plain = colourPage(400, 250, (x, y) => (strokes(x % 180, y, box) ? [0, 0, 0] : null), [
    255,
    255,
    255,
  ]);
  assert.equal(findCard(plain), null);
  // Rows on bands of two colours: the centre's colour is one band, which touches both edges.
  const banded = colourPage(
    400,
    250,
    (_x, y) => (Math.floor(y / 30) % 2 ? [198, 40, 40] : [21, 101, 192]),
    [255, 255, 255],
  );
  assert.equal(findCard(banded), null);
});

/** A page with strokes under a shadow: brightness falls from 240 to `dark` left to right. */
function shadowed(dark: number): GreyPage {
  const width = 400, height = 200;
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const light = 240 - (240 - dark) * (x / width);
      const ink = y % 20 < 6 && Math.floor(x / 6) % 3 !== 2;
      grey[y * width + x] = ink ? light * 0.15 : light;
    }
  }
  return { width, height, grey };
}

Deno.test("flattenIllumination() divides a shadow out: paper and print at one level across the page", () => {
  const page = shadowed(90);
  const before = { left: page.grey[10 * 400 + 10], right: page.grey[10 * 400 + 390] };
  assert.ok(before.left - before.right > 100);
  const light = flattenIllumination(page);
  assert.ok(light.flattened, `ratio ${light.ratio}`);
  const paperLeft = page.grey[10 * 400 + 10], paperRight = page.grey[10 * 400 + 390];
  assert.ok(Math.abs(paperLeft - paperRight) < 20, `${paperLeft} vs ${paperRight}`);
  // One threshold now separates print from paper on both sides.
  const threshold = inkThreshold(page);
  assert.ok(page.grey[2 * 400 + 380] < threshold && page.grey[10 * 400 + 380] > threshold);
});

Deno.test("flattenIllumination() leaves an evenly lit page and a page with a dark half alone", () => {
  const even = shadowed(240);
  const copy = even.grey.slice();
  assert.equal(flattenIllumination(even).flattened, false);
  assert.deepEqual(even.grey, copy);
  // A dark half with light print (a two-tone card): no smooth surface fits, nothing changes.
  const width = 400, height = 200;
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ink = y % 20 < 6 && Math.floor(x / 6) % 3 !== 2;
      grey[y * width + x] = x < 200 ? (ink ? 20 : 240) : (ink ? 235 : 40);
    }
  }
  const half = { width, height, grey };
  const halfCopy = grey.slice();
  assert.equal(flattenIllumination(half).flattened, false);
  assert.deepEqual(half.grey, halfCopy);
});

Deno.test("findCard() does not take a turned stripe across a card (a hologram) for the card", () => {
  const width = 600, height = 400;
  const angle = -12 * Math.PI / 180;
  // A pink stripe 60 px wide turned 12° across a white card with a dark border; the centre is pink.
  const page = colourPage(width, height, (x, y) => {
    if (x < 3 || y < 3 || x >= width - 3 || y >= height - 3) return [60, 60, 60];
    const v = -(x - width / 2) * Math.sin(angle) + (y - height / 2) * Math.cos(angle);
    return Math.abs(v) < 30 ? [240, 190, 220] : null;
  }, [255, 255, 255]);
  assert.equal(findCard(page), null);
});

Deno.test("colourGrey() leaves white print on an orange band whole: its soft edges are not outlined", () => {
  // White strokes on orange (#ef6c00); beside them, what JPEG's halved colour resolution
  // leaves: the band's grey with the white's colour bled in.
  const orange: Rgb = [239, 108, 0];
  const page = colourPage(180, 80, (x, y) => {
    if (strokes(x, y, box)) return [255, 255, 255];
    if (strokes(x - 1, y, box) || strokes(x + 1, y, box)) return [170, 125, 85];
    return null;
  }, orange);
  assert.deepEqual(colourGrey(page).page.grey, lumaOf(page).grey);
});

Deno.test("shrinkColour() brings a large photo down by a whole factor, each pixel its block's mean", () => {
  const page = colourPage(
    9,
    4,
    (x, y) => (x % 3 === 0 && y % 2 === 0 ? [90, 30, 0] : null),
    [0, 60, 30],
  );
  const small = shrinkColour(page, 3);
  assert.equal(small.width, 3);
  assert.equal(small.height, 1);
  // Each 3×3 block holds two of the coloured pixels and seven of the base colour.
  assert.deepEqual([...small.rgb.subarray(0, 3)], [20, 53, 23]);
  // Under twice the width asked for, the photo is kept as it is.
  assert.equal(shrinkColour(page, 5), page);
});
