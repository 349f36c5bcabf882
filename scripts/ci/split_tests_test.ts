import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  ALONE_SECONDS,
  chunkQueue,
  chunkSpan,
  findTestFiles,
  groupFiles,
  longestFirst,
  longFiles,
  postgresTestFiles,
  queueLines,
  readTestCosts,
  shard,
  UNKNOWN_FILE_SECONDS,
  writeGroupEntries,
} from "./split_tests.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

// The fixtures' marks, spelled in two parts so this file holds none (it has no Postgres half).
const DB_TEST = "db" + "Test";
const URL_VAR = "TEST_DATABASE" + "_URL";

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
}

Deno.test("split_tests: a file has a Postgres half when its code or a local import runs tests on Postgres", async () => {
  const root = await Deno.makeTempDir({ prefix: "easymo-split-" });
  try {
    await writeTree(root, {
      "deno.json": JSON.stringify({ imports: { "@testing/": "./testing/" } }),
      // Defines everything; reaching it alone (PGlite's default engine) is no Postgres half.
      "testing/db.ts":
        `export function ${DB_TEST}(_n: string) {}\nexport function openTestDatabase() {}\n` +
        `Deno.env.get("${URL_VAR}");\n`,
      "testing/dev.ts":
        'import { openTestDatabase } from "./db.ts";\nexport const dev = openTestDatabase;\n',
      "testing/both.ts":
        `import { ${DB_TEST} } from "@testing/db.ts";\nexport const both = (n: string) => ${DB_TEST}(n);\n`,
      "a/direct_test.ts": `import { ${DB_TEST} } from "../testing/db.ts";\n${DB_TEST}("x");\n`,
      "a/helper_test.ts": 'import { both } from "@testing/both.ts";\nboth("y");\n',
      "a/url_test.ts": `Deno.env.get("${URL_VAR}");\n`,
      "b/pglite_only_test.ts": 'import { dev } from "../testing/dev.ts";\ndev();\n',
      "b/pure_test.ts": 'Deno.test("pure", () => {});\n',
      "b/x.test.ts": "export {};\n",
      "node_modules/pkg/dep_test.ts": "export {};\n",
    });
    const files = await findTestFiles(root);
    assert.deepEqual(files, [
      "a/direct_test.ts",
      "a/helper_test.ts",
      "a/url_test.ts",
      "b/pglite_only_test.ts",
      "b/pure_test.ts",
      "b/x.test.ts",
    ]);
    assert.deepEqual(await postgresTestFiles({ root, files }), [
      "a/direct_test.ts",
      "a/helper_test.ts",
      "a/url_test.ts",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("split_tests: the shards deal every file once, the long ones first and in turn", () => {
  const files = ["a", "b", "c", "d", "e"];
  const costs = new Map([
    ["d", { ahead: 90, postgres: 0 }],
    ["gone", { ahead: 80, postgres: 0 }],
    ["b", { ahead: 40, postgres: 50 }],
    ["c", { ahead: 0, postgres: 0 }],
    ["at_the_mark", { ahead: ALONE_SECONDS, postgres: 0 }],
    ["under_it", { ahead: 0, postgres: ALONE_SECONDS - 1 }],
  ]);
  // Not measured (a new file): UNKNOWN_FILE_SECONDS, after the long ones, before the instant ones.
  assert.ok(UNKNOWN_FILE_SECONDS > 0 && UNKNOWN_FILE_SECONDS < 40);
  const ordered = longestFirst(files, costs, "ahead");
  assert.deepEqual(ordered, ["d", "b", "a", "e", "c"]);
  assert.deepEqual(longestFirst(files, costs, "postgres"), ["b", "a", "e", "c", "d"]);
  assert.deepEqual(longFiles(costs).sort(), ["at_the_mark", "b", "d", "gone"]);
  assert.deepEqual(shard(ordered, 1, 2), ["d", "a", "c"]);
  assert.deepEqual(shard(ordered, 2, 2), ["b", "e"]);
  assert.deepEqual(shard(ordered, 1, 1), ordered);
  assert.throws(() => shard(ordered, 3, 2), RangeError);
  assert.throws(() => shard(ordered, 0, 2), RangeError);
});

Deno.test("split_tests: this repository's database tests run on Postgres, its others once", async () => {
  const files = await findTestFiles(ROOT);
  assert.ok(files.includes("scripts/ci/split_tests_test.ts"));
  assert.ok(!files.some((file) => file.startsWith("node_modules/")));
  const postgres = new Set(await postgresTestFiles({ root: ROOT, files }));
  // dbTest files, on both engines.
  for (const file of ["shared/db/tenant_writes_test.ts", "shared/db/migrate_test.ts"]) {
    assert.ok(postgres.has(file), `${file} has a Postgres half`);
  }
  // No database, or PGlite only (the dev server, the scenario suites): once, a year ahead.
  for (
    const file of [
      "shared/capabilities/document_reading/tesseract_engine_test.ts",
      "scripts/chat_test.ts",
      "testing/scenarios_part1_test.ts",
      "testing/scenarios_insurance_test.ts",
      "scripts/ci/split_tests_test.ts",
    ]
  ) {
    assert.ok(!postgres.has(file), `${file} has no Postgres half`);
  }
  // The cost table measures the long files (a stale name would only be skipped).
  const long = longFiles(await readTestCosts(ROOT));
  assert.ok(long.length >= 20, `${long.length} long files`);
  for (const file of ["testing/scenarios_part1_test.ts", "scripts/chat_test.ts"]) {
    assert.ok(long.includes(file), file);
  }
});

Deno.test("split_tests: files are grouped in order, every file in exactly one unit, the long ones alone", () => {
  const files = ["slow", "a", "b", "slow_too", "c", "d", "e"];
  const units = groupFiles({ files, alone: ["slow", "slow_too", "gone"], size: 2 });
  assert.deepEqual(units, [["slow"], ["a", "b"], ["slow_too"], ["c", "d"], ["e"]]);
  assert.deepEqual(units.flat().sort(), [...files].sort());
  assert.throws(() => groupFiles({ files, alone: [], size: 0 }), RangeError);
  // Shards deal units, not files: a group stays whole.
  assert.deepEqual(shard(units, 2, 2), [["a", "b"], ["c", "d"]]);
});

Deno.test("split_tests: a group's entry runs its files' tests named after them, and a failing one fails it", async () => {
  const root = await Deno.makeTempDir({ prefix: "easymo-group-" });
  const out = await Deno.makeTempDir({ prefix: "easymo-group-entries-" });
  try {
    await writeTree(root, {
      "deno.json": "{}",
      "testing/test_group.ts": await Deno.readTextFile(`${ROOT}/testing/test_group.ts`),
      "a/one_test.ts": 'Deno.test("one passes", () => {});\n',
      "a/two_test.ts": 'Deno.test({ name: "two fails", fn() { throw new Error("boom"); } });\n',
      "a/alone_test.ts": 'Deno.test("alone", () => {});\n',
    });
    const paths = await writeGroupEntries(root, out, [
      ["a/alone_test.ts"],
      ["a/one_test.ts", "a/two_test.ts"],
    ]);
    assert.equal(paths.length, 2);
    assert.ok(paths.every((path) => path.startsWith(`${out}/`)), paths.join());
    // Run as CI runs them (--parallel), one at a time: the lone file first, as listed.
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "--no-check", "--parallel", "--config", `${root}/deno.json`, ...paths],
      cwd: root,
      env: { NO_COLOR: "1", DENO_JOBS: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert.equal(output.success, false, text);
    assert.match(text, /a\/one_test\.ts > one passes \.\.\. ok/);
    assert.match(text, /a\/two_test\.ts > two fails \.\.\. FAILED/);
    assert.match(text, /a\/alone_test\.ts > alone \.\.\. ok/);
    assert.ok(text.indexOf("> alone ...") < text.indexOf("> one passes ..."), text);
    assert.match(text, /2 passed \| 1 failed/);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("split_tests: the queue holds every unit once, one run a chunk, the long ones first and the short last", () => {
  const units = [
    ...[300, 250, 120, 40, 30, 20, 10, 5, 3, 2, 1, 1, 1, 0].map((seconds, i) => ({
      kind: "ahead" as const,
      unit: `a${i}`,
      seconds,
    })),
    ...[140, 60, 25, 8, 4, 1].map((seconds, i) => ({
      kind: "postgres" as const,
      unit: `p${i}`,
      seconds,
    })),
  ];
  const seconds = new Map(units.map((unit) => [unit.unit, unit.seconds]));
  for (const [lanes, jobs] of [[9, 1], [3, 3], [1, 1]]) {
    const chunks = chunkQueue({ units, lanes, jobs });
    // Every unit in exactly one chunk, of its own run; the seconds add up.
    assert.deepEqual(
      chunks.flatMap((chunk) => chunk.units).sort(),
      units.map((u) => u.unit).sort(),
    );
    for (const chunk of chunks) {
      assert.ok(chunk.units.every((unit) => unit.startsWith(chunk.kind[0])), JSON.stringify(chunk));
      const sum = chunk.units.reduce((total, unit) => total + seconds.get(unit)!, 0);
      assert.equal(chunk.seconds, sum);
    }
    // Longest first: each chunk keeps its lane no longer than the one before it.
    const spans = chunks.map((chunk) => chunkSpan(chunk, jobs, (unit) => seconds.get(unit)!));
    assert.deepEqual(spans, [...spans].sort((a, b) => b - a), `${lanes}x${jobs}`);
    // The longest unit starts in the first chunk; with lanes to balance, the last chunk is short
    // beside it; one lane has nothing to balance and starts few processes.
    assert.ok(chunks[0].units.includes("a0"), JSON.stringify(chunks[0]));
    if (lanes > 1) assert.ok(spans.at(-1)! < 300 / 2, `${lanes}x${jobs}: ${spans}`);
    else assert.ok(chunks.length <= 4, `${lanes}x${jobs}: ${spans}`);
  }
  // Nine lanes of one file: the long units each a chunk of their own, many chunks in all.
  const nine = chunkQueue({ units, lanes: 9, jobs: 1 });
  assert.deepEqual(nine[0].units, ["a0"]);
  assert.deepEqual(nine[1].units, ["a1"]);
  assert.ok(nine.length >= 6, `${nine.length} chunks`);
  // One lane of three: every chunk holds three units while three are left.
  const three = chunkQueue({ units, lanes: 1, jobs: 3 });
  const short = three.filter((chunk) => chunk.units.length < 3);
  assert.ok(short.length <= 2, JSON.stringify(short));
  assert.throws(() => chunkQueue({ units, lanes: 0, jobs: 1 }), RangeError);
  assert.throws(() => chunkQueue({ units, lanes: 2, jobs: 1.5 }), RangeError);
});

Deno.test("split_tests: each chunk of the queue is one entry importing every file of its units, once", async () => {
  const out = await Deno.makeTempDir({ prefix: "easymo-queue-entries-" });
  try {
    const ahead = [["slow_test.ts"], ["a_test.ts", "b_test.ts"], ["c_test.ts"], ["d_test.ts"]];
    const postgres = [["a_test.ts"], ["slow_test.ts"]];
    const chunks = chunkQueue({
      units: [
        ...ahead.map((unit, i) => ({ kind: "ahead" as const, unit, seconds: 40 - i })),
        ...postgres.map((unit, i) => ({ kind: "postgres" as const, unit, seconds: 20 - i })),
      ],
      lanes: 1,
      jobs: 1,
    });
    assert.ok(chunks.some((chunk) => chunk.units.length > 1), JSON.stringify(chunks));
    const lines = await queueLines(ROOT, out, chunks);
    assert.equal(lines.length, chunks.length);
    const imported = { ahead: [] as string[], postgres: [] as string[] };
    for (const [index, line] of lines.entries()) {
      // One entry a chunk: one isolate, however many units it holds.
      const [kind, entry, ...rest] = line.split("\t");
      assert.equal(kind, chunks[index].kind);
      assert.deepEqual(rest, [], line);
      const files = [...(await Deno.readTextFile(entry)).matchAll(/importTestFile\("([^"]+)"/g)]
        .map((match) => match[1]);
      assert.deepEqual(files, chunks[index].units.flat());
      imported[kind as "ahead" | "postgres"].push(...files);
    }
    assert.deepEqual(imported.ahead.sort(), ahead.flat().sort());
    assert.deepEqual(imported.postgres.sort(), postgres.flat().sort());
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("split_tests: a chunk whose Deno is killed by a signal before its summary said every test passed runs once more; a second crash fails its lane", async () => {
  const dir = await Deno.makeTempDir({ prefix: "easymo-queue-crash-" });
  try {
    // Stands in for Deno: "crashonce" crashes (exit 139, as SIGSEGV) the first time only,
    // "crashes" every time, "fails" is a failing test (exit 1, never rerun); "passedcrash" crashes
    // at exit after deno's summary said every test passed (in colour, as deno prints it), and
    // "failedcrash" after a summary with a failure.
    const deno = `${dir}/deno.sh`;
    await Deno.writeTextFile(
      deno,
      "#!/usr/bin/env bash\n" +
        'echo "RAN $*"\n' +
        `case "$*" in *crashonce*) [ -e ${dir}/once ] || { touch ${dir}/once; exit 139; } ;; esac\n` +
        `case "$*" in *npmonce*) [ -e ${dir}/npm ] || { touch ${dir}/npm; ` +
        'printf "npm error code ECOMPROMISED\\nnpm error Lock compromised\\n"; exit 1; } ;; esac\n' +
        'case "$*" in *npmfails*) printf "npm error code ECOMPROMISED\\n"; exit 1 ;; esac\n' +
        'case "$*" in *passedcrash*) printf "\\n\\033[0m\\033[32mok\\033[0m | 3 passed | 0 failed ' +
        '\\033[0m(1s)\\n\\nSegmentation fault\\n"; exit 139 ;; esac\n' +
        'case "$*" in *failedcrash*) printf "\\nFAILED | 2 passed | 1 failed (1s)\\n"; exit 139 ;; esac\n' +
        'case "$*" in *crashes*) exit 139 ;; *fails*) exit 1 ;; esac\n',
    );
    await Deno.chmod(deno, 0o755);
    let runs = 0;
    const run = async (lines: string[]) => {
      // A queue file of its own each time: a lane takes chunks by counting its `.taken` lines.
      const queue = `${dir}/queue_${++runs}`;
      await Deno.writeTextFile(queue, lines.join("\n") + "\n");
      const output = await new Deno.Command("bash", {
        args: [`${ROOT}/scripts/ci/run_queue.sh`, queue, deno],
        env: { TEST_BACKENDS: "" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(output.stdout) +
        new TextDecoder().decode(output.stderr);
      return { success: output.success, text, ran: [...text.matchAll(/^RAN .*$/gm)].length };
    };
    const once = await run(["postgres\t/e/crashonce"]);
    assert.equal(once.success, true, once.text);
    assert.equal(once.ran, 2, once.text);
    assert.match(once.text, /killed by signal 11 \(exit 139\).*run once more/);
    const twice = await run(["postgres\t/e/crashes"]);
    assert.equal(twice.success, false, twice.text);
    assert.equal(twice.ran, 2, twice.text);
    // npm stopping before Deno started (its cache lock shared across clocks): once more, once.
    const npm = await run(["ahead\t/e/npmonce"]);
    assert.equal(npm.success, true, npm.text);
    assert.equal(npm.ran, 2, npm.text);
    assert.match(npm.text, /npm failed before Deno started \(exit 1\): run once more/);
    const npmTwice = await run(["ahead\t/e/npmfails"]);
    assert.equal(npmTwice.success, false, npmTwice.text);
    assert.equal(npmTwice.ran, 2, npmTwice.text);
    const failing = await run(["postgres\t/e/fails"]);
    assert.equal(failing.success, false, failing.text);
    assert.equal(failing.ran, 1, failing.text);
    // A crash after the summary said every test passed: not run again, and said so.
    const after = await run(["ahead\t/e/passedcrash"]);
    assert.equal(after.success, true, after.text);
    assert.equal(after.ran, 1, after.text);
    assert.match(after.text, /killed by signal 11 \(exit 139\) at exit, after deno's summary/);
    // A crash after a summary with a failure: run again, and the lane fails.
    const failedCrash = await run(["ahead\t/e/failedcrash"]);
    assert.equal(failedCrash.success, false, failedCrash.text);
    assert.equal(failedCrash.ran, 2, failedCrash.text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("split_tests: lanes run each chunk of the queue once, in its run, and a failure fails its lane", async () => {
  const dir = await Deno.makeTempDir({ prefix: "easymo-queue-" });
  try {
    // Stands in for Deno (`deno task test --no-check ENTRIES…`): says what it ran, with which
    // backends, database URL and clock; an entry named "fails" fails. Deno itself runs the entries
    // in the group test above.
    const deno = `${dir}/deno.sh`;
    await Deno.writeTextFile(
      deno,
      "#!/usr/bin/env bash\n" +
        `echo "RAN backends=\${TEST_BACKENDS:-none} url=\${${URL_VAR}:+set} clock=$(date +%s)` +
        ' args=$*"\n' +
        'for arg in "$@"; do case "$arg" in *fails*) exit 1 ;; esac; done\n',
    );
    await Deno.chmod(deno, 0o755);
    const queue = `${dir}/queue`;
    await Deno.writeTextFile(
      queue,
      ["ahead\t/e/a1\t/e/a2", "postgres\t/e/p1", "ahead\t/e/fails", "postgres\t/e/p2"].join("\n") +
        "\n",
    );
    // The lanes get this process's environment but its moved clock (CI runs this file a year ahead
    // under libfaketime, preloaded through the environment): they move it themselves.
    const env = Object.fromEntries(
      Object.entries(Deno.env.toObject()).filter(([name]) =>
        !/^(LD_PRELOAD|FAKETIME|FAKETIME_.*|DONT_FAKE_MONOTONIC|TEST_BACKENDS)$/.test(name)
      ),
    );
    const lane = () =>
      new Deno.Command("bash", {
        args: [`${ROOT}/scripts/ci/run_queue.sh`, queue, deno],
        clearEnv: true,
        env: { ...env, [URL_VAR]: "postgres://unused@127.0.0.1:1/none" },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const outputs = await Promise.all([lane(), lane()]);
    const all = outputs.map((output) =>
      new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr)
    ).join("\n");
    // The lane that ran the failing chunk failed; the other passed.
    assert.deepEqual(outputs.map((output) => output.success).sort(), [false, true], all);
    const runs = [...all.matchAll(/RAN backends=(\S+) url=(\S*) clock=(\d+) args=(.*)/g)]
      .map(([, backends, url, clock, args]) => ({ backends, url, clock: Number(clock), args }));
    // Each chunk once, in its run: Postgres today with the database's URL, the rest a year ahead
    // without it.
    assert.deepEqual(
      runs.map((run) => run.args).sort(),
      [
        "task test --no-check /e/a1 /e/a2",
        "task test --no-check /e/fails",
        "task test --no-check /e/p1",
        "task test --no-check /e/p2",
      ],
      all,
    );
    for (const run of runs) {
      const postgres = run.args.includes("/e/p");
      assert.equal(run.backends, postgres ? "postgres" : "none", all);
      assert.equal(run.url, postgres ? "set" : "", all);
    }
    const today = Math.max(...runs.filter((run) => run.args.includes("/e/p")).map((r) => r.clock));
    for (const run of runs.filter((run) => !run.args.includes("/e/p"))) {
      const ahead = run.clock - today;
      assert.ok(ahead > 300 * 86_400 && ahead < 400 * 86_400, `${ahead} s ahead: ${all}`);
    }
    assert.match(all, /--- chunk 2: ahead exit 1/);
    assert.equal(all.match(/--- chunk \d: \w+, started/g)?.length, 4, all);
    // Each chunk says what it cost (scripts/ci/cpu_time.sh), the failing one too.
    assert.equal(
      all.match(/^--- cpu chunk \d (ahead|postgres): [\d.]+ CPU-s \(/gm)?.length,
      4,
      all,
    );
    assert.match(all, /^--- cpu chunk 2 ahead: /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
