import assert from "node:assert/strict";
import fc from "fast-check";
import { Jimp } from "jimp";
import {
  decodeGrey,
  estimateSkew,
  type GreyPage,
  inkThreshold,
  inPlaceGaussian,
  invertDarkRegions,
  removeRules,
  rotate,
  scaleTo,
  sharpness,
  stretchContrast,
  toPgm,
  unsharpMask,
} from "./page_image.ts";

/** White paper with black text-like bars: `rows` lines of dashes. */
function linedPage(width: number, height: number, rows: number): GreyPage {
  const grey = new Uint8Array(width * height).fill(255);
  const pitch = Math.floor(height / (rows + 1));
  for (let row = 1; row <= rows; row++) {
    for (let y = row * pitch; y < row * pitch + Math.max(2, pitch / 4); y++) {
      for (let x = Math.floor(width * 0.1); x < width * 0.9; x++) {
        if (Math.floor(x / 7) % 4 !== 3) grey[y * width + x] = 0;
      }
    }
  }
  return { width, height, grey };
}

Deno.test("inPlaceGaussian() blurs a grey page value for value as jimp's gaussian does", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 3 }),
      fc.infiniteStream(fc.integer({ min: 0, max: 255 })),
      (width, height, radius, pixels) => {
        const grey = Uint8Array.from(pixels.take(width * height));
        const page = new Jimp({ width, height, color: 0xffffffff });
        grey.forEach((value, i) => page.bitmap.data.fill(value, i * 4, i * 4 + 3));
        page.gaussian(radius);
        const theirs = grey.map((_, i) => page.bitmap.data[i * 4]);
        assert.deepEqual(inPlaceGaussian(grey, width, height, radius), theirs);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("decodeGrey() answers one byte a pixel, dark where the photo is dark", async () => {
  const photo = new Jimp({ width: 4, height: 2, color: 0xffffffff });
  photo.bitmap.data.fill(0, 0, 4 * 4); // the first row black
  photo.bitmap.data.fill(255, 3, 4); // keep alpha
  const page = await decodeGrey(new Uint8Array(await photo.getBuffer("image/png")));
  assert.equal(page.width, 4);
  assert.equal(page.height, 2);
  // jimp's luma weights sum to 1 in floating point only nearly: white truncates to 254.
  assert.deepEqual([...page.grey].map((value) => value >= 254 ? 255 : value), [
    0,
    0,
    0,
    0,
    255,
    255,
    255,
    255,
  ]);
});

Deno.test("decodeGrey() refuses bytes that are no image with VALIDATION_ERROR", async () => {
  await assert.rejects(
    decodeGrey(new TextEncoder().encode("not a picture")),
    (error: Error & { code?: string }) => error.code === "VALIDATION_ERROR",
  );
});

Deno.test("scaleTo() keeps the page's proportions and its mean grey, down or up", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 8, max: 60 }),
      fc.integer({ min: 8, max: 60 }),
      fc.integer({ min: 2, max: 120 }),
      fc.infiniteStream(fc.integer({ min: 0, max: 255 })),
      (width, height, to, pixels) => {
        const page = { width, height, grey: Uint8Array.from(pixels.take(width * height)) };
        const scaled = scaleTo(page, to);
        assert.equal(scaled.width, to);
        assert.equal(scaled.height, Math.max(1, Math.round(height * to / width)));
        assert.equal(scaled.grey.length, scaled.width * scaled.height);
        if (to < width) {
          // An area average keeps the mean (up to rounding and the last row's share).
          const mean = (grey: Uint8Array) =>
            grey.reduce((sum, value) => sum + value, 0) / grey.length;
          assert.ok(Math.abs(mean(scaled.grey) - mean(page.grey)) < 16);
        }
      },
    ),
    { numRuns: 80 },
  );
  assert.throws(() => scaleTo({ width: 2, height: 2, grey: new Uint8Array(4) }, 0), RangeError);
});

Deno.test("estimateSkew() finds a page's tilt and rotate() undoes it", () => {
  const page = linedPage(600, 400, 8);
  assert.equal(estimateSkew(page), 0);
  for (const tilt of [-5, -2.5, 3, 6]) {
    // rotate() turns clockwise: by -tilt is a counter-clockwise skew of tilt.
    const skewed = rotate(page, -tilt);
    const found = estimateSkew(skewed);
    assert.ok(Math.abs(found - tilt) <= 0.5, `tilt ${tilt}: found ${found}`);
    assert.ok(Math.abs(estimateSkew(rotate(skewed, found))) <= 0.5);
  }
});

Deno.test("rotate() brings in white paper at the corners", () => {
  const black = { width: 50, height: 50, grey: new Uint8Array(2500) };
  const turned = rotate(black, 30);
  assert.ok(turned.width > 50 && turned.height > 50);
  assert.equal(turned.grey[0], 255);
  assert.equal(
    turned.grey[Math.floor(turned.height / 2) * turned.width + Math.floor(turned.width / 2)],
    0,
  );
});

