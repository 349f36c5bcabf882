import assert from "node:assert/strict";
import { z } from "zod";
import { ListToolsResultSchema, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ToolExportError } from "./batch.ts";
import { mcpAnnotations, toMcpTools } from "./mcp.ts";
import { presetJsonSchema } from "./json_schema.ts";
import {
  ALL_TOOLS,
  createOrder,
  getPrice,
  newAjv,
  ping,
  REPRESENTABLE,
  tagCounts,
} from "@testing/export_fixtures.ts";

/** What the SDK client validates `structuredContent` with (draft-07 Ajv). */
function sdkValidate(schema: unknown, value: unknown): boolean {
  return new AjvJsonSchemaValidator().getValidator(schema as JsonSchemaType)(value).valid;
}

Deno.test("toMcpTools() output parses with the SDK's ToolSchema and ListToolsResultSchema", () => {
  const result = toMcpTools(REPRESENTABLE);
  assert.equal(result.tools.length, REPRESENTABLE.length);
  for (const tool of result.tools) {
    assert.deepEqual(ToolSchema.parse(tool), tool);
    assert.match(tool.name, /^[A-Za-z0-9_.-]{1,128}$/);
    assert.equal(tool.inputSchema.type, "object");
  }
  ListToolsResultSchema.parse({ tools: result.tools });
});

Deno.test("toMcpTools() fails, naming the tool, when an input cannot be represented", () => {
  assert.throws(
    () => toMcpTools(ALL_TOOLS),
    new ToolExportError("mcp", [
      { tool: "calendar.add_event", reason: "Date cannot be represented in JSON Schema" },
    ]),
  );
});

Deno.test("toMcpTools() keeps our names, dots included", () => {
  const result = toMcpTools(REPRESENTABLE);
  assert.deepEqual(
    result.tools.map((tool) => tool.name),
    REPRESENTABLE.map((tool) => tool.name),
  );
  assert.equal(result.names.fromProvider("markets.get_price"), "markets.get_price");
});

Deno.test("toMcpTools() input schemas are 2020-12 and accept every example, also in the SDK's Ajv", () => {
  for (const tool of toMcpTools(REPRESENTABLE).tools) {
    const ajv = newAjv();
    assert.equal(ajv.validateSchema(tool.inputSchema), true, ajv.errorsText(ajv.errors));
    const validate = ajv.compile(tool.inputSchema);
    const ours = REPRESENTABLE.find((candidate) => candidate.name === tool.name)!;
    for (const example of ours.examples) {
      assert.equal(
        validate(example.input),
        true,
        `${tool.name}: ${ajv.errorsText(validate.errors)}`,
      );
      assert.equal(sdkValidate(tool.inputSchema, example.input), true, tool.name);
    }
  }
});

