import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { EXPORT_FORMATS, type ExportFormat, exportTools, isExportFormat } from "./export_tools.ts";
import { ALL_TOOLS, getPrice, REPRESENTABLE } from "@testing/export_fixtures.ts";

Deno.test("exportTools() returns JSON-serialisable output for every format", async (t) => {
  for (const format of EXPORT_FORMATS) {
    await t.step(format, () => {
      const result = exportTools(ALL_TOOLS, format);
      assert.equal(result.format, format);
      const printed = JSON.parse(JSON.stringify(result));
      assert.deepEqual(printed.tools, result.tools);
      assert.deepEqual(printed.names, result.names.toJSON());
      assert.equal(Object.keys(printed.names).length, ALL_TOOLS.length);
      assert.ok(result.skipped.some((skip) => skip.tool === "calendar.add_event"));
      assert.ok(result.tools.length >= REPRESENTABLE.length - 2);
    });
  }
});

Deno.test("exportTools() lists non-strict OpenAI tools and MCP output omissions as notes", () => {
  assert.deepEqual(exportTools(ALL_TOOLS, "openai").notes.map((note) => note.tool), [
    "stats.tag_counts",
  ]);
  const data = exportTools(ALL_TOOLS, "mcp", { mcp: { structuredContent: "data" } });
  assert.deepEqual(data.notes.map((note) => note.tool), ["stats.tag_counts"]);
  // By default the outputSchema describes the whole {ok, data, error} envelope.
  assert.deepEqual(exportTools(ALL_TOOLS, "mcp").notes, []);
  const loose = exportTools(ALL_TOOLS, "openai", { openai: { strict: false } });
  assert.deepEqual(loose.notes, []);
});

Deno.test("exportTools() jsonschema format keeps our names and the descriptor", () => {
  const result = exportTools([getPrice], "jsonschema");
  const [tool] = result.tools as { name: string; descriptor: { sideEffects: string } }[];
  assert.equal(tool.name, "markets.get_price");
  assert.equal(tool.descriptor.sideEffects, "none");
});

Deno.test("exportTools() keeps exporting when one tool's output cannot be represented", () => {
  const broken = defineTool({
    name: "test.broken_output",
    title: "Broken output",
    description: "Output is a transform.",
    category: "test",
    input: z.object({ a: z.string() }),
    output: z.object({ n: z.string().transform((value) => value.length) }),
    examples: [{ input: { a: "x" } }],
    sideEffects: "none",
    execute: () => Promise.resolve({ n: "abc" }),
  });
  const jsonschema = exportTools([broken, getPrice], "jsonschema");
  assert.equal(jsonschema.tools.length, 1);
  assert.deepEqual(jsonschema.skipped, [
    { tool: "test.broken_output", reason: "Transforms cannot be represented in JSON Schema" },
  ]);
  // MCP only needs the input; the output schema is left out with a note.
  const mcp = exportTools([broken, getPrice], "mcp", { mcp: { structuredContent: "data" } });
  assert.equal(mcp.tools.length, 2);
  assert.deepEqual(mcp.notes, [{
    tool: "test.broken_output",
    reason: "outputSchema omitted: Transforms cannot be represented in JSON Schema",
  }]);
});

Deno.test("exportTools() rejects an unknown format", () => {
  assert.throws(
    () => exportTools(ALL_TOOLS, "yaml" as ExportFormat),
    new TypeError(
      "Cannot export tools as format must be one of jsonschema, openai, anthropic, gemini, mcp: current value is yaml",
    ),
  );
});

Deno.test("isExportFormat() tells formats from other strings", () => {
  assert.equal(isExportFormat("gemini"), true);
  assert.equal(isExportFormat("GEMINI"), false);
});
