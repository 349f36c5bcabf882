import assert from "node:assert/strict";
import fc from "fast-check";
import type { JsonSchema } from "./json_schema.ts";
import {
  dropSafeIntegerBounds,
  presetSafeIntegerBoundPaths,
  safeIntegerBoundPaths,
} from "./safe_integer_bounds.ts";

const SAFE = Number.MAX_SAFE_INTEGER;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** What the walk makes of a frozen schema, and what the recorded paths make of another copy. */
function bothWays(
  schema: JsonSchema,
): { walked: unknown; byPaths: unknown; paths: unknown; stored: JsonSchema } {
  const paths = safeIntegerBoundPaths(schema);
  const walked = dropSafeIntegerBounds(deepFreeze(structuredClone(schema)));
  const stored = structuredClone(schema);
  presetSafeIntegerBoundPaths(stored, JSON.parse(JSON.stringify(paths)));
  const byPaths = dropSafeIntegerBounds(deepFreeze(stored));
  return { walked, byPaths, paths, stored };
}

/** Schemas with zod's bounds, other bounds, keyword-named properties and data that looks like a bound. */
const schemas: fc.Arbitrary<JsonSchema> = fc.letrec((tie) => ({
  integer: fc.record({
    type: fc.constantFrom("integer", ["integer", "null"], "number", "string"),
    minimum: fc.constantFrom(-SAFE, 0, 1, undefined),
    maximum: fc.constantFrom(SAFE, 100, undefined),
  }, { requiredKeys: ["type"] }).map((node) =>
    Object.fromEntries(Object.entries(node).filter(([, value]) => value !== undefined))
  ),
  data: fc.constantFrom(
    { type: "integer", minimum: -SAFE, maximum: SAFE },
    [{ type: "integer", maximum: SAFE }],
    "text",
  ),
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("integer"),
    fc.record({
      type: fc.constant("object"),
      properties: fc.dictionary(
        fc.constantFrom("count", "enum", "minimum", "default", "items", "anyOf", "type", "page"),
        tie("node"),
        { maxKeys: 4 },
      ),
    }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.constant("array"), items: tie("node") }),
    fc.record({ $defs: fc.dictionary(fc.string({ maxLength: 3 }), tie("node"), { maxKeys: 2 }) }),
    fc.record({
      type: fc.constant("object"),
      default: tie("data"),
      examples: fc.array(tie("data"), { maxLength: 2 }),
      enum: fc.array(tie("data"), { maxLength: 2 }),
    }),
  ),
})).node as fc.Arbitrary<JsonSchema>;

Deno.test("a stored schema's recorded bound paths drop exactly what the walk drops", () => {
  fc.assert(
    fc.property(schemas, (schema) => {
      const { walked, byPaths } = bothWays(schema);
      // Key order too: listings are compared and cached as text.
      assert.equal(JSON.stringify(byPaths), JSON.stringify(walked));
      assert.ok(Object.isFrozen(byPaths));
    }),
    { numRuns: 300 },
  );
});

Deno.test("the bound paths name each integer with zod's bounds, and nothing inside data", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      count: { type: "integer", minimum: -SAFE, maximum: SAFE },
      page: { type: "integer", minimum: 1, maximum: 10 },
      enum: { type: ["integer", "null"], maximum: SAFE },
      ids: { type: "array", items: { type: "integer", minimum: -SAFE } },
      either: { anyOf: [{ type: "string" }, { type: "integer", minimum: 0, maximum: SAFE }] },
      sample: { type: "object", default: { type: "integer", minimum: -SAFE } },
    },
  };
  const { walked, byPaths, paths, stored } = bothWays(schema);
  assert.deepEqual(paths, [
    ["properties", "count"],
    ["properties", "enum"],
    ["properties", "ids", "items"],
    ["properties", "either", "anyOf", 1],
  ]);
  assert.deepEqual(byPaths, walked);
  const properties = (byPaths as { properties: Record<string, JsonSchema> }).properties;
  assert.deepEqual(properties.count, { type: "integer" });
  assert.deepEqual(properties.sample.default, { type: "integer", minimum: -SAFE });
  // What has no bound to drop is shared, not copied.
  assert.equal(properties.page, (stored.properties as Record<string, JsonSchema>).page);
});

Deno.test("recorded paths that lead nowhere, or to no bound, change nothing", () => {
  const schema = deepFreeze({
    type: "object",
    properties: { name: { type: "string", maxLength: SAFE } },
  }) as JsonSchema;
  presetSafeIntegerBoundPaths(schema, [["properties", "name"], ["properties", "gone", "x"], [
    "required",
    0,
  ]]);
  assert.deepEqual(dropSafeIntegerBounds(schema), schema);
  const none = deepFreeze({ type: "object", properties: {} }) as JsonSchema;
  presetSafeIntegerBoundPaths(none, []);
  assert.equal(dropSafeIntegerBounds(none), none);
});