Deno.test("toMcpTools() maps the descriptor onto annotations", async (t) => {
  await t.step("read-only tool", () => {
    assert.deepEqual(mcpAnnotations(getPrice), {
      title: "Get price",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.equal(mcpAnnotations(ping).readOnlyHint, true, "read-only-nav is read-only");
  });
  await t.step("confirm-required write reaching outside", () => {
    assert.deepEqual(mcpAnnotations(createOrder), {
      title: "Create order",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
  });
  await t.step("reversible write", () => {
    assert.equal(mcpAnnotations(tagCounts).readOnlyHint, false);
    assert.equal(mcpAnnotations(tagCounts).destructiveHint, false);
  });
  await t.step("in the export", () => {
    const [tool] = toMcpTools([createOrder]).tools;
    assert.deepEqual(tool.annotations, mcpAnnotations(createOrder));
    assert.equal(tool.title, "Create order");
  });
});

Deno.test("toMcpTools() describes object outputs and omits the rest, with a note", () => {
  const result = toMcpTools(REPRESENTABLE);
  const price = result.tools.find((tool) => tool.name === "markets.get_price")!;
  assert.equal(price.outputSchema?.type, "object");
  assert.equal(sdkValidate(price.outputSchema, { symbol: "A", price: 1, currency: "EUR" }), true);
  assert.equal(sdkValidate(price.outputSchema, { ok: true, data: {} }), false);
  const counts = result.tools.find((tool) => tool.name === "stats.tag_counts")!;
  assert.equal("outputSchema" in counts, false);
  assert.deepEqual(result.notes, [{
    tool: "stats.tag_counts",
    reason:
      'outputSchema omitted: output is not an object (MCP needs an object root): type is "array"',
  }]);
});

Deno.test("toMcpTools() closes the input schema of a tool without arguments", () => {
  const [tool] = toMcpTools([ping]).tools;
  assert.equal(tool.inputSchema.additionalProperties, false);
  assert.equal(sdkValidate(tool.inputSchema, {}), true);
  assert.equal(sdkValidate(tool.inputSchema, { x: 1 }), false);
});

Deno.test("a stored answer schema gets the envelope zod's conversion writes", () => {
  const withOutput = (name: string, output: z.ZodType) =>
    defineTool({
      name,
      title: "Read",
      description: "Reads.",
      category: "docs",
      input: z.object({}),
      output,
      examples: [{ input: {} }],
      sideEffects: "none",
      execute: () => Promise.resolve(null),
    });
  const storedOpen = z.unknown();
  presetJsonSchema(storedOpen, {});
  const storedObject = z.unknown();
  const body = { type: "object", properties: { id: { type: "string" } } };
  presetJsonSchema(storedObject, body);
  const [converted, open, object] = toMcpTools([
    withOutput("docs.converted", z.unknown()),
    withOutput("docs.open", storedOpen),
    withOutput("docs.object", storedObject),
  ], { structuredContent: "envelope" }).tools;
  // The written-out envelope is zod's, key order included (listings are compared as text).
  assert.equal(JSON.stringify(open.outputSchema), JSON.stringify(converted.outputSchema));
  const data = (object.outputSchema?.properties as Record<string, unknown>).data;
  assert.deepEqual(data, body);
  assert.deepEqual(
    { ...object.outputSchema, properties: { ...object.outputSchema?.properties, data: {} } },
    converted.outputSchema,
  );
});

Deno.test("toMcpTools() with structuredContent: envelope describes { ok, data, error }", () => {
  interface Node {
    name: string;
    kids: Node[];
  }
  const Node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), kids: z.array(Node) }));
  const tree = defineTool({
    name: "docs.get_tree",
    title: "Get outline",
    description: "Reads an outline.",
    category: "docs",
    input: z.object({}),
    output: Node,
    examples: [{ input: {}, output: { name: "a", kids: [] } }],
    sideEffects: "none",
    execute: () => Promise.resolve({ name: "a", kids: [] }),
  });
  const result = toMcpTools([...REPRESENTABLE, tree], { structuredContent: "envelope" });
  assert.deepEqual(result.notes, []);
  for (const tool of result.tools) {
    ToolSchema.parse(tool);
    const schema = tool.outputSchema;
    assert.equal(schema?.type, "object", tool.name);
    assert.equal(
      sdkValidate(schema, { ok: false, error: { code: "NOT_FOUND", msg: "Item not found" } }),
      true,
    );
    assert.equal(sdkValidate(schema, { ok: false, error: { code: "NOPE", msg: "x" } }), false);
  }
  const outline = result.tools.find((tool) => tool.name === "docs.get_tree")!;
  const deep = { name: "a", kids: [{ name: "b", kids: [] }] };
  assert.equal(sdkValidate(outline.outputSchema, { ok: true, data: deep }), true);
  assert.equal(
    sdkValidate(outline.outputSchema, { ok: true, data: { name: "a", kids: [{}] } }),
    false,
  );
  const counts = result.tools.find((tool) => tool.name === "stats.tag_counts")!;
  assert.equal(
    sdkValidate(counts.outputSchema, { ok: true, data: [{ tag: "red", count: 2 }] }),
    true,
  );
});

Deno.test("toMcpTools() rejects an unknown structuredContent option", () => {
  assert.throws(
    () => toMcpTools([ping], { structuredContent: "both" as "data" }),
    TypeError,
  );
});
