/**
 * A generated tool's output: the document's response schema made lenient as
 * JSON Schema directly (no zod on the way), because an API's answer is
 * passed on, not policed, and because answers are the bulk of a large
 * document's schemas. `$ref`s are resolved once along each path (a cycle
 * ends as `{}`), nesting past 3 levels is `{}`, nothing is required, unknown
 * fields are allowed, formats and patterns are not checked. The zod check
 * of a call's answer is built from this JSON Schema on first use, and the
 * JSON Schema is what listings export.
 *
 * @module
 */
import { z } from "zod";
import { type JsonSchema, presetJsonSchema } from "@shared/export/json_schema.ts";
import {
  type JsonSchemaNode,
  jsonSchemaToZod,
  MAX_DESCRIPTION,
  mergeAllOf,
  pointerKey,
  resolvePointer,
  SchemaMappingError,
} from "./json_schema_zod.ts";

/** Options for {@link lenientOutputSchema}. */
export interface LenientOutputOptions {
  /** The whole document, to resolve `#/…` references against. */
  root: unknown;
  /** Deepest nesting of objects and arrays kept. @default 3 */
  maxDepth?: number;
  /**
   * Reuse what a reference became elsewhere in the same document (at the same
   * depth, where no reference being expanded around it would have cut it
   * short): GitHub's responses name the same few component schemas hundreds
   * of times. The result is equal either way (`output_schema_test.ts`).
   * @default true
   */
  reuse?: boolean;
}

interface State {
  root: unknown;
  maxDepth: number;
  chain: readonly string[];
  depth: number;
  /** The references being expanded, innermost last, with what each has touched; null: no reuse. */
  frames: Frame[] | null;
}

/** One reference being expanded. */
interface Frame {
  /** Its place in the chain. */
  base: number;
  /** Every reference met inside it. */
  touched: Set<string>;
  /** Whether a reference outside it (an enclosing one) cut it short: then it is not reused. */
  cutAbove: boolean;
}

/** A reference's expansion that depends on no enclosing reference, and what it met. */
interface Made {
  schema: JsonSchema;
  touched: Set<string>;
}

const made = new WeakMap<object, Map<string, Made>>();

/**
 * The lenient JSON Schema of an answer.
 *
 * @throws {SchemaMappingError} for what cannot be read (a `$ref` outside the document, an
 *   unknown type); the caller then lets any answer pass.
 */
export function lenientOutputSchema(
  schema: unknown,
  pointer: string,
  options: LenientOutputOptions,
): JsonSchema {
  return convert(schema, pointer, {
    root: options.root,
    maxDepth: options.maxDepth ?? 3,
    chain: [],
    depth: 0,
    frames: (options.reuse ?? true) && options.root && typeof options.root === "object" ? [] : null,
  });
}

function expandRef(ref: string, target: unknown, state: State): JsonSchema {
  const frames = state.frames!;
  let known = made.get(state.root as object);
  if (!known) made.set(state.root as object, known = new Map());
  const key = `${state.maxDepth}\n${state.depth}\n${ref}`;
  const hit = known.get(key);
  // Reused only where none of the references around it is one it met (which would cut it here).
  if (hit && !state.chain.some((outer) => hit.touched.has(outer))) {
    for (const frame of frames) for (const inner of hit.touched) frame.touched.add(inner);
    return hit.schema;
  }
  const frame: Frame = { base: state.chain.length, touched: new Set([ref]), cutAbove: false };
  frames.push(frame);
  let schema: JsonSchema;
  try {
    schema = convert(target, ref, { ...state, chain: [...state.chain, ref] });
  } finally {
    frames.pop();
  }
  for (const outer of frames) for (const inner of frame.touched) outer.touched.add(inner);
  if (!frame.cutAbove) known.set(key, { schema, touched: frame.touched });
  return schema;
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
    const at = state.chain.indexOf(ref);
    if (at >= 0) {
      // A cycle: cut here. Every expansion inside the one it closes depends on it.
      for (const frame of state.frames ?? []) {
        frame.touched.add(ref);
        if (frame.base > at) frame.cutAbove = true;
      }
      return {};
    }
    const target = resolvePointer(state.root, ref);
    if (target === undefined) {
      throw new SchemaMappingError(
        pointer,
        `Cannot map schema as $ref "${ref}" is not in the document`,
      );
    }
    if (state.frames) return expandRef(ref, target, state);
    return convert(target, ref, { ...state, chain: [...state.chain, ref] });
  }
  if (state.depth > state.maxDepth) return {};
  const body = withNull(node, convertBody(node, pointer, state));
  const text = typeof node.description === "string"
    ? node.description
    : typeof node.title === "string"
    ? node.title
    : "";
  return text ? { ...body, description: text.slice(0, MAX_DESCRIPTION) } : body;
}

