/**
 * Field accuracy of ocr_extract's reader on the synthetic fixtures
 * (`testing/documents/`), judged the way a new customer's documents will
 * judge it:
 *
 * - the `families` set (default): every layout family under every kind of
 *   photographic damage, printed per family and per damage, the families the
 *   reader was tuned on (`TUNED_FAMILIES`) beside the ones left out; for each:
 *   fields exactly right, documents wrongly refused, non-documents accepted,
 *   and p50/p95 seconds per page;
 * - the `unseen` set: the families written after the first nine were looked
 *   at (`NEW_FAMILIES`), reported as `left out, new`;
 * - the `new_dev` / `new_blind` and `fresh_dev` / `fresh_blind` sets: the
 *   third and fourth rounds' families, each split at random into a half tuned
 *   on and a half measured blind (`NEW_DEV`, `NEW_BLIND`, `FRESH_DEV`,
 *   `FRESH_BLIND`), and the fifth round's light-on-dark and letter-spaced
 *   families (`dark_dev` / `dark_blind`: `DARK_DEV`, `DARK_BLIND`), the sixth
 *   round's image-stress families (`stress_dev` / `stress_blind`: `STRESS_DEV`,
 *   `STRESS_BLIND` in `layouts_image_stress.ts`), and the
 *   sixth round's field-reader families (`sixth_dev` / `sixth_blind`: `SIXTH_DEV`,
 *   `SIXTH_BLIND` in `testing/documents/layouts_sixth.ts`), the seventh round's
 *   (`seventh_dev` / `seventh_blind` in `layouts_seventh.ts`), `comb_study`,
 *   and the seventh round's image-side families (`stress2_dev` / `stress2_blind`:
 *   `STRESS2_DEV`, `STRESS2_BLIND` in `layouts_image_stress2.ts`), the eighth round's
 *   (`eighth_dev` / `eighth_blind` in `layouts_eighth.ts`) and the image side's eighth round's
 *   (`stress3_dev` / `stress3_blind` in `layouts_image_stress3.ts`), and the ninth and tenth
 *   rounds' field-reader families (`ninth_*`, `tenth_*` in `layouts_ninth.ts`, `layouts_tenth.ts`);
 * - the `dev` and `heldout` sets (the project's own layout): the same figures
 *   for ours beside the raw baseline (tesseract on the image as it came, the
 *   text after each label taken as it is).
 *
 * Run: `deno run -A bench/ocr_accuracy.ts [--set families|unseen|new_dev|fresh_dev|heldout|dev|…]
 * [--family <name>] [--tuned-only] [--limit N] [--verbose] [--dump-words <dir>]
 * [--keep-rules] [--no-doubtful-reread] [--dump-only] [--engine tesseract+paddle [--budget]]`.
 * `--no-doubtful-reread` reads as the reader did before a doubtful value's area was read again.
 * `--engine tesseract+paddle` reads with PaddleOCR's second opinion (`OCR_PROVIDER=tesseract+paddle`) instead of tesseract
 * alone; `--budget` asks it only while the page's budget allows. `--dump-only` writes the words without reading
 * the pages (no figures). `--keep-rules` reads without erasing table rules first (the
 * reader before rule removal).
 * `--dump-words` writes each page's OCR words with their boxes as JSON (the
 * reader's unit tests read such pages without running OCR); `--replay <dir>`
 * reads those words again instead of running OCR (seconds, for tuning the
 * field finder; the times it prints are then the reader's alone).
 *
 * @module
 */
