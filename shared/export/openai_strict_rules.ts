/**
 * OpenAI's strict-mode (`strict: true`) rules for function parameters, as a
 * checker that lists every violation. OpenAI answers 400 for the whole
 * request when one tool breaks them, so {@link toOpenAITools} runs this on
 * every strict schema before sending it.
 *
 * Rules checked: the root is `type: "object"` (not `anyOf`); every object has
 * `additionalProperties: false` and lists all its properties in `required`;
 * only supported keywords appear; every subschema has a `type` (or is an
 * `anyOf`, `$ref`, `enum` or `const`); a type list is at most `[T, "null"]`;
 * `format` is one OpenAI supports; `$ref` is local; at most
 * {@link OPENAI_STRICT_MAX_DEPTH} levels of object nesting and
 * {@link OPENAI_STRICT_MAX_PROPERTIES} properties in total.
 *
 * @module
 */
import type { JsonSchema } from "./json_schema.ts";

/** Keywords strict mode accepts; anything else is a violation. */
export const OPENAI_STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "$defs",
  "$ref",
  "enum",
  "const",
  "description",
  "title",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);

/** String formats strict mode accepts. */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** Most levels of object nesting (the root object is level 1). */
export const OPENAI_STRICT_MAX_DEPTH = 10;

/** Most object properties in one schema, counted across all objects. */
export const OPENAI_STRICT_MAX_PROPERTIES = 5000;

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

/**
 * Lists every way a parameters schema breaks OpenAI's strict-mode rules.
 *
 * @param schema The `parameters` of one function.
 * @returns Violations as `"<JSON pointer>: <problem>"`; empty when the schema is strict-ready.
 *
 * @example A map is not allowed
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOpenAIStrict } from "./openai_strict_rules.ts";
 *
 * assert.deepEqual(
 *   checkOpenAIStrict({
 *     type: "object",
 *     properties: { a: { type: "string" } },
 *     required: ["a"],
 *     additionalProperties: false,
 *   }),
 *   [],
 * );
 * assert.deepEqual(checkOpenAIStrict({ type: "object", additionalProperties: { type: "number" } }), [
 *   "#: object must set additionalProperties: false",
 * ]);
 * ```
 */
export function checkOpenAIStrict(schema: unknown): string[] {
  const violations: string[] = [];
  if (!isObject(schema)) return ["#: root must be a schema object"];
  if (schema.type !== "object") {
    violations.push(
      `#: root must have type "object": current value is ${JSON.stringify(schema.type)}`,
    );
  }
  if ("anyOf" in schema) violations.push("#: root must not be anyOf");
  const counter = { properties: 0 };
  visit(schema, "#", 1, violations, counter);
  if (isObject(schema.$defs)) {
    for (const [name, definition] of Object.entries(schema.$defs)) {
      visit(definition, `#/$defs/${escape(name)}`, 1, violations, counter);
    }
  } else if ("$defs" in schema) {
    violations.push("#/$defs: must be an object");
  }
  if (counter.properties > OPENAI_STRICT_MAX_PROPERTIES) {
    violations.push(
      `#: at most ${OPENAI_STRICT_MAX_PROPERTIES} properties in total: current count is ${counter.properties}`,
    );
  }
  return violations;
}

/** Checks one subschema; `depth` is the object level this schema would be at. */
function visit(
  schema: unknown,
  path: string,
  depth: number,
  violations: string[],
  counter: { properties: number },
): void {
  if (!isObject(schema)) {
    violations.push(`${path}: must be a schema object, not ${JSON.stringify(schema)}`);
    return;
  }
  for (const keyword of Object.keys(schema)) {
    if (!OPENAI_STRICT_KEYWORDS.has(keyword)) {
      violations.push(`${path}: unsupported keyword "${keyword}"`);
    }
  }
  if (path !== "#" && "$defs" in schema) violations.push(`${path}: $defs only at the root`);

  const types = typeList(schema.type);
  if (types === undefined) {
    if (!("anyOf" in schema || "$ref" in schema || "enum" in schema || "const" in schema)) {
      violations.push(`${path}: must have a type`);
    }
  } else {
    const unknown = types.filter((type) => !TYPES.has(type));
    if (unknown.length > 0) violations.push(`${path}: unknown type ${JSON.stringify(unknown)}`);
    const nonNull = types.filter((type) => type !== "null");
    if (types.length === 0 || nonNull.length > 1) {
      violations.push(`${path}: type list must be one type or [type, "null"]`);
    }
    if (types.includes("null") && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
      violations.push(`${path}: nullable enum must list null`);
    }
  }
  if (schema.type !== undefined && types === undefined) {
    violations.push(`${path}: type must be a string or a list of strings`);
  }

  if (typeof schema.format === "string" && !OPENAI_STRICT_FORMATS.has(schema.format)) {
    violations.push(`${path}: unsupported format "${schema.format}"`);
  }
  if ("$ref" in schema && (typeof schema.$ref !== "string" || !schema.$ref.startsWith("#"))) {
    violations.push(`${path}: $ref must be local (start with "#")`);
  }

  const isObjectSchema = types?.includes("object") || "properties" in schema;
  if (isObjectSchema) {
    if (depth > OPENAI_STRICT_MAX_DEPTH) {
      violations.push(`${path}: more than ${OPENAI_STRICT_MAX_DEPTH} levels of nesting`);
    }
    if (schema.additionalProperties !== false) {
      violations.push(`${path}: object must set additionalProperties: false`);
    }
    const properties = isObject(schema.properties) ? schema.properties : {};
    if ("properties" in schema && !isObject(schema.properties)) {
      violations.push(`${path}/properties: must be an object`);
    }
    const keys = Object.keys(properties);
    counter.properties += keys.length;
    const required = Array.isArray(schema.required) ? schema.required : [];
    const requiredSet = new Set(required);
    const keySet = new Set(keys);
    const missing = keys.filter((key) => !requiredSet.has(key));
    if (missing.length > 0) {
      violations.push(
        `${path}: every property must be required: missing ${JSON.stringify(missing)}`,
      );
    }
    const extra = required.filter((key) => typeof key !== "string" || !keySet.has(key));
    if (extra.length > 0) {
      violations.push(`${path}: required lists unknown properties ${JSON.stringify(extra)}`);
    }
    for (const [key, child] of Object.entries(properties)) {
      visit(child, `${path}/properties/${escape(key)}`, depth + 1, violations, counter);
    }
  } else if ("required" in schema || "additionalProperties" in schema) {
    violations.push(`${path}: required/additionalProperties on a schema that is not an object`);
  }

  if ("items" in schema) {
    if (Array.isArray(schema.items)) {
      violations.push(`${path}/items: must be one schema, not a tuple`);
    } else {
      visit(schema.items, `${path}/items`, depth, violations, counter);
    }
  }
  if ("anyOf" in schema) {
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) {
      violations.push(`${path}/anyOf: must be a non-empty list`);
    } else {
      schema.anyOf.forEach((branch, index) =>
        visit(branch, `${path}/anyOf/${index}`, depth, violations, counter)
      );
    }
  }
}

/** The type keyword as a list, or `undefined` when absent or malformed. */
function typeList(type: unknown): string[] | undefined {
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((item) => typeof item === "string")) return type;
  return undefined;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Escapes a key for a JSON pointer (RFC 6901). */
function escape(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
