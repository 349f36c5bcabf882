import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { GEMINI_KEYWORDS, toGeminiFunctionDeclarations, toGeminiSchema } from "./gemini.ts";
import type { JsonSchema } from "./json_schema.ts";
import { ALL_TOOLS, allKeys, createOrder, getPrice, ping } from "@testing/export_fixtures.ts";

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
  const result = toGeminiFunctionDeclarations(ALL_TOOLS);
  assert.ok(result.functionDeclarations.length >= 4);
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

Deno.test("toGeminiFunctionDeclarations() skips recursive, map and unrepresentable tools only", () => {
  const result = toGeminiFunctionDeclarations(ALL_TOOLS);
  assert.deepEqual(result.functionDeclarations.map((declaration) => declaration.name), [
    "markets.get_price",
    "orders.create",
    "a.b",
    "a_b",
    "system.ping",
  ]);
  assert.deepEqual(result.skipped.map((skip) => skip.tool), [
    "stats.tag_counts",
    "docs.save_tree",
    "calendar.add_event",
  ]);
  assert.match(result.skipped[0].reason, /object without properties/);
  assert.match(result.skipped[1].reason, /recursive/);
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

Deno.test("toGeminiSchema() refuses untyped parts and a non-object root", () => {
  assert.throws(
    () => toGeminiSchema({ type: "object", properties: { a: {} } }),
    /#\/properties\/a has no type/,
  );
  assert.throws(() => toGeminiSchema({ type: "string" }), /root must be an object/);
});

Deno.test("toGeminiFunctionDeclarations() skips an untyped tool without breaking the others", () => {
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
  const result = toGeminiFunctionDeclarations([loose, getPrice]);
  assert.deepEqual(result.functionDeclarations.map((declaration) => declaration.name), [
    "markets.get_price",
  ]);
  assert.equal(result.skipped[0].tool, "test.loose");
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
