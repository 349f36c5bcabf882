import assert from "node:assert/strict";
import { fail, ok } from "@shared/contract/mod.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { answering, callFor, testTool } from "@testing/pipeline_calls.ts";
import { newCall } from "../call.ts";
import type { TraceRecord } from "../trace_sink.ts";
import { traceStep } from "./trace.ts";

function recorder() {
  const records: TraceRecord[] = [];
  return { records, record: (trace: TraceRecord) => void records.push(trace) };
}

Deno.test("traceStep() records a settled call with its attribution and answer", async () => {
  const traces = recorder();
  const step = traceStep({ traces, log: memoryLogger() });
  const call = callFor(testTool(), { context: { trace_id: "t-1", agent_id: "waiter" } });
  call.replayed = true;
  const answer = await step(call, answering(() => Promise.resolve(ok({ n: 1 }))));
  assert.deepEqual(answer, ok({ n: 1 }));
  const [trace] = traces.records;
  assert.equal(traces.records.length, 1);
  assert.equal(trace.tool, "test.step");
  assert.equal(trace.trace_id, "t-1");
  assert.equal(trace.agent_id, "waiter");
  assert.equal(trace.ok, true);
  assert.equal(trace.error_code, null);
  assert.equal(trace.replayed, true);
  assert.deepEqual(trace.result, ok({ n: 1 }));
});

Deno.test("traceStep() records a refusal synchronously, naming an unknown tool safely", () => {
  const traces = recorder();
  const step = traceStep({ traces, log: memoryLogger() });
  const call = newCall({
    tool: "no such<tool>",
    args: {},
    caller: { claims: { role: "anon" }, org_id: null },
  }, performance.now());
  const answer = step(call, answering(fail("NOT_FOUND")));
  assert.equal(answer instanceof Promise, false);
  assert.equal(traces.records[0].tool, "nosuchtool");
  assert.equal(traces.records[0].error_code, "NOT_FOUND");
  assert.equal(traces.records[0].over_budget, false);
});

Deno.test("traceStep() turns a throw or a rejection into INTERNAL_ERROR, logged and traced, leaking nothing", async () => {
  const traces = recorder();
  const log = memoryLogger();
  const step = traceStep({ traces, log });
  const secret = "password=hunter2";
  const thrown = step(
    callFor(testTool()),
    answering(() => {
      throw new Error(secret);
    }),
  );
  const rejected = await step(
    callFor(testTool()),
    answering(() => Promise.reject(new Error(secret))),
  );
  for (const answer of [thrown, rejected]) {
    assert.deepEqual(answer, fail("INTERNAL_ERROR"));
    assert.equal(JSON.stringify(answer).includes(secret), false);
  }
  assert.deepEqual(traces.records.map((trace) => trace.error_code), [
    "INTERNAL_ERROR",
    "INTERNAL_ERROR",
  ]);
  assert.deepEqual(log.lines.map((line) => line.event), [
    "tool_pipeline_failed",
    "tool_pipeline_failed",
  ]);
  assert.ok(String(log.lines[0].error).includes(secret), "the details go to the log");
});