Deno.test("stretchContrast() spans 0–255 and sharpness() tells sharp print from blurred", () => {
  const page = linedPage(900, 500, 10);
  const grey = page.grey.map((value) => 90 + value * 0.4);
  const faint = { ...page, grey };
  stretchContrast(faint);
  assert.equal(faint.grey.reduce((low, value) => Math.min(low, value), 255), 0);
  assert.equal(faint.grey.reduce((high, value) => Math.max(high, value), 0), 255);
  const blurred = { ...page, grey: inPlaceGaussian(page.grey, page.width, page.height, 3) };
  assert.ok(sharpness(page) > sharpness(blurred), `${sharpness(page)} vs ${sharpness(blurred)}`);
  // Sharpening makes blurred edges steeper again.
  const sharpened = { ...blurred, grey: blurred.grey.slice() };
  unsharpMask(sharpened);
  assert.ok(sharpness(sharpened) > sharpness(blurred));
});

Deno.test("toPgm() writes a binary PGM header and the pixels as they are", () => {
  const pgm = toPgm({ width: 3, height: 2, grey: Uint8Array.from([0, 1, 2, 3, 4, 255]) });
  const header = "P5\n3 2\n255\n";
  assert.equal(new TextDecoder().decode(pgm.slice(0, header.length)), header);
  assert.deepEqual([...pgm.slice(header.length)], [0, 1, 2, 3, 4, 255]);
});

/** Paper (240) with glyph-like marks: a 2 px stem, three bars, 3 px apart, as `E`s in a row. */
function glyphs(page: GreyPage, left: number, top: number, count: number): void {
  for (let glyph = 0; glyph < count; glyph++) {
    const x0 = left + glyph * 13;
    for (let y = top; y < top + 14; y++) {
      for (let x = x0; x < x0 + 10; x++) {
        const stem = x < x0 + 2;
        const bar = y < top + 2 || (y >= top + 6 && y < top + 8) || y >= top + 12;
        if (stem || (bar && x < x0 + (y >= top + 6 && y < top + 8 ? 7 : 10))) {
          page.grey[y * page.width + x] = 20;
        }
      }
    }
  }
}

function blank(width: number, height: number): GreyPage {
  return { width, height, grey: new Uint8Array(width * height).fill(240) };
}

Deno.test("removeRules erases a table's rules and keeps the text in its cells", () => {
  const page = blank(400, 200);
  // A bordered table: rules at rows 40-41, 100 and 160, columns 30, 200 and 370.
  for (const y of [40, 41, 100, 160]) {
    for (let x = 30; x <= 370; x++) page.grey[y * 400 + x] = 30;
  }
  for (const x of [30, 200, 370]) {
    for (let y = 40; y <= 160; y++) page.grey[y * 400 + x] = 30;
  }
  // A break of 2 px in one rule (JPEG noise) does not save it.
  page.grey[100 * 400 + 120] = 240;
  page.grey[100 * 400 + 121] = 240;
  glyphs(page, 40, 50, 10); // 6 px under a rule, a cell's padding
  glyphs(page, 210, 110, 8);
  const text = page.grey.slice();
  const removed = removeRules(page);
  assert.ok(removed.horizontal >= 3, `horizontal rules: ${removed.horizontal}`);
  assert.ok(removed.vertical >= 3, `vertical rules: ${removed.vertical}`);
  // Paper where the rules were (the 2 px break was paper already).
  for (const y of [40, 41, 100, 160]) {
    for (let x = 30; x <= 370; x++) assert.ok(page.grey[y * 400 + x] >= 240, `(${x}, ${y})`);
  }
  for (const x of [30, 200, 370]) {
    for (let y = 40; y <= 160; y++) assert.ok(page.grey[y * 400 + x] >= 240, `(${x}, ${y})`);
  }
  // Every glyph pixel is still ink.
  let kept = 0;
  let glyphPixels = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== 20) continue;
    glyphPixels++;
    if (page.grey[i] === 20) kept++;
  }
  assert.equal(kept, glyphPixels);
});

Deno.test("removeRules leaves a page of text without rules as it was", () => {
  const page = blank(400, 200);
  for (let row = 0; row < 6; row++) glyphs(page, 20, 20 + row * 28, 27);
  const before = page.grey.slice();
  assert.deepEqual(removeRules(page), { horizontal: 0, vertical: 0 });
  assert.deepEqual(page.grey, before);
});

Deno.test("removeRules erases a thick border and the blur's halo around a rule", () => {
  const page = blank(300, 120);
  for (let y = 60; y < 65; y++) for (let x = 10; x < 290; x++) page.grey[y * 300 + x] = 40;
  // Blur's halo: a lighter row each side.
  for (const y of [59, 65]) for (let x = 10; x < 290; x++) page.grey[y * 300 + x] = 120;
  removeRules(page);
  for (let y = 59; y <= 65; y++) {
    for (let x = 10; x < 290; x++) assert.equal(page.grey[y * 300 + x], 255, `(${x}, ${y})`);
  }
});

