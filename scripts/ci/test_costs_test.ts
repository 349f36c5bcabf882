import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { costsFromLog, durationSeconds, formatCosts, parseCosts } from "./test_costs.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

Deno.test("test_costs: durations as deno test prints them", () => {
  assert.equal(durationSeconds("250ms"), 0.25);
  assert.equal(durationSeconds("3s"), 3);
  assert.equal(durationSeconds("1m2s"), 62);
  assert.equal(durationSeconds("5m"), 300);
  assert.ok(Number.isNaN(durationSeconds("")));
  assert.ok(Number.isNaN(durationSeconds("2h")));
});

Deno.test("test_costs: each file's seconds per run, from the queue's chunks and from an older log's sections", () => {
  const entry = "../../tmp/x/ahead/group_001_test.ts";
  const log = [
    // An older log: the Postgres suite first, then the jobs' sections.
    `${entry} => a/one_test.ts > reads [postgres] ... \x1b[32mok\x1b[0m (1s)`,
    "=== check (exit 0)",
    `${entry} => a/one_test.ts > not a suite's line ... ok (9s)`,
    "=== clock_ahead_1 (exit 0)",
    `${entry} => a/one_test.ts > reads [pglite] ... ok (2s)`,
    `${entry} => a/two_test.ts > fails ... FAILED (1m2s)`,
    `${entry} => a/two_test.ts > skipped ... ignored (0ms)`,
    // The queue's lanes.
    "=== suite_1 (exit 1)",
    "--- chunk 3: postgres, 2 units, started at 5s",
    `${entry} => a/two_test.ts > writes [postgres] ... ok (500ms)`,
    "--- chunk 3: postgres exit 0 after 9s",
    "--- chunk 7: ahead, 1 units, started at 9s",
    `${entry} => a/one_test.ts > again ... ok (3s)`,
    "a line that is no test's ... ok (4s)",
  ].join("\n");
  const costs = costsFromLog(log);
  assert.deepEqual(Object.fromEntries(costs), {
    "a/one_test.ts": { ahead: 5, postgres: 1 },
    "a/two_test.ts": { ahead: 62, postgres: 0.5 },
  });
  // The table round-trips, longest (either run) first, in whole seconds.
  const text = formatCosts(costs);
  assert.match(text, /^# file\tahead_s\tpostgres_s/);
  assert.deepEqual(text.split("\n").slice(1, 3), ["a/two_test.ts\t62\t1", "a/one_test.ts\t5\t1"]);
  assert.deepEqual(Object.fromEntries(parseCosts(text)), {
    "a/two_test.ts": { ahead: 62, postgres: 1 },
    "a/one_test.ts": { ahead: 5, postgres: 1 },
  });
  assert.throws(() => parseCosts("a/x_test.ts\tmany\t1\n"), SyntaxError);
});

Deno.test("test_costs: a lane's lone file (no entry prefix) and a long test whose result comes on a later line", () => {
  const log = [
    "=== suite_2 (exit 0)",
    "--- chunk 8: ahead, 1 units, started at 12s",
    "a/three_test.ts > quick ... \x1b[32mok\x1b[0m (2s)",
    "a/three_test.ts > long ...'a/three_test.ts > long' has been running for over (1m0s)",
    "'a/three_test.ts > long' has been running for over (2m0s)",
    " \x1b[32mok\x1b[0m (2m30s)",
    "--- chunk 8: ahead exit 0 after 170s",
    "--- chunk 9: postgres, 1 units, started at 170s",
    "a/four_test.ts > hangs ...",
    " FAILED (1m)",
  ].join("\n");
  assert.deepEqual(Object.fromEntries(costsFromLog(log)), {
    "a/three_test.ts": { ahead: 152, postgres: 0 },
    "a/four_test.ts": { ahead: 0, postgres: 60 },
  });
});

Deno.test("test_costs: the committed table parses and names test files", async () => {
  const costs = parseCosts(await Deno.readTextFile(`${ROOT}/scripts/ci/test_costs.tsv`));
  assert.ok(costs.size >= 100, `${costs.size} files`);
  for (const file of costs.keys()) assert.match(file, /_test\.ts$|\.test\.ts$/, file);
});
