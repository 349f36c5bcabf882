/**
 * Documents rendered and read back with a real PDF reader (unpdf, pdf.js):
 * the text in each language, French and Kinyarwanda letters included, the
 * same bytes for the same input, and refusals naming the fields.
 */
import assert from "node:assert/strict";
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import type { Language } from "@shared/contract/language.ts";
import { CERTIFICATE, QUOTE, RECEIPT } from "@testing/document_fixtures.ts";
import { DocumentInputError, renderDocument } from "./render_document.ts";
import { renderPdf } from "./pdf_render.ts";

async function textOf(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

const CASES: Array<[string, unknown, Language, string[]]> = [
  ["insurance_certificate", CERTIFICATE, "en", [
    "Certificate of Motor Insurance",
    "EMO-2026-000123",
    "RAD 123 A",
    "Third party liability",
    "23 November 2026",
    "97,080 RWF",
  ]],
  ["insurance_certificate", CERTIFICATE, "fr", [
    "Attestation d’assurance automobile",
    "Assuré",
    "Véhicule",
    "Responsabilité civile (tiers)",
    "Délivrée le",
    "97 080 RWF",
    "22 novembre 2027",
  ]],
  ["insurance_certificate", CERTIFICATE, "rw", [
    "Icyemezo cy’ubwishingizi bw’ikinyabiziga",
    "Ubwishingizi",
    "Indangamuntu",
    "23 Ugushyingo 2026",
    "Bika iki cyemezo mu kinyabiziga",
  ]],
  ["insurance_quote", QUOTE, "fr", [
    "Devis d’assurance",
    "Q-7F3A",
    "Prime nette",
    "TVA 18 %",
    "14 580 RWF",
    "Émis le 23 novembre 2026",
    "valables jusqu’au 30 novembre 2026",
  ]],
  ["insurance_quote", QUOTE, "rw", ["Igiciro cy’ubwishingizi", "Igiteranyo", "Iminsi 365"]],
  ["payment_receipt", RECEIPT, "fr", [
    "Reçu de paiement",
    "Café latte",
    "Brochettes de chèvre",
    "Total payé",
    "7 500 RWF",
    "Mobile money (MoMo)",
  ]],
  ["payment_receipt", RECEIPT, "en", ["Payment receipt", "R-000042", "Total paid", "7,500 RWF"]],
  ["payment_receipt", RECEIPT, "rw", ["Inyemezabwishyu", "Igiteranyo cyishyuwe", "nk’ikimenyetso"]],
];

for (const [templateId, data, language, expected] of CASES) {
  Deno.test(`${templateId} in ${language} reads back with its text`, async () => {
    const { bytes } = await renderDocument({ templateId, data, language, renderPdf });
    const text = await textOf(bytes);
    for (const phrase of expected) assert.ok(text.includes(phrase), `"${phrase}" in: ${text}`);
  });
}

Deno.test("the same template, data and language give byte-identical PDFs", async () => {
  const a = await renderDocument({
    renderPdf,
    templateId: "insurance_certificate",
    data: CERTIFICATE,
    language: "fr",
  });
  const b = await renderDocument({
    renderPdf,
    templateId: "insurance_certificate",
    // Key order does not matter: the data is compared as parsed.
    data: Object.fromEntries(Object.entries(CERTIFICATE).reverse()),
    language: "fr",
  });
  assert.equal(a.sha256, b.sha256);
  assert.deepEqual(a.bytes, b.bytes);
  const other = await renderDocument({
    renderPdf,
    templateId: "insurance_certificate",
    data: CERTIFICATE,
    language: "rw",
  });
  assert.notEqual(other.sha256, a.sha256);
  const changed = await renderDocument({
    renderPdf,
    templateId: "insurance_certificate",
    data: { ...CERTIFICATE, premium: 97081 },
    language: "fr",
  });
  assert.notEqual(changed.sha256, a.sha256);
  // The document's own date is the PDF's, not the clock's.
  const meta = await getMeta(await getDocumentProxy(new Uint8Array(a.bytes)));
  assert.equal(meta.info.Title, "Attestation d’assurance automobile");
  assert.match(String(meta.info.CreationDate), /^D:20261122220000/);
});

Deno.test("an unknown template or missing data is refused naming the fields", async () => {
  const refused = async (templateId: string, data: unknown) => {
    try {
      await renderDocument({ templateId, data, language: "en", renderPdf });
    } catch (error) {
      assert.ok(error instanceof DocumentInputError, String(error));
      return error.fields;
    }
    throw new Error("rendered");
  };
  const unknown = await refused("contract_of_sale", {});
  assert.deepEqual(unknown.map((f) => f.path), ["template_id"]);
  assert.match(unknown[0].message, /insurance_certificate, insurance_quote, payment_receipt/);
  const { vehicle: _, insured, ...rest } = CERTIFICATE;
  const missing = await refused("insurance_certificate", {
    ...rest,
    insured: { ...insured, national_id: "12" },
  });
  assert.deepEqual(missing.map((f) => f.path).sort(), ["data.insured.national_id", "data.vehicle"]);
  const badTotal = await refused("payment_receipt", { ...RECEIPT, total: 1 });
  assert.deepEqual(badTotal.map((f) => f.path), ["data.total"]);
  assert.match(badTotal[0].message, /7500/);
  const badSum = await refused("insurance_quote", {
    ...QUOTE,
    quotes: [{ ...QUOTE.quotes[0], premium: 1 }],
  });
  assert.deepEqual(badSum.map((f) => f.path), ["data.quotes.0.premium"]);
});

Deno.test("long values wrap and long tables continue on a second page", async () => {
  const items = Array.from({ length: 50 }, (_, i) => ({
    name: `Article ${i + 1} — ${"très long nom d’article ".repeat(3)}`,
    qty: 1,
    unit_price: 100,
  }));
  const { bytes } = await renderDocument({
    renderPdf,
    templateId: "payment_receipt",
    data: { ...RECEIPT, items, total: 5000 },
    language: "fr",
  });
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  assert.ok(pdf.numPages >= 2, `${pdf.numPages} pages`);
  const text = await textOf(bytes);
  assert.ok(text.includes("Article 50"), text.slice(-400));
  assert.ok(text.includes("5 000 RWF"));
});
