/**
 * OCR cost per page: wall time (deno bench) and CPU time (printed first,
 * `process.cpuUsage()`: every thread of the process, tesseract's worker
 * included) for jimp preprocessing and tesseract, against Supabase's edge
 * function limit of 2 s CPU per request. Pages: three held-out fixtures (a
 * clean carte jaune, a licence on a desk, a small ID card).
 *
 * Run: `deno bench -A bench/ocr_bench.ts`.
 *
 * @module
 */
import process from "node:process";
import {
  createTesseractEngine,
  preprocess,
} from "@shared/capabilities/document_reading/tesseract_engine.ts";
import { readFixture } from "@testing/documents/generate.ts";

const PAGES = [
  "01_vehicle_registration_clean.jpg",
  "11_license_desk_angle.jpg",
  "18_id_card_small.jpg",
];
/** Supabase edge functions: 2 s of CPU per request (docs/ocr.md). */
const EDGE_CPU_LIMIT_MS = 2000;

const pages = await Promise.all(PAGES.map((file) => readFixture("heldout", file)));
const ours = createTesseractEngine();
const raw = createTesseractEngine({ preprocess: false });

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function measure(what: string, run: (page: Uint8Array) => Promise<unknown>) {
  await run(pages[0]); // warm: worker start and trained data load, once per process
  const rows: string[] = [];
  for (const [index, page] of pages.entries()) {
    const cpu = cpuMs();
    const wall = performance.now();
    await run(page);
    const cpuUsed = cpuMs() - cpu;
    rows.push(
      `  ${PAGES[index].padEnd(36)} wall ${
        (performance.now() - wall).toFixed(0).padStart(5)
      } ms  ` +
        `cpu ${cpuUsed.toFixed(0).padStart(5)} ms  (${
          (cpuUsed / EDGE_CPU_LIMIT_MS).toFixed(2)
        }× the 2 s limit)`,
    );
  }
  console.log(`${what}\n${rows.join("\n")}`);
}

const cpuStart = cpuMs();
const startWall = performance.now();
const cold = createTesseractEngine();
await cold.lines(pages[0]);
console.log(
  `cold start (worker, eng+fra trained data, first page): wall ${
    (performance.now() - startWall).toFixed(0)
  } ms, cpu ${(cpuMs() - cpuStart).toFixed(0)} ms`,
);
await cold.close?.();
await measure("jimp preprocessing only", (page) => preprocess(page));
// Ours is what ocr_extract runs: a page read with gaps gets a second, sharper look.
const readPage = (page: Uint8Array) =>
  ours.read({ bytes: page, contentType: "image/jpeg", documentType: "id_card", today: new Date() });
await measure("ours (preprocessing + tesseract, second look)", readPage);
await measure("raw tesseract (no preprocessing)", (page) => raw.lines(page));

Deno.bench({
  name: "raw tesseract, 3 pages",
  group: "ocr",
  baseline: true,
  // A page takes seconds: a few runs tell the ratio.
  n: 3,
  warmup: 1,
  async fn() {
    for (const page of pages) await raw.lines(page);
  },
});
Deno.bench({
  name: "ours: jimp preprocessing + tesseract, 3 pages",
  group: "ocr",
  n: 3,
  warmup: 1,
  async fn() {
    for (const page of pages) await readPage(page);
  },
});
Deno.bench({
  name: "jimp preprocessing alone, 3 pages",
  group: "ocr",
  n: 3,
  warmup: 1,
  async fn() {
    for (const page of pages) await preprocess(page);
  },
});

globalThis.addEventListener("unload", () => {
  ours.close?.();
  raw.close?.();
});
