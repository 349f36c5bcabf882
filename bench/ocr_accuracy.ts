/**
 * Field accuracy of ocr_extract's reader on the synthetic fixtures
 * (`testing/documents/`): exact matches per document type and overall, and
 * non-documents refused, for the raw baseline (tesseract on the image as it
 * came, the text after each label taken as it is) beside ours (jimp
 * preprocessing, field repair and checks). The held-out set is the one to
 * report; the dev set is the one tuned on.
 *
 * Run: `deno run -A bench/ocr_accuracy.ts [--set heldout|dev] [--verbose]`.
 *
 * @module
 */
import { createTesseractEngine } from "@shared/capabilities/document_reading/tesseract_engine.ts";
import { readDocument } from "@shared/capabilities/document_reading/read_document.ts";
import { type FixtureEntry, readFixture, readManifest, SETS } from "@testing/documents/generate.ts";

/** Accuracy of one contender on one set. */
export interface AccuracyReport {
  /** Per document type: fields right / fields expected. */
  perType: Record<string, { right: number; total: number }>;
  /** Non-documents (and unreadable pages) refused / shown. */
  refused: { right: number; total: number };
  /** Documents wrongly refused. */
  documentsRefused: number;
}

/** Measures one contender on a set. */
export async function measure(
  set: keyof typeof SETS,
  options: { preprocess: boolean; validate: boolean; verbose?: boolean; today?: Date },
): Promise<AccuracyReport> {
  const today = options.today ?? new Date("2026-11-24T00:00:00Z");
  const engine = createTesseractEngine({ preprocess: options.preprocess });
  const report: AccuracyReport = {
    perType: {},
    refused: { right: 0, total: 0 },
    documentsRefused: 0,
  };
  try {
    for (const entry of await readManifest(set)) {
      const bytes = await readFixture(set, entry.file);
      // Ours is what ocr_extract gets (a second look at pages with gaps); the baseline is
      // tesseract's text as it came.
      const reading = options.validate
        ? await engine.read({
          bytes,
          contentType: "image/jpeg",
          documentType: "vehicle_registration",
          today,
        })
        : readDocument(await engine.lines(bytes), { today, validate: false });
      const text = options.verbose ? (await engine.lines(bytes)).map((line) => line.text) : [];
      score(entry, reading, report, options.verbose ?? false, text);
    }
  } finally {
    await engine.close?.();
  }
  return report;
}

function score(
  entry: FixtureEntry,
  reading: ReturnType<typeof readDocument>,
  report: AccuracyReport,
  verbose: boolean,
  text: string[],
): void {
  if (entry.type === "not_a_document") {
    report.refused.total++;
    const refused = reading.kind !== "document";
    if (refused) report.refused.right++;
    if (verbose) {
      console.log(
        `${entry.file}: ${
          refused ? "refused" : "ACCEPTED as " + (reading as { type: string }).type
        }`,
      );
    }
    return;
  }
  const tally = report.perType[entry.type] ??= { right: 0, total: 0 };
  const fields = Object.keys(entry.fields);
  tally.total += fields.length;
  if (reading.kind !== "document" || reading.type !== entry.type) {
    report.documentsRefused++;
    if (verbose) console.log(`${entry.file}: REFUSED (${reading.kind})\n  ${text.join("\n  ")}`);
    return;
  }
  const wrong: string[] = [];
  for (const field of fields) {
    if (reading.fields[field]?.value === entry.fields[field]) tally.right++;
    else wrong.push(`${field}: want ${entry.fields[field]} got ${reading.fields[field]?.value}`);
  }
  if (verbose && wrong.length) {
    console.log(`${entry.file}:\n  ${wrong.join("\n  ")}\n  | ${text.join("\n  | ")}`);
  }
}

/** Overall accuracy of a report. */
export function overall(report: AccuracyReport): { right: number; total: number } {
  return Object.values(report.perType).reduce(
    (sum, tally) => ({ right: sum.right + tally.right, total: sum.total + tally.total }),
    { right: 0, total: 0 },
  );
}

function percent(tally: { right: number; total: number }): string {
  return `${
    (100 * tally.right / Math.max(tally.total, 1)).toFixed(1)
  }% (${tally.right}/${tally.total})`;
}

if (import.meta.main) {
  const set = (Deno.args.includes("--set")
    ? Deno.args[Deno.args.indexOf("--set") + 1]
    : "heldout") as keyof typeof SETS;
  const verbose = Deno.args.includes("--verbose");
  const only = Deno.args.includes("--ours") ? ["ours"] : ["raw", "ours"];
  for (const name of only) {
    const report = await measure(set, {
      preprocess: name === "ours",
      validate: name === "ours",
      verbose,
    });
    console.log(
      `\n${set} — ${name === "raw" ? "raw tesseract (no preprocessing, no checks)" : "ours"}`,
    );
    for (const [type, tally] of Object.entries(report.perType)) {
      console.log(`  ${type.padEnd(22)} ${percent(tally)}`);
    }
    console.log(`  ${"overall".padEnd(22)} ${percent(overall(report))}`);
    console.log(
      `  ${"non-documents refused".padEnd(22)} ${report.refused.right}/${report.refused.total}`,
    );
    console.log(`  ${"documents refused".padEnd(22)} ${report.documentsRefused}`);
  }
}
