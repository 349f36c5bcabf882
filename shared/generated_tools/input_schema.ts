/**
 * A generated tool's input as JSON Schema 2020-12, made straight from the
 * document's schemas: what {@link jsonSchemaToZod} (input mode) and then
 * zod's `z.toJSONSchema` (`io: "input"`) would write, without building zod
 * on the way. Registration stores and lists this schema, and each field's
 * zod check is built from it only when a call needs it
 * (`lazy_input.ts`), so registering 200 operations builds no zod at all.
 *
 * Every refusal of the zod route is kept (a `$ref` outside the document, an
 * invalid pattern, an unknown type: {@link SchemaMappingError} with the
 * pointer), and the same constraints are carried: strict objects, formats
 * with zod's patterns, integer bounds, `nullable`, unions compacted into type
 * lists as zod does. `input_schema_test.ts` compares the two routes over a
 * corpus of documents.
 *
 * @module
 */
import type { JsonSchema } from "@shared/export/json_schema.ts";
import { zodToJsonSchema } from "@shared/export/json_schema.ts";
import {
  FORMATS,
  type JsonSchemaNode,
  MAX_DESCRIPTION,
  mergeAllOf,
  patternsOnly,
  pointerKey,
  resolvePointer,
  SchemaMappingError,
  unicodePattern,
  unionBranch,
} from "./json_schema_zod.ts";

/** Options for {@link inputJsonSchema}. */
export interface InputJsonSchemaOptions {
  /** The whole document, to resolve `#/…` references against. */
  root: unknown;
  /** How deep nested schemas may go before the rest is an open object. @default 10 */
  maxDepth?: number;
}

interface State {
  root: unknown;
  maxDepth: number;
  /** The `$ref`s being expanded, outermost first: a repeat is a cycle. */
  chain: string[];
  depth: number;
}

/** One field of a tool's input object: a parameter or the body. */
export interface InputField {
  /** Its key in the input. */
  key: string;
  /** The document's schema for it. */
  schema: unknown;
  /** The schema's JSON pointer (for errors). */
  pointer: string;
  /** The parameter's own description (wins over the schema's), or "". */
  description: string;
  /** Whether the input must have it. */
  required: boolean;
}

/**
 * The strict input object of an operation's fields, as JSON Schema.
 *
 * @throws {SchemaMappingError} for what cannot be mapped, naming the pointer.
 */
export function inputObjectSchema(fields: readonly InputField[], root: unknown): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields) {
    const schema = inputJsonSchema(field.schema, field.pointer, { root });
    properties[field.key] = field.description
      ? { ...schema, description: field.description }
      : schema;
    if (field.required) required.push(field.key);
  }
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * One schema of the document as the strict input JSON Schema.
 *
 * @throws {SchemaMappingError} for a reference outside the document, an invalid pattern or an
 *   unknown type.
 */
export function inputJsonSchema(
  schema: unknown,
  pointer: string,
  options: InputJsonSchemaOptions,
): JsonSchema {
  return convert(schema, pointer, {
    root: options.root,
    maxDepth: options.maxDepth ?? 10,
    chain: [],
    depth: 0,
  });
}

// A cycle's or depth's end: any JSON object (the API checks it), as z.record writes it.
function openObject(): JsonSchema {
  return { type: "object", propertyNames: { type: "string" }, additionalProperties: {} };
}

function convert(schema: unknown, pointer: string, state: State): JsonSchema {
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    throw new SchemaMappingError(pointer, "Cannot map schema as it is not an object");
  }
  const node = schema as JsonSchemaNode;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (state.chain.includes(ref)) return openObject();
    const target = resolvePointer(state.root, ref);
    if (target === undefined) {
      throw new SchemaMappingError(
        pointer,
        `Cannot map schema as $ref "${ref}" is not in the document`,
      );
    }
    return convert(target, ref, { ...state, chain: [...state.chain, ref] });
  }
  if (state.depth > state.maxDepth) return openObject();
  const body = withNull(node, convertBody(node, pointer, state));
  const text = typeof node.description === "string"
    ? node.description
    : typeof node.title === "string"
    ? node.title
    : "";
  return text ? { ...body, description: text.slice(0, MAX_DESCRIPTION) } : body;
}

