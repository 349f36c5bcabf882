/**
 * Private helpers shared by the provider exporters.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { type JsonSchema, toJsonSchema } from "./json_schema.ts";

/** Whether a value is a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A tool's 2020-12 input schema for a provider: our document without
 * `$schema`, and without the root `title`/`description`, which the provider
 * already gets as the tool's own fields. `examples` stay.
 */
export function providerInputSchema(tool: AnyTool): JsonSchema {
  const { $schema: _dialect, title: _title, description: _description, ...schema } =
    dropSafeIntegerBounds(toJsonSchema(tool));
  if (schema.type !== "object") {
    throw new TypeError(
      `Cannot export tool as its input schema must have an object root: current type is ${
        JSON.stringify(schema.type)
      }`,
    );
  }
  return schema;
}

/**
 * Removes the `minimum`/`maximum` of ±`Number.MAX_SAFE_INTEGER` that zod puts
 * on every `z.int()`: they say nothing to a model and cost tokens.
 *
 * Parts with nothing to remove are handed back as they are, not copied. A
 * frozen schema (a stored one: generated tools' are) gives a frozen result,
 * made once and shared by every dialect and listing after.
 */
export function dropSafeIntegerBounds<T>(value: T): T {
  if (!value || typeof value !== "object") return value;
  const frozen = Object.isFrozen(value);
  if (!frozen) return withoutBounds(value, false) as T;
  const made = withoutSafeBounds.get(value);
  if (made) return made as T;
  // Remembered for the whole schema only: its parts are not exported on their own, and a lookup
  // per part cost more than the walk.
  const out = withoutBounds(value, true) as object;
  withoutSafeBounds.set(value, out);
  return out as T;
}

/**
 * Keywords whose values are data, not schemas: a bound-like value there is an
 * example or a constant and stays as written, and the walk does not go in
 * (an `enum` of thousands or an `examples` object was most of its time).
 */
const DATA_KEYWORDS = new Set([
  "const",
  "default",
  "description",
  "enum",
  "example",
  "examples",
  "format",
  "pattern",
  "required",
  "title",
  "$comment",
  "$ref",
]);

/** Keywords whose values map names (any text, `enum` included) to schemas. */
const SCHEMA_MAPS = new Set([
  "$defs",
  "definitions",
  "dependentSchemas",
  "patternProperties",
  "properties",
]);

/**
 * The walk of {@link dropSafeIntegerBounds}; `freeze`: what it copies is
 * frozen too; `names`: `value` maps names to schemas (`properties`), so its
 * keys are not keywords.
 */
function withoutBounds(value: unknown, freeze: boolean, names = false): unknown {
  if (!value || typeof value !== "object") return value;
  let out: unknown = value;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const kept = withoutBounds(value[index], freeze);
      if (!items && kept !== value[index]) items = value.slice(0, index);
      items?.push(kept);
    }
    if (items) out = items;
  } else {
    const record = value as JsonSchema;
    const types = names ? [] : Array.isArray(record.type) ? record.type : [record.type];
    const isInteger = types.includes("integer");
    let copy: JsonSchema | undefined;
    for (const key of Object.keys(record)) {
      const item = record[key];
      const dropped = isInteger &&
        ((key === "minimum" && item === -Number.MAX_SAFE_INTEGER) ||
          (key === "maximum" && item === Number.MAX_SAFE_INTEGER));
      const kept = dropped || (!names && DATA_KEYWORDS.has(key))
        ? (dropped ? undefined : item)
        : withoutBounds(item, freeze, !names && SCHEMA_MAPS.has(key));
      if (!copy && (dropped || kept !== item)) {
        // The first change: copy what came before it.
        copy = {};
        for (const earlier of Object.keys(record)) {
          if (earlier === key) break;
          copy[earlier] = record[earlier];
        }
      }
      if (copy && !dropped) copy[key] = kept;
    }
    if (copy) out = copy;
  }
  if (freeze && out !== value) Object.freeze(out);
  return out;
}

const withoutSafeBounds = new WeakMap<object, object>();

/**
 * An object schema without properties and without an `additionalProperties`
 * decision gets `additionalProperties: false`: a tool without arguments takes `{}`.
 */
export function closeEmptyObject(schema: JsonSchema): JsonSchema {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  if (Object.keys(properties).length > 0 || "additionalProperties" in schema) return schema;
  return { ...schema, additionalProperties: false };
}

/**
 * zod writes a string with several `.regex()` checks as `allOf: [{pattern}, …]`,
 * which OpenAI strict mode and Gemini reject. This keeps the first pattern
 * and names the others in the description (zod still checks them all);
 * any other `allOf` is returned unchanged.
 */