Deno.test("inkThreshold splits ink from paper", () => {
  const page = blank(100, 100);
  for (let i = 0; i < 1000; i++) page.grey[i * 7] = 30;
  const threshold = inkThreshold(page);
  assert.ok(threshold >= 30 && threshold < 240, `threshold ${threshold}`);
});

/** Light paper with black "words" and a band of `shade` holding white "words" at rows top…bottom. */
function bandedPage(shade: number, top: number, bottom: number, withText = true): GreyPage {
  const width = 600;
  const height = 400;
  const grey = new Uint8Array(width * height).fill(240);
  for (let y = top; y < bottom; y++) grey.fill(shade, y * width, (y + 1) * width);
  // "Words": 3 px strokes, 14 px tall, every 24 rows, light in the band and dark outside it.
  for (let line = 10; line + 14 < height; line += 24) {
    for (let y = line; y < line + 14; y++) {
      for (let x = 40; x < 560; x++) {
        if (x % 9 >= 3 || Math.floor(x / 90) % 3 === 2) continue;
        const inBand = y >= top && y < bottom;
        if (inBand && !withText) continue;
        grey[y * width + x] = inBand ? 250 : 20;
      }
    }
  }
  return { width, height, grey };
}

Deno.test("invertDarkRegions() turns white print on a dark band into dark print on light", () => {
  const page = bandedPage(60, 100, 220);
  const found = invertDarkRegions(page);
  assert.equal(found.regions, 1);
  const at = (x: number, y: number) => page.grey[y * page.width + x];
  // The band's background is now light, its strokes dark, as the print outside it.
  assert.ok(at(300, 130) > 150 || at(302, 130) > 150, "the band's background turned light");
  assert.ok(at(45, 130) < 40, "a white stroke in the band turned dark");
  assert.equal(at(42, 130), 240, "the band between strokes is the paper's grey");
  // Print outside the band is as it was.
  assert.equal(at(45, 34), 20);
  assert.equal(at(42, 34), 240);
  assert.equal(at(45, 250), 20);
});

Deno.test("invertDarkRegions() inverts a dark right half and alternate dark rows", () => {
  const width = 600;
  const height = 400;
  const half: GreyPage = { width, height, grey: new Uint8Array(width * height).fill(235) };
  for (let y = 0; y < height; y++) {
    half.grey.fill(50, y * width + 300, (y + 1) * width);
    if (y % 30 < 12) {
      for (let x = 40; x < 560; x += 8) {
        half.grey.fill(x < 300 ? 15 : 245, y * width + x, y * width + x + 3);
      }
    }
  }
  assert.equal(invertDarkRegions(half).regions, 1);
  assert.ok(half.grey[5 * width + 424] < 60, "a white stroke in the dark half turned dark");
  assert.ok(half.grey[20 * width + 450] > 150, "the dark half's paper is light");
  assert.equal(half.grey[20 * width + 100], 235, "the light half is as it was");

  const rows = bandedPage(70, 0, 0);
  for (const top of [60, 180, 300]) {
    for (let y = top; y < top + 60; y++) {
      for (let x = 0; x < 600; x++) {
        const v = rows.grey[y * 600 + x];
        rows.grey[y * 600 + x] = v === 20 ? 250 : 70;
      }
    }
  }
  assert.equal(invertDarkRegions(rows).regions, 3);
  assert.ok(rows.grey[90 * 600 + 300] > 150 || rows.grey[90 * 600 + 303] > 150);
});

Deno.test("invertDarkRegions() leaves print, a bold word and a plain dark desk as they are", () => {
  const plain = bandedPage(60, 0, 0);
  const before = plain.grey.slice();
  assert.deepEqual(invertDarkRegions(plain), { regions: 0, pixels: 0 });
  assert.deepEqual(plain.grey, before);
  // Bold print: half the pixels of a line 24 px tall are ink (the window is 30 px here).
  const bold = bandedPage(60, 0, 0);
  for (let y = 200; y < 224; y++) {
    for (let x = 40; x < 400; x++) if (x % 10 < 5) bold.grey[y * 600 + x] = 10;
  }
  const boldBefore = bold.grey.slice();
  assert.equal(invertDarkRegions(bold).regions, 0);
  assert.deepEqual(bold.grey, boldBefore);
  // A dark desk with no print on it (the margin of a photo taken at an angle).
  const desk = bandedPage(45, 250, 400, false);
  const deskBefore = desk.grey.slice();
  assert.equal(invertDarkRegions(desk).regions, 0);
  assert.deepEqual(desk.grey, deskBefore);
});
