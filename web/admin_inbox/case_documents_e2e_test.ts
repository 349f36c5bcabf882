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
import {
  adminInboxTest,
  axeViolations,
  PDF_MINIMAL,
  PNG_1X1,
  signIn,
} from "@testing/admin_inbox_browser.ts";

const EASYMO = "a0000000-0000-4000-8000-000000000001";
const JEAN = "00000000-0000-4000-8000-000000000002";

adminInboxTest(
  "Admin Inbox in headless Chromium: staff see a legal case's photo and document",
  { label: "Admin Inbox case browser test" },
  async ({ server, open }) => {
    const files = server.runtime.platform.files;
    await files.upload({
      bucket: "media",
      path: `${EASYMO}/legal-e2e/lease.png`,
      bytes: PNG_1X1,
      contentType: "image/png",
    });
    await files.upload({
      bucket: "media",
      path: `${EASYMO}/legal-e2e/contract.pdf`,
      bytes: PDF_MINIMAL,
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

    const { page, errors } = await open({ bypassCSP: true });
    await signIn(page);

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

    assert.deepEqual(
      await axeViolations(page, {
        selector: "#case-documents-section",
        rules: ["wcag2a", "wcag2aa"],
      }),
      [],
    );
    assert.deepEqual(errors, []);
  },
);
