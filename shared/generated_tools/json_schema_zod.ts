/**
 * JSON Schema (OpenAPI 3.0 and 3.1 dialects) to zod, for generated tools.
 *
 * Two modes: `input` is strict (unknown fields refused, every constraint the
 * document states carried over) because it guards a tenant's API from a
 * model's guesses; `output` is lenient (unknown fields kept, unknown formats
 * ignored) because an API's answer is often vaguer than its document.
 * Local `$ref`s are resolved here with the chain of schemas being converted
 * in hand, so a cyclic `$ref` ends as an open JSON object one level down
 * rather than a hang. What cannot be mapped throws {@link SchemaMappingError}
 * naming the JSON pointer.
 *
 * @module
 */
import { z } from "zod";

/** A schema as the document holds it. */
export type JsonSchemaNode = Record<string, unknown>;

/** A schema the generator cannot map, with where it is in the document. */
export class SchemaMappingError extends Error {
  /** JSON pointer of the schema, e.g. `#/paths/~1pets/post/requestBody/...`. */
  readonly pointer: string;

  /** Creates the error. */
  constructor(pointer: string, message: string) {
    super(`${message} at ${pointer}`);
    this.name = "SchemaMappingError";
    this.pointer = pointer;
  }
}

/** Options for {@link jsonSchemaToZod}. */
export interface JsonSchemaToZodOptions {
  /** Strict input or lenient output. */
  mode: "input" | "output";
  /** The whole document, to resolve `#/…` references against. */
  root: unknown;
  /**
   * How deep nested schemas may go before the rest is an open value.
   * @default 10 for input, 3 for output (an answer is passed on, not policed)
   */
  maxDepth?: number;
  /**
   * Check `pattern` also where a checked `format` is given. zod's own export
   * writes each format's regex as `pattern` beside it; a schema read back from
   * that export sets this false so the format is not checked twice.
   * @default true
   */
  patternWithFormat?: boolean;
}

/** Longest description carried into a generated schema (the rest is the API's, not ours). */
export const MAX_DESCRIPTION = 300;

/** Formats zod checks; any other format is carried as a plain string (documented, not refused). */
export const FORMATS: Record<string, () => z.ZodType> = {
  "date-time": () => z.iso.datetime({ offset: true }),
  date: () => z.iso.date(),
  time: () => z.iso.time(),
  email: () => z.email(),
  uuid: () => z.uuid(),
  uri: () => z.url(),
  url: () => z.url(),
  ipv4: () => z.ipv4(),
  ipv6: () => z.ipv6(),
};

/**
 * Converts a JSON Schema to zod.
 *
 * @param schema The schema.
 * @param pointer Its JSON pointer in the document (for errors).
 * @param options Mode and document.
 * @throws {SchemaMappingError} for a reference outside the document or a construct zod cannot hold.
 */
export function jsonSchemaToZod(
  schema: unknown,
  pointer: string,
  options: JsonSchemaToZodOptions,
): z.ZodType {
  return convert(schema, pointer, {
    mode: options.mode,
    root: options.root,
    maxDepth: options.maxDepth ?? (options.mode === "input" ? 10 : 3),
    patternWithFormat: options.patternWithFormat ?? true,
    chain: [],
    depth: 0,
  });
}

interface State {
  mode: "input" | "output";
  root: unknown;
  maxDepth: number;
  patternWithFormat: boolean;
  /** The `$ref`s being expanded, outermost first: a repeat is a cycle. */
  chain: string[];
  /** How many objects and arrays deep this schema is. */
  depth: number;
}

/**
 * Resolves a local `#/…` pointer. Each document's answers are kept (by the
 * document object, while it lives): mapping a large document follows the same
 * few hundred references tens of thousands of times, and a document is not
 * changed once read.
 */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  if (root === null || typeof root !== "object") return walkPointer(root, ref);
  let known = resolved.get(root);
  if (!known) resolved.set(root, known = new Map());
  if (known.has(ref)) return known.get(ref);
  const target = walkPointer(root, ref);
  known.set(ref, target);
  return target;
}

