import assert from "node:assert/strict";
import {
  decodeMapStrings,
  decodeToolArguments,
  encodedMapDescription,
  isMapSchema,
} from "./encoded_maps.ts";
import { badDate, tagCounts, tripDetails } from "@testing/export_fixtures.ts";

const MAP = { type: "object", propertyNames: { type: "string" }, additionalProperties: {} };

Deno.test("isMapSchema() tells maps from objects with properties", () => {
  assert.equal(isMapSchema(MAP), true);
  assert.equal(isMapSchema({ type: ["object", "null"], additionalProperties: {} }), true);
  assert.equal(isMapSchema({ type: "object", properties: {} }), true);
  assert.equal(isMapSchema({ type: "object", properties: { a: { type: "string" } } }), false);
  assert.equal(isMapSchema({ type: "string" }), false);
});

Deno.test("encodedMapDescription() keeps the map's description and states its schema", () => {
  assert.equal(
    encodedMapDescription({ description: "Extra facts.", nullable: true, ...MAP }),
    'Extra facts. Give it as the JSON text of an object matching {"type":"object","propertyNames":{"type":"string"},"additionalProperties":{}}.',
  );
  assert.equal(
    encodedMapDescription({ type: "object" }),
    'The JSON text of an object matching {"type":"object"}.',
  );
});

Deno.test("decodeMapStrings() decodes maps sent as text wherever the schema has one", () => {
  const schema = {
    type: "object",
    properties: {
      memo: { type: "string" },
      metadata: MAP,
      maybe: { anyOf: [MAP, { type: "null" }] },
      stops: { type: "array", items: { $ref: "#/$defs/Stop" } },
    },
    $defs: { Stop: { type: "object", properties: { name: { type: "string" }, extra: MAP } } },
  };
  assert.deepEqual(
    decodeMapStrings({
      memo: '{"a":1}',
      metadata: '{"quote":"Q-1","lines":[1,2]}',
      maybe: '{"b":true}',
      stops: [{ name: "{}", extra: '{"hours":2}' }, { name: "Kigali" }],
      unknown: '{"c":1}',
    }, schema),
    {
      // a string where a string belongs stays one
      memo: '{"a":1}',
      metadata: { quote: "Q-1", lines: [1, 2] },
      maybe: { b: true },
      stops: [{ name: "{}", extra: { hours: 2 } }, { name: "Kigali" }],
      unknown: '{"c":1}',
    },
  );
});

Deno.test("decodeMapStrings() leaves what is not an object's JSON for validation to name", () => {
  const schema = { type: "object", properties: { m: MAP } };
  for (const text of ["[1,2]", "3", "null", "{not json", ""]) {
    assert.deepEqual(decodeMapStrings({ m: text }, schema), { m: text });
  }
});

Deno.test("decodeMapStrings() does not decode where a string is also allowed", () => {
  const schema = {
    type: "object",
    properties: {
      either: { anyOf: [{ type: "string" }, MAP] },
      code: { anyOf: [{ enum: ["a", "b"] }, MAP] },
      anything: { anyOf: [{}, MAP] },
    },
  };
  const args = { either: '{"a":1}', code: '{"a":1}', anything: '{"a":1}' };
  assert.equal(decodeMapStrings(args, schema), args);
});

Deno.test("decodeMapStrings() returns the same value when nothing was decoded", () => {
  const args = { metadata: { quote: "Q-1" }, list: [1, 2] };
  assert.equal(
    decodeMapStrings(args, { type: "object", properties: { metadata: MAP } }),
    args,
  );
});

Deno.test("decodeToolArguments() decodes by the tool's own input schema", () => {
  assert.deepEqual(decodeToolArguments(tagCounts, { counts: '{"red":2}' }), { counts: { red: 2 } });
  assert.deepEqual(
    decodeToolArguments(tripDetails, {
      kind: "car",
      details: { plate: "RAD 123 A" },
      tags: '{"purpose":"work"}',
    }),
    { kind: "car", details: { plate: "RAD 123 A" }, tags: { purpose: "work" } },
  );
  // A tool zod cannot describe gets its arguments back as they came.
  const args = { at: "2026-01-01" };
  assert.equal(decodeToolArguments(badDate, args), args);
});
