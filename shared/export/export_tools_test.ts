import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ToolExportError } from "./batch.ts";
import {
  DECIDING_FORMATS,
  EXPORT_FORMATS,
  type ExportFormat,
  exportTools,
  isExportFormat,
} from "./export_tools.ts";
import {
  ALL_TOOLS,
  EVERY_DIALECT,
  getPrice,
  REPRESENTABLE,
  tripDetails,
} from "@testing/export_fixtures.ts";

Deno.test("exportTools() returns every tool, JSON-serialisable, in every format", async (t) => {
  const tools = [...EVERY_DIALECT, tripDetails];
  for (const format of EXPORT_FORMATS) {
    await t.step(format, () => {
      const result = exportTools(tools, format);
      assert.equal(result.format, format);
      const printed = JSON.parse(JSON.stringify(result));
      assert.deepEqual(printed.tools, result.tools);
      assert.deepEqual(printed.names, result.names.toJSON());
      assert.equal(result.tools.length, tools.length);
      assert.equal(Object.keys(printed.names).length, tools.length);
    });
  }
});

Deno.test("exportTools() fails in every format, naming the tool, rather than leave one out", () => {
  for (const format of EXPORT_FORMATS) {
    let error: unknown;
    try {
      exportTools(ALL_TOOLS, format);
    } catch (thrown) {
      error = thrown;
    }
    assert.ok(error instanceof ToolExportError, format);
    const named = error.issues.map((issue) => issue.tool);
    // Gemini cannot take recursion either; every format names the Date zod cannot write.
    assert.deepEqual(
      named,
      format === "gemini" ? ["docs.save_tree", "calendar.add_event"] : ["calendar.add_event"],
      format,
    );
    assert.match(
      error.message,
      /calendar\.add_event cannot be included: Date cannot be represented/,
    );
  }
});

Deno.test("exportTools() lists non-strict OpenAI tools and MCP output omissions as notes", () => {
  assert.deepEqual(exportTools(REPRESENTABLE, "openai").notes.map((note) => note.tool), [
    "stats.tag_counts",
  ]);
  const data = exportTools(REPRESENTABLE, "mcp", { mcp: { structuredContent: "data" } });
  assert.deepEqual(data.notes.map((note) => note.tool), ["stats.tag_counts"]);
  // By default the outputSchema describes the whole {ok, data, error} envelope.
  assert.deepEqual(exportTools(REPRESENTABLE, "mcp").notes, []);
  const loose = exportTools(REPRESENTABLE, "openai", { openai: { strict: false } });
  assert.deepEqual(loose.notes, []);
});

Deno.test("exportTools() jsonschema format keeps our names and the descriptor", () => {
  const result = exportTools([getPrice], "jsonschema");
  const [tool] = result.tools as { name: string; descriptor: { sideEffects: string } }[];
  assert.equal(tool.name, "markets.get_price");
  assert.equal(tool.descriptor.sideEffects, "none");
});

Deno.test("exportTools() jsonschema fails on an output zod cannot write; MCP notes it", () => {
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
  assert.throws(
    () => exportTools([broken, getPrice], "jsonschema"),
    new ToolExportError("jsonschema", [
      { tool: "test.broken_output", reason: "Transforms cannot be represented in JSON Schema" },
    ]),
  );
  // MCP only needs the input: the tool is there, its output schema left out with a note.
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

Deno.test("DECIDING_FORMATS decide: a tool they all carry exports in every format, and one a format refuses is refused by one of them", () => {
  const exports = (tool: typeof getPrice | (typeof ALL_TOOLS)[number], format: ExportFormat) => {
    try {
      exportTools([tool], format);
      return true;
    } catch {
      return false;
    }
  };
  let refused = 0;
  for (const tool of [...ALL_TOOLS, tripDetails]) {
    const decided = DECIDING_FORMATS.every((format) => exports(tool, format));
    const everywhere = EXPORT_FORMATS.every((format) => exports(tool, format));
    assert.equal(decided, everywhere, tool.name);
    if (!decided) refused++;
  }
  // The fixtures hold tools some format refuses (recursion for Gemini, a Date for all).
  assert.equal(refused, 2);
});
