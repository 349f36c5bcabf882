/**
 * Private helpers shared by the provider exporters.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { type JsonSchema, zodToJsonSchema } from "./json_schema.ts";
import { dropSafeIntegerBounds } from "./safe_integer_bounds.ts";

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
  // The body is stripped on its own: a stored one is frozen, so its bound-free copy is made once
  // (along its recorded paths when it has them) and shared by every dialect and listing after.
  const { $schema: _dialect, title: _title, description: _description, ...body } =
    dropSafeIntegerBounds(zodToJsonSchema(tool.input, { io: "input" }));
  const examples = tool.examples.map((example) => example.input);
  const schema: JsonSchema = { ...body, ...(examples.length > 0 ? { examples } : {}) };
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
