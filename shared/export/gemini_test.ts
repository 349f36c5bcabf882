import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ToolExportError } from "./batch.ts";
import { decodeToolArguments } from "./encoded_maps.ts";
import {
  GEMINI_KEYWORDS,
  MAP_LEFT_OUT_NOTE,
  toGeminiFunctionDeclarations,
  toGeminiSchema,
  UNTYPED_NOTE,
} from "./gemini.ts";
import { type JsonSchema, toJsonSchema } from "./json_schema.ts";
import {
  ALL_TOOLS,
  allKeys,
  createOrder,
  EVERY_DIALECT,
  getPrice,
  newAjv,
  ping,
  tagCounts,
  toGeminiArguments,
  tripDetails,
} from "@testing/export_fixtures.ts";

const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

/** Schema keywords used in a Gemini schema (keys of `properties` are names, not keywords). */
function keywords(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(keywords);
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === "properties"
      ? [key, ...Object.values(value as JsonSchema).flatMap(keywords)]
      : key === "enum"
      ? [key]
      : [key, ...keywords(value)]
  );
}

Deno.test("toGeminiFunctionDeclarations() exports only Gemini's OpenAPI subset", () => {
  const result = toGeminiFunctionDeclarations([...EVERY_DIALECT, tripDetails]);
  assert.equal(result.functionDeclarations.length, EVERY_DIALECT.length + 1);
  for (const declaration of result.functionDeclarations) {
    assert.match(declaration.name, GEMINI_NAME);
    const keys = allKeys(declaration.parameters).map(({ key }) => key);
    for (const forbidden of ["$ref", "$defs", "definitions", "additionalProperties", "$schema"]) {
      assert.equal(keys.includes(forbidden), false, `${declaration.name} has ${forbidden}`);
    }
    for (const keyword of keywords(declaration.parameters)) {
      assert.ok(GEMINI_KEYWORDS.has(keyword), `${declaration.name} uses ${keyword}`);
    }
  }
});

Deno.test("toGeminiFunctionDeclarations() fails naming every tool Gemini cannot take", () => {
  assert.throws(
    () => toGeminiFunctionDeclarations(ALL_TOOLS),
    new ToolExportError("gemini", [
      {
        tool: "docs.save_tree",
        reason:
          "Cannot make a Gemini schema as #/properties/root/properties/children/items is recursive ($ref #/definitions/__schema0)",
      },
      { tool: "calendar.add_event", reason: "Date cannot be represented in JSON Schema" },
    ]),
  );
});

Deno.test("toGeminiFunctionDeclarations() asks for a free map as JSON text, its schema in the description", () => {
  const [declaration] = toGeminiFunctionDeclarations([tagCounts]).functionDeclarations;
  assert.deepEqual(declaration.parameters, {
    type: "object",
    properties: {
      counts: {
        type: "string",
        description:
          'The JSON text of an object matching {"type":"object","additionalProperties":{"type":"integer","minimum":0}}.',
      },
    },
    required: ["counts"],
  });
});

Deno.test("toGeminiFunctionDeclarations() types a map that declared its shape, and keeps nullable maps nullable", () => {
  const [declaration] = toGeminiFunctionDeclarations([tripDetails]).functionDeclarations;
  const properties = (declaration.parameters as JsonSchema).properties as Record<
    string,
    JsonSchema
  >;
  assert.deepEqual(properties.details, {
    anyOf: [
      {
        type: "object",
        properties: { plate: { type: "string" } },
        required: ["plate"],
        description: "When kind is car.",
      },
      {
        type: "object",
        properties: { flight: { type: "string" }, seat: { type: "string" } },
        required: ["flight"],
        description: "When kind is flight.",
      },
    ],
    description: "The trip's details.",
  });
  assert.equal(properties.tags.type, "string");
  assert.equal(properties.tags.nullable, true);
  const stop = (properties.stops.items as JsonSchema).properties as Record<string, JsonSchema>;
  assert.equal(stop.extra.type, "string");
  // Only Gemini gets the shape: JSON Schema still says what is validated, a map.
  const native = (toJsonSchema(tripDetails).properties as Record<string, JsonSchema>).details;
  assert.deepEqual(native.additionalProperties, {});
});

