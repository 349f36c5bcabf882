/**
 * `generate_pdf` through the pipeline, on PGlite and Postgres, against the
 * local Storage server on a loopback port (the production supabase-js client
 * and Storage wire format): the PDF stored at `<org>/<sha256>.pdf`, its
 * signed link opening until it expires, idempotent repeats, who may issue
 * what, and refusals naming the fields.
 */
import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, TEST_SECRET, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { pdfUrlTtlDaysFromEnv } from "@shared/platform/env.ts";
import { createPlatform } from "@shared/platform/platform.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { CERTIFICATE, QUOTE } from "@testing/document_fixtures.ts";
import { createGeneratePdf } from "./generate_pdf.ts";

const DAY_MS = 86_400_000;

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), {
    mergePages: true,
  });
  return text.replace(/\s+/g, " ");
}

dbTest(
  "staff issue a certificate: stored by its hash, linked, readable, the same on repeat",
  async (db) => {
    let clock = new Date();
    const storage = await startTestStorage(db, { now: () => clock });
    try {
      const rt = await createTestRuntime(db, {
        provide: [{ key: FILE_STORE, value: storage.files }],
      });
      const args = { template_id: "insurance_certificate", data: CERTIFICATE, locale: "rw" };
      const before = Date.now();
      const result = await rt.callAs(USER.jean, "generate_pdf", args);
      assert.ok(result.ok, JSON.stringify(result));
      const data = result.data;
      assert.equal(data.path, `${ORG.easymo}/${data.sha256}.pdf`);
      assert.equal(data.locale, "rw");
      // Seven days by default.
      const expires = new Date(data.expires_at).getTime();
      assert.ok(
        expires >= before + 7 * DAY_MS && expires <= Date.now() + 7 * DAY_MS,
        data.expires_at,
      );

      const response = await fetch(data.pdf_url);
      assert.equal(response.status, 200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.equal(bytes.byteLength, data.bytes);
      assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
      const text = await pdfText(bytes);
      assert.ok(text.includes("Icyemezo cy’ubwishingizi bw’ikinyabiziga"), text);
      assert.ok(text.includes("Ubwishingizi"), text);
      assert.ok(text.includes("Aline Uwimana"), text);

      // Repeating the call renders the same bytes to the same path (one file), with a fresh link.
      const again = await rt.callAs(USER.jean, "generate_pdf", args);
      assert.ok(again.ok, JSON.stringify(again));
      assert.equal(again.data.path, data.path);
      assert.equal(again.data.sha256, data.sha256);
      const reopened = await fetch(again.data.pdf_url);
      assert.equal(reopened.status, 200);
      assert.deepEqual(new Uint8Array(await reopened.arrayBuffer()), bytes);
      const objects = await db.query<{ name: string }>(
        "select name from storage.objects where bucket_id = 'documents'",
      );
      assert.deepEqual(objects.map((o) => o.name), [data.path]);

      // Staff of the org read it; another org's people do not, nor a customer outside the link.
      const asStaff = await storage.filesAs(USER.jean);
      assert.equal(
        (await asStaff.download({ bucket: "documents", path: data.path })).bytes.byteLength,
        data.bytes,
      );
      for (const outsider of [USER.nina, USER.paul, USER.aline]) {
        const files = await storage.filesAs(outsider);
        await assert.rejects(files.download({ bucket: "documents", path: data.path }), {
          code: "NOT_FOUND",
        });
      }

      // The link stops opening once it has expired.
      clock = new Date(expires + 1000);
      const late = await fetch(data.pdf_url);
      await late.body?.cancel();
      assert.notEqual(late.status, 200);
    } finally {
      await storage.close();
    }
  },
);

dbTest("customers render quotes but cannot issue certificates or receipts", async (db) => {
  const storage = await startTestStorage(db);
  try {
    const rt = await createTestRuntime(db, {
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    const quote = await rt.callAs(USER.aline, "generate_pdf", {
      template_id: "insurance_quote",
      data: QUOTE,
      locale: "fr",
    }, { idempotencyKey: "q1" });
    assert.ok(quote.ok, JSON.stringify(quote));
    const text = await pdfText(
      new Uint8Array(await (await fetch(quote.data.pdf_url)).arrayBuffer()),
    );
    assert.ok(text.includes("Devis d’assurance") && text.includes("Émis le"), text);

    const forged = await rt.callAs(USER.aline, "generate_pdf", {
      template_id: "insurance_certificate",
      data: CERTIFICATE,
      locale: "en",
    }, { idempotencyKey: "f1" });
    assert.equal(forged.error.code, "AUTH_ERROR");
    assert.match(forged.error.msg, /insurance certificate/);
    const objects = await db.query("select 1 from storage.objects where bucket_id = 'documents'");
    assert.equal(objects.length, 1);
  } finally {
    await storage.close();
  }
});

dbTest("an unknown template or missing data is VALIDATION_ERROR naming the fields", async (db) => {
  const storage = await startTestStorage(db);
  try {
    const rt = await createTestRuntime(db, {
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    const call = (args: unknown, key: string) =>
      rt.callAs(USER.jean, "generate_pdf", args, { idempotencyKey: key });
    const unknown = await call({ template_id: "lease_contract", data: {} }, "v1");
    assert.equal(unknown.error.code, "VALIDATION_ERROR");
    assert.deepEqual(unknown.error.fields.map((f: TestData) => f.path), ["template_id"]);
    assert.match(unknown.error.fields[0].message, /insurance_quote/);
    const { vehicle: _, ...withoutVehicle } = CERTIFICATE;
    const missing = await call({
      template_id: "insurance_certificate",
      data: { ...withoutVehicle, premium: -5 },
    }, "v2");
    assert.equal(missing.error.code, "VALIDATION_ERROR");
    assert.deepEqual(
      missing.error.fields.map((f: TestData) => f.path).sort(),
      ["data.premium", "data.vehicle"],
    );
    assert.match(missing.error.msg, /data\.vehicle/);
    const noData = await call({ template_id: "insurance_quote" }, "v3");
    assert.deepEqual(noData.error.fields.map((f: TestData) => f.path), ["data"]);
    const badLocale = await call(
      { template_id: "insurance_quote", data: QUOTE, locale: "de" },
      "v4",
    );
    assert.deepEqual(badLocale.error.fields.map((f: TestData) => f.path), ["locale"]);
    const objects = await db.query("select 1 from storage.objects");
    assert.equal(objects.length, 0);
  } finally {
    await storage.close();
  }
});

dbTest("without Storage configured the call says so rather than pretending", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "generate_pdf", {
    template_id: "insurance_quote",
    data: QUOTE,
  }, { idempotencyKey: "n1" });
  assert.equal(result.error.code, "SERVICE_UNAVAILABLE");
  assert.match(result.error.msg, /not configured/);
});

dbTest("links last PDF_URL_TTL_DAYS days, 30 at most", async (db) => {
  const storage = await startTestStorage(db);
  try {
    // The platform option the environment sets.
    const platform = await createPlatform({
      db,
      secret: TEST_SECRET,
      pdfUrlTtlDays: 30,
      provide: [
        { key: FILE_STORE, value: storage.files },
        { key: PDF_RENDERER, value: renderPdf },
      ],
    });
    const result = await platform.call({
      tool: "generate_pdf",
      args: { template_id: "insurance_quote", data: QUOTE, locale: "en" },
      caller: { claims: { sub: USER.aline, role: "authenticated" }, org_id: ORG.easymo },
      idempotencyKey: "t30",
    }) as TestData;
    assert.ok(result.ok, JSON.stringify(result));
    const days = (new Date(result.data.expires_at).getTime() - Date.now()) / DAY_MS;
    assert.ok(days > 29.9 && days <= 30, String(days));
    await platform.traces.flush();
  } finally {
    await storage.close();
  }
  assert.throws(() => createGeneratePdf({ urlTtlDays: 31 }), RangeError);
  assert.throws(() => createGeneratePdf({ urlTtlDays: 0 }), RangeError);
  const env = (value: string | undefined) => ({ get: () => value });
  assert.equal(pdfUrlTtlDaysFromEnv(env(undefined)), undefined);
  assert.equal(pdfUrlTtlDaysFromEnv(env("14")), 14);
  for (const bad of ["31", "0", "7.5", "seven"]) {
    assert.throws(() => pdfUrlTtlDaysFromEnv(env(bad)), /PDF_URL_TTL_DAYS/);
  }
});

dbTest(
  "a function that lays out no documents answers SERVICE_UNAVAILABLE, honestly",
  async (db) => {
    const storage = await startTestStorage(db);
    try {
      // What the webhook, admin-messages and ocr-processor functions run: no PDF_RENDERER provided.
      const platform = await createPlatform({
        db,
        secret: TEST_SECRET,
        provide: [{ key: FILE_STORE, value: storage.files }],
      });
      const result = await platform.call({
        tool: "generate_pdf",
        args: { template_id: "insurance_quote", data: QUOTE, locale: "en" },
        caller: { claims: { sub: USER.aline, role: "authenticated" }, org_id: ORG.easymo },
        idempotencyKey: "no-renderer",
      });
      assert.equal(result.ok ? "ok" : result.error.code, "SERVICE_UNAVAILABLE");
      await platform.traces.flush();
    } finally {
      await storage.close();
    }
  },
);