import process from "node:process";
import {
  createTesseractEngine,
  PAGE_BUDGET_MS,
} from "@shared/capabilities/document_reading/tesseract_engine.ts";
import { withSecondOpinion } from "@shared/capabilities/document_reading/second_opinion.ts";
import {
  type DocumentReading,
  readDocument,
} from "@shared/capabilities/document_reading/read_document.ts";
import { type FixtureEntry, readFixture, readManifest, SETS } from "@testing/documents/generate.ts";
import {
  DARK_BLIND,
  DARK_DEV,
  FRESH_BLIND,
  FRESH_DEV,
  NEW_BLIND,
  NEW_DEV,
  NEW_FAMILIES,
  TUNED_FAMILIES,
} from "@testing/documents/layouts.ts";
import { STRESS_BLIND, STRESS_DEV } from "@testing/documents/layouts_image_stress.ts";
import { STRESS2_BLIND, STRESS2_DEV } from "@testing/documents/layouts_image_stress2.ts";
import { STRESS3_BLIND, STRESS3_DEV } from "@testing/documents/layouts_image_stress3.ts";
import { SIXTH_BLIND, SIXTH_DEV } from "@testing/documents/layouts_sixth.ts";
import { SEVENTH_BLIND, SEVENTH_DEV } from "@testing/documents/layouts_seventh.ts";
import { EIGHTH_BLIND, EIGHTH_DEV } from "@testing/documents/layouts_eighth.ts";
import { NINTH_BLIND, NINTH_DEV } from "@testing/documents/layouts_ninth.ts";
import { TENTH_BLIND, TENTH_DEV } from "@testing/documents/layouts_tenth.ts";

/** Fields right, documents refused, non-documents accepted and page times of one group of pages. */
export interface Tally {
  /** Fields read exactly right. */
  right: number;
  /** Fields expected. */
  total: number;
  /** Documents shown. */
  documents: number;
  /** Documents refused (or read as another type). */
  documentsRefused: number;
  /** Non-documents (and unreadable pages) shown. */
  nonDocuments: number;
  /** Non-documents accepted as a document. */
  nonDocumentsAccepted: number;
  /** Seconds per page (wall). */
  seconds: number[];
  /**
   * CPU seconds per page (every thread of the process: tesseract's worker
   * too). On a shared machine wall time says more about the neighbours.
   */
  cpu: number[];
}

/** A contender's tallies on a set, by group (`type:…`, `family:…`, `damage:…`, `tuned`, `left out`). */
export type AccuracyReport = Map<string, Tally>;

/** The engines measured: a name and how it reads one page. */
interface Contender {
  name: string;
  read(bytes: Uint8Array, today: Date, file: string): Promise<DocumentReading>;
  lines?(bytes: Uint8Array): Promise<unknown>;
  close(): Promise<void>;
}

function empty(): Tally {
  return {
    right: 0,
    total: 0,
    documents: 0,
    documentsRefused: 0,
    nonDocuments: 0,
    nonDocumentsAccepted: 0,
    seconds: [],
    cpu: [],
  };
}

/**
 * The later rounds as the report names them (`<name>, dev` and `<name>, blind`), with their
 * dev and blind families and sets: the field reader's rounds, then the image side's. A family
 * name belongs to one round only (testing/documents/family_names_test.ts), so a page counts in
 * its own round.
 */
const ROUNDS: ReadonlyArray<{
  name: string;
  dev: readonly string[];
  blind: readonly string[];
  sets: readonly [string, string];
}> = [
  { name: "third round", dev: NEW_DEV, blind: NEW_BLIND, sets: ["new_dev", "new_blind"] },
  { name: "fourth round", dev: FRESH_DEV, blind: FRESH_BLIND, sets: ["fresh_dev", "fresh_blind"] },
  { name: "fifth round", dev: DARK_DEV, blind: DARK_BLIND, sets: ["dark_dev", "dark_blind"] },
  { name: "sixth round", dev: SIXTH_DEV, blind: SIXTH_BLIND, sets: ["sixth_dev", "sixth_blind"] },
  {
    name: "seventh round",
    dev: SEVENTH_DEV,
    blind: SEVENTH_BLIND,
    sets: ["seventh_dev", "seventh_blind"],
  },
  {
    name: "eighth round",
    dev: EIGHTH_DEV,
    blind: EIGHTH_BLIND,
    sets: ["eighth_dev", "eighth_blind"],
  },
  { name: "ninth round", dev: NINTH_DEV, blind: NINTH_BLIND, sets: ["ninth_dev", "ninth_blind"] },
  { name: "tenth round", dev: TENTH_DEV, blind: TENTH_BLIND, sets: ["tenth_dev", "tenth_blind"] },
  {
    name: "image stress",
    dev: STRESS_DEV,
    blind: STRESS_BLIND,
    sets: ["stress_dev", "stress_blind"],
  },
  {
    name: "image stress 2",
    dev: STRESS2_DEV,
    blind: STRESS2_BLIND,
    sets: ["stress2_dev", "stress2_blind"],
  },
  {
    name: "image stress 3",
    dev: STRESS3_DEV,
    blind: STRESS3_BLIND,
    sets: ["stress3_dev", "stress3_blind"],
  },
];

