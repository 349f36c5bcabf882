/**
 * Time to read one page, beside the fields it reads, for each OCR engine on
 * the same pages: CPU (`process.cpuUsage()`: every thread of the process,
 * tesseract's worker and onnxruntime's threads included) and wall time per
 * page, their p50 and p95, the process's peak memory, and each figure's
 * ratio to the raw baseline and to the 4 s budget. No test asserts a timing:
 * the machine is shared, so `uptime`'s load is printed beside the figures.
 *
 * Pages: the fixtures of a set (`testing/documents/fixtures/<set>`, 24 pages:
 * cards of 460–1020 px), and with `--photos` the same cards as a phone takes
 * them (the card at 3.2× on a 4032 × 3024 desk, JPEG): the size that cost
 * 18–32 s of CPU a page before pages were brought down to a working width.
 *
 * Run: `deno run -A bench/ocr_bench.ts [--set heldout|dev] [--photos]
 * [--engines raw,tesseract,paddle] [--limit N] [--verbose]`. To set an earlier
 * version beside today's in one process, save its engine module beside this
 * one's (`git show <commit>:<path> > shared/capabilities/document_reading/x.ts`)
 * and add `before` to the engines with `--before <that path>`.
 *
 * @module
 */
import process from "node:process";
import { Jimp } from "jimp";
import { createTesseractEngine } from "@shared/capabilities/document_reading/tesseract_engine.ts";
import type { OcrEngine } from "@shared/capabilities/document_reading/ocr_engine.ts";
import { withSecondOpinion } from "@shared/capabilities/document_reading/second_opinion.ts";
import {
  type DocumentReading,
  isComplete,
  readDocument,
} from "@shared/capabilities/document_reading/read_document.ts";
import { type FixtureEntry, readFixture, readManifest, SETS } from "@testing/documents/generate.ts";

/** The tool's stated budget for reading one page (docs/ocr.md). */
const BUDGET_MS = 4000;
const TODAY = new Date("2026-11-24T00:00:00Z");

/** One engine's figures on one set of pages. */
export interface EngineFigures {
  /** Fields read exactly right / fields on the documents. */
  fields: { right: number; total: number };
  /** Documents refused, and non-documents accepted. */
  documentsRefused: number;
  nonDocumentsAccepted: number;
  /** Per page, in page order: CPU and wall milliseconds. */
  cpuMs: number[];
  wallMs: number[];
  /** The engine's cold start (worker, models) and its first page, CPU ms. */
  coldCpuMs: number;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** The `q` quantile (0–1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Fields of `entry` that `reading` got exactly right, and whether it refused wrongly. */
function score(entry: FixtureEntry, reading: DocumentReading, figures: EngineFigures): void {
  if (entry.type === "not_a_document") {
    if (reading.kind === "document") figures.nonDocumentsAccepted++;
    return;
  }
  const fields = Object.keys(entry.fields);
  figures.fields.total += fields.length;
  if (reading.kind !== "document" || reading.type !== entry.type) {
    figures.documentsRefused++;
    return;
  }
  for (const field of fields) {
    if (reading.fields[field]?.value === entry.fields[field]) figures.fields.right++;
  }
}

/** Measures one engine over the pages, one page at a time. */
export async function measureEngine(
  engine: OcrEngine,
  pages: readonly { entry: FixtureEntry; bytes: Uint8Array }[],
  options: { verbose?: boolean } = {},
): Promise<EngineFigures> {
  const figures: EngineFigures = {
    fields: { right: 0, total: 0 },
    documentsRefused: 0,
    nonDocumentsAccepted: 0,
    cpuMs: [],
    wallMs: [],
    coldCpuMs: 0,
  };
  const read = (bytes: Uint8Array) =>
    engine.read({
      bytes,
      contentType: "image/jpeg",
      documentType: "vehicle_registration",
      today: TODAY,
    });
  // The cold start is paid once per process (a long-running host keeps its worker warm).
  const cold = cpuMs();
  await read(pages[0].bytes);
  figures.coldCpuMs = cpuMs() - cold;
  for (const { entry, bytes } of pages) {
    const cpu = cpuMs();
    const wall = performance.now();
    const reading = await read(bytes);
    figures.cpuMs.push(cpuMs() - cpu);
    figures.wallMs.push(performance.now() - wall);
    const before = figures.fields.right;
    score(entry, reading, figures);
    if (options.verbose) {
      const misses = reading.kind === "document"
        ? Object.keys(entry.fields).filter((field) =>
          reading.fields[field]?.value !== entry.fields[field]
        ).map((field) => `${field}=${reading.fields[field]?.value ?? "-"}`)
        : [reading.kind];
      console.log(
        `    ${entry.file.padEnd(46)} cpu ${seconds(figures.cpuMs.at(-1)!)} s  right ${
          figures.fields.right - before
        }/${Object.keys(entry.fields).length}  ${misses.join(" ")}`,
      );
    }
  }
  return figures;
}

/**
 * The card as a phone photographs it: scaled 3.2× onto a 4032 × 3024 desk
 * (a flat wood colour), JPEG at quality 85.
 */
export async function asPhonePhoto(bytes: Uint8Array): Promise<Uint8Array> {
  const card = await Jimp.read(Buffer.from(bytes));
  card.resize({ w: Math.round(card.bitmap.width * 3.2) });
  const desk = new Jimp({ width: 4032, height: 3024, color: 0x8a6a4aff });
  desk.composite(
    card,
    Math.max(0, Math.round((4032 - card.bitmap.width) / 2)),
    Math.max(0, Math.round((3024 - card.bitmap.height) / 2)),
  );
  return new Uint8Array(await desk.getBuffer("image/jpeg", { quality: 85 }));
}

/** The engines this bench knows, by name. */
const ENGINES: Record<string, () => Promise<OcrEngine>> = {
  raw: () => Promise.resolve(createTesseractEngine({ preprocess: false })),
  tesseract: () => Promise.resolve(createTesseractEngine()),
  // Loaded only when asked for: onnxruntime-node is a native addon.
  paddle: async () =>
    (await import("@shared/capabilities/document_reading/paddle_engine.ts")).createPaddleEngine(),
  // Tesseract's first look, and PaddleOCR's opinion on the pages it leaves incomplete.
  "tesseract+paddle": async () =>
    withSecondOpinion(
      createTesseractEngine({ enough: () => true }),
      (await import("@shared/capabilities/document_reading/paddle_engine.ts")).createPaddleEngine(),
    ),
  "paddle+sharpen": async () =>
    (await import("@shared/capabilities/document_reading/paddle_engine.ts")).createPaddleEngine({
      enough: (lines, today) => isComplete(readDocument(lines, { today })),
    }),
};

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2).padStart(6);
}

