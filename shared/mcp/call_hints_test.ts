import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { callHints } from "./call_hints.ts";

function tool(input: z.ZodObject) {
  return defineTool({
    name: "hinted",
    title: "Hinted",
    description: "A tool for hint tests.",
    category: "testing",
    input,
    output: z.object({}),
    examples: [{ input: {} }],
    sideEffects: "writes.test",
    execute: () => Promise.resolve({}),
  });
}

Deno.test("callHints() takes the key and token from _meta, arguments untouched", () => {
  const hints = callHints(tool(z.object({ n: z.number().optional() })), { n: 1 }, {
    idempotency_key: "k",
    confirmation: "t",
  });
  assert.deepEqual(hints, { ok: true, args: { n: 1 }, idempotencyKey: "k", confirmation: "t" });
});

Deno.test("callHints() takes them out of the arguments unless the tool has such arguments", () => {
  assert.deepEqual(
    callHints(
      tool(z.object({ n: z.number().optional() })),
      { n: 1, idempotency_key: "k" },
      undefined,
    ),
    { ok: true, args: { n: 1 }, idempotencyKey: "k", confirmation: null },
  );
  // A tool with its own `confirmation` argument keeps it.
  assert.deepEqual(
    callHints(tool(z.object({ confirmation: z.string().optional() })), { confirmation: "yes" }, {}),
    { ok: true, args: { confirmation: "yes" }, idempotencyKey: null, confirmation: null },
  );
});

Deno.test("callHints() names the hint that is bad or given twice differently", () => {
  for (
    const [args, meta, path] of [
      [{ idempotency_key: "a" }, { idempotency_key: "b" }, "idempotency_key"],
      [{}, { confirmation: 5 }, "confirmation"],
      [{ idempotency_key: "" }, {}, "idempotency_key"],
    ] as const
  ) {
    const hints = callHints(tool(z.object({})), args, meta);
    assert.equal(hints.ok, false);
    if (!hints.ok) {
      assert.equal(hints.error.code, "VALIDATION_ERROR");
      assert.deepEqual(hints.error.fields?.map((field) => field.path), [path]);
    }
  }
});
