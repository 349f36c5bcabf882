/**
 * Splits the test files between CI's suite runs, so each test runs where it
 * says something and no test runs twice on the same engine:
 *
 * - `postgres`: the files with tests on Postgres (their import graph reaches
 *   `dbTest`, `testBackends` or read the test database's URL); the main job runs them
 *   on Postgres at today's date (`TEST_BACKENDS=postgres`);
 * - `ahead N/M`: every test file, dealt into M shards; the clock-ahead jobs
 *   run the shards side by side on PGlite with the clock a year ahead.
 *
 * So every test runs a year ahead (each one that touches a date is checked
 * there), every database test runs on both engines, and a test without a
 * Postgres half (no database, or PGlite only: the dev server, the browser
 * tests) runs once; it ran in the main job too, the same assertions on the
 * same engine at a third of that job's CPU.
 *
 *   deno run -A scripts/ci/split_tests.ts postgres    # one path a line
 *   deno run -A scripts/ci/split_tests.ts ahead 1/2
 *
 * Paths are relative to the repository's root. Lists start with the files
 * of scripts/ci/slow_tests.txt (longest first; the shards take them in
 * turn, so each gets its share of the long ones), then the rest sorted.
 *
 * @module
 */
import { fileURLToPath, pathToFileURL } from "node:url";

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

/**
 * The test files that open test databases: their import graph reaches
 * testing/db.ts. These are the files a group entry runs together.
 */
export async function databaseTestFiles(options: PostgresTestFilesOptions): Promise<string[]> {
  const { root } = options;
  const files = options.files ?? await findTestFiles(root);
  const imports = await localImports(root, files, options.deno);
  const definitions = pathToFileURL(`${root}/${DEFINITIONS}`).href;
  return files.filter((file) => imports.get(file)!.includes(definitions));
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

/** `files` with the ones named in `slow` first, in that order. */
export function slowFirst(files: readonly string[], slow: readonly string[]): string[] {
  const present = new Set(files);
  const first = slow.filter((file) => present.has(file));
  const firstSet = new Set(first);
  return [...first, ...files.filter((file) => !firstSet.has(file))];
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

/** Options for {@link groupDatabaseFiles}. */
export interface GroupOptions {
  /** The files of one list, in their order (e.g. {@link slowFirst}'s). */
  files: readonly string[];
  /** Those of them that open test databases ({@link databaseTestFiles}). */
  database: readonly string[];
  /** Files kept alone all the same: the long ones (each one a shard's share). */
  alone: readonly string[];
  /** Files per group. */
  size: number;
}

/**
 * `files` as units each run in one isolate: the database files (those not
 * `alone`) in groups of `size`, in their order, placed where the first of
 * them was; every other file alone. Every file is in exactly one unit.
 */
export function groupDatabaseFiles(options: GroupOptions): string[][] {
  const { files, size } = options;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`no group of ${size} files`);
  const database = new Set(options.database);
  const alone = new Set(options.alone);
  const units: string[][] = [];
  let open: string[] | undefined;
  for (const file of files) {
    if (!database.has(file) || alone.has(file)) {
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

/** The paths listed in scripts/ci/slow_tests.txt (comments and blank lines dropped). */
export async function readSlowTests(root: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${root}/scripts/ci/slow_tests.txt`);
  return text.split("\n").map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

if (import.meta.main) {
  const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
  const args = [...Deno.args];
  // `--groups SIZE DIR` at the end: database files in groups (groupDatabaseFiles), entries in DIR.
  const grouping = args.length >= 3 && args.at(-3) === "--groups"
    ? { size: Number(args.at(-2)), dir: args.at(-1)! }
    : undefined;
  if (grouping) args.splice(-3);
  const [which, part] = args;
  const slow = await readSlowTests(root);
  const all = await findTestFiles(root);
  const units = async (files: string[]) =>
    grouping
      ? groupDatabaseFiles({
        files,
        database: await databaseTestFiles({ root, files: all }),
        alone: slow,
        size: grouping.size,
      })
      : files.map((file) => [file]);
  const print = async (chosen: string[][]) =>
    console.log(
      (grouping ? await writeGroupEntries(root, grouping.dir, chosen) : chosen.flat()).join("\n"),
    );
  if (grouping && !(Number.isInteger(grouping.size) && grouping.dir.startsWith("/"))) {
    console.error("--groups takes a size and an absolute folder outside the repository");
    Deno.exit(2);
  } else if (which === "postgres" && part === undefined) {
    await print(await units(slowFirst(await postgresTestFiles({ root, files: all }), slow)));
  } else if (which === "ahead" && /^\d+\/\d+$/.test(part ?? "") && args.length === 2) {
    const [index, count] = part.split("/").map(Number);
    await print(shard(await units(slowFirst(all, slow)), index, count));
  } else {
    console.error("usage: split_tests.ts postgres | ahead N/M, then optionally --groups SIZE DIR");
    Deno.exit(2);
  }
}
