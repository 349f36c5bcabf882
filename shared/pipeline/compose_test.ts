import assert from "node:assert/strict";
import { compose, type Step } from "./compose.ts";

type Log = string[];

function mark(name: string): Step<Log, string> {
  return function marked(log, next) {
    log.push(name);
    return next(log);
  };
}

Deno.test("compose() runs the steps in order, first outermost, and returns the last's answer", () => {
  const log: Log = [];
  const run = compose<Log, string>([mark("a"), mark("b"), (seen) => `end after ${seen.join("")}`]);
  assert.equal(run(log), "end after ab");
  assert.deepEqual(log, ["a", "b"]);
});

Deno.test("compose() stops at a step that answers without calling next", () => {
  const log: Log = [];
  const run = compose<Log, string>([mark("a"), () => "refused", mark("never"), () => "end"]);
  assert.equal(run(log), "refused");
  assert.deepEqual(log, ["a"]);
});

Deno.test("compose() keeps a chain that never waits synchronous, and lets a step wrap the rest", async () => {
  const wrap: Step<Log, string> = (log, next) => {
    const answer = next(log);
    return answer instanceof Promise ? answer.then((value) => `[${value}]`) : `(${answer})`;
  };
  const sync = compose<Log, string>([wrap, () => "x"]);
  assert.equal(sync([]), "(x)");
  const later = compose<Log, string>([wrap, () => Promise.resolve("y")]);
  const answer = later([]);
  assert.ok(answer instanceof Promise);
  assert.equal(await answer, "[y]");
});

Deno.test("compose() links once: the same handler serves many calls, each with its own state", () => {
  const run = compose<Log, string>([mark("a"), (log) => log.join(",")]);
  assert.equal(run(["x"]), "x,a");
  assert.equal(run([]), "a");
});

Deno.test("compose() refuses no steps, a step that is not a function, and next() past the end", () => {
  assert.throws(() => compose([]), RangeError);
  assert.throws(
    () => compose<Log, string>([mark("a"), "b" as unknown as Step<Log, string>]),
    (error: unknown) =>
      error instanceof TypeError && /step 1 is not a function/.test(error.message),
  );
  const run = compose<Log, string>([mark("a")]);
  assert.throws(() => run([]), /last step called next\(\)/);
});

Deno.test("compose() names each link after its step, for stack traces", () => {
  const run = compose<Log, string>([function policy(log, next) {
    return next(log);
  }, () => "end"]);
  assert.equal(run.name, "policy");
});
