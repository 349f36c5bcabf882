/**
 * `legal_case_summary` rendered and read back with a real PDF reader: the
 * reference, the client's own account and the "not advice" line in each
 * language; a missing field named.
 */
import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import { DocumentInputError, renderDocument } from "../render_document.ts";
import { renderPdf } from "../pdf_render.ts";

const CASE = {
  reference_number: "LC-2026-000123",
  category: "land",
  client_name: "Aline Uwase",
  client_phone: "+250788000001",
  summary: "Mon voisin a construit un mur sur ma parcelle à Kicukiro le mois dernier.",
  documents: 1,
  consultation_fee: 10000,
  filed_at: "2026-11-26T10:00:00+02:00",
};

async function textOf(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), {
    mergePages: true,
  });
  return text.replace(/\s+/g, " ");
}

for (
  const [language, expected] of [
    ["fr", [
      "Résumé de l'enregistrement de l'affaire",
      "Foncier / biens",
      "Ce n'est pas un conseil",
    ]],
    ["en", ["Legal case intake summary", "Land / property", "It is not legal advice"]],
    ["rw", ["Incamake y'ikibazo cy'amategeko", "Ubutaka n'imitungo", "Si inama mu by'amategeko"]],
  ] as const
) {
  Deno.test(`legal_case_summary in ${language} reads back with the case and no advice`, async () => {
    const { bytes } = await renderDocument({
      templateId: "legal_case_summary",
      data: CASE,
      language,
      renderPdf,
    });
    const text = await textOf(bytes);
    for (const phrase of [...expected, "LC-2026-000123", "Aline Uwase", "Kicukiro"]) {
      assert.ok(text.includes(phrase), `"${phrase}" in: ${text}`);
    }
  });
}

Deno.test("legal_case_summary names a missing field", async () => {
  const { reference_number: _dropped, ...rest } = CASE;
  await assert.rejects(
    () =>
      renderDocument({ templateId: "legal_case_summary", data: rest, language: "en", renderPdf }),
    (error) =>
      error instanceof DocumentInputError &&
      error.fields.some((field) => field.path === "data.reference_number"),
  );
});
