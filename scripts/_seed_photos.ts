/**
 * The seed's listing photos as real files. `supabase/seed.sql` gives each
 * seeded listing two photos at `storage://media/<org>/property/<listing>/<n>.jpg`,
 * but a fresh clone's Storage holds no file there, so `property_search` would
 * answer with no links. The dev server draws each missing one here, at start:
 * a small JPEG (a house in front of a sky, its colours from the listing's id,
 * so the same listing always looks the same) stored through the file store.
 * A file already there is kept (the upload without upsert is refused).
 *
 * @module
 */
import { Jimp } from "jimp";
import { ToolFailure } from "@shared/contract/result.ts";
import type { Queryable } from "@shared/db/types.ts";
import type { FileStore } from "@shared/storage/file_store.ts";

/** A seeded listing photo's reference, as seed.sql writes it. */
const SEEDED_PHOTO = /^storage:\/\/media\/([0-9a-f-]{36}\/property\/[0-9a-f-]{36}\/[1-9]\.jpg)$/;

const WIDTH = 320;
const HEIGHT = 240;

/** A colour (0xRRGGBBAA) from a byte of the digest, within a muted range. */
function colour(digest: Uint8Array, at: number): number {
  const channel = (i: number) => 60 + (digest[(at + i) % digest.length] % 160);
  return ((channel(0) << 24) | (channel(1) << 16) | (channel(2) << 8) | 0xff) >>> 0;
}

/** Draws one listing photo: the same bytes for the same path, every time. */
export async function drawListingPhoto(path: string): Promise<Uint8Array> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(path)),
  );
  const sky = colour(digest, 0);
  const wall = colour(digest, 3);
  const roof = colour(digest, 6);
  const image = new Jimp({ width: WIDTH, height: HEIGHT, color: sky });
  const ground = 0x5a8f3cff;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const inWall = x >= 90 && x < 230 && y >= 110 && y < 200;
      // The roof: a triangle over the wall.
      const inRoof = y >= 60 && y < 110 && Math.abs(x - 160) <= (y - 60) * 1.6;
      const inDoor = x >= 145 && x < 175 && y >= 150 && y < 200;
      const color = inDoor ? 0x3b2a1aff : inWall ? wall : inRoof ? roof : y >= 200 ? ground : null;
      if (color !== null) image.setPixelColor(color, x, y);
    }
  }
  return new Uint8Array(await image.getBuffer("image/jpeg", { quality: 70 }));
}

/**
 * Stores a drawn photo for every seeded listing photo that has no file yet.
 *
 * @returns How many were drawn.
 */
export async function seedListingPhotos(db: Queryable, files: FileStore): Promise<number> {
  const rows = await db.query<{ ref: string }>(
    "select distinct unnest(photos) as ref from public.property_listings order by ref",
  );
  let drawn = 0;
  for (const { ref } of rows) {
    const path = SEEDED_PHOTO.exec(ref)?.[1];
    if (!path) continue;
    try {
      await files.upload({
        bucket: "media",
        path,
        bytes: await drawListingPhoto(path),
        contentType: "image/jpeg",
      });
      drawn += 1;
    } catch (error) {
      // Already there: kept as it is.
      if (!(error instanceof ToolFailure && error.code === "CONFLICT")) throw error;
    }
  }
  return drawn;
}
