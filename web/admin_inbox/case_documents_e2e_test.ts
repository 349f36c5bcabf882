/**
 * End to end: real headless Chromium drives the real Admin Inbox page, served
 * with the real API by the in-process dev server (embedded database, seed):
 * a legal case filed with a photo and a PDF opens a ticket, and staff see the
 * case's photo load from Storage (a signed link, as listings' photos are
 * shown) and the PDF as a link, on the ticket's page.
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
const JEAN = "00000000-0000-4000-8000-000000000002";
// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
const PDF = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");

const missingBrowser = missingBrowserReason();
if (missingBrowser) console.warn(`Admin Inbox case browser test skipped: ${missingBrowser}`);

Deno.test({
  name: "Admin Inbox in headless Chromium: staff see a legal case's photo and document",
  ignore: missingBrowser !== null,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "easymo-case-e2e-" });
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
      const files = server.runtime.platform.files;
      await files.upload({
        bucket: "media",
        path: `${EASYMO}/legal-e2e/lease.png`,
        bytes: PNG,
        contentType: "image/png",
      });
      await files.upload({
        bucket: "media",
        path: `${EASYMO}/legal-e2e/contract.pdf`,
        bytes: PDF,
        contentType: "application/pdf",
      });
      const file = (args: Record<string, unknown>, confirmation?: string) =>
        server.runtime.platform.call({
          tool: "case_intake",
          args,
          caller: { claims: { sub: JEAN, role: "authenticated" }, org_id: EASYMO },
          idempotencyKey: "case-e2e",
          confirmation,
        });
      const args = {
        category: "tenancy",
        summary: "My landlord keeps my deposit although I left the house clean.",
        docs: [
          `storage://media/${EASYMO}/legal-e2e/lease.png`,
          `storage://media/${EASYMO}/legal-e2e/contract.pdf`,
        ],
        client_name: "Aline Uwase",
        client_phone: "+250788000001",
        language: "en",
      };
      const asked = await file(args);
      assert.ok(!asked.ok && asked.error.confirmation, JSON.stringify(asked));
      const filed = await file(args, asked.error.confirmation.token);
      assert.ok(filed.ok, JSON.stringify(filed));
      const reference = (filed.data as { reference_number: string }).reference_number;

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

      const item = page.getByRole("navigation", { name: "Queue" })
        .getByRole("link", { name: new RegExp(`Legal case ${reference}`) });
      await item.waitFor();
      await item.click();
      const documents = page.getByRole("list", { name: `Documents of case ${reference}` });
      const photo = documents.getByRole("img", { name: `Document 1 of case ${reference}` });
      await photo.waitFor();
      // The photo loads from Storage (decoded, not a broken link).
      await page.waitForFunction(
        `[...document.querySelectorAll(".case-photo")].every((img) => img.complete && img.naturalWidth === 1)`,
      );
      const pdf = documents.getByRole("link", { name: `Document 2 of case ${reference} (pdf)` });
      await pdf.waitFor();
      const response = await fetch(await pdf.getAttribute("href") ?? "");
      assert.equal(response.status, 200);
      assert.equal(new TextDecoder().decode(await response.arrayBuffer()), "%PDF-1.4\n%%EOF\n");

      await page.addScriptTag({ content: (axeCore as unknown as { source: string }).source });
      const axe = await page.evaluate(
        "axe.run(document.querySelector('#case-documents-section'), { runOnly: ['wcag2a', 'wcag2aa'] })",
      ) as { violations: Array<{ id: string }> };
      assert.deepEqual(axe.violations.map((v) => v.id), []);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});
