/**
 * A generated tool's strict input object whose field checks are built from
 * the input's JSON Schema only when first needed: zod 4 reads an object's
 * shape through getters when it first parses, so a field costs nothing until
 * a call (or an export in a dialect other than the stored one) reads it. The
 * JSON Schema is preset on the object, so listings export it as it is.
 *
 * @module
 */
import { z } from "zod";
import { type JsonSchema, presetJsonSchema } from "@shared/export/json_schema.ts";
import { FORMATS, jsonSchemaToZod } from "./json_schema_zod.ts";

/** Options for {@link lazyInput}. */
export interface LazyInputOptions {
  /**
   * Throw when a field's check cannot be built (registration must hear why)
   * instead of refusing calls with a clear issue on that field.
   * @default false
   */
  eager?: boolean;
}

/**
 * The strict input object of a JSON Schema (a `type: "object"` with
 * `properties`, `required` and `additionalProperties: false`), each field's
 * check built on first use and kept.
 *
 * @param json The input's JSON Schema, as stored and listed.
 * @param name The tool's name (for errors).
 */
export function lazyInput(
  json: JsonSchema,
  name: string,
  options: LazyInputOptions = {},
): z.ZodObject {
  const properties = (json.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(json.required) ? json.required as string[] : []);
  const shape: Record<string, z.ZodType> = {};
  const fields = new Map<string, () => z.ZodType>();
  for (const key of Object.keys(properties)) {
    let built: z.ZodType | undefined;
    const field = () =>
      built ??= buildField(json, key, name, required.has(key), options.eager ?? false);
    fields.set(key, field);
    Object.defineProperty(shape, key, { enumerable: true, configurable: true, get: field });
  }
  const input = z.strictObject(shape);
  presetJsonSchema(input, json);
  lazyFields.set(input, fields);
  return input;
}

// Each lazy input's fields, so one field's check can be had without reading the object's shape
// (zod copies the shape on its first read, which builds every field).
const lazyFields = new WeakMap<z.ZodObject, Map<string, () => z.ZodType>>();

function buildField(
  json: JsonSchema,
  key: string,
  name: string,
  required: boolean,
  eager: boolean,
): z.ZodType {
  let type: z.ZodType;
  try {
    // The root is the whole input: a stored schema may refer to its own `$defs`.
    type = jsonSchemaToZod((json.properties as Record<string, unknown>)[key], `${name}/${key}`, {
      mode: "input",
      root: json,
      patternWithFormat: false,
    });
  } catch (error) {
    if (eager) throw error;
    // A stored plan is staff-writable: one edited by hand into a schema no check can be built
    // from refuses the call with a clear error instead of failing inside it.
    type = z.custom(() => false, {
      message: "This field's stored definition is damaged: staff must register the API again",
    });
  }
  return required ? type : type.optional();
}

/**
 * Whether an input holds a value, checking only the fields the value has (and
 * that the required ones are there), so only their checks are built: what the
 * strict object's own parse decides, without building every field.
 */
export function inputHolds(input: z.ZodObject, json: JsonSchema, value: Record<string, unknown>) {
  const properties = (json.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(json.required) ? json.required as string[] : [];
  if (required.some((key) => value[key] === undefined)) return false;
  const fields = lazyFields.get(input);
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(properties, key)) return false;
    // Most examples are path parameters of a bare type: decided without building their check.
    const plain = plainHolds(properties[key], item);
    if (plain !== undefined) {
      if (!plain) return false;
      continue;
    }
    const check = fields?.get(key)?.() ?? input.shape[key];
    // One parse, so without zod's compiled fast path (compiling it costs more than it saves once).
    if (!check.safeParse(item, { jitless: true }).success) return false;
  }
  return true;
}

/** The keywords {@link plainHolds} decides with; a schema with any other is left to zod. */
const PLAIN_KEYWORDS = new Set([
  "type",
  "description",
  "title",
  "minimum",
  "maximum",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
  "anyOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
]);

/** String keywords: on any other type {@link plainHolds} leaves the verdict to zod. */
const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "format"] as const;

/** Nesting past which {@link plainHolds} leaves the verdict to zod (whose mapping opens deep parts). */
const PLAIN_DEPTH = 5;

/**
 * What the zod check built from a field's stored schema would decide for a
 * value, when the schema is made of bare types only: `string`, `boolean`,
 * `integer` or `number` (with inclusive bounds), a string's `enum`, arrays of
 * them (with item counts) and objects of them (required names, closed or
 * open to other keys), a type list of them with or without `null`
 * (`["string", "null"]`), and an `anyOf` of them beside nothing but words
 * (GraphQL's `ID`: a string or an integer); `undefined` for anything else
 * (formats, patterns, lengths, references, maps, deep nesting), which only
 * the built check decides. Equal to the built check's verdict where it
 * answers (`input_schema_test.ts` compares them on the corpus and GitHub's
 * operations, `graphql_test.ts` on GitHub's GraphQL fields).
 *
 * @param schema A field's schema as stored.
 * @param value The value to check.
 */