/** Groups a page counts in. */
function groupsOf(entry: FixtureEntry, families: boolean, set: keyof typeof SETS): string[] {
  const groups = ["all", `damage:${entry.condition}`];
  if (entry.type !== "not_a_document") groups.push(`type:${entry.type}`);
  if (entry.family) {
    const family = entry.family;
    groups.push(`family:${family}`);
    const round = ROUNDS.find((one) => one.dev.includes(family) || one.blind.includes(family));
    groups.push(
      TUNED_FAMILIES.includes(family)
        ? "tuned"
        : (NEW_FAMILIES as readonly string[]).includes(family)
        ? "left out, new"
        : round
        ? `${round.name}, ${round.dev.includes(family) ? "dev" : "blind"}`
        : "left out",
    );
  } else if (entry.type === "not_a_document" && families) {
    // Non-documents belong to no family: every column of the set must refuse them.
    const round = ROUNDS.find((one) => one.sets.includes(set));
    groups.push(
      ...(set === "unseen"
        ? ["left out, new"]
        : round
        ? [`${round.name}, ${round.sets[0] === set ? "dev" : "blind"}`]
        : ["tuned", "left out"]),
    );
  }
  return groups;
}

/** Measures one contender on a set. */
export async function measure(
  set: keyof typeof SETS,
  contender: Contender,
  options: {
    verbose?: boolean;
    today?: Date;
    family?: string;
    limit?: number;
    dump?: string;
    /** With `dump`: write the words only, without reading or scoring the pages (faster). */
    dumpOnly?: boolean;
    /** Only the tuned families' pages (while tuning: the left-out ones stay unseen). */
    tunedOnly?: boolean;
  } = {},
): Promise<AccuracyReport> {
  const today = options.today ?? new Date("2026-11-24T00:00:00Z");
  const report: AccuracyReport = new Map();
  let entries = await readManifest(set);
  if (options.family) {
    entries = entries.filter((entry) => !entry.family || entry.family === options.family);
  }
  if (options.tunedOnly) {
    entries = entries.filter((entry) => !entry.family || TUNED_FAMILIES.includes(entry.family));
  }
  if (options.limit) entries = entries.slice(0, options.limit);
  const hasFamilies = entries.some((entry) => entry.family);
  // Warm: the worker's start and trained data load once per process, not in a page's time.
  if (entries.length && !options.dumpOnly) {
    await contender.read(await readFixture(set, entries[0].file), today, entries[0].file);
  }
  for (const entry of entries) {
    const bytes = await readFixture(set, entry.file);
    if (options.dumpOnly && options.dump && contender.lines) {
      // Only the words, for --replay: one look a page, no reading timed or scored.
      await Deno.mkdir(options.dump, { recursive: true });
      await Deno.writeTextFile(
        `${options.dump}/${entry.file.replace(/\.jpg$/, ".json")}`,
        JSON.stringify({ entry, lines: await contender.lines(bytes) }) + "\n",
      );
      continue;
    }
    const started = performance.now();
    const cpuStarted = cpuSeconds();
    const reading = await contender.read(bytes, today, entry.file);
    const cpu = cpuSeconds() - cpuStarted;
    const seconds = (performance.now() - started) / 1000;
    const lines = options.verbose || options.dump ? await contender.lines?.(bytes) : undefined;
    if (options.dump && lines) {
      await Deno.mkdir(options.dump, { recursive: true });
      await Deno.writeTextFile(
        `${options.dump}/${entry.file.replace(/\.jpg$/, ".json")}`,
        JSON.stringify({ entry, lines }) + "\n",
      );
    }
    const verdict = score(entry, reading);
    for (const group of groupsOf(entry, hasFamilies, set)) {
      const tally = report.get(group) ?? empty();
      report.set(group, tally);
      tally.seconds.push(seconds);
      tally.cpu.push(cpu);
      tally.right += verdict.right;
      tally.total += verdict.total;
      if (entry.type === "not_a_document") {
        tally.nonDocuments++;
        if (verdict.accepted) tally.nonDocumentsAccepted++;
      } else {
        tally.documents++;
        if (verdict.refused) tally.documentsRefused++;
      }
    }
    if (options.verbose && (verdict.wrong.length || verdict.refused || verdict.accepted)) {
      const text = (lines as Array<{ text: string }> | undefined)?.map((line) => line.text) ?? [];
      console.log(
        `${entry.file} (${seconds.toFixed(1)} s): ${
          verdict.refused ? `REFUSED (${reading.kind})` : verdict.accepted ? "ACCEPTED" : ""
        }\n  ${verdict.wrong.join("\n  ")}\n  | ${text.join("\n  | ")}`,
      );
    }
  }
  return report;
}

