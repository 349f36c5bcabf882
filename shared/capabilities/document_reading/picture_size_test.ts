import assert from "node:assert/strict";
import { Jimp } from "jimp";
import { pictureSize } from "./picture_size.ts";

Deno.test("pictureSize() reads JPEG, PNG and WebP headers; anything else is null", async () => {
  const page = new Jimp({ width: 321, height: 123, color: 0xffffffff });
  assert.deepEqual(pictureSize(new Uint8Array(await page.getBuffer("image/jpeg"))), {
    width: 321,
    height: 123,
  });
  assert.deepEqual(pictureSize(new Uint8Array(await page.getBuffer("image/png"))), {
    width: 321,
    height: 123,
  });
  // A 1×1 lossless WebP (RIFF, VP8L), as a browser would send it.
  const webp = Uint8Array.from(
    atob("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="),
    (c) => c.charCodeAt(0),
  );
  assert.deepEqual(pictureSize(webp), { width: 1, height: 1 });
  assert.equal(pictureSize(new TextEncoder().encode("not a picture")), null);
  // A JPEG cut off before its size: null, never a throw.
  const jpeg = new Uint8Array(await page.getBuffer("image/jpeg"));
  assert.equal(pictureSize(jpeg.subarray(0, 20)), null);
});