export function plainHolds(schema: unknown, value: unknown, depth = 0): boolean | undefined {
  if (value === undefined || !schema || typeof schema !== "object") return undefined;
  const node = schema as Record<string, unknown>;
  for (const key in node) if (!PLAIN_KEYWORDS.has(key)) return undefined;
  if (node.anyOf !== undefined) return anyOfHolds(node, value, depth);
  const { type, minimum, maximum, enum: values } = node;
  if (Array.isArray(type)) return typeListHolds(node, type, value, depth);
  const shaped = node.properties !== undefined || node.required !== undefined ||
    node.additionalProperties !== undefined || node.items !== undefined ||
    node.minItems !== undefined || node.maxItems !== undefined;
  if (shaped) {
    if (depth >= PLAIN_DEPTH || minimum !== undefined || maximum !== undefined) return undefined;
    if (values !== undefined || STRING_KEYWORDS.some((key) => node[key] !== undefined)) {
      return undefined;
    }
    if (type === "object") return objectHolds(node, value, depth);
    if (type === "array") return arrayHolds(node, value, depth);
    return undefined;
  }
  // A string's lengths, pattern and format are decided below; a number's format (int32, double)
  // is a note the zod route does not check; on anything else they are zod's to decide.
  const stringy = STRING_KEYWORDS.some((key) => node[key] !== undefined);
  if (type === "string" && stringy) {
    if (values !== undefined || minimum !== undefined || maximum !== undefined) return undefined;
    return stringHolds(node, value);
  }
  if (stringy && !((type === "integer" || type === "number") && onlyFormat(node))) {
    return undefined;
  }
  if (values !== undefined) {
    if (type !== "string" || !Array.isArray(values)) return undefined;
    if (!values.every((item) => typeof item === "string")) return undefined;
    return (values as unknown[]).includes(value);
  }
  const inBounds = (number: number) =>
    (minimum === undefined || number >= (minimum as number)) &&
    (maximum === undefined || number <= (maximum as number));
  if (
    (minimum !== undefined && typeof minimum !== "number") ||
    (maximum !== undefined && typeof maximum !== "number")
  ) return undefined;
  switch (type) {
    case "string":
      return minimum === undefined && maximum === undefined ? typeof value === "string" : undefined;
    case "boolean":
      return minimum === undefined && maximum === undefined
        ? typeof value === "boolean"
        : undefined;
    case "integer":
      // zod's integer is a safe integer.
      return Number.isSafeInteger(value) && inBounds(value as number);
    case "number":
      return typeof value === "number" && Number.isFinite(value) && inBounds(value);
    case "null":
      // An optional GraphQL argument's other branch: `anyOf: [{…}, {type: "null"}]`.
      return minimum === undefined && maximum === undefined ? value === null : undefined;
    default:
      return undefined;
  }
}

function objectHolds(
  node: Record<string, unknown>,
  value: unknown,
  depth: number,
): boolean | undefined {
  const properties = node.properties ?? {};
  const additional = node.additionalProperties;
  const required = node.required ?? [];
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    return undefined;
  }
  if (!Array.isArray(required) || !required.every((key) => typeof key === "string")) {
    return undefined;
  }
  // Closed (false or absent) or open to anything ({} or true); a schema for the other keys, or a
  // map, is zod's to decide.
  const open = additional === true ||
    (typeof additional === "object" && additional !== null &&
      Object.keys(additional).length === 0);
  if (!(open || additional === false || additional === undefined)) return undefined;
  if (open && Object.keys(properties).length === 0) return undefined;
  const shape = properties as Record<string, unknown>;
  // Every property's schema must be plain, whether the value has it or not.
  let verdict = true;
  if (!value || typeof value !== "object" || Array.isArray(value)) verdict = false;
  const record = (verdict ? value : {}) as Record<string, unknown>;
  for (const key of Object.keys(shape)) {
    const item = record[key];
    if (item === undefined) {
      if (required.includes(key)) verdict = false;
      if (plainHolds(shape[key], null, depth + 1) === undefined) return undefined;
      continue;
    }
    const holds = plainHolds(shape[key], item, depth + 1);
    if (holds === undefined) return undefined;
    if (!holds) verdict = false;
  }
  if (!open) {
    for (const key of Object.keys(record)) if (!Object.hasOwn(shape, key)) verdict = false;
  }
  return verdict;
}

