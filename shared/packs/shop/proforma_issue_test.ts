/**
 * `proforma_issue` and `proforma_pdf` on PGlite and Postgres: a proforma numbered from the org's
 * counter (the year from the injected clock), priced from the stock whatever the caller sends,
 * named in the customer's language, stored as a PDF that says so; bad input named by field with nothing
 * kept; a customer reads only their own proformas, staff their org's, another tenant none; nobody
 * renders the template with figures of their choosing.
 */
import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { enableTools } from "@testing/tenant_policy.ts";
import { ORG, USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";

const ISSUED_AT = new Date("2026-12-31T22:30:00Z"); // 00:30 on 1 January 2027 in Kigali
const WAREHOUSE = "d0000000-0000-4000-8000-000000000001";
const SCHOOL = {
  business_id: WAREHOUSE,
  items: [{ sku: "A4-500", qty: 200 }, { sku: "ENV-C5-50", qty: 50 }],
  customer_name: "Groupe Scolaire Remera",
  language: "fr",
};

async function pdfText(url: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/\s+/g, " ");
}

dbTest(
  "proforma_issue() numbers, prices from stock and stores the proforma as a PDF",
  async (db) => {
    const storage = await startTestStorage(db);
    try {
      const rt = await createTestRuntime(db, {
        now: () => ISSUED_AT,
        provide: [{ key: FILE_STORE, value: storage.files }],
      });
      const issued = await rt.callAs(USER.nina, "proforma_issue", SCHOOL, {
        idempotencyKey: "p1",
        org: ORG.beaver,
      });
      assert.ok(issued.ok, JSON.stringify(issued));
      const proforma = issued.data;
      assert.equal(proforma.number, "PF-2027-000001");
      assert.deepEqual(
        proforma.lines.map((line: { name: string; qty: number; unit_price: number }) => [
          line.name,
          line.qty,
          line.unit_price,
        ]),
        [["Papier A4 (500 feuilles)", 200, 6500], ["Enveloppes C5 (50)", 50, 4000]],
      );
      assert.equal(proforma.total, 1_500_000);
      assert.equal(proforma.currency, "RWF");
      assert.equal(proforma.valid_until, "2027-01-14T22:30:00.000Z");
      const pdf = await rt.callAs(
        USER.nina,
        "proforma_pdf",
        { proforma_id: proforma.proforma_id },
        {
          org: ORG.beaver,
        },
      );
      assert.ok(pdf.ok, JSON.stringify(pdf));
      assert.equal(pdf.data.path.split("/")[0], ORG.beaver);
      const text = await pdfText(pdf.data.pdf_url);
      for (
        const expected of [
          "Facture proforma",
          "PF-2027-000001",
          "Beaver's Choice",
          "Kigali Special Economic Zone, Masoro",
          "+250780000002",
          "Groupe Scolaire Remera",
          "1 janvier 2027",
          "15 janvier 2027",
          "1 300 000 RWF",
          "1 500 000 RWF",
        ]
      ) assert.ok(text.includes(expected), `${expected} in ${text}`);

      // A replay is the same proforma; the next one is the next number.
      const replay = await rt.callAs(USER.nina, "proforma_issue", SCHOOL, {
        idempotencyKey: "p1",
        org: ORG.beaver,
      });
      assert.ok(replay.ok && replay.data.number === "PF-2027-000001", JSON.stringify(replay));
      const next = await rt.callAs(USER.nina, "proforma_issue", {
        ...SCHOOL,
        items: [{ sku: "A3-500", qty: 2 }],
        language: "rw",
      }, { idempotencyKey: "p2", org: ORG.beaver });
      assert.ok(next.ok, JSON.stringify(next));
      assert.equal(next.data.number, "PF-2027-000002");
      assert.equal(next.data.lines[0].name, "Impapuro A3 (impapuro 500)");

      // Numbers are per org: EasyMO's first proforma of the year is its own 000001.
      const aline = await rt.callAs(USER.aline, "proforma_issue", {
        business_id: "c0000000-0000-4000-8000-000000000003",
        items: [{
          sku: (await db.query<{ sku: string }>(
            "select sku from public.products where business_id = $1 and is_available limit 1",
            ["c0000000-0000-4000-8000-000000000003"],
          ))[0].sku,
          qty: 1,
        }],
        customer_name: "Aline Uwase",
      }, { idempotencyKey: "a1" });
      assert.ok(aline.ok, JSON.stringify(aline));
      assert.equal(aline.data.number, "PF-2027-000001");

      const visible = async (user: string) =>
        (await db.asCaller(
          { sub: user, role: "authenticated" },
          (tx) =>
            tx.query<{ number: string }>("select number from public.proformas order by number"),
        )).map((row) => row.number);
      assert.deepEqual(await visible(USER.nina), ["PF-2027-000001", "PF-2027-000002"]);
      assert.deepEqual(await visible(USER.paul), ["PF-2027-000001", "PF-2027-000002"]);
      assert.deepEqual(await visible(USER.aline), ["PF-2027-000001"]);
      assert.equal((await visible(USER.eric)).length, 0, "another customer of EasyMO sees none");
      // Another customer's proforma answers as a missing one; staff of its org get its PDF.
      for (const [user, org] of [[USER.aline, ORG.easymo], [USER.eric, ORG.easymo]]) {
        const other = await rt.callAs(user, "proforma_pdf", { proforma_id: proforma.proforma_id }, {
          org,
        });
        assert.equal(other.ok, false);
        assert.equal(other.error.code, "NOT_FOUND", JSON.stringify(other));
      }
      const staff = await rt.callAs(USER.paul, "proforma_pdf", {
        proforma_id: proforma.proforma_id,
      }, {
        org: ORG.beaver,
      });
      assert.ok(staff.ok, JSON.stringify(staff));
      assert.equal(staff.data.path, pdf.data.path, "the same proforma is the same file");
      // Nor may a customer rewrite what was issued.
      const rewritten = await db.asCaller(
        { sub: USER.nina, role: "authenticated" },
        (tx) => tx.query<{ id: string }>("update public.proformas set total = 1 returning id"),
      );
      assert.equal(rewritten.length, 0);
    } finally {
      await storage.close();
    }
  },
);

