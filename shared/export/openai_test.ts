import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { type JsonSchema, toJsonSchema } from "./json_schema.ts";
import { ToolExportError } from "./batch.ts";
import { NAME_RULES } from "./names.ts";
import { fromOpenAIArguments, toOpenAIStrictSchema, toOpenAITools } from "./openai.ts";
import { checkOpenAIStrict } from "./openai_strict_rules.ts";
import {
  ALL_TOOLS,
  createOrder,
  docsTree,
  getPrice,
  newAjv,
  REPRESENTABLE,
  tagCounts,
} from "@testing/export_fixtures.ts";

function exported(name: string) {
  const result = toOpenAITools(REPRESENTABLE);
  const tool = result.tools.find((tool) => tool.function.name === result.names.toProvider(name));
  assert.ok(tool, `${name} was exported`);
  return tool.function;
}

Deno.test("toOpenAITools() fails, naming the tool, when one cannot be represented", () => {
  assert.throws(
    () => toOpenAITools(ALL_TOOLS),
    new ToolExportError("openai", [
      { tool: "calendar.add_event", reason: "Date cannot be represented in JSON Schema" },
    ]),
  );
});

Deno.test("toOpenAITools() exports every tool it is given", () => {
  const result = toOpenAITools(REPRESENTABLE);
  assert.equal(result.tools.length, REPRESENTABLE.length);
  for (const tool of result.tools) {
    assert.equal(tool.type, "function");
    assert.match(tool.function.name, NAME_RULES.openai.pattern);
    assert.equal(result.names.fromProvider(tool.function.name) !== undefined, true);
  }
});

Deno.test("toOpenAITools() strict schemas pass the strict-mode rules and compile as 2020-12", () => {
  const result = toOpenAITools(REPRESENTABLE);
  const strict = result.tools.filter((tool) => tool.function.strict);
  assert.equal(strict.length, REPRESENTABLE.length - 1);
  for (const { function: fn } of strict) {
    assert.deepEqual(checkOpenAIStrict(fn.parameters), [], fn.name);
    const ajv = newAjv();
    assert.equal(ajv.validateSchema(fn.parameters), true, ajv.errorsText(ajv.errors));
    ajv.compile(fn.parameters);
  }
});

Deno.test("toOpenAITools() sends a z.record tool non-strict and names it in nonStrict", () => {
  const result = toOpenAITools(REPRESENTABLE);
  assert.deepEqual(result.nonStrict, [{
    tool: "stats.tag_counts",
    reason:
      "Cannot make schema strict as #/properties/counts is a map (additionalProperties is a schema, e.g. z.record)",
  }]);
  const fn = exported(tagCounts.name);
  assert.equal(fn.strict, false);
  assert.equal(fn.parameters.type, "object");
  assert.equal("examples" in fn.parameters, false);
  assert.equal("$schema" in fn.parameters, false);
  assert.equal(newAjv().compile(fn.parameters)({ counts: { red: 1 } }), true);
});

Deno.test("toOpenAITools() resolves colliding names a.b and a_b", () => {
  const result = toOpenAITools(REPRESENTABLE);
  assert.equal(result.names.toProvider("a_b"), "a_b");
  assert.equal(result.names.toProvider("a.b"), "a_b_108bf5");
  const names = result.tools.map((tool) => tool.function.name);
  assert.equal(new Set(names).size, names.length);
});

Deno.test("toOpenAITools() makes optional fields required and nullable, and notes defaults", () => {
  const fn = exported(getPrice.name);
  const properties = fn.parameters.properties as Record<string, JsonSchema>;
  assert.deepEqual(fn.parameters.required, ["symbol", "currency", "limit", "window"]);
  assert.deepEqual(properties.symbol.type, "string");
  assert.deepEqual(properties.currency, {
    type: ["string", "null"],
    enum: ["EUR", "USD", "GBP", null],
    description: '(default: "EUR")',
  });
  assert.deepEqual(properties.limit, {
    type: ["integer", "null"],
    minimum: 1,
    maximum: 100,
    description: "(default: 10)",
  });
  assert.deepEqual(properties.window.type, ["object", "null"]);
  assert.equal(properties.window.additionalProperties, false);
});

