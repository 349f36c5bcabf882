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
import axeCore from "axe-core";
import { openTestDatabase } from "@testing/db.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { startDevServer } from "../../scripts/dev_server.ts";
import { launchChromium, missingBrowserReason } from "./testing_browser.ts";

const EASYMO = "a0000000-0000-4000-8000-000000000001";
const ALINE = "00000000-0000-4000-8000-000000000001";
const KAMATAMU = "70000000-0000-4000-8000-000000000006"; // Jeanne's, seeded pending
// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

const missingBrowser = missingBrowserReason();
if (missingBrowser) console.warn(`Admin Inbox listings browser test skipped: ${missingBrowser}`);

Deno.test({
  name: "Admin Inbox in headless Chromium: staff see a listing's photos and approve it",
  ignore: missingBrowser !== null,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "easymo-listings-e2e-" });
    const server = await startDevServer({
      port: 0,
      root,
      database: await openTestDatabase(),
      log: memoryLogger(),
    });
    const launched = await launchChromium();
    assert.ok(launched, "Chromium vanished after the check");
    const { browser } = launched;
    try {
      // The landlord's two photos, as the chat stored them.
      for (const n of [1, 2]) {
        await server.runtime.platform.files.upload({
          bucket: "media",
          path: `${EASYMO}/property/${KAMATAMU}/${n}.jpg`,
          bytes: PNG,
          contentType: "image/png",
          upsert: true,
        });
      }
      // CSP bypassed only so axe-core can be injected; the page itself runs under its policy elsewhere.
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(String(error)));
      await page.goto(`${server.url}/admin/`);
      await page.getByLabel("Email or phone").fill("jean.staff@easymo.rw");
      await page.getByLabel("Password").fill("easymo-dev");
      await page.getByRole("button", { name: "Sign in" }).click();

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

      await page.addScriptTag({ content: (axeCore as unknown as { source: string }).source });
      const axe = await page.evaluate(
        "axe.run(document.querySelector('#listings'), { runOnly: ['wcag2a', 'wcag2aa'] })",
      ) as { violations: Array<{ id: string }> };
      assert.deepEqual(axe.violations.map((v) => v.id), []);

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
      await context.close();
    } finally {
      await browser.close();
      await server.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});
