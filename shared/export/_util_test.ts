import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { lazyInput } from "@shared/generated_tools/lazy_input.ts";
import { dropSafeIntegerBounds } from "./safe_integer_bounds.ts";
import { EXPORT_FORMATS, exportTools } from "./export_tools.ts";
import type { JsonSchema } from "./json_schema.ts";

const SAFE = Number.MAX_SAFE_INTEGER;

/** An input as a generated tool stores it: safe-integer bounds, a nested object, a union. */
function storedInput(): JsonSchema {
  return {
    type: "object",
    properties: {
      count: { type: "integer", minimum: -SAFE, maximum: SAFE },
      page: { type: "integer", minimum: 1, maximum: SAFE },
      filter: {
        type: "object",
        properties: {
          name: { type: "string", maxLength: 5 },
          ids: { type: "array", items: { type: "integer", minimum: -SAFE, maximum: SAFE } },
        },
        additionalProperties: false,
      },
      either: { anyOf: [{ type: "string" }, { type: "integer", minimum: 0, maximum: SAFE }] },
    },
    required: ["count"],
    additionalProperties: false,
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

Deno.test("dropSafeIntegerBounds() removes only zod's ±MAX_SAFE_INTEGER bounds of integers and leaves its argument as it was", () => {
  const schema = storedInput();
  const before = structuredClone(schema);
  const out = dropSafeIntegerBounds(schema) as { properties: Record<string, JsonSchema> };
  assert.deepEqual(schema, before);
  assert.deepEqual(out.properties.count, { type: "integer" });
  assert.deepEqual(out.properties.page, { type: "integer", minimum: 1 });
  assert.deepEqual(
    (out.properties.filter.properties as Record<string, JsonSchema>).ids.items,
    { type: "integer" },
  );
  assert.deepEqual(out.properties.either.anyOf, [{ type: "string" }, {
    type: "integer",
    minimum: 0,
  }]);
  // A number's bounds are the document's, not zod's.
  assert.deepEqual(dropSafeIntegerBounds({ type: "number", maximum: SAFE }), {
    type: "number",
    maximum: SAFE,
  });
});

Deno.test("dropSafeIntegerBounds() of a frozen schema is frozen and made once: a dialect cannot change what another gets", () => {
  const schema = deepFreeze(storedInput());
  const first = dropSafeIntegerBounds(schema);
  assert.equal(dropSafeIntegerBounds(schema), first);
  assert.ok(Object.isFrozen(first));
  const filter = (first as { properties: Record<string, JsonSchema> }).properties.filter;
  assert.ok(Object.isFrozen(filter));
  assert.throws(() => {
    (filter as Record<string, unknown>).additionalProperties = true;
  }, TypeError);
});

Deno.test("exporting a stored (generated) input in every format, twice, gives the same tools and leaves the stored schema as it was", () => {
  const json = storedInput();
  const stored = structuredClone(json);
  const tool = defineTool({
    name: "api.list_things",
    title: "List things",
    description: "Lists things.",
    category: "api",
    input: lazyInput(json, "api.list_things"),
    output: z.object({ ok: z.boolean() }),
    examples: [{ input: { count: 1 } }],
    sideEffects: "none",
    execute: () => Promise.resolve({ ok: true }),
  });
  // As sent: a copy of each format's tools, taken before the next format runs.
  const sent = (format: (typeof EXPORT_FORMATS)[number]) =>
    JSON.parse(JSON.stringify(exportTools([tool], format).tools));
  const first = EXPORT_FORMATS.map(sent);
  // In the other order, so each format follows the others' use of the shared parts.
  const again = [...EXPORT_FORMATS].reverse().map(sent).reverse();
  assert.deepEqual(again, first);
  assert.deepEqual(json, stored);
  const gemini = exportTools([tool], "gemini").tools[0] as {
    parameters: { properties: Record<string, JsonSchema> };
  };
  assert.deepEqual(gemini.parameters.properties.count, { type: "integer" });
});

Deno.test("dropSafeIntegerBounds() leaves data keywords as written and still walks properties named like them", () => {
  const bound = { type: "integer", minimum: -SAFE, maximum: SAFE };
  const data = { type: "integer", maximum: SAFE };
  const schema = {
    type: "object",
    properties: {
      // Properties named like data keywords are schemas: their bounds go.
      default: bound,
      enum: { type: "array", items: bound },
      settings: {
        type: "object",
        additionalProperties: bound,
        // Data: an example or default that looks like a schema is the API's value, kept.
        default: data,
        examples: [data],
        enum: [data],
        const: data,
      },
    },
  };
  const out = dropSafeIntegerBounds(deepFreeze(schema)) as {
    properties: Record<string, JsonSchema>;
  };
  assert.deepEqual(out.properties.default, { type: "integer" });
  assert.deepEqual(out.properties.enum.items, { type: "integer" });
  const settings = out.properties.settings;
  assert.deepEqual(settings.additionalProperties, { type: "integer" });
  assert.equal(settings.default, data);
  assert.equal((settings.examples as unknown[])[0], data);
  assert.equal((settings.enum as unknown[])[0], data);
  assert.equal(settings.const, data);
});
