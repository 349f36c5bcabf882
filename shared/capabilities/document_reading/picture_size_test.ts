import assert from "node:assert/strict";
import { Jimp } from "jimp";
import { isPicture, isWholePicture, pictureSize } from "./picture_size.ts";

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

Deno.test("isPicture() knows JPEG, PNG and WebP by their signatures; empty and other bytes are not", async () => {
  const page = new Jimp({ width: 10, height: 10, color: 0xffffffff });
  const jpeg = new Uint8Array(await page.getBuffer("image/jpeg"));
  assert.equal(isPicture(jpeg), true);
  // A cut-off JPEG still starts as one: the engine's decoding tells it is damaged.
  assert.equal(isPicture(jpeg.subarray(0, 20)), true);
  assert.equal(isPicture(new Uint8Array(await page.getBuffer("image/png"))), true);
  assert.equal(isPicture(new Uint8Array()), false);
  assert.equal(isPicture(new TextEncoder().encode("%PDF-1.7")), false);
  // A PNG signature without its header chunk is no picture either.
  assert.equal(isPicture(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)), false);
});

Deno.test("isWholePicture() is false for a JPEG, PNG or WebP cut short, true with a trailer after its end", async () => {
  const page = new Jimp({ width: 64, height: 48, color: 0x336699ff });
  for (const type of ["image/jpeg", "image/png"] as const) {
    const bytes = new Uint8Array(await page.getBuffer(type));
    assert.equal(isWholePicture(bytes), true, type);
    // Cut anywhere past the signature, down to its last two bytes.
    for (const keep of [20, bytes.length >> 1, bytes.length - 2]) {
      assert.equal(isWholePicture(bytes.subarray(0, keep)), false, `${type} ${keep}`);
    }
    // A camera's trailer after the end leaves the picture whole.
    assert.equal(isWholePicture(Uint8Array.from([...bytes, 1, 2, 3, 4])), true, type);
  }
  const webp = Uint8Array.from(
    atob("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="),
    (c) => c.charCodeAt(0),
  );
  assert.equal(isWholePicture(webp), true);
  assert.equal(isWholePicture(webp.subarray(0, webp.length - 1)), false);
  assert.equal(isWholePicture(new Uint8Array()), false);
});
