import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { drawListingPhoto, seedListingPhotos } from "./_seed_photos.ts";

dbTest(
  "a fresh clone's property_search links seeded photos that open as JPEG images",
  async (db) => {
    const storage = await startTestStorage(db);
    const rt = await createTestRuntime(db, {
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    try {
      // Before: the seed names photos that Storage does not hold, so no link is given.
      const before: TestData = await rt.callAs(USER.aline, "property_search", {
        area: "Kimironko",
      });
      assert.ok(before.data.listings.length > 0, JSON.stringify(before));
      assert.equal(before.data.listings[0].photos.length, 0);

      const [{ seeded }] = await db.query<{ seeded: number }>(
        `select count(*)::int as seeded from public.property_listings l, unnest(l.photos) p
         where p like 'storage://media/%/property/%.jpg'`,
      );
      assert.ok(seeded > 0);
      assert.equal(await seedListingPhotos(db, storage.files), seeded);
      // Again: every file is there, nothing is drawn over it.
      assert.equal(await seedListingPhotos(db, storage.files), 0);

      const after: TestData = await rt.callAs(USER.aline, "property_search", {
        area: "Kimironko",
      });
      const card = after.data.listings[0];
      assert.equal(card.photos.length, card.photo_count);
      for (const link of card.photos) {
        const response = await fetch(link);
        assert.equal(response.status, 200, link);
        assert.equal(response.headers.get("content-type"), "image/jpeg");
        const bytes = new Uint8Array(await response.arrayBuffer());
        assert.deepEqual([...bytes.slice(0, 3)], [0xff, 0xd8, 0xff]);
        assert.ok(bytes.length < 20_000, `${bytes.length} bytes`);
      }
    } finally {
      await rt.platform.close();
      await storage.close();
    }
  },
);

Deno.test("a listing photo is drawn the same every time, and differs by listing", async () => {
  const a =
    "a0000000-0000-4000-8000-000000000001/property/70000000-0000-4000-8000-000000000001/1.jpg";
  const b =
    "a0000000-0000-4000-8000-000000000001/property/70000000-0000-4000-8000-000000000002/1.jpg";
  assert.deepEqual(await drawListingPhoto(a), await drawListingPhoto(a));
  assert.notDeepEqual(await drawListingPhoto(a), await drawListingPhoto(b));
});
