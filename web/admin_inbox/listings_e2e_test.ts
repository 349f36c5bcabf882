/**
 * End to end: real headless Chromium drives the real Admin Inbox page, served
 * with the real API by the in-process dev server (embedded database, seed):
 * staff see the rental listing a landlord sent, with its photos loading from
 * Storage, and approve it; renters then find it. A reject needs a reason.
 *
 * Skipped (with the reason printed) where no Chromium is installed, except
 * under `REQUIRE_BROWSER=1` (CI). Install it with `scripts/ci/install_chromium.sh`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { adminInboxTest, axeViolations, PNG_1X1, signIn } from "@testing/admin_inbox_browser.ts";

const EASYMO = "a0000000-0000-4000-8000-000000000001";
const ALINE = "00000000-0000-4000-8000-000000000001";
const KAMATAMU = "70000000-0000-4000-8000-000000000006"; // Jeanne's, seeded pending

adminInboxTest(
  "Admin Inbox in headless Chromium: staff see a listing's photos and approve it",
  { label: "Admin Inbox listings browser test" },
  async ({ server, open }) => {
    // Two of the landlord's three photos, as the chat stored them; the third never arrived.
    await server.runtime.platform.db.query(
      "update public.property_listings set photos = array_append(photos, photos[1] || '-lost') where id = $1",
      [KAMATAMU],
    );
    for (const n of [1, 2]) {
      await server.runtime.platform.files.upload({
        bucket: "media",
        path: `${EASYMO}/property/${KAMATAMU}/${n}.jpg`,
        bytes: PNG_1X1,
        contentType: "image/png",
        upsert: true,
      });
    }
    // CSP bypassed only so axe-core can be injected; the page itself runs under its policy elsewhere.
    const { page, errors } = await open({ bypassCSP: true });
    await signIn(page);

    const listings = page.getByRole("region", { name: "Listings to approve" });
    const card = listings.getByRole("listitem", { name: "2-bedroom apartment in Kamatamu" });
    await card.waitFor();
    assert.match(
      await card.textContent() ?? "",
      /250,000 RWF\/month · 2 bedrooms · Kacyiru, Kamatamu/,
    );
    // Both photos load (decoded, not broken links).
    const photo = card.getByRole("img", { name: "Photo 2 of 2-bedroom apartment in Kamatamu" });
    await photo.waitFor();
    await page.waitForFunction(
      `[...document.querySelectorAll(".listing-photo")].every((img) => img.complete && img.naturalWidth === 1)`,
    );
    assert.equal(await card.getByRole("img").count(), 2);
    // One or many, like the rest of the page: never "photo(s)".
    await card.getByText("1 photo could not be linked.", { exact: true }).waitFor();

    assert.deepEqual(
      await axeViolations(page, { selector: "#listings", rules: ["wcag2a", "wcag2aa"] }),
      [],
    );

    // Rejecting needs a reason; the listing stays pending.
    await card.getByRole("button", { name: "Reject" }).click();
    await listings.getByText("Say why the listing is rejected").waitFor();
    const [still] = await server.runtime.platform.db.query<{ status: string }>(
      "select status from public.property_listings where id = $1",
      [KAMATAMU],
    );
    assert.equal(still.status, "pending");

    await card.getByRole("button", { name: "Approve" }).click();
    await listings.getByText("No listing waits for approval.").waitFor();
    const found = await server.runtime.platform.call({
      tool: "property_search",
      args: { area: "Kamatamu" },
      caller: { claims: { sub: ALINE, role: "authenticated" }, org_id: EASYMO },
    });
    assert.ok(found.ok, JSON.stringify(found));
    assert.equal((found.data as { listings: unknown[] }).listings.length, 1);
    assert.deepEqual(errors, []);
  },
);