// zod's `.nullable()`: a union with null, compacted as zod compacts it.
function withNull(node: JsonSchemaNode, body: JsonSchema): JsonSchema {
  const types = Array.isArray(node.type) ? node.type : [];
  if (node.nullable !== true && !types.includes("null")) return body;
  return anyOf([body, { type: "null" }]);
}

/**
 * A union as zod writes it: `anyOf`, folded into a `type` list when every
 * branch is a bare type (zod's `compactTypeUnion`).
 */
function anyOf(options: JsonSchema[]): JsonSchema {
  const types: string[] = [];
  for (const option of options) {
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== "type") return { anyOf: options };
    for (const member of Array.isArray(option.type) ? option.type : [option.type]) {
      if (typeof member !== "string") return { anyOf: options };
      if (!types.includes(member)) types.push(member);
    }
  }
  return { type: types.length === 1 ? types[0] : types };
}

function convertBody(node: JsonSchemaNode, pointer: string, state: State): JsonSchema {
  if (Object.hasOwn(node, "const")) return literal([node.const]);
  if (Array.isArray(node.enum)) {
    const values = node.enum.filter((value) => value !== null);
    if (values.length === 0) return { type: "null" };
    if (values.every((value) => typeof value === "string")) {
      // As z.enum lists them: each once, in its entries object's key order (integer-like keys
      // such as "100644" first, ascending).
      return {
        type: "string",
        enum: Object.values(Object.fromEntries(values.map((value) => [value, value]))),
      };
    }
    return literal(values);
  }
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0) {
      const mapped = options.map((option, index) =>
        convert(unionBranch(node, option), `${pointer}/${key}/${index}`, state)
      );
      return mapped.length === 1 ? mapped[0] : anyOf(mapped);
    }
  }
  if (Array.isArray(node.allOf) && node.allOf.length > 0 && !patternsOnly(node)) {
    const merged = mergeAllOf(node, pointer, state.root);
    return "single" in merged
      ? convert(merged.single, merged.pointer, state)
      : convertTyped(merged.object, "object", pointer, state);
  }
  if (node.type === "null") return { type: "null" };
  const types = (Array.isArray(node.type) ? node.type : [node.type])
    .filter((type) => type !== "null" && type !== undefined) as string[];
  if (types.length > 1) {
    return anyOf(types.map((type) => convertTyped({ ...node, type }, type, pointer, state)));
  }
  const type = types[0] ?? (node.properties ? "object" : node.items ? "array" : undefined);
  if (!type) return {};
  return convertTyped(node, type, pointer, state);
}

// z.literal(values), as zod writes it.
function literal(values: unknown[]): JsonSchema {
  if (values.length === 1) {
    const value = values[0];
    return { type: value === null ? "null" : typeof value, const: value };
  }
  const out: JsonSchema = {};
  if (values.every((value) => typeof value === "number")) out.type = "number";
  if (values.every((value) => typeof value === "boolean")) out.type = "boolean";
  out.enum = values;
  return out;
}

const formatSchemas = new Map<string, JsonSchema>();

