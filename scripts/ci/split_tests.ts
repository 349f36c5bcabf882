/**
 * Splits the test files between CI's suite runs, so each test runs where it
 * says something and no test runs twice on the same engine:
 *
 * - `postgres`: the files with tests on Postgres (their import graph reaches
 *   `dbTest`, `testBackends` or read the test database's URL); CI runs them
 *   on Postgres at today's date (`TEST_BACKENDS=postgres`);
 * - `ahead`: every test file; CI runs them on PGlite with the clock a year
 *   ahead.
 *
 * So every test runs a year ahead (each one that touches a date is checked
 * there), every database test runs on both engines, and a test without a
 * Postgres half (no database, or PGlite only: the dev server, the browser
 * tests) runs once.
 *
 *   deno run -A scripts/ci/split_tests.ts postgres    # one path a line
 *   deno run -A scripts/ci/split_tests.ts ahead 1/2   # shard 1 of 2
 *   deno run -A scripts/ci/split_tests.ts queue 9 1 --groups 24 DIR   # .ci/run's queue
 *
 * With `--groups SIZE DIR` the lists are of units, each one isolate: the
 * files in groups of SIZE (entries written to DIR), the long ones alone.
 * `queue LANES JOBS` cuts both runs' units into chunks for LANES processes
 * running JOBS files at once ({@link chunkQueue}). Paths are relative to the
 * repository's root. Lists are longest first, by the test-seconds measured in
 * scripts/ci/test_costs.tsv.
 *
 * @module
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { type FileCost, parseCosts, type SuiteKind } from "./test_costs.ts";

/** Options for {@link postgresTestFiles}. */
export interface PostgresTestFilesOptions {
  /** The repository's root (absolute). */
  root: string;
  /** The test files (relative to `root`). @default {@link findTestFiles} */
  files?: readonly string[];
  /** `deno` and its leading arguments. @default the running Deno */
  deno?: readonly string[];
}

// `deno test .`'s pattern: {*_,*.,}test.{ts,tsx,mts,js,mjs,jsx}.
const TEST_FILE = /(^|\/)([^/]*[_.])?test\.(ts|tsx|mts|js|mjs|jsx)$/;
// deno.json excludes node_modules/ and .data/; no test lives in a hidden folder.
const SKIPPED_DIRS = new Set(["node_modules"]);
// What a module holds when its tests run on Postgres (testing/db.ts defines them all). Spelled in
// two parts so this file, and its test importing it, hold none of them.
const POSTGRES_MARKS = ["dbTest" + "(", "testBackends" + "(", "TEST_DATABASE" + "_URL"]
  .concat('Database("' + 'postgres")');
const DEFINITIONS = "testing/db.ts";

/** Every test file under `root` (as `deno test .` finds them), sorted. */
export async function findTestFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir ? `${root}/${dir}` : root)) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) await walk(path);
      } else if (entry.isFile && TEST_FILE.test(path)) {
        found.push(path);
      }
    }
  };
  await walk("");
  return found.sort();
}

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
}

// Each test file's local modules (npm and remote ones never import ours), from one `deno info
// --json` of a module importing every file.
async function localImports(
  root: string,
  files: readonly string[],
  deno: readonly string[] | undefined,
): Promise<Map<string, string[]>> {
  const [command, ...denoArgs] = deno ?? [Deno.execPath()];
  const entry = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      entry,
      files.map((file) => `import "${pathToFileURL(`${root}/${file}`).href}";\n`).join(""),
    );
    const output = await new Deno.Command(command, {
      args: [...denoArgs, "info", "--json", "--config", `${root}/deno.json`, entry],
      cwd: root,
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error(`deno info failed (exit ${output.code})`);
    const graph = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: InfoModule[] };
    const edges = new Map<string, string[]>();
    for (const module of graph.modules) {
      edges.set(
        module.specifier,
        (module.dependencies ?? []).flatMap((dep) =>
          [dep.code?.specifier, dep.type?.specifier].filter((s): s is string => !!s)
        ),
      );
    }
    return new Map(
      files.map((file) => [file, localModules(pathToFileURL(`${root}/${file}`).href, edges)]),
    );
  } finally {
    await Deno.remove(entry);
  }
}

/**
 * The test files with tests on Postgres: those whose own code or local
 * imports (testing/db.ts aside) call `dbTest` or `testBackends`, read the
 * test database's URL or open a Postgres database.
 */
