import assert from "node:assert/strict";
import { Jimp } from "jimp";
import { readFixture, readManifest } from "@testing/documents/generate.ts";
import {
  BOX_SIDE,
  createTesseractEngine,
  cropArea,
  type Look,
  PAGE_BUDGET_MS,
  placeBack,
  preprocess,
  replaceIn,
  secondLookFits,
  type TesseractEngineOptions,
  WORK_WIDTH,
} from "./tesseract_engine.ts";
import { isComplete, readDocument } from "./read_document.ts";

/** The hooks the file's shared engine calls for the read under way (set by {@link sharedEngine}). */
let hooks: Pick<TesseractEngineOptions, "enough" | "onLook" | "clock"> = {};
// One tesseract worker for the tests whose engines differ only in their hooks (each worker start
// costs ~0.45 CPU-s); the tests of options fixed when an engine is made (no turning, no
// preprocessing) or of close() itself keep their own. Closed by the file's last test.
const shared = createTesseractEngine({
  enough: (lines, today) =>
    (hooks.enough ?? ((lines, today) => isComplete(readDocument(lines, { today }))))(lines, today),
  onLook: (look) => hooks.onLook?.(look),
  clock: () => (hooks.clock ?? (() => performance.now()))(),
});
/** The shared engine, reading with `with` (defaults, as `createTesseractEngine`'s, for the rest). */
function sharedEngine(with_: typeof hooks = {}) {
  hooks = with_;
  return shared;
}
/** The shared worker stays up between tests: its ops and resources are not a test's leak. */
const sharing = { sanitizeOps: false, sanitizeResources: false };

Deno.test("bytes that are no image are a VALIDATION_ERROR", async () => {
  const engine = createTesseractEngine();
  try {
    await assert.rejects(
      engine.read({
        bytes: new TextEncoder().encode("not a picture"),
        contentType: "image/jpeg",
        documentType: "vehicle_registration",
        today: new Date("2026-11-23T00:00:00Z"),
      }),
      (error: Error & { code?: string }) => error.code === "VALIDATION_ERROR",
    );
  } finally {
    await engine.close?.();
  }
});

const TODAY = new Date("2026-11-24T00:00:00Z");

Deno.test(
  "read() stops after one look when the reader says the page is read enough",
  sharing,
  async (t) => {
    // A clean carte jaune: every field reads and passes its checks on the first look.
    const bytes = await readFixture("heldout", "01_vehicle_registration_clean.jpg");
    const request = {
      bytes,
      contentType: "image/jpeg",
      documentType: "vehicle_registration" as const,
      today: TODAY,
    };
    for (const [verdict, looks] of [[true, 1], [false, 2]] as const) {
      await t.step(`enough() answers ${verdict}: ${looks} look(s)`, async () => {
        const seen: Look[] = [];
        const asked: string[][] = [];
        const engine = sharedEngine({
          enough: (lines) => {
            asked.push(lines.map((line) => line.text));
            return verdict;
          },
          onLook: (look) => seen.push(look),
          // A clock that never moves: the budget never stops the second look here.
          clock: () => 0,
        });
        const reading = await engine.read(request);
        assert.equal(reading.kind, "document");
        assert.deepEqual(seen.map((look) => [look.look, look.sharpened]), [
          [1, false],
          ...(looks === 2 ? [[2, true]] : []),
        ]);
        // The hook judged the first look's own lines.
        assert.deepEqual(asked, [seen[0].lines.map((line) => line.text)]);
        assert.ok(asked[0].some((line) => /RHE\s*823\s*Z/.test(line)));
      });
    }
  },
);