export function collapsePatternAllOf(schema: JsonSchema): JsonSchema {
  const { allOf, ...rest } = schema;
  const onlyPatterns = Array.isArray(allOf) && allOf.length > 0 &&
    allOf.every((branch) =>
      isRecord(branch) && typeof branch.pattern === "string" &&
      // OpenAPI 3.0's spelling (zod's openapi-3.0 target) types each part as a string.
      Object.keys(branch).every((key) =>
        key === "pattern" || (key === "type" && branch.type === "string")
      )
    );
  if (!onlyPatterns) return schema;
  const patterns = [
    ...(typeof rest.pattern === "string" ? [rest.pattern] : []),
    ...(allOf as JsonSchema[]).map((branch) => branch.pattern as string),
  ];
  const notes = patterns.slice(1).map((pattern) => `must also match /${pattern}/`);
  const description = appendNotes(rest.description, notes);
  return {
    ...rest,
    pattern: patterns[0],
    ...(description === undefined ? {} : { description }),
  };
}

/** `anyOf` branches with nested bare `anyOf`s (as zod writes a union inside a union) lifted up. */
export function flattenAnyOf(branches: readonly JsonSchema[]): JsonSchema[] {
  return branches.flatMap((branch) => {
    const keys = Object.keys(branch);
    return keys.length === 1 && keys[0] === "anyOf" && Array.isArray(branch.anyOf)
      ? flattenAnyOf(branch.anyOf as JsonSchema[])
      : [branch];
  });
}

/** Keywords a dialect drops but whose meaning is worth keeping in the description. */
const NOTE_KEYWORDS: Record<string, (value: unknown) => string> = {
  default: (value) => `default: ${JSON.stringify(value)}`,
  format: (value) => `format: ${String(value)}`,
  minLength: (value) => `at least ${String(value)} characters`,
  maxLength: (value) => `at most ${String(value)} characters`,
  minProperties: (value) => `at least ${String(value)} keys`,
  maxProperties: (value) => `at most ${String(value)} keys`,
  uniqueItems: (value) => (value === true ? "items must be unique" : ""),
  exclusiveMinimum: (value) => `greater than ${String(value)}`,
  exclusiveMaximum: (value) => `less than ${String(value)}`,
  multipleOf: (value) => `a multiple of ${String(value)}`,
  enum: (value) =>
    `one of ${Array.isArray(value) ? value.map((v) => JSON.stringify(v)).join(", ") : ""}`,
};

/**
 * A short human note for a dropped keyword, or `undefined` when the keyword
 * carries nothing worth telling a model (e.g. `examples`, `$comment`).
 */
export function keywordNote(keyword: string, value: unknown): string | undefined {
  const note = NOTE_KEYWORDS[keyword]?.(value);
  return note ? note : undefined;
}

/** Appends `(note; note)` to a description; returns it unchanged when there are no notes. */
export function appendNotes(description: unknown, notes: readonly string[]): string | undefined {
  const base = typeof description === "string" && description !== "" ? description : undefined;
  if (notes.length === 0) return base;
  const suffix = `(${notes.join("; ")})`;
  return base === undefined ? suffix : `${base} ${suffix}`;
}

/** A schema with a local `$ref` (`#`, `#/$defs/…`) followed, or `undefined`. */
export function resolveLocalRef(
  schema: unknown,
  root: JsonSchema | undefined,
  hops = 0,
): JsonSchema | undefined {
  if (!isRecord(schema) || hops > 32) return undefined;
  if (typeof schema.$ref !== "string") return schema;
  if (schema.$ref === "#") return resolveLocalRef(root, root, hops + 1);
  const match = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
  const definitions = root?.$defs;
  if (!match || !isRecord(definitions)) return undefined;
  return resolveLocalRef(
    definitions[match[1].replaceAll("~1", "/").replaceAll("~0", "~")],
    root,
    hops + 1,
  );
}

/** The schema and its `anyOf`/`oneOf` branches, `$ref`s followed, each once. */
export function schemaBranches(
  schema: JsonSchema | undefined,
  root: JsonSchema | undefined,
  seen: Set<JsonSchema> = new Set(),
): JsonSchema[] {
  if (schema === undefined || seen.has(schema)) return [];
  seen.add(schema);
  const alternatives = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat();
  return [
    schema,
    ...alternatives.flatMap((branch) => schemaBranches(resolveLocalRef(branch, root), root, seen)),
  ];
}