function score(entry: FixtureEntry, reading: DocumentReading): {
  right: number;
  total: number;
  refused: boolean;
  accepted: boolean;
  wrong: string[];
} {
  if (entry.type === "not_a_document") {
    return { right: 0, total: 0, refused: false, accepted: reading.kind === "document", wrong: [] };
  }
  const fields = Object.keys(entry.fields);
  if (reading.kind !== "document" || reading.type !== entry.type) {
    return { right: 0, total: fields.length, refused: true, accepted: false, wrong: [] };
  }
  const wrong: string[] = [];
  let right = 0;
  for (const field of fields) {
    const read = reading.fields[field];
    if (read?.value === entry.fields[field]) right++;
    else wrong.push(`${field}: want ${entry.fields[field]} got ${read?.value} ${read?.note ?? ""}`);
  }
  return { right, total: fields.length, refused: false, accepted: false, wrong };
}

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** One report row: fields right, refusals, acceptances, p50/p95 s. */
export function row(tally: Tally | undefined): string {
  if (!tally) return "—";
  const percent = tally.total ? `${(100 * tally.right / tally.total).toFixed(1)}%` : "  —  ";
  return `${
    percent.padStart(6)
  } (${tally.right}/${tally.total}) refused ${tally.documentsRefused}/${tally.documents} accepted ${tally.nonDocumentsAccepted}/${tally.nonDocuments} p50 ${
    quantile(tally.seconds, 0.5).toFixed(1)
  } s p95 ${quantile(tally.seconds, 0.95).toFixed(1)} s wall, CPU p50 ${
    quantile(tally.cpu, 0.5).toFixed(1)
  } s p95 ${quantile(tally.cpu, 0.95).toFixed(1)} s`;
}

/** Prints a report: tuned beside left out, then per family, per damage and per type. */
export function printReport(title: string, report: AccuracyReport): void {
  // The machine is shared: the load says how far wall time is from CPU time.
  console.log(`\n${title} (load average ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")})`);
  const keys = [...report.keys()];
  const order = [
    "all",
    "tuned",
    "left out",
    "left out, new",
    ...ROUNDS.flatMap((round) => [`${round.name}, dev`, `${round.name}, blind`]),
  ];
  for (const prefix of ["family:", "damage:", "type:"]) {
    order.push(...keys.filter((key) => key.startsWith(prefix)).sort());
  }
  for (const key of order) {
    if (!report.has(key)) continue;
    const tuned = key.startsWith("family:") &&
        TUNED_FAMILIES.includes(key.slice(7) as typeof TUNED_FAMILIES[number])
      ? " (tuned)"
      : "";
    console.log(`  ${(key + tuned).padEnd(34)} ${row(report.get(key))}`);
  }
}