Deno.test("Gemini arguments validate against the declaration and decode to the native ones", async (t) => {
  const tools = [...EVERY_DIALECT, tripDetails];
  const { functionDeclarations } = toGeminiFunctionDeclarations(tools);
  for (const [index, tool] of tools.entries()) {
    const declaration = functionDeclarations[index];
    await t.step(tool.name, () => {
      for (const example of tool.examples) {
        const args = toGeminiArguments(example.input, declaration.parameters);
        if (declaration.parameters) {
          const validate = newAjv().compile(declaration.parameters);
          assert.equal(validate(args), true, JSON.stringify(validate.errors));
        }
        const decoded = decodeToolArguments(tool, args);
        assert.deepEqual(decoded, example.input);
        assert.deepEqual(tool.input.parse(decoded), tool.input.parse(example.input));
      }
    });
  }
  // The free maps really were sent as text: the native example does not fit Gemini's schema.
  const trip = functionDeclarations[tools.length - 1];
  const sent = toGeminiArguments(tripDetails.examples[0].input, trip.parameters) as JsonSchema;
  assert.equal(sent.tags, '{"purpose":"conference"}');
  assert.deepEqual(sent.stops, [{ name: "Nairobi", extra: '{"hours":2}' }, { name: "Kigali" }]);
  assert.equal(newAjv().validate(trip.parameters!, tripDetails.examples[0].input), false);
});

Deno.test("toGeminiFunctionDeclarations() keeps dotted names and maps nullable, unions and notes", () => {
  const result = toGeminiFunctionDeclarations([getPrice, createOrder]);
  assert.equal(result.names.toProvider("markets.get_price"), "markets.get_price");
  const price = result.functionDeclarations[0].parameters as JsonSchema;
  assert.deepEqual(price.required, ["symbol"]);
  const priceProperties = price.properties as Record<string, JsonSchema>;
  assert.deepEqual(priceProperties.limit, {
    type: "integer",
    minimum: 1,
    maximum: 100,
    description: "(default: 10)",
  });
  const order = result.functionDeclarations[1].parameters as JsonSchema;
  const properties = order.properties as Record<string, JsonSchema>;
  assert.deepEqual(properties.coupon, { nullable: true, type: "string" });
  assert.equal((properties.payment.anyOf as unknown[]).length, 2);
  assert.deepEqual(properties.website, { type: "string", description: "(format: uri)" });
  const item = (properties.items.items as JsonSchema).properties as Record<string, JsonSchema>;
  assert.deepEqual(item.qty, { type: "integer", minimum: 0, description: "(greater than 0)" });
});

Deno.test("toGeminiFunctionDeclarations() leaves out parameters for a tool without arguments", () => {
  const [declaration] = toGeminiFunctionDeclarations([ping]).functionDeclarations;
  assert.deepEqual(declaration, {
    name: "system.ping",
    description: "Checks that the service answers.",
  });
});

Deno.test("toGeminiSchema() inlines non-recursive $refs and notes non-string enums", () => {
  const schema = toGeminiSchema({
    type: "object",
    properties: {
      a: { $ref: "#/definitions/Shared" },
      b: { $ref: "#/definitions/Shared", description: "second" },
      n: { type: "number", enum: [1, 2] },
    },
    required: ["a"],
    definitions: { Shared: { type: "object", properties: { q: { type: "string" } } } },
  });
  assert.deepEqual(schema, {
    type: "object",
    properties: {
      a: { type: "object", properties: { q: { type: "string" } } },
      b: { type: "object", properties: { q: { type: "string" } }, description: "second" },
      n: { type: "number", description: "(one of 1, 2)" },
    },
    required: ["a"],
  });
});

Deno.test("toGeminiSchema() makes an untyped part a text, number or boolean, saying so, and refuses a non-object root", () => {
  assert.deepEqual(
    toGeminiSchema({ type: "object", properties: { a: {}, b: { description: "B." } } }),
    {
      type: "object",
      properties: {
        a: {
          anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }],
          description: `(${UNTYPED_NOTE})`,
        },
        b: {
          anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }],
          description: `B. (${UNTYPED_NOTE})`,
        },
      },
    },
  );
  assert.throws(() => toGeminiSchema({ type: "string" }), /root must be an object/);
});

Deno.test("toGeminiFunctionDeclarations() exports a tool with an untyped part instead of failing it", () => {
  const loose = defineTool({
    name: "test.loose",
    title: "Loose",
    description: "Takes anything.",
    category: "test",
    input: z.object({ payload: z.unknown() }),
    output: z.object({}),
    examples: [{ input: { payload: 1 } }],
    sideEffects: "none",
    execute: () => Promise.resolve({}),
  });
  const { functionDeclarations } = toGeminiFunctionDeclarations([loose, getPrice]);
  const payload = (functionDeclarations[0].parameters as JsonSchema).properties as Record<
    string,
    JsonSchema
  >;
  assert.match(String(payload.payload.description), /an object or a list cannot be sent here/);
});