Deno.test(
  "read() takes no second look that would not fit in the page's budget",
  sharing,
  async () => {
    const bytes = await readFixture("heldout", "01_vehicle_registration_clean.jpg");
    for (const [firstLookMs, looks] of [[2500, 1], [1500, 2]] as const) {
      // Each reading of the clock is one first look later than the last: the first look "cost"
      // firstLookMs, and a second would cost as much again against a 4000 ms budget.
      let now = 0;
      const seen: Look[] = [];
      // Against the 4000 ms budget (the engine's default).
      assert.equal(PAGE_BUDGET_MS, 4000);
      const engine = sharedEngine({
        enough: () => false,
        onLook: (look) => seen.push(look),
        clock: () => (now += firstLookMs) - firstLookMs,
      });
      const reading = await engine.read({
        bytes,
        contentType: "image/jpeg",
        documentType: "vehicle_registration",
        today: TODAY,
      });
      assert.equal(reading.kind, "document");
      assert.equal(seen.length, looks, `a first look of ${firstLookMs} ms`);
    }
  },
);

Deno.test(
  "read() reads a doubtful value's area once more: a VIN failing its check comes out right",
  sharing,
  async () => {
    // A blurred checkbox form: the page look reads the VIN "MD2F5VSVXDX68723G" (a 0 lost, a 6
    // read as G), which no single repair makes pass; read again on its own, larger, it passes.
    const file = "03_checkbox_form_vehicle_registration_blurred.jpg";
    const entry = (await readManifest("eighth_dev")).find((entry) => entry.file === file);
    assert.ok(entry?.fields.vin);
    const seen: Look[] = [];
    // A clock that never moves: the budget never stops a look (no timing is asserted).
    const engine = sharedEngine({ onLook: (look) => seen.push(look), clock: () => 0 });
    const reading = await engine.read({
      bytes: await readFixture("eighth_dev", file),
      contentType: "image/jpeg",
      documentType: "vehicle_registration",
      today: TODAY,
    });
    assert.equal(reading.kind, "document");
    if (reading.kind !== "document") return;
    // The page look alone left the VIN doubtful: only a reread of its area read it right.
    const first = readDocument(seen.find((look) => look.look === 1)!.lines, { today: TODAY });
    assert.equal(first.kind === "document" && first.fields.vin?.valid, false);
    assert.ok(seen.some((look) => look.look === 3), "the VIN's area was read again");
    assert.equal(reading.fields.vin?.value, entry.fields.vin);
    assert.equal(reading.fields.vin?.valid, true);
  },
);

Deno.test("secondLookFits() spends the first look's cost once more only within the budget", () => {
  assert.equal(secondLookFits(1900, 4000), true);
  assert.equal(secondLookFits(2000, 4000), true);
  assert.equal(secondLookFits(2100, 4000), false);
});

Deno.test("read() brings a phone-sized photo down to the working width", sharing, async () => {
  const card = await Jimp.read(
    Buffer.from(await readFixture("heldout", "13_id_card_clean.jpg")),
  );
  card.resize({ w: 3600 });
  const photo = new Uint8Array(await card.getBuffer("image/jpeg", { quality: 85 }));
  const seen: Look[] = [];
  const engine = sharedEngine({ onLook: (look) => seen.push(look) });
  const reading = await engine.read({
    bytes: photo,
    contentType: "image/jpeg",
    documentType: "id_card",
    today: TODAY,
  });
  assert.equal(reading.kind, "document");
  assert.equal(reading.kind === "document" && reading.fields.full_name?.value, "NDAYISABA GRACE");
  // Deskewing may widen the picture a little; never the photo's 3600 px.
  assert.ok(
    seen.every((look) => look.width <= WORK_WIDTH * 1.05),
    JSON.stringify(seen.map((look) => look.width)),
  );
});