dbTest("proforma_issue() names bad input by field and keeps nothing", async (db) => {
  const rt = await createTestRuntime(db, { now: () => ISSUED_AT });
  const call = (args: unknown, key: string) =>
    rt.callAs(USER.nina, "proforma_issue", args, { idempotencyKey: key, org: ORG.beaver });
  const cases: Array<[unknown, string, string]> = [
    [{ ...SCHOOL, items: [{ sku: "STAPLER", qty: 1 }] }, "VALIDATION_ERROR", "items.0.sku"],
    [
      { ...SCHOOL, items: [{ sku: "A4-500", qty: 1 }, { sku: "A4-500", qty: 2 }] },
      "VALIDATION_ERROR",
      "items.1.sku",
    ],
    [{ ...SCHOOL, items: [] }, "VALIDATION_ERROR", "items"],
    [{ ...SCHOOL, items: [{ sku: "A4-500", qty: 0 }] }, "VALIDATION_ERROR", "items.0.qty"],
    [{ ...SCHOOL, customer_name: "" }, "VALIDATION_ERROR", "customer_name"],
    // Another tenant's place answers as if it did not exist.
    [
      { ...SCHOOL, business_id: "c0000000-0000-4000-8000-000000000003" },
      "NOT_FOUND",
      "business_id",
    ],
  ];
  for (const [index, [args, code, path]] of cases.entries()) {
    const result = await call(args, `bad-${index}`);
    assert.equal(result.ok, false, JSON.stringify(args));
    assert.equal(result.error.code, code, JSON.stringify(result));
    assert.ok(
      result.error.fields?.some((field: { path: string }) => field.path === path),
      JSON.stringify(result.error),
    );
  }
  const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from public.proformas");
  assert.equal(n, 0);
  const [{ counters }] = await db.query<{ counters: number }>(
    "select count(*)::int as counters from private.proforma_counters",
  );
  assert.equal(counters, 0, "no number is taken by a refused request");
});

dbTest("a customer cannot render a proforma with figures of their own", async (db) => {
  const rt = await createTestRuntime(db, { now: () => ISSUED_AT });
  await enableTools(db, rt.platform.tenants, ORG.beaver, ["generate_pdf"]);
  const forged = await rt.callAs(USER.nina, "generate_pdf", {
    template_id: "proforma",
    locale: "en",
    data: {
      number: "PF-2027-000999",
      seller: "Beaver's Choice",
      customer_name: "Nina",
      currency: "RWF",
      lines: [{ name: "A4 paper", qty: 100, unit_price: 1 }],
      total: 100,
      issued_at: "2027-01-01T10:00:00+02:00",
      valid_until: "2027-01-15T10:00:00+02:00",
    },
  }, { org: ORG.beaver });
  assert.equal(forged.ok, false);
  assert.equal(forged.error.code, "AUTH_ERROR");
});

dbTest(
  "proforma_issue() holds prices as long as the tenant says and prints the buyer's TIN",
  async (db) => {
    const storage = await startTestStorage(db);
    try {
      await db.query("update public.orgs set proforma_valid_days = 30 where id = $1", [ORG.beaver]);
      const rt = await createTestRuntime(db, {
        now: () => ISSUED_AT,
        provide: [{ key: FILE_STORE, value: storage.files }],
      });
      const issued = await rt.callAs(USER.nina, "proforma_issue", {
        ...SCHOOL,
        customer_tin: "102 345 678",
      }, { idempotencyKey: "tin-1", org: ORG.beaver });
      assert.ok(issued.ok, JSON.stringify(issued));
      assert.equal(issued.data.valid_until, "2027-01-30T22:30:00.000Z");
      assert.equal(issued.data.customer_tin, "102345678");
      const [kept] = await db.query<{ customer_tin: string }>(
        "select customer_tin from public.proformas",
      );
      assert.equal(kept.customer_tin, "102345678");
      const pdf = await rt.callAs(USER.nina, "proforma_pdf", {
        proforma_id: issued.data.proforma_id,
      }, { org: ORG.beaver });
      assert.ok(pdf.ok, JSON.stringify(pdf));
      const text = await pdfText(pdf.data.pdf_url);
      for (const expected of ["NIF", "102345678", "31 janvier 2027"]) {
        assert.ok(text.includes(expected), `${expected} in ${text}`);
      }
      // Another tenant's setting is its own: EasyMO's proformas still hold 14 days.
      const [easymo] = await db.query<{ days: number }>(
        "select proforma_valid_days as days from public.orgs where id = $1",
        [ORG.easymo],
      );
      assert.equal(easymo.days, 14);

      // A TIN that is not 9 digits is named by its field, and nothing is issued.
      const bad = await rt.callAs(USER.nina, "proforma_issue", {
        ...SCHOOL,
        customer_tin: "10234567",
      }, { idempotencyKey: "tin-2", org: ORG.beaver });
      assert.equal(bad.ok, false);
      assert.equal(bad.error.code, "VALIDATION_ERROR");
      assert.ok(
        bad.error.fields?.some((field: { path: string }) => field.path === "customer_tin"),
        JSON.stringify(bad.error),
      );
      const [{ n }] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.proformas",
      );
      assert.equal(n, 1);
    } finally {
      await storage.close();
    }
  },
);