// A checked format as zod writes it (its `format` and the pattern zod checks it with), taken
// from zod once per format per instance, so the two routes cannot drift apart.
function formatSchema(format: string): JsonSchema {
  let made = formatSchemas.get(format);
  if (!made) {
    made = zodToJsonSchema(FORMATS[format](), { io: "input" });
    formatSchemas.set(format, made);
  }
  return made;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function convertTyped(
  node: JsonSchemaNode,
  type: string,
  pointer: string,
  state: State,
): JsonSchema {
  switch (type) {
    case "string":
      return stringSchema(node, pointer);
    case "integer":
    case "number":
      return numberSchema(node, type);
    case "boolean":
      return { type: "boolean" };
    case "array": {
      const items = Array.isArray(node.items) ? undefined : node.items;
      const out: JsonSchema = {
        type: "array",
        items: convert(items, `${pointer}/items`, { ...state, depth: state.depth + 1 }),
      };
      if (typeof node.minItems === "number") out.minItems = node.minItems;
      if (typeof node.maxItems === "number") out.maxItems = node.maxItems;
      return out;
    }
    case "object":
      return objectSchema(node, pointer, state);
    default:
      throw new SchemaMappingError(pointer, `Cannot map type "${String(type)}"`);
  }
}

function stringSchema(node: JsonSchemaNode, pointer: string): JsonSchema {
  const format = typeof node.format === "string" && Object.hasOwn(FORMATS, node.format)
    ? node.format
    : undefined;
  const out: JsonSchema = format ? { ...formatSchema(format) } : { type: "string" };
  if (typeof node.minLength === "number") out.minLength = node.minLength;
  if (typeof node.maxLength === "number") out.maxLength = node.maxLength;
  const documented = [
    ...(typeof node.pattern === "string" ? [node.pattern] : []),
    ...(patternsOnly(node) ? (node.allOf as JsonSchemaNode[]).map((part) => part.pattern) : []),
  ] as string[];
  const sources = documented.flatMap((pattern) => unicodePattern(pattern, pointer)?.source ?? []);
  if (sources.length === 0) return out;
  // The document's patterns beside a format's: zod writes every pattern and no format.
  const patterns = [out.pattern, ...sources].filter((item) => typeof item === "string");
  delete out.format;
  delete out.pattern;
  if (patterns.length === 1) out.pattern = patterns[0];
  else out.allOf = patterns.map((item) => ({ pattern: item }));
  return out;
}

function numberSchema(node: JsonSchemaNode, type: "integer" | "number"): JsonSchema {
  // zod's integer is a safe integer: its bounds are written unless narrower ones are given.
  let minimum = type === "integer" ? -MAX_SAFE : undefined;
  let maximum = type === "integer" ? MAX_SAFE : undefined;
  let exclusiveMinimum: number | undefined;
  let exclusiveMaximum: number | undefined;
  const narrowMin = (value: number, exclusive: boolean) => {
    if (exclusive) {
      if (exclusiveMinimum === undefined || value > exclusiveMinimum) exclusiveMinimum = value;
    } else if (minimum === undefined || value > minimum) minimum = value;
  };
  const narrowMax = (value: number, exclusive: boolean) => {
    if (exclusive) {
      if (exclusiveMaximum === undefined || value < exclusiveMaximum) exclusiveMaximum = value;
    } else if (maximum === undefined || value < maximum) maximum = value;
  };
  if (typeof node.minimum === "number") narrowMin(node.minimum, node.exclusiveMinimum === true);
  if (typeof node.maximum === "number") narrowMax(node.maximum, node.exclusiveMaximum === true);
  if (typeof node.exclusiveMinimum === "number") narrowMin(node.exclusiveMinimum, true);
  if (typeof node.exclusiveMaximum === "number") narrowMax(node.exclusiveMaximum, true);
  const out: JsonSchema = { type };
  // Both bounds on one side: the stricter is written, as zod does.
  if (exclusiveMinimum !== undefined && exclusiveMinimum >= (minimum ?? -Infinity)) {
    out.exclusiveMinimum = exclusiveMinimum;
  } else if (minimum !== undefined) out.minimum = minimum;
  if (exclusiveMaximum !== undefined && exclusiveMaximum <= (maximum ?? Infinity)) {
    out.exclusiveMaximum = exclusiveMaximum;
  } else if (maximum !== undefined) out.maximum = maximum;
  if (typeof node.multipleOf === "number" && node.multipleOf > 0) out.multipleOf = node.multipleOf;
  return out;
}

function objectSchema(node: JsonSchemaNode, pointer: string, state: State): JsonSchema {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const requiredNames = new Set(Array.isArray(node.required) ? node.required as string[] : []);
  const shape: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const inner = { ...state, depth: state.depth + 1 };
  for (const [key, property] of Object.entries(properties)) {
    // A read-only field is the server's to set.
    if ((property as JsonSchemaNode | undefined)?.readOnly === true) continue;
    shape[key] = convert(property, `${pointer}/properties/${pointerKey(key)}`, inner);
    if (requiredNames.has(key)) required.push(key);
  }
  const additional = node.additionalProperties;
  if (Object.keys(shape).length === 0 && additional && typeof additional === "object") {
    return {
      type: "object",
      propertyNames: { type: "string" },
      additionalProperties: convert(additional, `${pointer}/additionalProperties`, inner),
    };
  }
  return {
    type: "object",
    properties: shape,
    ...(required.length ? { required } : {}),
    additionalProperties: additional === true || (additional && typeof additional === "object")
      ? {}
      : false,
  };
}
