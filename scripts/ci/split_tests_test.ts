import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  databaseTestFiles,
  findTestFiles,
  groupDatabaseFiles,
  postgresTestFiles,
  readSlowTests,
  shard,
  slowFirst,
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
    // Reaching testing/db.ts at all (PGlite only included) is a database file; naming its URL alone is not.
    assert.deepEqual(await databaseTestFiles({ root, files }), [
      "a/direct_test.ts",
      "a/helper_test.ts",
      "b/pglite_only_test.ts",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("split_tests: the shards deal every file once, the long ones first and in turn", () => {
  const files = ["a", "b", "c", "d", "e"];
  const ordered = slowFirst(files, ["d", "gone", "b"]);
  assert.deepEqual(ordered, ["d", "b", "a", "c", "e"]);
  assert.deepEqual(shard(ordered, 1, 2), ["d", "a", "e"]);
  assert.deepEqual(shard(ordered, 2, 2), ["b", "c"]);
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
  // Every slow file named still exists (a stale name would only be skipped).
  for (const file of await readSlowTests(ROOT)) assert.ok(files.includes(file), file);
});

Deno.test("split_tests: database files are grouped in order, every file in exactly one unit, the long ones alone", () => {
  const files = ["slow_db", "a_db", "b", "c_db", "d_db", "e_db", "f"];
  const units = groupDatabaseFiles({
    files,
    database: ["slow_db", "a_db", "c_db", "d_db", "e_db"],
    alone: ["slow_db"],
    size: 2,
  });
  assert.deepEqual(units, [["slow_db"], ["a_db", "c_db"], ["b"], ["d_db", "e_db"], ["f"]]);
  assert.deepEqual(units.flat().sort(), [...files].sort());
  assert.throws(
    () => groupDatabaseFiles({ files, database: [], alone: [], size: 0 }),
    RangeError,
  );
  // Shards deal units, not files: a group stays whole.
  assert.deepEqual(shard(units, 2, 2), [["a_db", "c_db"], ["d_db", "e_db"]]);
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
