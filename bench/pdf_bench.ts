/**
 * What a document costs to generate, per template and language, beside a
 * baseline in the same process: a bare pdf-lib page with one line in a
 * standard font (no embedded font, no layout). The difference is the
 * embedded DejaVu Sans subset (parsed by fontkit on each document) and the
 * layout.
 *
 * - `deno task bench` runs the groups below (its summary prints the ratio of
 *   means against the baseline);
 * - `deno run -A bench/pdf_bench.ts` prints median and mean of each
 *   template, interleaved with the baseline, and their ratios.
 *
 * Storage upload and signing are not included: they are a network round
 * trip each, measured by the deployment, not here.
 *
 * @module
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { renderDocument } from "@shared/capabilities/documents/render_document.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import { CERTIFICATE, QUOTE, RECEIPT } from "@testing/document_fixtures.ts";

const CASES = [
  { templateId: "insurance_certificate", data: CERTIFICATE, language: "rw" as const },
  { templateId: "insurance_quote", data: QUOTE, language: "fr" as const },
  { templateId: "payment_receipt", data: RECEIPT, language: "en" as const },
];

async function baseline(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText("Payment receipt R-000042", { x: 50, y: 780, size: 12, font });
  return await doc.save();
}

for (const item of CASES) {
  Deno.bench(`baseline: bare pdf-lib page (${item.templateId})`, {
    group: item.templateId,
    baseline: true,
  }, async () => {
    await baseline();
  });
  Deno.bench(`${item.templateId} (${item.language})`, { group: item.templateId }, async () => {
    await renderDocument({ ...item, renderPdf });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (import.meta.main) {
  const runs = Number(Deno.args[0] ?? 30);
  await renderDocument({ ...CASES[0], renderPdf }); // unpack the font, warm the JIT
  for (const item of CASES) {
    const ours: number[] = [];
    const base: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      let start = performance.now();
      await baseline();
      base.push(performance.now() - start);
      start = performance.now();
      bytes = (await renderDocument({ ...item, renderPdf })).bytes.byteLength;
      ours.push(performance.now() - start);
    }
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    console.log(
      `${item.templateId} (${item.language}, ${bytes} bytes): median ${
        median(ours).toFixed(1)
      } ms, ` +
        `mean ${mean(ours).toFixed(1)} ms; baseline median ${median(base).toFixed(2)} ms; ` +
        `ratio of medians ${(median(ours) / median(base)).toFixed(1)}×`,
    );
  }
}