function tesseract(options: { preprocess: boolean; validate: boolean }): Contender {
  // `--keep-rules`: the reader as it was before table rules were erased (before/after).
  const removeRules = !Deno.args.includes("--keep-rules");
  // `--no-doubtful-reread`: the reader before a doubtful value's area was read again.
  const rereadDoubtful = !Deno.args.includes("--no-doubtful-reread");
  // The page budget is kept in this process's CPU time: the machine's other load (wall time)
  // must not decide how many second looks the bench sees.
  const engine = createTesseractEngine({
    preprocess: options.preprocess,
    removeRules,
    rereadDoubtful,
    clock: () => cpuSeconds() * 1000,
  });
  return {
    name: options.validate
      ? `tesseract.js (ours${removeRules ? "" : ", rules kept"}${
        rereadDoubtful ? "" : ", no doubtful reread"
      })`
      : "tesseract.js raw (no preprocessing, no checks)",
    read: async (bytes, today) =>
      options.validate
        ? await engine.read({
          bytes,
          contentType: "image/jpeg",
          documentType: "vehicle_registration",
          today,
        })
        : readDocument(await engine.lines(bytes), { today, validate: false }),
    lines: (bytes) => engine.lines(bytes),
    close: async () => await engine.close?.(),
  };
}

/**
 * `--engine tesseract+paddle`: tesseract's first look and PaddleOCR's second opinion on the
 * pages it leaves incomplete or reads as a document it cannot read (as `OCR_PROVIDER` builds
 * it), the page budget kept in CPU time as for tesseract alone.
 */
async function tesseractWithPaddle(): Promise<Contender> {
  const { createPaddleEngine } = await import(
    "@shared/capabilities/document_reading/paddle_engine.ts"
  );
  const clock = () => cpuSeconds() * 1000;
  const engine = withSecondOpinion(
    createTesseractEngine({ enough: () => true, clock }),
    createPaddleEngine(),
    // `--budget`: PaddleOCR asked only while the page's budget allows (not the product's default).
    Deno.args.includes("--budget") ? { budgetMs: PAGE_BUDGET_MS, clock } : {},
  );
  return {
    name: "tesseract.js with PaddleOCR's second opinion",
    read: (bytes, today) =>
      engine.read({
        bytes,
        contentType: "image/jpeg",
        documentType: "vehicle_registration",
        today,
      }),
    close: async () => await engine.close?.(),
  };
}

/** Reads the words `--dump-words` wrote: the field finder alone, without OCR. */
function replay(dir: string): Contender {
  return {
    name: `replay of ${dir}`,
    read: async (_bytes, today, file) => {
      const dumped = JSON.parse(
        await Deno.readTextFile(`${dir}/${file.replace(/\.jpg$/, ".json")}`),
      );
      return readDocument(dumped.lines, { today });
    },
    lines: (_bytes) => Promise.resolve([]),
    close: () => Promise.resolve(),
  };
}

if (import.meta.main) {
  const flag = (name: string) =>
    Deno.args.includes(name) ? Deno.args[Deno.args.indexOf(name) + 1] : undefined;
  const set = (flag("--set") ?? "families") as keyof typeof SETS;
  const replayed = flag("--replay");
  const contenders = replayed
    ? [replay(replayed)]
    : flag("--engine") === "tesseract+paddle"
    ? [await tesseractWithPaddle()]
    : [
        "families",
        "unseen",
        "new_dev",
        "new_blind",
        "fresh_dev",
        "fresh_blind",
        "dark_dev",
        "dark_blind",
        "stress_dev",
        "stress_blind",
        "sixth_dev",
        "sixth_blind",
        "seventh_dev",
        "seventh_blind",
        "comb_study",
        "stress2_dev",
        "stress2_blind",
        "eighth_dev",
        "eighth_blind",
        "stress3_dev",
        "stress3_blind",
        "ninth_dev",
        "ninth_blind",
        "tenth_dev",
        "tenth_blind",
      ].includes(set) ||
        Deno.args.includes("--ours")
    ? [tesseract({ preprocess: true, validate: true })]
    : [
      tesseract({ preprocess: false, validate: false }),
      tesseract({ preprocess: true, validate: true }),
    ];
  for (const contender of contenders) {
    try {
      const report = await measure(set, contender, {
        verbose: Deno.args.includes("--verbose"),
        family: flag("--family"),
        limit: flag("--limit") ? Number(flag("--limit")) : undefined,
        dump: flag("--dump-words"),
        dumpOnly: Deno.args.includes("--dump-only"),
        tunedOnly: Deno.args.includes("--tuned-only"),
      });
      printReport(`${set} — ${contender.name}`, report);
    } finally {
      await contender.close();
    }
  }
}