export async function postgresTestFiles(options: PostgresTestFilesOptions): Promise<string[]> {
  const { root } = options;
  const files = options.files ?? await findTestFiles(root);
  const imports = await localImports(root, files, options.deno);
  const definitions = pathToFileURL(`${root}/${DEFINITIONS}`).href;
  const marked = new Map<string, Promise<boolean>>();
  const isMarked = (specifier: string) => {
    let answer = marked.get(specifier);
    if (!answer) {
      answer = Deno.readTextFile(fileURLToPath(specifier)).then((text) =>
        POSTGRES_MARKS.some((mark) => text.includes(mark))
      );
      marked.set(specifier, answer);
    }
    return answer;
  };
  const postgres: string[] = [];
  for (const file of files) {
    for (const module of imports.get(file)!) {
      if (module !== definitions && await isMarked(module)) {
        postgres.push(file);
        break;
      }
    }
  }
  return postgres;
}

// `from` and every file: module it reaches (npm and remote modules never import ours).
function localModules(from: string, edges: Map<string, string[]>): string[] {
  const seen = new Set<string>([from]);
  const queue = [from];
  while (queue.length) {
    for (const next of edges.get(queue.pop()!) ?? []) {
      if (!next.startsWith("file:") || seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return [...seen];
}

/** What an isolate's start adds to its files' test-seconds (loading the modules: ~1 CPU-s). */
export const UNIT_START_SECONDS = 1;

/** Test-seconds for a file the cost table does not name yet (most files take 1–2). */
export const UNKNOWN_FILE_SECONDS = 2;

/**
 * A file measured at this many test-seconds or more (in either run) stays
 * alone, never in a group: a group runs its files one after another, and a
 * long file in one would make a long unit that starts late.
 */
export const ALONE_SECONDS = 25;

/** `file`'s test-seconds in the `kind` run, from `costs` ({@link readTestCosts}). */
export function fileCost(
  costs: ReadonlyMap<string, FileCost>,
  file: string,
  kind: SuiteKind,
): number {
  return costs.get(file)?.[kind] ?? UNKNOWN_FILE_SECONDS;
}

/** The files measured at {@link ALONE_SECONDS} or more in either run. */
export function longFiles(costs: ReadonlyMap<string, FileCost>): string[] {
  return [...costs].filter(([, cost]) => Math.max(cost.ahead, cost.postgres) >= ALONE_SECONDS)
    .map(([file]) => file);
}

/** `files`, longest first in the `kind` run (ties by name). */
export function longestFirst(
  files: readonly string[],
  costs: ReadonlyMap<string, FileCost>,
  kind: SuiteKind,
): string[] {
  return [...files].sort((a, b) =>
    fileCost(costs, b, kind) - fileCost(costs, a, kind) || a.localeCompare(b)
  );
}

/** Shard `index` (1-based) of `count`: the files dealt in turn, as a dealer deals cards. */
export function shard<T>(files: readonly T[], index: number, count: number): T[] {
  if (
    !Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 1 || index > count
  ) {
    throw new RangeError(`no shard ${index}/${count}`);
  }
  return files.filter((_, position) => position % count === index - 1);
}

/** Options for {@link groupFiles}. */
export interface GroupOptions {
  /** The files of one list, in their order (e.g. {@link longestFirst}'s). */
  files: readonly string[];
  /** Files kept alone all the same: the long ones ({@link longFiles}). */
  alone: readonly string[];
  /** Files per group. */
  size: number;
}

/**
 * `files` as units each run in one isolate: the files not `alone` in groups
 * of `size`, in their order, each group placed where its first file was; the
 * `alone` ones each a unit of its own. Every file is in exactly one unit.
 */
export function groupFiles(options: GroupOptions): string[][] {
  const { files, size } = options;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`no group of ${size} files`);
  const alone = new Set(options.alone);
  const units: string[][] = [];
  let open: string[] | undefined;
  for (const file of files) {
    if (alone.has(file)) {
      units.push([file]);
    } else {
      if (!open || open.length >= size) units.push(open = []);
      open.push(file);
    }
  }
  return units;
}

/**
 * Writes one entry module per unit into `dir` (absolute, and outside the
 * repository: `deno test .`, `deno fmt` and `deno lint` must not see them),
 * importing its files through testing/test_group.ts, and returns the entries'
 * paths in the units' order. A lone file gets an entry too: `deno test` runs
 * the files of one folder in the order given but orders folders its own way,
 * so only entries side by side in `dir` keep the slow files first.
 */
export async function writeGroupEntries(
  root: string,
  dir: string,
  units: readonly string[][],
): Promise<string[]> {
  await Deno.mkdir(dir, { recursive: true });
  const helper = pathToFileURL(`${root}/testing/test_group.ts`).href;
  const paths: string[] = [];
  for (const [index, unit] of units.entries()) {
    const entry = `${dir}/group_${String(index).padStart(3, "0")}_test.ts`;
    const lines = [
      "// Generated by scripts/ci/split_tests.ts: these test files, in one isolate.",
      `import { importTestFile } from ${JSON.stringify(helper)};`,
      ...unit.map((file) =>
        `await importTestFile(${JSON.stringify(file)}, () => import(${
          JSON.stringify(pathToFileURL(`${root}/${file}`).href)
        }));`
      ),
    ];
    await Deno.writeTextFile(entry, lines.join("\n") + "\n");
    paths.push(entry);
  }
  return paths;
}

/** scripts/ci/test_costs.tsv: each file's measured test-seconds per run. */
export async function readTestCosts(root: string): Promise<Map<string, FileCost>> {
  return parseCosts(await Deno.readTextFile(`${root}/scripts/ci/test_costs.tsv`));
}

/** A unit of one run, with its measured test-seconds. */
export interface CostedUnit<T> {
  kind: SuiteKind;
  unit: T;
  seconds: number;
}

/** One `deno test` run of `.ci/run`'s queue: units of one run, taken by whichever lane is free. */
export interface Chunk<T> {
  kind: SuiteKind;
  units: T[];
  /** Their test-seconds summed. */
  seconds: number;
}

/** Options for {@link chunkQueue}. */
export interface ChunkQueueOptions<T> {
  /** Every unit of every run. */
  units: readonly CostedUnit<T>[];
  /** The processes taking chunks off the queue side by side. */
  lanes: number;
  /** The files each process runs at once (`DENO_JOBS`): a chunk holds as many while any are left. */
  jobs: number;
}

// A chunk opened holds about what is left over (lanes × this): big chunks while much is left, few
// processes to start; small ones at the end, so the lanes run out of work together. Each chunk is
// one `npx -y deno@2.9.6 task test` (the README's command): npm's start alone measured 1.4-3.5
// CPU-s a chunk in CI, beside Deno's own. 3 cut the i41 queue into 62 chunks; 1.2 cuts the same
// units into 35, with the lanes modelled to end as close together (793-819 test-s, was 788-814).
const GUIDED_SHARE = 1.2;
// Below this a chunk's process start is no longer small beside its tests.
const MIN_CHUNK_SECONDS = 30;

/** How long a chunk keeps its lane: its longest unit, or its test-seconds shared by the jobs. */
export function chunkSpan<T>(chunk: Chunk<T>, jobs: number, seconds: (unit: T) => number): number {
  return Math.max(chunk.seconds / jobs, ...chunk.units.map(seconds));
}

/**
 * The suites' work queue (guided self-scheduling): every unit, longest first,
 * cut into chunks of one run each; a chunk opened when `left` test-seconds
 * are still unassigned closes at `left / (lanes × 1.2)` test-seconds (at least
 * {@link MIN_CHUNK_SECONDS}) and `jobs` units. The chunks come longest first
 * (by {@link chunkSpan}), so the long files start at once and the last
 * chunks taken are short. Every unit is in exactly one chunk.
 */
export function chunkQueue<T>(options: ChunkQueueOptions<T>): Chunk<T>[] {
  const { lanes, jobs } = options;
  if (!Number.isInteger(lanes) || lanes < 1 || !Number.isInteger(jobs) || jobs < 1) {
    throw new RangeError(`no queue for ${lanes} lanes of ${jobs} jobs`);
  }
  const sorted = [...options.units].sort((a, b) => b.seconds - a.seconds);
  let left = sorted.reduce((sum, unit) => sum + unit.seconds, 0);
  const open = new Map<SuiteKind, { chunk: Chunk<T>; target: number }>();
  const chunks: Chunk<T>[] = [];
  const seconds = new Map<T, number>();
  for (const { kind, unit, seconds: cost } of sorted) {
    seconds.set(unit, cost);
    let current = open.get(kind);
    if (!current) {
      current = {
        chunk: { kind, units: [], seconds: 0 },
        target: Math.max(MIN_CHUNK_SECONDS, left / (lanes * GUIDED_SHARE)),
      };
      open.set(kind, current);
    }
    current.chunk.units.push(unit);
    current.chunk.seconds += cost;
    left -= cost;
    if (current.chunk.seconds >= current.target && current.chunk.units.length >= jobs) {
      chunks.push(current.chunk);
      open.delete(kind);
    }
  }
  chunks.push(...[...open.values()].map(({ chunk }) => chunk));
  const span = (chunk: Chunk<T>) => chunkSpan(chunk, jobs, (unit) => seconds.get(unit) ?? 0);
  return chunks.sort((a, b) => span(b) - span(a));
}

/**
 * The queue's lines, one a chunk: its run, then the one entry (written into
 * `dir`, as {@link writeGroupEntries} does) that imports every file of its
 * units in order. The units pack the queue (a long file stays a unit of its
 * own); each chunk then runs as one isolate: an isolate loads its modules and
 * warms PGlite up again (~3–5 CPU-s), and a lane runs a chunk's files one
 * after another whether they are one isolate or several.
 */
export async function queueLines(
  root: string,
  dir: string,
  chunks: readonly Chunk<readonly string[]>[],
): Promise<string[]> {
  const entries = await writeGroupEntries(root, dir, chunks.map((chunk) => chunk.units.flat()));
  return chunks.map((chunk, index) => `${chunk.kind}\t${entries[index]}`);
}

if (import.meta.main) {
  const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
  const args = [...Deno.args];
  // `--groups SIZE DIR` at the end: files in groups (groupFiles), entries in DIR.
  const grouping = args.length >= 3 && args.at(-3) === "--groups"
    ? { size: Number(args.at(-2)), dir: args.at(-1)! }
    : undefined;
  if (grouping) args.splice(-3);
  const [which, part, jobs] = args;
  const costs = await readTestCosts(root);
  const all = await findTestFiles(root);
  const unitSeconds = (unit: string[], kind: SuiteKind) =>
    unit.reduce((sum, file) => sum + fileCost(costs, file, kind), UNIT_START_SECONDS);
  // The run's units, longest first: files grouped in that order (long ones alone).
  const units = (files: string[], kind: SuiteKind) => {
    const ordered = longestFirst(files, costs, kind);
    const grouped = grouping
      ? groupFiles({ files: ordered, alone: longFiles(costs), size: grouping.size })
      : ordered.map((file) => [file]);
    return grouped.sort((a, b) => unitSeconds(b, kind) - unitSeconds(a, kind));
  };
  const print = async (chosen: string[][], dir = grouping?.dir) =>
    console.log((dir ? await writeGroupEntries(root, dir, chosen) : chosen.flat()).join("\n"));
  if (grouping && !(Number.isInteger(grouping.size) && grouping.dir.startsWith("/"))) {
    console.error("--groups takes a size and an absolute folder outside the repository");
    Deno.exit(2);
  } else if (which === "postgres" && part === undefined) {
    await print(units(await postgresTestFiles({ root, files: all }), "postgres"));
  } else if (which === "ahead" && /^\d+\/\d+$/.test(part ?? "") && args.length === 2) {
    const [index, count] = part.split("/").map(Number);
    await print(shard(units(all, "ahead"), index, count));
  } else if (
    which === "queue" && grouping && /^\d+$/.test(part ?? "") && /^\d+$/.test(jobs ?? "")
  ) {
    // One line a chunk: its run, then its one entry (every file of its units), tab-separated.
    const postgres = units(await postgresTestFiles({ root, files: all }), "postgres");
    const ahead = units(all, "ahead");
    const chunks = chunkQueue({
      units: [
        ...postgres.map((unit) => ({
          kind: "postgres" as const,
          unit,
          seconds: unitSeconds(unit, "postgres"),
        })),
        ...ahead.map((unit) => ({
          kind: "ahead" as const,
          unit,
          seconds: unitSeconds(unit, "ahead"),
        })),
      ],
      lanes: Number(part),
      jobs: Number(jobs),
    });
    console.log((await queueLines(root, grouping.dir, chunks)).join("\n"));
  } else {
    console.error(
      "usage: split_tests.ts postgres | ahead N/M, then optionally --groups SIZE DIR\n" +
        "       split_tests.ts queue LANES JOBS --groups SIZE DIR",
    );
    Deno.exit(2);
  }
}
