/**
 * Maps sent as JSON text. Gemini's schema subset cannot describe a free-form
 * map (`z.record`, `payload()`), so its export asks for such a map as a
 * string holding the object's JSON, with the map's schema in the description
 * ({@link encodedMapDescription}). {@link decodeMapStrings} turns those strings back
 * into objects, only where our schema has a map and no string would fit, so
 * the pipeline validates the call as if it had been sent natively.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { type JsonSchema, toJsonSchema } from "./json_schema.ts";
import { isRecord, resolveLocalRef, schemaBranches } from "./_util.ts";

/**
 * Whether a schema describes a free-form map: an object without properties
 * (`z.record`, `payload()`, `z.object({})`). At the root that is a tool
 * without arguments, which the callers tell apart themselves.
 *
 * @param schema A JSON Schema (2020-12 or OpenAPI 3.0) node.
 * @returns True for an object type without properties.
 */
export function isMapSchema(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes("object")) return false;
  return !isRecord(schema.properties) || Object.keys(schema.properties).length === 0;
}

/**
 * How a model is told to send a map as JSON text, with the map's schema.
 *
 * @param map The map's schema; its `description` and `nullable` are left out
 * (the string carries them).
 * @returns The map's description, if any, then e.g. `Give it as the JSON text
 * of an object matching {"type":"object",…}.`
 */
export function encodedMapDescription(map: JsonSchema): string {
  const { description, nullable: _nullable, ...schema } = map;
  const how = `JSON text of an object matching ${JSON.stringify(schema)}.`;
  return typeof description === "string" && description !== ""
    ? `${description} Give it as the ${how}`
    : `The ${how}`;
}

/**
 * Replaces strings that hold a map's JSON with the map, wherever `schema`
 * has a map and no alternative that takes a string. Anything else is left as
 * it is (a string that is not an object's JSON stays, and validation names it).
 *
 * @param value Arguments as a model sent them.
 * @param schema The tool's 2020-12 input schema (local `$ref`s are followed).
 * @returns `value` itself when nothing was decoded, else a decoded copy.
 *
 * @example A map sent as text
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeMapStrings } from "./encoded_maps.ts";
 *
 * const schema = {
 *   type: "object",
 *   properties: { memo: { type: "string" }, metadata: { type: "object", additionalProperties: {} } },
 * };
 * assert.deepEqual(decodeMapStrings({ memo: "{}", metadata: '{"quote":"Q-1"}' }, schema), {
 *   memo: "{}",
 *   metadata: { quote: "Q-1" },
 * });
 * ```
 */
export function decodeMapStrings(value: unknown, schema: JsonSchema): unknown {
  return decode(value, schema, schema);
}

function decode(value: unknown, schema: unknown, root: JsonSchema): unknown {
  const shapes = schemaBranches(resolveLocalRef(schema, root), root);
  if (shapes.length === 0) return value;
  if (typeof value === "string") {
    const leaves = shapes.filter((shape) =>
      !Array.isArray(shape.anyOf) && !Array.isArray(shape.oneOf)
    );
    if (!leaves.some(isMapSchema) || leaves.some(takesString)) return value;
    const parsed = parseObject(value);
    return parsed ?? value;
  }
  if (Array.isArray(value)) {
    const items = shapes.map((shape) => shape.items).find(isRecord);
    if (items === undefined) return value;
    let changed = false;
    const out = value.map((item) => {
      const decoded = decode(item, items, root);
      if (decoded !== item) changed = true;
      return decoded;
    });
    return changed ? out : value;
  }
  if (!isRecord(value)) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = shapes
      .map((shape) => (isRecord(shape.properties) ? shape.properties[key] : undefined))
      .find((candidate) => candidate !== undefined);
    const decoded = property === undefined ? item : decode(item, property, root);
    if (decoded !== item) changed = true;
    out[key] = decoded;
  }
  return changed ? out : value;
}

/**
 * Whether a schema may hold a string: typed so, a string `enum`/`const`, or
 * untyped. Where a map has such an alternative, a string cannot be told
 * from the map's JSON text.
 *
 * @param shape One alternative (not an `anyOf` of them).
 * @returns True when a string could be valid there.
 */
export function takesString(shape: JsonSchema): boolean {
  const types = Array.isArray(shape.type) ? shape.type : [shape.type];
  if (types.includes("string")) return true;
  if (typeof shape.const === "string") return true;
  if (Array.isArray(shape.enum)) return shape.enum.some((item) => typeof item === "string");
  return shape.type === undefined && !("$ref" in shape) && !("not" in shape);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

// A tool's input schema, made once: arguments are only decoded after a call failed validation.
const INPUT_SCHEMAS = new WeakMap<AnyTool, JsonSchema | null>();

/**
 * {@link decodeMapStrings} over a tool's input schema. Never throws: a tool
 * whose schema zod cannot write gets its arguments back unchanged.
 *
 * @param tool The tool called.
 * @param args The arguments as sent.
 * @returns `args` itself when nothing was decoded, else a decoded copy.
 */
export function decodeToolArguments(tool: AnyTool, args: unknown): unknown {
  let schema = INPUT_SCHEMAS.get(tool);
  if (schema === undefined) {
    try {
      schema = toJsonSchema(tool);
    } catch {
      schema = null;
    }
    INPUT_SCHEMAS.set(tool, schema);
  }
  return schema === null ? args : decodeMapStrings(args, schema);
}