function row(name: string, figures: EngineFigures, baseline?: EngineFigures): string {
  const p50 = quantile(figures.cpuMs, 0.5);
  const p95 = quantile(figures.cpuMs, 0.95);
  const ratio = baseline
    ? `  ×${(p50 / quantile(baseline.cpuMs, 0.5)).toFixed(2)} / ×${
      (p95 / quantile(baseline.cpuMs, 0.95)).toFixed(2)
    } of ${"raw"}`
    : "";
  const { right, total } = figures.fields;
  return `  ${name.padEnd(10)} fields ${
    (100 * right / Math.max(total, 1)).toFixed(1).padStart(5)
  }% ` +
    `(${right}/${total})  refused ${figures.documentsRefused}  non-docs accepted ${figures.nonDocumentsAccepted}\n` +
    `  ${"".padEnd(10)} cpu p50 ${seconds(p50)} s  p95 ${seconds(p95)} s  max ${
      seconds(Math.max(...figures.cpuMs))
    } s  (p95 ×${(p95 / BUDGET_MS).toFixed(2)} of the 4 s budget)${ratio}\n` +
    `  ${"".padEnd(10)} wall p50 ${seconds(quantile(figures.wallMs, 0.5))} s  p95 ${
      seconds(quantile(figures.wallMs, 0.95))
    } s  cold start + first page cpu ${seconds(figures.coldCpuMs)} s`;
}

async function load(): Promise<string> {
  try {
    return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

/** The process's peak resident memory (Linux `VmHWM`). */
async function peakMemory(): Promise<string> {
  try {
    const status = await Deno.readTextFile("/proc/self/status");
    const kb = Number(/VmHWM:\s*(\d+)/.exec(status)?.[1]);
    return `${(kb / 1024).toFixed(0)} MB`;
  } catch {
    return "unknown";
  }
}

if (import.meta.main) {
  const arg = (name: string) =>
    Deno.args.includes(name) ? Deno.args[Deno.args.indexOf(name) + 1] : undefined;
  const set = (arg("--set") ?? "heldout") as keyof typeof SETS;
  const names = (arg("--engines") ?? "raw,tesseract").split(",");
  const limit = Number(arg("--limit") ?? Infinity);
  const entries = (await readManifest(set)).slice(0, limit);
  let pages = await Promise.all(
    entries.map(async (entry) => ({ entry, bytes: await readFixture(set, entry.file) })),
  );
  if (Deno.args.includes("--photos")) {
    pages = await Promise.all(
      pages.map(async ({ entry, bytes }) => ({ entry, bytes: await asPhonePhoto(bytes) })),
    );
  }
  console.log(
    `${set}${
      Deno.args.includes("--photos") ? " as phone photos (4032 × 3024)" : ""
    }: ${pages.length} pages; load ${await load()}`,
  );
  const results: Record<string, EngineFigures> = {};
  for (const name of names) {
    const before = arg("--before");
    const make = name === "before" && before
      ? async () =>
        (await import(new URL(before, `file://${Deno.cwd()}/`).href)).createTesseractEngine()
      : ENGINES[name];
    if (!make) throw new Error(`Unknown engine ${name}: one of ${Object.keys(ENGINES).join(", ")}`);
    const engine = await make();
    try {
      results[name] = await measureEngine(engine, pages, {
        verbose: Deno.args.includes("--verbose"),
      });
    } finally {
      await engine.close?.();
    }
    console.log(row(name, results[name], name === "raw" ? undefined : results.raw));
  }
  console.log(
    `peak memory of the process (all engines run) ${await peakMemory()}; load ${await load()}`,
  );
}