const resolved = new WeakMap<object, Map<string, unknown>>();

function walkPointer(root: unknown, ref: string): unknown {
  let node = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Escapes a key for a JSON pointer. */
export function pointerKey(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function openValue(mode: State["mode"]): z.ZodType {
  // A cycle's or depth's end: any JSON object on input (the API checks it), anything on output.
  return mode === "input" ? z.record(z.string(), z.unknown()) : z.unknown();
}

function describe<T extends z.ZodType>(type: T, node: JsonSchemaNode): T {
  const text = typeof node.description === "string"
    ? node.description
    : typeof node.title === "string"
    ? node.title
    : "";
  // The document's words are data for the model: kept short, never interpreted here.
  return text ? type.describe(text.slice(0, MAX_DESCRIPTION)) : type;
}

function convert(schema: unknown, pointer: string, state: State): z.ZodType {
  if (schema === true || schema === undefined) return z.unknown();
  if (schema === false) return z.never();
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    throw new SchemaMappingError(pointer, "Cannot map schema as it is not an object");
  }
  const node = schema as JsonSchemaNode;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (state.chain.includes(ref)) return openValue(state.mode);
    const target = resolvePointer(state.root, ref);
    if (target === undefined) {
      throw new SchemaMappingError(
        pointer,
        `Cannot map schema as $ref "${ref}" is not in the document`,
      );
    }
    return convert(target, ref, { ...state, chain: [...state.chain, ref] });
  }
  if (state.depth > state.maxDepth) return openValue(state.mode);
  return describe(withNull(node, convertBody(node, pointer, state)), node);
}

// OpenAPI 3.0's `nullable: true`, and 3.1's `type: [..., "null"]`.
function withNull(node: JsonSchemaNode, type: z.ZodType): z.ZodType {
  const types = Array.isArray(node.type) ? node.type : [];
  return node.nullable === true || types.includes("null") ? type.nullable() : type;
}

function convertBody(node: JsonSchemaNode, pointer: string, state: State): z.ZodType {
  if (Object.hasOwn(node, "const")) return z.literal(node.const as z.core.util.Literal);
  if (Array.isArray(node.enum)) {
    const values = node.enum.filter((value) => value !== null);
    if (values.length === 0) return z.null();
    if (values.every((value) => typeof value === "string")) {
      return z.enum(values as [string, ...string[]]);
    }
    return z.literal(values as z.core.util.Literal[]);
  }
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0) {
      const mapped = options.map((option, index) =>
        convert(unionBranch(node, option), `${pointer}/${key}/${index}`, state)
      );
      return mapped.length === 1 ? mapped[0] : z.union(mapped as [z.ZodType, ...z.ZodType[]]);
    }
  }
  if (Array.isArray(node.allOf) && node.allOf.length > 0 && !patternsOnly(node)) {
    return convertAllOf(node, pointer, state);
  }
  if (node.type === "null") return z.null();
  const types = (Array.isArray(node.type) ? node.type : [node.type])
    .filter((type) => type !== "null" && type !== undefined) as string[];
  if (types.length > 1) {
    return z.union(
      types.map((type) => convertTyped({ ...node, type }, type, pointer, state)) as [
        z.ZodType,
        z.ZodType,
        ...z.ZodType[],
      ],
    );
  }
  const type = types[0] ??
    (node.properties ? "object" : node.items ? "array" : undefined);
  if (!type) return z.unknown();
  return convertTyped(node, type, pointer, state);
}