Deno.test("toOpenAITools() with strict: false sends every tool non-strict", () => {
  const result = toOpenAITools(REPRESENTABLE, { strict: false });
  assert.equal(result.tools.every((tool) => tool.function.strict === false), true);
  assert.deepEqual(result.nonStrict, []);
});

Deno.test("strict arguments round-trip through fromOpenAIArguments() into zod", async (t) => {
  const ajv = newAjv();
  await t.step("markets.get_price: nulls become defaults", () => {
    const fn = exported(getPrice.name);
    const args = {
      symbol: "ACME",
      currency: null,
      limit: null,
      window: { from: "2026-01-01", to: null },
    };
    assert.equal(ajv.compile(fn.parameters)(args), true);
    const input = fromOpenAIArguments(JSON.stringify(args));
    assert.deepEqual(input, { symbol: "ACME", window: { from: "2026-01-01" } });
    assert.deepEqual(getPrice.input.parse(input), {
      symbol: "ACME",
      currency: "EUR",
      limit: 10,
      window: { from: "2026-01-01" },
    });
  });
  await t.step("orders.create: a required nullable field keeps its null with the schema", () => {
    const fn = exported(createOrder.name);
    const args = {
      customer_email: "a@example.com",
      items: [{ sku: "S", qty: 1, note: null }],
      payment: { method: "invoice", due_days: null },
      coupon: null,
      website: null,
    };
    assert.equal(ajv.compile(fn.parameters)(args), true);
    const input = fromOpenAIArguments(JSON.stringify(args), { schema: toJsonSchema(createOrder) });
    assert.deepEqual(input, {
      customer_email: "a@example.com",
      items: [{ sku: "S", qty: 1 }],
      payment: { method: "invoice" },
      coupon: null,
    });
    assert.equal(createOrder.input.safeParse(input).success, true);
    // Without the schema every null goes, the required `coupon` included.
    const blind = fromOpenAIArguments(JSON.stringify(args));
    assert.equal(createOrder.input.safeParse(blind).success, false);
  });
  await t.step("docs.save_tree: recursion through $defs", () => {
    const fn = exported(docsTree.name);
    const args = { root: { title: "a", children: [{ title: "b", children: null }] } };
    assert.equal(ajv.compile(fn.parameters)(args), true);
    const input = fromOpenAIArguments(JSON.stringify(args), { schema: toJsonSchema(docsTree) });
    assert.deepEqual(input, { root: { title: "a", children: [{ title: "b" }] } });
    assert.equal(docsTree.input.safeParse(input).success, true);
  });
});

Deno.test("fromOpenAIArguments() keeps null array elements and rejects bad JSON", () => {
  assert.deepEqual(fromOpenAIArguments('{"a":[null,{"b":null,"c":1}],"d":null}'), {
    a: [null, { c: 1 }],
  });
  assert.equal(fromOpenAIArguments("null"), null);
  assert.throws(() => fromOpenAIArguments("{"), SyntaxError);
});