function arrayHolds(
  node: Record<string, unknown>,
  value: unknown,
  depth: number,
): boolean | undefined {
  const { items, minItems, maxItems } = node;
  if (items === undefined || (minItems !== undefined && typeof minItems !== "number")) {
    return undefined;
  }
  if (maxItems !== undefined && typeof maxItems !== "number") return undefined;
  // The items' schema must be plain whatever the value holds.
  if (plainHolds(items, null, depth + 1) === undefined) return undefined;
  if (!Array.isArray(value)) return false;
  if (typeof minItems === "number" && value.length < minItems) return false;
  if (typeof maxItems === "number" && value.length > maxItems) return false;
  let verdict = true;
  for (const item of value) {
    const holds = plainHolds(items, item, depth + 1);
    if (holds === undefined) return undefined;
    if (!holds) verdict = false;
  }
  return verdict;
}

/** Words a union may carry beside its `anyOf` and still be decided by {@link plainHolds}. */
const WORDS = new Set(["anyOf", "description", "title"]);

/** A union of plain branches (zod's `z.union`: any branch that holds). */
function anyOfHolds(
  node: Record<string, unknown>,
  value: unknown,
  depth: number,
): boolean | undefined {
  const branches = node.anyOf;
  for (const key in node) if (!WORDS.has(key)) return undefined;
  if (!Array.isArray(branches) || branches.length === 0 || depth >= PLAIN_DEPTH) return undefined;
  // Every branch must be plain, whichever holds: the verdict never rests on an unread part.
  let verdict = false;
  for (const branch of branches) {
    const holds = plainHolds(branch, value, depth + 1);
    if (holds === undefined) return undefined;
    if (holds) verdict = true;
  }
  return verdict;
}

/**
 * A type list, as the zod route maps it: `null` among the types makes the
 * check nullable, and the other types are a union of the node with each.
 * A list of `null` alone is zod's open value there, and left to it.
 */
function typeListHolds(
  node: Record<string, unknown>,
  types: unknown[],
  value: unknown,
  depth: number,
): boolean | undefined {
  if (node.enum !== undefined) return undefined;
  if (!types.every((type) => typeof type === "string")) return undefined;
  const others = types.filter((type) => type !== "null");
  if (others.length === 0) return undefined;
  let verdict = value === null && others.length < types.length;
  for (const type of others) {
    const holds = plainHolds({ ...node, type }, value, depth);
    if (holds === undefined) return undefined;
    if (holds) verdict = true;
  }
  return verdict;
}

/**
 * A string with lengths, a pattern or a format, as the zod route builds its
 * check for an input: the format's own check (built once per format here,
 * not per field), lengths in UTF-16 units, and the pattern (with the `u`
 * flag) only when no checked format is there (a stored format and pattern
 * are written as an `allOf` of patterns, which is left to zod).
 */
function stringHolds(node: Record<string, unknown>, value: unknown): boolean | undefined {
  const { minLength, maxLength, pattern, format } = node;
  if (minLength !== undefined && typeof minLength !== "number") return undefined;
  if (maxLength !== undefined && typeof maxLength !== "number") return undefined;
  if (pattern !== undefined && typeof pattern !== "string") return undefined;
  if (format !== undefined && typeof format !== "string") return undefined;
  // A name only the prototype has ("toString") is no format of ours: zod's route would fail on it.
  if (typeof format === "string" && !Object.hasOwn(FORMATS, format) && format in FORMATS) {
    return undefined;
  }
  const checked = typeof format === "string" && Object.hasOwn(FORMATS, format);
  let regex: RegExp | undefined;
  if (typeof pattern === "string" && !checked) {
    regex = patternOf(pattern);
    if (!regex) return undefined; // zod's route refuses the schema: its message is zod's to give
  }
  if (typeof value !== "string") return false;
  if (typeof minLength === "number" && value.length < minLength) return false;
  if (typeof maxLength === "number" && value.length > maxLength) return false;
  if (regex && !regex.test(value)) return false;
  return checked ? formatCheck(format as string).safeParse(value, { jitless: true }).success : true;
}

const patterns = new Map<string, RegExp | null>();
const formatChecks = new Map<string, z.ZodType>();

function onlyFormat(node: Record<string, unknown>): boolean {
  return typeof node.format === "string" &&
    STRING_KEYWORDS.every((key) => key === "format" || node[key] === undefined);
}

/** A pattern compiled once (a document repeats them); `undefined` when it is no regex. */
function patternOf(pattern: string): RegExp | undefined {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, "u");
    } catch {
      regex = null;
    }
    // Registration's example checks only: a few hundred patterns at most per document.
    if (patterns.size >= 1000) patterns.clear();
    patterns.set(pattern, regex);
  }
  return regex ?? undefined;
}

function formatCheck(format: string): z.ZodType {
  let check = formatChecks.get(format);
  if (!check) formatChecks.set(format, check = FORMATS[format]());
  return check;
}