/**
 * A branch of `oneOf`/`anyOf` with the constraints its parent puts beside
 * the union (both apply to the value): a branch written inline, of no type
 * or the parent's, takes the parent's other keywords (`type`, bounds,
 * `pattern`, `format`…; the branch's own win), and for objects the union of
 * both `properties` and `required`. `{type: string, oneOf: [{description},
 * …]}` is a string, and `{type: object, properties, oneOf: [{required: [a]},
 * …]}` an object of those properties, not anything at all.
 */
export function unionBranch(parent: JsonSchemaNode, branch: unknown): unknown {
  if (branch === null || typeof branch !== "object" || Array.isArray(branch)) return branch;
  const own = branch as JsonSchemaNode;
  if (parent.type === undefined) return branch;
  if (own.type !== undefined && JSON.stringify(own.type) !== JSON.stringify(parent.type)) {
    return branch;
  }
  if (["$ref", "enum", "const", "oneOf", "anyOf", "allOf"].some((key) => key in own)) {
    return branch;
  }
  const inherited: JsonSchemaNode = {};
  for (const [key, value] of Object.entries(parent)) {
    if (!UNION_OWN.has(key)) inherited[key] = value;
  }
  const out: JsonSchemaNode = { ...inherited, ...own };
  if (parent.properties || own.properties) {
    out.properties = {
      ...(parent.properties as JsonSchemaNode | undefined),
      ...(own.properties as JsonSchemaNode | undefined),
    };
  }
  const required = [
    ...(Array.isArray(parent.required) ? parent.required : []),
    ...(Array.isArray(own.required) ? own.required : []),
  ];
  if (required.length) out.required = [...new Set(required)];
  return out;
}

// What a union's parent says of itself, not of each branch (nullable is the whole union's).
const UNION_OWN = new Set([
  "oneOf",
  "anyOf",
  "discriminator",
  "description",
  "title",
  "example",
  "examples",
  "default",
  "nullable",
  "readOnly",
  "writeOnly",
  "deprecated",
]);

/**
 * A document's `pattern` as checked here: compiled as JSON Schema reads it
 * (ECMA-262, Unicode mode). A pattern valid only as a legacy JavaScript
 * regex (`[\w-.]`, `\_`, a literal `{`: common in documents whose authors
 * tested them in Java or Python) is `null`: left to the API to check, rather
 * than published to models and MCP clients whose Unicode-mode validators
 * would fail on it, or the whole document refused.
 *
 * @throws {SchemaMappingError} when it is no regex in either mode.
 */
export function unicodePattern(pattern: string, pointer: string): RegExp | null {
  try {
    return new RegExp(pattern, "u");
  } catch {
    // not in Unicode mode; maybe as a legacy regex
  }
  try {
    new RegExp(pattern);
    return null;
  } catch {
    throw new SchemaMappingError(pointer, "Cannot map pattern as it is not a valid regex");
  }
}

/**
 * Whether a schema is `{type: "string", allOf: [{pattern}, …]}`: a string with several
 * patterns (as zod's export writes a format's and the document's, and as a document may spell
 * them), not a composition of objects.
 */
export function patternsOnly(node: JsonSchemaNode): boolean {
  return node.type === "string" && Array.isArray(node.allOf) && node.allOf.length > 0 &&
    node.allOf.every((part) =>
      part !== null && typeof part === "object" && typeof part.pattern === "string" &&
      Object.keys(part).every((key) =>
        key === "pattern" || (key === "type" && part.type === "string")
      )
    );
}

function convertAllOf(node: JsonSchemaNode, pointer: string, state: State): z.ZodType {
  const merged = mergeAllOf(node, pointer, state.root);
  return "single" in merged
    ? convert(merged.single, merged.pointer, state)
    : convertTyped(merged.object, "object", pointer, state);
}

// What says nothing about the value's constraints (an allOf's sibling often carries only these).
const ANNOTATIONS = new Set([
  "description",
  "title",
  "example",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "allOf",
]);
const SCALARS = new Set(["string", "number", "integer", "boolean"]);