Deno.test("preprocess() hands tesseract a ruled table without its rules, unless told to keep them", async () => {
  const width = 600;
  const height = 300;
  const ruled = () => {
    const grey = new Uint8Array(width * height).fill(250);
    for (const y of [60, 150, 240]) for (let x = 40; x < 560; x++) grey[y * width + x] = 20;
    for (const x of [40, 300, 559]) for (let y = 60; y <= 240; y++) grey[y * width + x] = 20;
    return { width, height, grey };
  };
  const pixels = (image: Uint8Array) => image.subarray(image.length - width * height);
  const erased = await preprocess(ruled(), { workWidth: width });
  assert.ok(
    erased.rules.horizontal >= 3 && erased.rules.vertical >= 3,
    JSON.stringify(erased.rules),
  );
  assert.ok(pixels(erased.image)[150 * width + 200] > 200, "the middle rule is paper");
  const kept = await preprocess(ruled(), { workWidth: width, removeRules: false });
  assert.deepEqual(kept.rules, { horizontal: 0, vertical: 0 });
  assert.ok(pixels(kept.image)[150 * width + 200] < 50, "the middle rule is still ink");
});

Deno.test("cropArea() cuts a label's area out, enlarged and black on white; placeBack() maps it back", () => {
  // A 200 × 100 page, light grey, with one dark-grey "stroke" at x 120–129, y 40–59.
  const page = { width: 200, height: 100, grey: new Uint8Array(200 * 100).fill(200) };
  for (let y = 40; y < 60; y++) page.grey.fill(90, y * 200 + 120, y * 200 + 130);
  const area = cropArea(page, { x0: 100, y0: 30, x1: 180, y1: 80 });
  assert.ok(area);
  assert.equal(area.picture.width, 160);
  assert.equal(area.picture.height, 100);
  assert.equal(area.scale, 2);
  // Binarised: the stroke black, its surroundings white, at twice the size.
  const at = (x: number, y: number) => area.picture.grey[y * area.picture.width + x];
  assert.equal(at(50, 30), 0);
  assert.equal(at(10, 10), 255);
  assert.equal(new Set(area.picture.grey).size, 2);
  // A word read at (40–60, 20–60) in the crop is at (120–130, 40–60) on the page.
  const line = placeBack({
    text: "X",
    confidence: 90,
    words: [{
      text: "X",
      confidence: 90,
      box: { x0: 40, y0: 20, x1: 60, y1: 60 },
      glyphs: [{ text: "X", box: { x0: 40, y0: 20, x1: 60, y1: 60 } }],
    }],
  }, area);
  assert.deepEqual(line.words![0].box, { x0: 120, y0: 40, x1: 130, y1: 60 });
  assert.deepEqual(line.words![0].glyphs![0].box, { x0: 120, y0: 40, x1: 130, y1: 60 });
  assert.equal(cropArea(page, { x0: 195, y0: 0, x1: 260, y1: 100 }), null, "off the page");
});

Deno.test(
  "read() reads dates printed in boxes: their area reaches under the boxes and the boxes are erased",
  sharing,
  async () => {
    // A carte jaune whose issue and expiry dates are printed day, month and year each in a box:
    // the page look returns nothing for either. Before, their areas ended mid-box (the digits
    // cut in half) and tesseract read the boxes' sides as brackets: nothing came of the reread.
    const file = "16_date_boxes_vehicle_registration_jpeg.jpg";
    const entry = (await readManifest("tenth_dev")).find((entry) => entry.file === file);
    assert.ok(entry?.fields.issue_date && entry.fields.expiry_date);
    const seen: Look[] = [];
    // A clock that never moves: the budget never stops a look (no timing is asserted).
    const engine = sharedEngine({ onLook: (look) => seen.push(look), clock: () => 0 });
    const reading = await engine.read({
      bytes: await readFixture("tenth_dev", file),
      contentType: "image/jpeg",
      documentType: "vehicle_registration",
      today: TODAY,
    });
    assert.equal(reading.kind, "document");
    if (reading.kind !== "document") return;
    const first = readDocument(seen.find((look) => look.look === 1)!.lines, { today: TODAY });
    assert.equal(first.kind === "document" && first.fields.issue_date, undefined);
    assert.ok(seen.some((look) => look.look === 3), "the dates' areas were read again");
    assert.equal(reading.fields.issue_date?.value, entry.fields.issue_date);
    assert.equal(reading.fields.expiry_date?.value, entry.fields.expiry_date);
  },
);