Deno.test("toGeminiSchema() leaves out a map beside a string alternative, saying so; refuses one nested deeper, and a root map", () => {
  assert.deepEqual(
    toGeminiSchema({
      type: "object",
      properties: {
        v: {
          anyOf: [{ type: "string" }, { type: "integer" }, {
            type: "object",
            additionalProperties: {},
          }],
        },
      },
    }),
    {
      type: "object",
      properties: {
        v: {
          anyOf: [{ type: "string" }, { type: "integer" }],
          description: `(${MAP_LEFT_OUT_NOTE})`,
        },
      },
    },
  );
  assert.throws(
    () =>
      toGeminiSchema({
        type: "object",
        properties: {
          v: {
            anyOf: [{ type: "string" }, {
              anyOf: [{ type: "integer" }, { type: "object", additionalProperties: {} }],
            }],
          },
        },
      }),
    /#\/properties\/v\/anyOf has a map beside a string alternative/,
  );
  assert.throws(
    () => toGeminiSchema({ type: "object", additionalProperties: { type: "string" } }),
    /the root is a map/,
  );
});

Deno.test("toGeminiSchema() keeps the first of several patterns and refuses other allOfs", () => {
  assert.deepEqual(
    toGeminiSchema({
      type: "object",
      properties: { code: { type: "string", allOf: [{ pattern: "^a" }, { pattern: "b$" }] } },
    }),
    {
      type: "object",
      properties: {
        code: { type: "string", pattern: "^a", description: "(must also match /b$/)" },
      },
    },
  );
  assert.throws(
    () =>
      toGeminiSchema({
        type: "object",
        properties: { a: { allOf: [{ type: "string" }, { minLength: 1 }] } },
      }),
    /uses allOf\/not/,
  );
});

Deno.test("toGeminiSchema() writes out the types JSON Schema leaves implicit", () => {
  assert.deepEqual(
    toGeminiSchema({
      type: "object",
      properties: {
        level: { enum: ["", 0, 1] },
        kind: { enum: ["a", "b", null] },
        fixed: { const: 3 },
        shape: { properties: { side: { type: "number" } } },
        list: { items: { type: "string" } },
      },
    }),
    {
      type: "object",
      properties: {
        level: {
          anyOf: [{ type: "string" }, { type: "integer" }],
          description: '(one of "", 0, 1)',
        },
        kind: { type: "string", nullable: true, description: '(one of "a", "b", null)' },
        fixed: { type: "integer", description: "(one of 3)" },
        shape: { type: "object", properties: { side: { type: "number" } } },
        list: { type: "array", items: { type: "string" } },
      },
    },
  );
});

Deno.test("toGeminiFunctionDeclarations() exports a string of two patterns, as zod's 3.0 target and a document's format beside a pattern write it", () => {
  const dated = defineTool({
    name: "test.dated",
    title: "Dated",
    description: "Takes a date that must also look like a year.",
    category: "test",
    input: z.object({ day: z.iso.date().regex(/^(\d{4})-/) }),
    output: z.object({}),
    examples: [{ input: { day: "2026-01-31" } }],
    sideEffects: "none",
    execute: () => Promise.resolve({}),
  });
  const [declaration] = toGeminiFunctionDeclarations([dated]).functionDeclarations;
  const day = ((declaration.parameters as JsonSchema).properties as Record<string, JsonSchema>).day;
  assert.equal(day.type, "string");
  assert.equal(typeof day.pattern, "string");
  assert.equal("allOf" in day, false);
  assert.match(String(day.description), /must also match \/\^\(\\d\{4\}\)-\//);
  // The same string as a stored (generated) tool's OpenAPI 3.0 spelling types each part.
  assert.deepEqual(
    toGeminiSchema({
      type: "object",
      properties: {
        day: {
          type: "string",
          allOf: [{ type: "string", pattern: "^a" }, { type: "string", pattern: "b$" }],
        },
      },
    }),
    {
      type: "object",
      properties: { day: { type: "string", pattern: "^a", description: "(must also match /b$/)" } },
    },
  );
});
