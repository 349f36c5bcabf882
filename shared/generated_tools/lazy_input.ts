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
import { jsonSchemaToZod } from "./json_schema_zod.ts";

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
const PLAIN_KEYWORDS = new Set(["type", "description", "title", "minimum", "maximum", "enum"]);

/**
 * What the zod check built from a field's stored schema would decide for a
 * value, when the schema is a bare `string`, `boolean`, `integer` or
 * `number` (with inclusive bounds, or a string's `enum`); `undefined` for
 * anything else, which only the built check decides. Equal to the built
 * check's verdict where it answers (`lazy_input_test.ts` compares them on the
 * corpus and GitHub's operations).
 *
 * @param schema A field's schema as stored.
 * @param value The value to check.
 */
export function plainHolds(schema: unknown, value: unknown): boolean | undefined {
  if (value === undefined || !schema || typeof schema !== "object") return undefined;
  const node = schema as Record<string, unknown>;
  for (const key in node) if (!PLAIN_KEYWORDS.has(key)) return undefined;
  const { type, minimum, maximum, enum: values } = node;
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
    default:
      return undefined;
  }
}