function withNull(node: JsonSchemaNode, body: JsonSchema): JsonSchema {
  const types = Array.isArray(node.type) ? node.type : [];
  if (node.nullable !== true && !types.includes("null")) return body;
  if (Object.keys(body).length === 0 || body.type === "null") return body;
  return { anyOf: [body, { type: "null" }] };
}

function convertBody(node: JsonSchemaNode, pointer: string, state: State): JsonSchema {
  if (Object.hasOwn(node, "const")) return { const: node.const };
  if (Array.isArray(node.enum)) {
    const values = node.enum.filter((value) => value !== null);
    if (values.length === 0) return { type: "null" };
    return values.every((value) => typeof value === "string")
      ? { type: "string", enum: values }
      : { enum: values };
  }
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0) {
      const mapped = options.map((option, index) =>
        convert(option, `${pointer}/${key}/${index}`, state)
      );
      return mapped.length === 1 ? mapped[0] : { anyOf: mapped };
    }
  }
  if (Array.isArray(node.allOf) && node.allOf.length > 0) return convertAllOf(node, pointer, state);
  if (node.type === "null") return { type: "null" };
  const types = (Array.isArray(node.type) ? node.type : [node.type])
    .filter((type) => type !== "null" && type !== undefined) as string[];
  if (types.length > 1) {
    return { anyOf: types.map((type) => convertTyped({ ...node, type }, type, pointer, state)) };
  }
  const type = types[0] ?? (node.properties ? "object" : node.items ? "array" : undefined);
  return type ? convertTyped(node, type, pointer, state) : {};
}

function convertAllOf(node: JsonSchemaNode, pointer: string, state: State): JsonSchema {
  const merged = mergeAllOf(node, pointer, state.root);
  if ("single" in merged) return convert(merged.single, merged.pointer, state);
  // Lenient: an answer missing a field the parts require is still taken.
  const { required: _required, ...object } = merged.object;
  return convertTyped(object, "object", pointer, state);
}

function convertTyped(
  node: JsonSchemaNode,
  type: string,
  pointer: string,
  state: State,
): JsonSchema {
  switch (type) {
    case "string": {
      const out: JsonSchema = { type: "string" };
      if (typeof node.minLength === "number") out.minLength = node.minLength;
      if (typeof node.maxLength === "number") out.maxLength = node.maxLength;
      return out;
    }
    case "integer":
    case "number":
    case "boolean":
      return { type };
    case "array": {
      const items = Array.isArray(node.items) ? undefined : node.items;
      return {
        type: "array",
        items: convert(items, `${pointer}/items`, { ...state, depth: state.depth + 1 }),
      };
    }
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const inner = { ...state, depth: state.depth + 1 };
      const shape: Record<string, JsonSchema> = {};
      for (const [key, property] of Object.entries(properties)) {
        // A write-only field never comes back.
        if ((property as JsonSchemaNode | undefined)?.writeOnly === true) continue;
        shape[key] = convert(property, `${pointer}/properties/${pointerKey(key)}`, inner);
      }
      const additional = node.additionalProperties;
      if (Object.keys(shape).length === 0 && additional && typeof additional === "object") {
        return {
          type: "object",
          propertyNames: { type: "string" },
          additionalProperties: convert(additional, `${pointer}/additionalProperties`, inner),
        };
      }
      return { type: "object", properties: shape, additionalProperties: {} };
    }
    default:
      throw new SchemaMappingError(pointer, `Cannot map type "${String(type)}"`);
  }
}

/**
 * The zod check of an answer, built from its lenient JSON Schema on first
 * use; exports read the JSON Schema itself.
 *
 * @param json The lenient JSON Schema (`{}`: anything).
 * @param name The tool's name (for errors).
 */
export function lazyOutput(json: JsonSchema, name: string): z.ZodType {
  if (Object.keys(json).length === 0) {
    // Preset too: exports (MCP's envelope above all) then read `{}` instead of converting zod's
    // unknown for each tool (every GraphQL tool's answer is open: ~10 ms of a listing of 200).
    const open = z.unknown();
    presetJsonSchema(open, json);
    return open;
  }
  let built: z.ZodType | undefined;
  const output = z.lazy(() =>
    built ??= (() => {
      try {
        return jsonSchemaToZod(json, `${name}/output`, {
          mode: "output",
          root: json,
          patternWithFormat: false,
        });
      } catch {
        return z.unknown();
      }
    })()
  );
  presetJsonSchema(output, json);
  return output;
}
