/**
 * A photo's size in pixels from its header (JPEG, PNG, WebP), without
 * decoding it: `image-size`'s readers for the three types the OCR takes.
 * Used to refuse thumbnails and stickers before any OCR engine (local or
 * a paid API) spends time on them.
 *
 * @module
 */
import { JPG } from "image-size/types/jpg";
import { PNG } from "image-size/types/png";
import { WEBP } from "image-size/types/webp";

/**
 * The shorter side, in pixels, below which a picture cannot hold a card's
 * print legibly (a thumbnail or a sticker): it is not read at all. WhatsApp
 * delivers phone photos at 1000–1600 px.
 */
export const MIN_SIDE_PX = 200;

/** Width and height in pixels. */
export interface PictureSize {
  width: number;
  height: number;
}

/**
 * The picture's size from its header, or null when the bytes are not a
 * JPEG, PNG or WebP whose header says.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pictureSize } from "./picture_size.ts";
 *
 * assert.equal(pictureSize(new TextEncoder().encode("not a picture")), null);
 * ```
 */
export function pictureSize(bytes: Uint8Array): PictureSize | null {
  for (const reader of [JPG, PNG, WEBP]) {
    try {
      if (!reader.validate(bytes)) continue;
      const { width, height } = reader.calculate(bytes);
      return width > 0 && height > 0 ? { width, height } : null;
    } catch {
      // A truncated or malformed header: the engine decides what it is.
      return null;
    }
  }
  return null;
}

/**
 * Whether the bytes start as a JPEG, PNG or WebP does (their signatures),
 * whatever the rest holds. False for an empty file, a PDF or random bytes
 * sent as a photo: no engine can read those, and they are not a picture of
 * the wrong thing either.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPicture } from "./picture_size.ts";
 *
 * assert.equal(isPicture(new Uint8Array()), false);
 * assert.equal(isPicture(new TextEncoder().encode("%PDF-1.7")), false);
 * ```
 */
export function isPicture(bytes: Uint8Array): boolean {
  return [JPG, PNG, WEBP].some((reader) => {
    try {
      return reader.validate(bytes);
    } catch {
      return false;
    }
  });
}

/**
 * Whether a JPEG, PNG or WebP ends where its own structure says it does:
 * false for one cut off in transit (a JPEG with no end-of-image marker after
 * its scan, a PNG whose chunks run past the end or never reach `IEND`, a WebP
 * shorter than its RIFF size). Bytes after the end (a camera's trailer) are
 * allowed; bytes that are no picture are false.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isWholePicture } from "./picture_size.ts";
 *
 * assert.equal(isWholePicture(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10)), false);
 * ```
 */
export function isWholePicture(bytes: Uint8Array): boolean {
  if (!isPicture(bytes)) return false;
  if (bytes[0] === 0xff) return wholeJpeg(bytes);
  if (bytes[0] === 0x89) return wholePng(bytes);
  // RIFF: the size after the first eight bytes, little-endian.
  const size = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  return bytes.length >= size + 8;
}

function wholeJpeg(bytes: Uint8Array): boolean {
  let at = 2;
  // Segments up to the first scan: each a marker and, but for the standalone ones, a length.
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte before a marker
      continue;
    }
    if (marker === 0xd9) return true;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (marker === 0xda) {
      // In the entropy-coded data a 0xFF is followed by 0x00 or a restart marker: the first
      // 0xFF 0xD9 after the scan's header ends the image (progressive scans included).
      for (let i = at + 2 + length; i + 1 < bytes.length; i++) {
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
      }
      return false;
    }
    at += 2 + length;
  }
  return false;
}

function wholePng(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Chunks after the 8-byte signature: length, type, data, CRC; IEND is the last.
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    at += 12 + length;
    if (at > bytes.length) return false;
    if (type === "IEND") return true;
  }
  return false;
}
