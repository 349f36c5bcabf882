import assert from "node:assert/strict";
import { z } from "zod";
import type { ToolResult } from "@shared/contract/mod.ts";
import { answering, callFor, testTool } from "@testing/pipeline_calls.ts";
import { validationStep } from "./validation.ts";

Deno.test("validationStep() sets the parsed arguments (defaults applied) and hands on", () => {
  const next = answering();
  const call = callFor(testTool(), { args: {} });
  validationStep()(call, next);
  assert.deepEqual(call.args, { n: 1 });
  assert.equal(next.calls.length, 1);
});

Deno.test("validationStep() answers VALIDATION_ERROR naming each bad field, synchronously", () => {
  const tool = testTool({
    input: z.object({ n: z.number(), name: z.string().min(2) }),
    examples: [{ input: { n: 1, name: "ab" } }],
  });
  const next = answering();
  const answer = validationStep()(callFor(tool, { args: { n: "two", name: "x" } }), next);
  assert.equal(answer instanceof Promise, false);
  const result = answer as ToolResult;
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.equal(result.error.code, "VALIDATION_ERROR");
  assert.deepEqual(result.error.fields?.map((field) => field.path).sort(), ["n", "name"]);
  assert.equal(next.calls.length, 0);
});

Deno.test("validationStep() reads a map sent as JSON text as the map; other text stays an error", () => {
  const tool = testTool({
    input: z.object({ filters: z.record(z.string(), z.number()) }),
    examples: [{ input: { filters: {} } }],
  });
  const next = answering();
  const call = callFor(tool, { args: { filters: '{"qty": 2}' } });
  validationStep()(call, next);
  assert.deepEqual(call.args, { filters: { qty: 2 } });
  const bad = validationStep()(callFor(tool, { args: { filters: "qty=2" } }), next) as ToolResult;
  assert.equal(bad.ok ? "ok" : bad.error.code, "VALIDATION_ERROR");
  assert.equal(next.calls.length, 1);
});

Deno.test("validationStep() treats missing arguments as an empty object", () => {
  const call = callFor(testTool(), { args: undefined });
  call.args = undefined;
  validationStep()(call, answering());
  assert.deepEqual(call.args, { n: 1 });
});