/**
 * An `allOf` of one scalar type (`[{type: string}, {type: string, minLength:
 * 1}]`, as schema builders write refinements) as one schema of that type:
 * the strictest bounds, every pattern (several as zod spells them: an
 * `allOf` of patterns), the first format, and an `enum` only the values all
 * parts allow. Null when the parts are not all of one scalar type.
 */
function mergeScalarParts(parts: unknown[], root: unknown): JsonSchemaNode | null {
  const resolved: JsonSchemaNode[] = [];
  for (const part of parts) {
    let node = part as JsonSchemaNode;
    for (let hops = 0; typeof node?.$ref === "string" && hops < 8; hops++) {
      node = resolvePointer(root, node.$ref as string) as JsonSchemaNode;
    }
    if (!node || typeof node !== "object" || Array.isArray(node)) return null;
    if (Object.entries(node).every(([key, value]) => value === undefined || ANNOTATIONS.has(key))) {
      continue;
    }
    if (node.allOf !== undefined && !patternsOnly(node)) return null;
    resolved.push(node);
  }
  const types = new Set(resolved.map((node) => node.type).filter((type) => type !== undefined));
  if (
    resolved.length < 2 || types.size === 0 ||
    ![...types].every((type) => SCALARS.has(type as string)) ||
    resolved.some((node) => "properties" in node || "items" in node)
  ) {
    return null;
  }
  const numeric = [...types].every((type) => type === "number" || type === "integer");
  if (types.size > 1 && !numeric) return null;
  const out: JsonSchemaNode = { type: types.has("integer") ? "integer" : [...types][0] };
  const patterns: string[] = [];
  for (const node of resolved) {
    for (const key of ["minLength", "minimum", "exclusiveMinimum", "minItems"]) {
      if (typeof node[key] === "number") {
        out[key] = Math.max(node[key] as number, (out[key] as number | undefined) ?? -Infinity);
      }
    }
    for (const key of ["maxLength", "maximum", "exclusiveMaximum", "maxItems"]) {
      if (typeof node[key] === "number") {
        out[key] = Math.min(node[key] as number, (out[key] as number | undefined) ?? Infinity);
      }
    }
    if (typeof node.format === "string" && out.format === undefined) out.format = node.format;
    if (typeof node.pattern === "string") patterns.push(node.pattern);
    if (patternsOnly(node)) {
      patterns.push(...(node.allOf as JsonSchemaNode[]).map((item) => item.pattern as string));
    }
    if (Array.isArray(node.enum)) {
      out.enum = Array.isArray(out.enum)
        ? (out.enum as unknown[]).filter((value) => (node.enum as unknown[]).includes(value))
        : node.enum;
    }
  }
  if (resolved.every((node) => node.nullable === true)) out.nullable = true;
  const distinct = [...new Set(patterns)];
  if (distinct.length === 1) out.pattern = distinct[0];
  else if (distinct.length > 1) out.allOf = distinct.map((pattern) => ({ pattern }));
  return out;
}

/**
 * An `allOf` as one schema: the usual allOf is object composition, so its parts (references
 * followed) merge into one object of their properties, required names and last
 * `additionalProperties`; an allOf of one non-object part and the node's own keywords is that
 * part. Shared by the input and the output mapping.
 *
 * @throws {SchemaMappingError} for a part that is no schema, or a composition of non-objects.
 */
