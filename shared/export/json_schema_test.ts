import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import {
  exportJsonSchemaTool,
  JSON_SCHEMA_DIALECT,
  type JsonSchema,
  toJsonSchema,
  zodToJsonSchema,
} from "./json_schema.ts";
import {
  badDate,
  createOrder,
  docsTree,
  getPrice,
  newAjv,
  REPRESENTABLE,
} from "@testing/export_fixtures.ts";

Deno.test("toJsonSchema() makes valid 2020-12 documents that accept every example", async (t) => {
  for (const tool of REPRESENTABLE) {
    await t.step(tool.name, () => {
      const ajv = newAjv();
      const input = toJsonSchema(tool);
      assert.equal(ajv.validateSchema(input), true, ajv.errorsText(ajv.errors));
      const validateInput = ajv.compile(input);
      for (const example of tool.examples) {
        assert.equal(validateInput(example.input), true, ajv.errorsText(validateInput.errors));
      }
      const output = toJsonSchema(tool, { io: "output" });
      assert.equal(ajv.validateSchema(output), true, ajv.errorsText(ajv.errors));
      const validateOutput = ajv.compile(output);
      for (const example of tool.examples.filter((example) => example.output !== undefined)) {
        assert.equal(validateOutput(example.output), true, ajv.errorsText(validateOutput.errors));
      }
    });
  }
});

Deno.test("toJsonSchema() carries $schema, title, description and the examples' inputs", () => {
  const schema = toJsonSchema(getPrice);
  assert.equal(schema.$schema, JSON_SCHEMA_DIALECT);
  assert.equal(schema.title, "Get price");
  assert.equal(schema.description, "Latest price of a listed symbol.");
  assert.equal(schema.type, "object");
  assert.deepEqual(schema.examples, getPrice.examples.map((example) => example.input));
});

Deno.test("toJsonSchema() makes defaulted and optional fields optional on the input side", () => {
  const schema = toJsonSchema(getPrice);
  assert.deepEqual(schema.required, ["symbol"]);
  const properties = schema.properties as Record<string, JsonSchema>;
  assert.equal(properties.limit.default, 10);
  assert.equal(properties.limit.type, "integer");
  assert.equal(properties.symbol.pattern, "^[A-Z]{1,5}$");
  assert.equal(properties.symbol.description, "Ticker symbol");
  assert.deepEqual(properties.currency.enum, ["EUR", "USD", "GBP"]);
});

Deno.test("toJsonSchema() describes output with defaults required and closed objects", () => {
  const tool = defineTool({
    name: "test.defaults",
    title: "Defaults",
    description: "Output defaults.",
    category: "test",
    input: z.object({}),
    output: z.object({ n: z.int().default(1), label: z.string() }).describe("What you get"),
    examples: [{ input: {}, output: { n: 1, label: "x" } }],
    sideEffects: "none",
    execute: () => Promise.resolve({ label: "x" }),
  });
  const output = toJsonSchema(tool, { io: "output" });
  assert.equal(output.title, "Defaults: result");
  assert.equal(output.description, "What you get");
  assert.deepEqual(output.required, ["n", "label"]);
  assert.equal(output.additionalProperties, false);
  assert.deepEqual(output.examples, [{ n: 1, label: "x" }]);
});

Deno.test("toJsonSchema() puts recursive parts under $defs", () => {
  const schema = toJsonSchema(docsTree);
  assert.ok(schema.$defs);
  const validate = newAjv().compile(schema);
  assert.equal(validate({ root: { title: "a", children: [{ title: "b", children: [] }] } }), true);
  assert.equal(validate({ root: { title: "a", children: [{ nope: 1 }] } }), false);
});

Deno.test("toJsonSchema() throws when zod cannot represent the schema", () => {
  assert.throws(() => toJsonSchema(badDate), /Date cannot be represented/);
});

Deno.test("toJsonSchema() rejects an unknown io", () => {
  assert.throws(
    () => toJsonSchema(getPrice, { io: "both" as "input" }),
    new TypeError(
      'Cannot make a JSON Schema as io must be "input" or "output": current value is both',
    ),
  );
});

Deno.test("exportJsonSchemaTool() returns metadata, both schemas and the descriptor", () => {
  const exported = exportJsonSchemaTool(createOrder);
  assert.equal(exported.name, "orders.create");
  assert.equal(exported.category, "commerce");
  assert.equal(exported.inputSchema.$schema, JSON_SCHEMA_DIALECT);
  assert.equal(exported.outputSchema.$schema, JSON_SCHEMA_DIALECT);
  assert.deepEqual(exported.descriptor, {
    sideEffects: "writes.orders",
    auth: "user",
    latencyBudgetMs: 400,
    idempotent: true,
    confirmRequired: true,
    openWorld: true,
  });
  assert.deepEqual(JSON.parse(JSON.stringify(exported)), exported);
});

Deno.test("zodToJsonSchema() leaves out $schema and can target OpenAPI 3.0", () => {
  const schema = zodToJsonSchema(z.object({ a: z.string().nullable() }), {
    io: "input",
    target: "openapi-3.0",
  });
  assert.deepEqual(schema, {
    type: "object",
    properties: { a: { nullable: true, type: "string" } },
    required: ["a"],
  });
});
