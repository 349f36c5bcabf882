import assert from "node:assert/strict";
import {
  checkOpenAIStrict,
  OPENAI_STRICT_MAX_DEPTH,
  OPENAI_STRICT_MAX_PROPERTIES,
} from "./openai_strict_rules.ts";
import type { JsonSchema } from "./json_schema.ts";

const GOOD: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "Name", pattern: "^[a-z]+$" },
    day: { type: ["string", "null"], format: "date" },
    kind: { type: ["string", "null"], enum: ["a", "b", null] },
    items: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: { qty: { type: "integer", minimum: 1 } },
        required: ["qty"],
        additionalProperties: false,
      },
    },
    pay: {
      anyOf: [
        {
          type: "object",
          properties: { method: { type: "string", const: "card" } },
          required: ["method"],
          additionalProperties: false,
        },
        { type: "null" },
      ],
    },
    tree: { $ref: "#/$defs/node" },
  },
  required: ["name", "day", "kind", "items", "pay", "tree"],
  additionalProperties: false,
  $defs: {
    node: {
      type: "object",
      properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } },
      required: ["kids"],
      additionalProperties: false,
    },
  },
};

Deno.test("checkOpenAIStrict() accepts a strict-ready schema", () => {
  assert.deepEqual(checkOpenAIStrict(GOOD), []);
});

Deno.test("checkOpenAIStrict() lists every violation of a hand-made bad schema", () => {
  const bad = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      optional: { type: "string", default: "x" },
      open: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      map: { type: "object", additionalProperties: { type: "number" } },
      both: { allOf: [{ type: "string" }, { minLength: 1 }] },
      untyped: {},
      multi: { type: ["string", "number"] },
      site: { type: "string", format: "uri" },
      nullableEnum: { type: ["string", "null"], enum: ["a"] },
      remote: { $ref: "https://example.com/schema.json" },
      tuple: { type: "array", items: [{ type: "string" }] },
    },
    required: [
      "open",
      "map",
      "both",
      "untyped",
      "multi",
      "site",
      "nullableEnum",
      "remote",
      "tuple",
      "ghost",
    ],
  };
  assert.deepEqual(checkOpenAIStrict(bad), [
    '#: unsupported keyword "$schema"',
    "#: object must set additionalProperties: false",
    '#: every property must be required: missing ["optional"]',
    '#: required lists unknown properties ["ghost"]',
    '#/properties/optional: unsupported keyword "default"',
    "#/properties/open: object must set additionalProperties: false",
    "#/properties/map: object must set additionalProperties: false",
    '#/properties/both: unsupported keyword "allOf"',
    "#/properties/both: must have a type",
    "#/properties/untyped: must have a type",
    '#/properties/multi: type list must be one type or [type, "null"]',
    '#/properties/site: unsupported format "uri"',
    "#/properties/nullableEnum: nullable enum must list null",
    '#/properties/remote: $ref must be local (start with "#")',
    "#/properties/tuple/items: must be one schema, not a tuple",
  ]);
});

Deno.test("checkOpenAIStrict() requires an object root that is not anyOf", () => {
  assert.deepEqual(checkOpenAIStrict({ anyOf: [{ type: "string" }] }), [
    '#: root must have type "object": current value is undefined',
    "#: root must not be anyOf",
  ]);
  assert.deepEqual(checkOpenAIStrict(true), ["#: root must be a schema object"]);
});

Deno.test("checkOpenAIStrict() allows 10 levels of nesting and rejects 11", () => {
  function nested(levels: number): JsonSchema {
    let schema: JsonSchema = {
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    };
    for (let level = 1; level < levels; level++) {
      schema = {
        type: "object",
        properties: { child: schema },
        required: ["child"],
        additionalProperties: false,
      };
    }
    return schema;
  }
  assert.deepEqual(checkOpenAIStrict(nested(OPENAI_STRICT_MAX_DEPTH)), []);
  const violations = checkOpenAIStrict(nested(OPENAI_STRICT_MAX_DEPTH + 1));
  assert.equal(violations.length, 1);
  assert.match(violations[0], /more than 10 levels of nesting/);
});

Deno.test("checkOpenAIStrict() rejects more than 5000 properties", () => {
  function wide(count: number): JsonSchema {
    const keys = Array.from({ length: count }, (_, index) => `p${index}`);
    return {
      type: "object",
      properties: Object.fromEntries(keys.map((key) => [key, { type: "string" }])),
      required: keys,
      additionalProperties: false,
    };
  }
  assert.deepEqual(checkOpenAIStrict(wide(OPENAI_STRICT_MAX_PROPERTIES)), []);
  assert.deepEqual(checkOpenAIStrict(wide(OPENAI_STRICT_MAX_PROPERTIES + 1)), [
    "#: at most 5000 properties in total: current count is 5001",
  ]);
});