export function mergeAllOf(
  node: JsonSchemaNode,
  pointer: string,
  root: unknown,
): { object: JsonSchemaNode } | { single: unknown; pointer: string } {
  const merged: JsonSchemaNode = { type: "object", properties: {}, required: [] };
  const parts = [...(node.allOf as unknown[]), { ...node, allOf: undefined }];
  const scalar = mergeScalarParts(parts, root);
  if (scalar) return { single: scalar, pointer };
  for (const [index, part] of parts.entries()) {
    let resolved = part as JsonSchemaNode;
    for (let hops = 0; typeof resolved?.$ref === "string" && hops < 8; hops++) {
      resolved = resolvePointer(root, resolved.$ref as string) as JsonSchemaNode;
    }
    if (!resolved || typeof resolved !== "object") {
      throw new SchemaMappingError(`${pointer}/allOf/${index}`, "Cannot map allOf part");
    }
    if (resolved.type !== undefined && resolved.type !== "object" && !resolved.properties) {
      if (parts.length === 2) return { single: part, pointer: `${pointer}/allOf/${index}` };
      const types = [
        ...new Set(parts.flatMap((other) => {
          const type = (other as JsonSchemaNode | undefined)?.type;
          return typeof type === "string" ? [type] : [];
        })),
      ];
      throw new SchemaMappingError(
        `${pointer}/allOf/${index}`,
        types.length > 1
          ? `Cannot map allOf of ${types.join(" and ")}: no value is all of them`
          : "Cannot map allOf of anything but objects",
      );
    }
    Object.assign(merged.properties as object, resolved.properties ?? {});
    (merged.required as string[]).push(
      ...(Array.isArray(resolved.required) ? resolved.required : []),
    );
    if (resolved.additionalProperties !== undefined) {
      merged.additionalProperties = resolved.additionalProperties;
    }
  }
  return { object: merged };
}

function convertTyped(
  node: JsonSchemaNode,
  type: string,
  pointer: string,
  state: State,
): z.ZodType {
  const strict = state.mode === "input";
  switch (type) {
    case "string": {
      const format = typeof node.format === "string" ? FORMATS[node.format] : undefined;
      // Lenient output: an API's idea of "date-time" may differ from RFC 3339's.
      let result = (strict && format ? format() : z.string()) as z.ZodString;
      if (typeof node.minLength === "number") result = result.min(node.minLength);
      if (typeof node.maxLength === "number") result = result.max(node.maxLength);
      const patterns = strict && typeof node.pattern === "string" &&
          (!format || state.patternWithFormat)
        ? [node.pattern]
        : [];
      // Several patterns on one string, as zod's export spells them (a stored schema).
      if (strict && patternsOnly(node)) {
        patterns.push(...(node.allOf as JsonSchemaNode[]).map((part) => part.pattern as string));
      }
      for (const pattern of patterns) {
        const regex = unicodePattern(pattern, pointer);
        if (regex) result = result.regex(regex);
      }
      return result;
    }
    case "integer":
    case "number": {
      let result = type === "integer" ? z.number().int() : z.number();
      if (!strict) return result;
      if (typeof node.minimum === "number") {
        result = node.exclusiveMinimum === true
          ? result.gt(node.minimum)
          : result.gte(node.minimum);
      }
      if (typeof node.maximum === "number") {
        result = node.exclusiveMaximum === true
          ? result.lt(node.maximum)
          : result.lte(node.maximum);
      }
      if (typeof node.exclusiveMinimum === "number") result = result.gt(node.exclusiveMinimum);
      if (typeof node.exclusiveMaximum === "number") result = result.lt(node.exclusiveMaximum);
      if (typeof node.multipleOf === "number" && node.multipleOf > 0) {
        result = result.multipleOf(node.multipleOf);
      }
      return result;
    }
    case "boolean":
      return z.boolean();
    case "array": {
      const items = Array.isArray(node.items) ? undefined : node.items;
      let result = z.array(
        convert(items, `${pointer}/items`, { ...state, depth: state.depth + 1 }),
      );
      if (strict && typeof node.minItems === "number") result = result.min(node.minItems);
      if (strict && typeof node.maxItems === "number") result = result.max(node.maxItems);
      return result;
    }
    case "object":
      return convertObject(node, pointer, state);
    default:
      throw new SchemaMappingError(pointer, `Cannot map type "${String(type)}"`);
  }
}

