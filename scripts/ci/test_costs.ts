/**
 * The measured cost of each test file in CI's suite runs, so
 * scripts/ci/split_tests.ts can start the longest units first and keep the
 * long files out of groups. The table, scripts/ci/test_costs.tsv, is a file's
 * test-seconds (its tests' reported times summed) in the year-ahead PGlite run
 * (`ahead`) and in the Postgres run (`postgres`), read from a `.ci/run` log:
 *
 *   deno run -A scripts/ci/test_costs.ts CI_LOG > scripts/ci/test_costs.tsv
 *
 * A log's test lines name their file (`entry => path > name ... ok (1s)`,
 * testing/test_group.ts). A line `--- chunk N: KIND …` (the suites' queue in
 * `.ci/run`) says which run the lines after it belong to; an older log's
 * `=== clock_ahead_N` sections are the ahead run and what precedes the first
 * `===` the Postgres run. Test-seconds are wall seconds on a loaded machine,
 * so they order the files; they are not CPU.
 *
 * @module
 */

/** A file's test-seconds in each run (0 when it does not run there). */
export interface FileCost {
  ahead: number;
  postgres: number;
}

/** The run a test line belongs to. */
export type SuiteKind = "ahead" | "postgres";

// deno test's colours, and its durations: 1m2s, 3s, 250ms.
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
// A grouped test's line, `path > name ... ok (3s)`; with several files at once deno prefixes it
// with the entry (`… => path > name`).
const TEST_LINE = /^(?:.* => )?(\S+?) > .* \.\.\. (?:ok|FAILED|ignored) \(([0-9ms]+)\)$/;
const CHUNK_LINE = /^--- chunk \d+: (ahead|postgres)\b/;
// A long test's line ends unfinished (deno's "has been running for over 1m0s" notes follow it);
// its result comes later on a line of its own (` ok (5m52s)`).
const STARTED_LINE = /^(?:.* => )?(\S+?) > .* \.\.\./;
const RESULT_LINE = /^\s*(?:ok|FAILED|ignored) \(([0-9ms]+)\)$/;

/** `1m2s`, `3s`, `250ms` as seconds; NaN for anything else. */
export function durationSeconds(text: string): number {
  const match = /^(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(text);
  if (!match || !text) return NaN;
  const [, minutes, seconds, millis] = match;
  return Number(minutes ?? 0) * 60 + Number(seconds ?? 0) + Number(millis ?? 0) / 1000;
}

/** Each file's test-seconds per run, from a `.ci/run` log's text. */
export function costsFromLog(log: string): Map<string, FileCost> {
  const costs = new Map<string, FileCost>();
  let kind: SuiteKind | undefined = "postgres";
  // The file of a test whose result line is still to come.
  let unfinished: string | undefined;
  for (const raw of log.split("\n")) {
    const line = raw.replace(ANSI, "");
    const chunk = CHUNK_LINE.exec(line);
    if (chunk) {
      kind = chunk[1] as SuiteKind;
      continue;
    }
    if (line.startsWith("=== ")) {
      kind = line.startsWith("=== clock_ahead_") ? "ahead" : undefined;
      continue;
    }
    if (!kind) continue;
    const test = TEST_LINE.exec(line);
    const finished = test ? undefined : RESULT_LINE.exec(line);
    const file = test?.[1] ?? (finished ? unfinished : undefined);
    unfinished = test || finished ? undefined : STARTED_LINE.exec(line)?.[1] ?? unfinished;
    if (file === undefined) continue;
    const seconds = durationSeconds((test ?? finished)![test ? 2 : 1]);
    if (Number.isNaN(seconds)) continue;
    const cost = costs.get(file) ?? { ahead: 0, postgres: 0 };
    cost[kind] += seconds;
    costs.set(file, cost);
  }
  return costs;
}

/** The table's text: a header, then one file a line, longest (either run) first. */
export function formatCosts(costs: ReadonlyMap<string, FileCost>): string {
  const rows = [...costs].sort(([a, x], [b, y]) =>
    Math.max(y.ahead, y.postgres) - Math.max(x.ahead, x.postgres) || a.localeCompare(b)
  );
  return [
    "# file\tahead_s\tpostgres_s  (scripts/ci/test_costs.ts: test-seconds per run from a .ci/run log)",
    ...rows.map(([file, { ahead, postgres }]) =>
      `${file}\t${Math.round(ahead)}\t${Math.round(postgres)}`
    ),
  ].join("\n") + "\n";
}

/** Parses the table's text (comments and blank lines dropped). */
export function parseCosts(text: string): Map<string, FileCost> {
  const costs = new Map<string, FileCost>();
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [file, ahead, postgres] = line.split("\t");
    if (!file || Number.isNaN(Number(ahead)) || Number.isNaN(Number(postgres))) {
      throw new SyntaxError(`test_costs.tsv: not "file<TAB>ahead<TAB>postgres": ${line}`);
    }
    costs.set(file, { ahead: Number(ahead), postgres: Number(postgres) });
  }
  return costs;
}

if (import.meta.main) {
  const [path] = Deno.args;
  if (!path) {
    console.error("usage: test_costs.ts CI_LOG > scripts/ci/test_costs.tsv");
    Deno.exit(2);
  }
  const costs = costsFromLog(await Deno.readTextFile(path));
  if (costs.size < 100) {
    console.error(`only ${costs.size} files' tests in ${path}: not a full CI log`);
    Deno.exit(1);
  }
  console.log(formatCosts(costs).trimEnd());
}
