import assert from "node:assert/strict";
import { readFixture } from "@testing/documents/generate.ts";
import { createPaddleEngine, decodeCtc, joinRows, textBoxes } from "./paddle_engine.ts";
import { ocrEngineFromEnv } from "./ocr_engine_from_env.ts";

const TODAY = new Date("2026-11-24T00:00:00Z");

Deno.test("textBoxes() finds each blob of text, grown by the unclip distance, and drops faint ones", () => {
  const width = 40;
  const height = 20;
  const map = new Float32Array(width * height);
  const paint = (x0: number, y0: number, x1: number, y1: number, p: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) map[y * width + x] = p;
  };
  paint(2, 4, 12, 8, 0.9); // a word
  paint(20, 4, 36, 8, 0.8); // another on the same row
  paint(5, 14, 15, 18, 0.4); // above the pixel threshold, below the box threshold
  const boxes = textBoxes(map, width, height);
  assert.equal(boxes.length, 2);
  const [first, second] = boxes.sort((a, b) => a.left - b.left);
  // 10 × 4 core: grows by 10·4·1.5 / (2·14) ≈ 2.14 on each side.
  assert.ok(Math.abs(first.left - (2 - 2.142857)) < 1e-6 || first.left === 0);
  assert.ok(Math.abs(first.right - (12 + 2.142857)) < 1e-3);
  assert.ok(first.top < 4 && first.bottom > 8);
  assert.ok(second.left < 20 && second.right > 36);
});

Deno.test("joinRows() joins boxes on one row left to right and keeps rows top to bottom", () => {
  const box = (left: number, top: number, right: number, bottom: number) => ({
    left,
    top,
    right,
    bottom,
  });
  const lines = joinRows([
    { box: box(300, 102, 420, 130), text: "RHE 823 Z", confidence: 0.9 },
    { box: box(10, 40, 200, 70), text: "Chassis / VIN", confidence: 0.8 },
    { box: box(10, 100, 250, 128), text: "Plaque / Plate No.", confidence: 0.7 },
    { box: box(10, 160, 100, 190), text: "  ", confidence: 0.1 },
  ]);
  assert.deepEqual(lines.map((line) => line.text), [
    "Chassis / VIN",
    "Plaque / Plate No. RHE 823 Z",
  ]);
  assert.equal(lines[1].confidence, 80);
});

Deno.test("decodeCtc() drops blanks and repeats, and reads a long gap as a space", () => {
  const dictionary = ["A", "B", "C"];
  // Steps' best classes: characters two steps apart, a repeat, then six steps to the next.
  const best = [0, 1, 1, 2, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 3];
  const classes = 4;
  const probabilities = new Float32Array(best.length * classes);
  best.forEach((c, step) => {
    probabilities.fill(0.02, step * classes, step * classes + classes);
    probabilities[step * classes + c] = 0.9;
  });
  const decoded = decodeCtc(probabilities, best.length, classes, dictionary);
  assert.equal(decoded.text, "ABAB C");
  assert.ok(Math.abs(decoded.confidence - 0.9) < 1e-6);
  assert.deepEqual(decodeCtc(new Float32Array(4), 1, 4, dictionary), { text: "", confidence: 0 });
});

Deno.test("the paddle engine reads a carte jaune's plate and VIN through the field reader", async () => {
  const engine = createPaddleEngine();
  try {
    const reading = await engine.read({
      bytes: await readFixture("heldout", "01_vehicle_registration_clean.jpg"),
      contentType: "image/jpeg",
      documentType: "vehicle_registration",
      today: TODAY,
    });
    assert.equal(reading.kind, "document");
    if (reading.kind !== "document") return;
    assert.equal(reading.type, "vehicle_registration");
    assert.equal(reading.fields.plate?.value, "RHE 823 Z");
    assert.equal(reading.fields.vin?.value, "KMH9L7KZ1CK901501");
    assert.equal(reading.fields.vin?.valid, true);
  } finally {
    await engine.close?.();
  }
});

Deno.test("OCR_PROVIDER=paddle gives the paddle engine, which refuses bytes that are no image", async () => {
  const engine = ocrEngineFromEnv(new Map([["OCR_PROVIDER", "paddle"]]));
  try {
    assert.equal(engine.provider, "paddle");
    await assert.rejects(
      engine.read({
        bytes: new TextEncoder().encode("not a picture"),
        contentType: "image/jpeg",
        documentType: "id_card",
        today: TODAY,
      }),
      (error: Error & { code?: string }) => error.code === "VALIDATION_ERROR",
    );
  } finally {
    await engine.close?.();
  }
  const both = ocrEngineFromEnv(new Map([["OCR_PROVIDER", "tesseract+paddle"]]));
  assert.equal(both.provider, "tesseract+paddle");
  await both.close?.();
  assert.throws(
    () => ocrEngineFromEnv(new Map([["OCR_PROVIDER", "easyocr"]])),
    /tesseract, paddle, tesseract\+paddle or openai/,
  );
});
