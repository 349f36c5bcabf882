import assert from "node:assert/strict";
import fc from "fast-check";
import { Jimp } from "jimp";
import { createTesseractEngine, inPlaceGaussian } from "./tesseract_engine.ts";

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
