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