Deno.test("cropArea() given the label's height erases the boxes around a value and keeps its print", () => {
  // A 200 × 100 page: a box (sides 1 px, 36 px tall, 30 px wide) around a digit-like stroke
  // 16 px tall, under a label 12 px tall.
  const page = { width: 200, height: 100, grey: new Uint8Array(200 * 100).fill(230) };
  const ink = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) page.grey.fill(20, y * 200 + x0, y * 200 + x1);
  };
  ink(50, 30, 80, 31); // top
  ink(50, 65, 80, 66); // bottom
  ink(50, 30, 51, 66); // left side
  ink(79, 30, 80, 66); // right side
  ink(63, 40, 66, 56); // the digit's stroke
  const at = (area: NonNullable<ReturnType<typeof cropArea>>, x: number, y: number) =>
    area.picture.grey[(y - area.y0) * area.scale * area.picture.width + (x - area.x0) * area.scale];
  const box = { x0: 40, y0: 20, x1: 100, y1: 80 };
  const plain = cropArea(page, box);
  assert.ok(plain);
  assert.equal(at(plain, 50, 48), 0, "without the label's height the box's side stays");
  const erased = cropArea(page, box, { labelHeight: 12 });
  assert.ok(erased);
  // The box's sides (36 px, over BOX_SIDE × 12) and its top and bottom are paper now.
  assert.ok(36 > BOX_SIDE * 12 && 16 < BOX_SIDE * 12);
  assert.equal(at(erased, 50, 48), 255, "left side");
  assert.equal(at(erased, 79, 48), 255, "right side");
  assert.equal(at(erased, 70, 30), 255, "top");
  assert.equal(at(erased, 70, 65), 255, "bottom");
  // The digit's stroke, shorter than a box's side, is still ink.
  assert.equal(at(erased, 64, 48), 0, "the digit");
});

Deno.test("replaceIn() keeps the page's words over the label the area was placed by", () => {
  const word = (text: string, x0: number, y0: number) => ({
    text,
    confidence: 80,
    box: { x0, y0, x1: x0 + 50, y1: y0 + 20 },
  });
  const lines = [
    {
      text: "Itariki cyatangiweho",
      confidence: 80,
      words: [word("Itariki", 0, 0), word("cyatangiweho", 60, 0)],
    },
    { text: "27", confidence: 80, words: [word("27", 0, 40)] },
  ];
  // The reread slipped on the label and read the date whole.
  const reread = [
    {
      text: "Itariki cyutangiwsho",
      confidence: 80,
      words: [word("Itariki", 0, 1), word("cyutangiwsho", 60, 1)],
    },
    {
      text: "27 10 2020",
      confidence: 90,
      words: [word("27", 0, 41), word("10", 60, 41), word("2020", 120, 41)],
    },
  ];
  const area = { x0: 0, y0: -5, x1: 300, y1: 80 };
  const label = { x0: 0, y0: 0, x1: 110, y1: 20 };
  const replaced = replaceIn(lines, area, reread, label);
  assert.deepEqual(replaced.map((line) => line.text), ["Itariki cyatangiweho", "27 10 2020"]);
  // Without a label, the area's words are all the reread's, as before.
  assert.deepEqual(replaceIn(lines, area, reread).map((line) => line.text), [
    "Itariki cyutangiwsho",
    "27 10 2020",
  ]);
});

Deno.test("replaceIn() swaps the words inside an area for the area's reread, and keeps the rest", () => {
  const word = (text: string, x0: number, y0: number) => ({
    text,
    confidence: 80,
    box: { x0, y0, x1: x0 + 50, y1: y0 + 20 },
  });
  const lines = [
    { text: "Plate R4B", confidence: 80, words: [word("Plate", 0, 0), word("R4B", 100, 0)] },
    {
      text: "Make TOYOTA",
      confidence: 80,
      words: [word("Make", 0, 100), word("TOYOTA", 100, 100)],
    },
  ];
  const reread = [{
    text: "Plate RAB 123 C",
    confidence: 90,
    words: [word("Plate", 0, 0), word("RAB", 100, 0), word("123", 160, 0), word("C", 220, 0)],
  }];
  const replaced = replaceIn(lines, { x0: 0, y0: -5, x1: 300, y1: 30 }, reread);
  assert.deepEqual(replaced.map((line) => line.text), ["Make TOYOTA", "Plate RAB 123 C"]);
});

