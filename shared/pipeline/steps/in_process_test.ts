import assert from "node:assert/strict";
import { ok, ToolFailure } from "@shared/contract/mod.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { answering, callFor, testTool } from "@testing/pipeline_calls.ts";
import { NO_DATABASE } from "../call.ts";
import { Deadlines } from "../deadlines.ts";
import { inProcessStep } from "./in_process.ts";

Deno.test("inProcessStep() runs a no-database tool with no database and a live signal", async () => {
  const step = inProcessStep({ deadlines: new Deadlines(), log: memoryLogger() });
  const next = answering(() => Promise.resolve(ok({ n: 1 })));
  const call = callFor(testTool());
  assert.deepEqual(await step(call, next), ok({ n: 1 }));
  assert.equal(next.calls.length, 1);
  assert.equal(call.db, NO_DATABASE);
  assert.equal(call.signal?.aborted, false);
  await assert.rejects(() => call.db.query("select 1"), /usesDatabase: false/);
});

Deno.test("inProcessStep() hands database tools on untouched", () => {
  const step = inProcessStep({ deadlines: new Deadlines(), log: memoryLogger() });
  for (
    const tool of [testTool({ usesDatabase: true }), testTool({ sideEffects: "writes.analytics" })]
  ) {
    const next = answering();
    const call = callFor(tool);
    assert.deepEqual(step(call, next), ok({ reached: true }));
    assert.equal(call.signal, undefined);
  }
});

Deno.test("inProcessStep() answers TIMEOUT and aborts the tool when its deadline passes", async () => {
  const log = memoryLogger();
  const step = inProcessStep({ deadlines: new Deadlines(), log });
  const call = callFor(testTool({ timeoutMs: 20 }));
  const answer = await step(
    call,
    answering(() =>
      new Promise((resolve) => {
        // Waits far past the deadline unless aborted (the shared timer keeps no process alive).
        const timer = setTimeout(() => resolve(ok({ n: 0 })), 5_000);
        call.signal!.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(ok({ n: 0 }));
        });
      })
    ),
  );
  assert.equal(answer.ok ? "ok" : answer.error.code, "TIMEOUT");
  assert.equal(call.signal!.aborted, true);
  assert.deepEqual(log.lines.map((line) => line.event), ["tool_timeout"]);
});

Deno.test("inProcessStep() passes a tool's ToolFailure through and hides anything else", async () => {
  const log = memoryLogger();
  const step = inProcessStep({ deadlines: new Deadlines(), log });
  const refused = await step(
    callFor(testTool()),
    answering(() => Promise.reject(new ToolFailure("NOT_FOUND", "No such table"))),
  );
  assert.deepEqual(refused, { ok: false, error: { code: "NOT_FOUND", msg: "No such table" } });
  const crashed = await step(
    callFor(testTool()),
    answering(() => Promise.reject(new Error("secret=1"))),
  );
  assert.equal(crashed.ok ? "" : crashed.error.code, "INTERNAL_ERROR");
  assert.equal(JSON.stringify(crashed).includes("secret"), false);
  assert.deepEqual(log.lines.map((line) => line.event), ["tool_failed"]);
});