function convertObject(node: JsonSchemaNode, pointer: string, state: State): z.ZodType {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(node.required) ? node.required as string[] : []);
  const shape: Record<string, z.ZodType> = {};
  const inner = { ...state, depth: state.depth + 1 };
  for (const [key, property] of Object.entries(properties)) {
    const child = property as JsonSchemaNode | undefined;
    // A read-only field is the server's to set; a write-only one never comes back.
    if (state.mode === "input" && child?.readOnly === true) continue;
    if (state.mode === "output" && child?.writeOnly === true) continue;
    const mapped = convert(property, `${pointer}/properties/${pointerKey(key)}`, inner);
    // Lenient output: an answer missing a field the document calls required is still an answer.
    shape[key] = required.has(key) && state.mode === "input" ? mapped : mapped.optional();
  }
  const additional = node.additionalProperties;
  if (Object.keys(shape).length === 0 && additional && typeof additional === "object") {
    return z.record(z.string(), convert(additional, `${pointer}/additionalProperties`, inner));
  }
  if (state.mode === "output") return z.looseObject(shape);
  return additional === true || (additional && typeof additional === "object")
    ? z.looseObject(shape)
    : z.strictObject(shape);
}

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "10:00:00",
  email: "someone@example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
  uri: "https://example.com/",
  url: "https://example.com/",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
};

/**
 * A plausible value for a schema (required fields only, read-only ones left
 * out), for a generated tool's example; `$ref`s resolve against `root`.
 */
export function exampleFromSchema(schema: unknown, root: unknown, depth = 0): unknown {
  let node = schema as JsonSchemaNode;
  for (let hops = 0; typeof node?.$ref === "string" && hops < 8; hops++) {
    node = resolvePointer(root, node.$ref as string) as JsonSchemaNode;
  }
  if (!node || typeof node !== "object" || depth > 6) return {};
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum)) return node.enum.find((value) => value !== null) ?? null;
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const options = node[key];
    if (Array.isArray(options) && options.length && key !== "allOf") {
      return exampleFromSchema(options[0], root, depth + 1);
    }
  }
  const types = Array.isArray(node.type)
    ? node.type.filter((type) => type !== "null")
    : [node.type];
  const type = types[0] ?? (node.properties || node.allOf ? "object" : undefined);
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const parts = [node, ...(Array.isArray(node.allOf) ? node.allOf : [])].map((part) => {
        let resolved = part as JsonSchemaNode;
        for (let hops = 0; typeof resolved?.$ref === "string" && hops < 8; hops++) {
          resolved = resolvePointer(root, resolved.$ref as string) as JsonSchemaNode;
        }
        return resolved ?? {};
      });
      for (const part of parts) {
        const props = (part.properties ?? {}) as Record<string, JsonSchemaNode>;
        for (const key of (Array.isArray(part.required) ? part.required : []) as string[]) {
          const prop = props[key];
          if (!prop || prop.readOnly === true) continue;
          out[key] = exampleFromSchema(prop, root, depth + 1);
        }
      }
      return out;
    }
    case "array": {
      const min = typeof node.minItems === "number" ? Math.min(node.minItems, 3) : 0;
      return Array.from({ length: min }, () => exampleFromSchema(node.items, root, depth + 1));
    }
    case "integer":
    case "number": {
      const min = typeof node.minimum === "number"
        ? node.minimum + (node.exclusiveMinimum === true ? 1 : 0)
        : typeof node.exclusiveMinimum === "number"
        ? Math.floor(node.exclusiveMinimum) + 1
        : 1;
      return type === "integer" ? Math.ceil(min) : min;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "string": {
      const base = FORMAT_EXAMPLES[String(node.format)] ?? "example";
      const min = typeof node.minLength === "number" ? node.minLength : 0;
      const max = typeof node.maxLength === "number" ? node.maxLength : Infinity;
      return base.padEnd(min, "x").slice(0, max);
    }
    default:
      return {};
  }
}
