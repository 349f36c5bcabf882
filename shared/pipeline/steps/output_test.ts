import assert from "node:assert/strict";
import { z } from "zod";
import { testTool } from "@testing/pipeline_calls.ts";
import { checkOutput } from "./output.ts";

Deno.test("checkOutput() answers ok with the data as the output schema parses it", () => {
  const tool = testTool({ output: z.object({ n: z.number(), note: z.string().default("none") }) });
  assert.deepEqual(checkOutput(tool, { n: 2, extra: true }), {
    ok: true,
    data: { n: 2, note: "none" },
  });
});

Deno.test("checkOutput() throws, naming the tool, when the data breaks the schema", () => {
  assert.throws(
    () => checkOutput(testTool(), { n: "two" }),
    (error: unknown) =>
      error instanceof Error && /^output does not match test\.step's schema/.test(error.message),
  );
});
