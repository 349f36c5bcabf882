import assert from "node:assert/strict";
import { z } from "zod";
import { fail, type ToolResult } from "@shared/contract/result.ts";
import { callTyped, isToolResult, readData, readKeptResult, readResult } from "./tool_call.ts";

const lookup = {
  name: "place_lookup",
  output: z.object({ found: z.boolean(), place: z.object({ name: z.string() }).optional() }),
};

function answering(result: ToolResult) {
  const calls: Array<{ tool: string; args: unknown; step: string }> = [];
  const caller = (tool: string, args: unknown, step: string) => {
    calls.push({ tool, args, step });
    return Promise.resolve(result);
  };
  return { calls, caller };
}

Deno.test("callTyped() calls the tool by its name and returns data read by its output schema", async () => {
  const { calls, caller } = answering({
    ok: true,
    data: { found: true, place: { name: "Kimironko" }, extra: 1 },
  });
  const result = await callTyped(caller, lookup, { text: "kimironko" }, "pickup");
  assert.deepEqual(calls, [{ tool: "place_lookup", args: { text: "kimironko" }, step: "pickup" }]);
  assert.ok(result.ok);
  // Typed by the schema: no cast, and only the fields it declares.
  assert.equal(result.data.place?.name, "Kimironko");
  assert.deepEqual(result.data, { found: true, place: { name: "Kimironko" } });
});

Deno.test("callTyped() passes a failure on as it came, code and details included", async () => {
  const refused = fail("VALIDATION_ERROR", "Bad photo", { details: { refusal: "unreadable" } });
  const { caller } = answering(refused);
  assert.deepEqual(await callTyped(caller, lookup, {}, "pickup"), refused);
});

Deno.test("callTyped() throws naming the tool and the field when data does not match its schema", async () => {
  const { caller } = answering({ ok: true, data: { found: "yes" } });
  await assert.rejects(
    () => callTyped(caller, lookup, {}, "pickup"),
    (error: Error) =>
      error instanceof TypeError && /place_lookup/.test(error.message) &&
      /check found/.test(error.message),
  );
});

Deno.test("readResult() reads a kept result, and refuses what is not a tool result", () => {
  assert.deepEqual(readResult(lookup, { ok: true, data: { found: false } }), {
    ok: true,
    data: { found: false },
  });
  assert.throws(() => readResult(lookup, { found: false }), TypeError);
  assert.throws(() => readResult(lookup, undefined), TypeError);
});

Deno.test("readKeptResult() is null when no result is kept", () => {
  assert.equal(readKeptResult(lookup, null), null);
  assert.equal(readKeptResult(lookup, undefined), null);
  assert.deepEqual(readKeptResult(lookup, { ok: true, data: { found: true } }), {
    ok: true,
    data: { found: true },
  });
});

Deno.test("readData() parses a success's data by the output schema", () => {
  assert.deepEqual(readData(lookup, { found: true, other: 2 }), { found: true });
  assert.throws(() => readData(lookup, {}), /check found/);
});

Deno.test("isToolResult() tells a tool result from anything else kept in memory", () => {
  assert.equal(isToolResult({ ok: true, data: null }), true);
  assert.equal(isToolResult({ ok: false, error: { code: "CANCELLED", msg: "no" } }), true);
  for (const other of [null, undefined, "ok", { ok: true }, { ok: false }, { data: 1 }]) {
    assert.equal(isToolResult(other), false);
  }
});