/** The photo turned clockwise by `quarters` × 90°, as JPEG bytes (a card shot on its side). */
async function turnedPhoto(bytes: Uint8Array, quarters: number): Promise<Uint8Array> {
  const image = await Jimp.read(Buffer.from(bytes));
  const { width, height, data } = image.bitmap;
  const turned = new Jimp({
    width: quarters === 2 ? width : height,
    height: quarters === 2 ? height : width,
  });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [tx, ty] = quarters === 1
        ? [height - 1 - y, x]
        : quarters === 2
        ? [width - 1 - x, height - 1 - y]
        : [y, width - 1 - x];
      const from = (y * width + x) * 4;
      turned.bitmap.data.set(
        data.subarray(from, from + 4),
        (ty * turned.bitmap.width + tx) * 4,
      );
    }
  }
  return new Uint8Array(await turned.getBuffer("image/jpeg", { quality: 90 }));
}

Deno.test("read() reads a card photographed upside down or on either side; without turning, it is refused", async () => {
  const upright = await readFixture("heldout", "01_vehicle_registration_clean.jpg");
  const request = (bytes: Uint8Array) => ({
    bytes,
    contentType: "image/jpeg",
    documentType: "vehicle_registration" as const,
    today: TODAY,
  });
  const seen: Look[] = [];
  // A clock that never moves: the budget never stops a look here (no timing is asserted);
  // `enough` says yes, so no second look or reread adds to the count (or the test's time).
  const options = { clock: () => 0, enough: () => true, reread: false };
  const engine = createTesseractEngine({ ...options, onLook: (look) => seen.push(look) });
  const unturned = createTesseractEngine({ ...options, orient: false });
  try {
    const manifest = await readManifest("heldout");
    const plate = manifest.find((entry) => entry.file === "01_vehicle_registration_clean.jpg")
      ?.fields.plate;
    assert.ok(plate);
    for (const quarters of [2, 1, 3]) {
      const bytes = await turnedPhoto(upright, quarters);
      // On its side, the page is turned before the first look (its text runs down the page).
      const prepared = await preprocess(bytes);
      assert.equal(prepared.quarters, quarters === 2 ? 0 : 1, `${quarters * 90}°`);
      seen.length = 0;
      const reading = await engine.read(request(bytes));
      assert.equal(reading.kind, "document", `turned ${quarters * 90}°`);
      assert.equal(reading.kind === "document" && reading.fields.plate?.value, plate);
      // Upside down or turned 90° clockwise, the first look read it the wrong way up.
      assert.equal(seen.filter((look) => look.look === 1).length, quarters === 3 ? 1 : 2);
    }
    const refused = await unturned.read(request(await turnedPhoto(upright, 2)));
    assert.notEqual(refused.kind, "document");
  } finally {
    await engine.close?.();
    await unturned.close?.();
  }
});

Deno.test("close() while a read is running lets the read finish before the worker ends", async () => {
  // Straight to tesseract (no preprocessing), so the second read is on the worker when close()
  // runs: ending the worker under it failed inside tesseract.js ("reading 'postMessage'").
  const engine = createTesseractEngine({ preprocess: false });
  const blank = new Jimp({ width: 240, height: 80, color: 0xffffffff });
  const bytes = new Uint8Array(await blank.getBuffer("image/png"));
  try {
    assert.deepEqual(await engine.lines(bytes), []);
    const pending = engine.lines(bytes);
    await engine.close?.();
    assert.deepEqual(await pending, []);
  } finally {
    await engine.close?.();
  }
});

Deno.test("the file's shared engine closes (its last test)", sharing, async () => {
  await shared.close?.();
});