Deno.test("toOpenAIStrictSchema() rewrites unions, type lists, refs and constants", () => {
  const strict = toOpenAIStrictSchema({
    type: "object",
    properties: {
      either: { oneOf: [{ type: "string" }, { type: "number" }] },
      multi: { type: ["string", "number"], description: "s or n" },
      ref: { $ref: "#/$defs/thing", description: "a thing" },
      fixed: { type: "string", const: "x" },
      site: { type: "string", format: "uri", minLength: 3 },
      maybe: { type: ["object", "null"], properties: { a: { type: "string" } } },
      nested: { anyOf: [{ anyOf: [{ type: "string" }, { type: "number" }] }, { type: "boolean" }] },
    },
    required: ["either", "multi", "nested", "maybe"],
    $defs: { thing: { type: "object", properties: { a: { type: "string" } } } },
  });
  assert.deepEqual(checkOpenAIStrict(strict), []);
  const properties = strict.properties as Record<string, JsonSchema>;
  assert.deepEqual(properties.either, { anyOf: [{ type: "string" }, { type: "number" }] });
  assert.deepEqual(properties.multi, {
    anyOf: [{ type: "string" }, { type: "number" }],
    description: "s or n",
  });
  assert.deepEqual(properties.ref, {
    anyOf: [{ $ref: "#/$defs/thing" }, { type: "null" }],
    description: "a thing",
  });
  assert.deepEqual(properties.fixed, { anyOf: [{ type: "string", const: "x" }, { type: "null" }] });
  assert.deepEqual(properties.site, {
    type: ["string", "null"],
    description: "(format: uri; at least 3 characters)",
  });
  assert.deepEqual(properties.maybe, {
    type: ["object", "null"],
    properties: { a: { type: ["string", "null"] } },
    required: ["a"],
    additionalProperties: false,
  });
  assert.deepEqual(properties.nested, {
    anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }],
  });
  assert.deepEqual(strict.$defs, {
    thing: {
      type: "object",
      properties: { a: { type: ["string", "null"] } },
      required: ["a"],
      additionalProperties: false,
    },
  });
});

Deno.test("toOpenAIStrictSchema() refuses what strict mode cannot express", () => {
  const cases: [JsonSchema, RegExp][] = [
    [{ type: "object", properties: { a: {} } }, /#\/properties\/a.*: must have a type/],
    [
      { type: "object", properties: { t: { type: "array", prefixItems: [{ type: "string" }] } } },
      /uses "prefixItems"/,
    ],
    [{ type: "object", properties: { a: { allOf: [{ type: "string" }] } } }, /uses "allOf"/],
    [{ type: "object", properties: { a: { type: "string", not: { const: "x" } } } }, /uses "not"/],
    [{ type: "object", properties: { a: { type: "string", if: {} } } }, /uses "if"/],
    [
      { type: "object", patternProperties: { "^x": { type: "string" } } },
      /uses "patternProperties"/,
    ],
    [{ type: "object", dependentRequired: { a: ["b"] } }, /uses "dependentRequired"/],
    [{ type: "string" }, /root must have type "object"/],
  ];
  for (const [schema, message] of cases) {
    assert.throws(() => toOpenAIStrictSchema(schema), message);
  }
});

Deno.test("toOpenAITools() falls back to non-strict for z.any() and tuples without breaking others", () => {
  const loose = defineTool({
    name: "test.loose",
    title: "Loose",
    description: "Takes anything.",
    category: "test",
    input: z.object({ payload: z.unknown(), pair: z.tuple([z.string(), z.int()]) }),
    output: z.object({}),
    examples: [{ input: { payload: 1, pair: ["a", 1] } }],
    sideEffects: "none",
    execute: () => Promise.resolve({}),
  });
  const result = toOpenAITools([loose, getPrice]);
  assert.deepEqual(result.tools.map((tool) => tool.function.strict), [false, true]);
  assert.equal(result.nonStrict.length, 1);
  assert.match(result.nonStrict[0].reason, /payload: must have a type|prefixItems/);
});

Deno.test("toOpenAITools() keeps a string with several regexes strict", () => {
  const codes = defineTool({
    name: "test.codes",
    title: "Codes",
    description: "Takes a code.",
    category: "test",
    input: z.object({ code: z.string().regex(/^[A-Z]+$/).regex(/X/).describe("A code") }),
    output: z.object({}),
    examples: [{ input: { code: "AXB" } }],
    sideEffects: "none",
    execute: () => Promise.resolve({}),
  });
  const [tool] = toOpenAITools([codes]).tools;
  assert.equal(tool.function.strict, true);
  assert.deepEqual((tool.function.parameters.properties as Record<string, JsonSchema>).code, {
    type: "string",
    pattern: "^[A-Z]+$",
    description: "A code (must also match /X/)",
  });
});
