/**
 * Gemini `functionDeclarations`, whose `parameters` is a subset of the
 * OpenAPI 3.0 schema object.
 *
 * Built from zod's `openapi-3.0` target (which already writes `nullable`
 * instead of `type: [T, "null"]` and `enum` instead of `const`), then cut
 * down to the keywords Gemini accepts ({@link GEMINI_KEYWORDS}): `$ref`s are
 * inlined, `additionalProperties` and `$schema` are dropped, `oneOf` becomes
 * `anyOf`, and what is lost (`default`, unsupported `format`s, exclusive
 * bounds, non-string enums) is written into the description. A tool without
 * arguments gets no `parameters` at all.
 *
 * Gemini has no maps. A map whose tool declared its shape
 * (`withMapShape`, e.g. `generate_pdf`'s data per template) is
 * described by that shape, so the model's arguments are the native ones. Any
 * other map (`payload()`, `z.record`) is asked for as JSON text, its schema in
 * the description; the pipeline decodes it back before validation
 * (`decodeToolArguments`). What Gemini cannot take at all (recursion,
 * untyped parts, `allOf`, a map beside a string alternative) fails the export
 * naming the tool (`ToolExportError`): no tool is ever left out silently.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { exportEach } from "./batch.ts";
import { encodedMapDescription, isMapSchema, takesString } from "./encoded_maps.ts";
import {
  type JsonSchema,
  openapi30FromJsonSchema,
  presetJsonSchemaOf,
  zodToJsonSchema,
} from "./json_schema.ts";
import { NAME_RULES, type NameMap } from "./names.ts";
import { dropSafeIntegerBounds } from "./safe_integer_bounds.ts";
import { appendNotes, collapsePatternAllOf, flattenAnyOf, isRecord, keywordNote } from "./_util.ts";

/** One entry of `tools[].functionDeclarations`. */
export interface GeminiFunctionDeclaration {
  /** Provider name: a letter or `_` first, then `[A-Za-z0-9_.:-]`, at most 64. */
  name: string;
  /** What the tool does and when to use it. */
  description: string;
  /** OpenAPI 3.0 subset schema of the arguments; absent for a tool without arguments. */
  parameters?: JsonSchema;
}

/** What {@link toGeminiFunctionDeclarations} returns. */
export interface GeminiExport {
  /** The declarations, in input order. */
  functionDeclarations: GeminiFunctionDeclaration[];
  /** Our names ↔ Gemini names (ours are already valid, so this is the identity). */
  names: NameMap;
}

/** The schema keywords kept in `parameters`. */
export const GEMINI_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "format",
  "description",
  "nullable",
  "enum",
  "items",
  "properties",
  "required",
  "anyOf",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
]);

/** `format` values Gemini accepts, by type. */
const GEMINI_FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(["date-time", "enum"]),
  integer: new Set(["int32", "int64"]),
  number: new Set(["float", "double"]),
};

/**
 * Converts tools to Gemini function declarations.
 *
 * @param tools The tools to export.
 * @returns A declaration for every tool, and the name map.
 * @throws {ToolExportError} naming each tool Gemini's subset cannot describe.
 *
 * @example Exporting one tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { toGeminiFunctionDeclarations } from "./gemini.ts";
 *
 * const tool = defineTool({
 *   name: "markets.get_price", title: "Get price", description: "Latest price.",
 *   category: "markets", input: z.object({ symbol: z.string(), note: z.string().nullable() }),
 *   output: z.object({ price: z.number() }), examples: [{ input: { symbol: "ACME", note: null } }],
 *   sideEffects: "none", execute: () => Promise.resolve({ price: 1 }),
 * });
 * const { functionDeclarations } = toGeminiFunctionDeclarations([tool]);
 * assert.equal(functionDeclarations[0].name, "markets.get_price");
 * assert.deepEqual(functionDeclarations[0].parameters?.properties, {
 *   symbol: { type: "string" },
 *   note: { nullable: true, type: "string" },
 * });
 * ```
 */
export function toGeminiFunctionDeclarations(tools: readonly AnyTool[]): GeminiExport {
  const batch = exportEach(tools, NAME_RULES.gemini, (tool, name): GeminiFunctionDeclaration => {
    // A stored schema (generated tools) is rewritten as it is: building its zod schema to
    // convert it again was most of an export check of 200 generated tools.
    const preset = presetJsonSchemaOf(tool.input);
    const parameters = toGeminiSchema(
      dropSafeIntegerBounds(
        preset
          ? openapi30FromJsonSchema(preset)
          : zodToJsonSchema(tool.input, { io: "input", target: "openapi-3.0", mapShapes: true }),
      ),
    );
    const properties = isRecord(parameters.properties) ? parameters.properties : {};
    return {
      name,
      description: tool.description,
      ...(Object.keys(properties).length > 0 ? { parameters } : {}),
    };
  }, "gemini");
  return { functionDeclarations: batch.items, names: batch.names };
}

/**
 * Cuts an OpenAPI 3.0 schema (zod's `openapi-3.0` target) down to Gemini's
 * subset, inlining `$ref`s and asking for maps as JSON text. An untyped
 * part (`z.unknown()`, a field with no type) becomes a text, number or
 * boolean, its description saying that an object or list cannot be sent
 * there.
 *
 * @param schema An OpenAPI 3.0 schema with an object root.
 * @returns The Gemini `parameters` schema.
 * @throws {TypeError} for recursive schemas, `allOf`, a map beside a string
 * alternative, and a root that is not an object or is a map.
 */
export function toGeminiSchema(schema: JsonSchema): JsonSchema {
  if (schema.type !== "object") {
    throw new TypeError(
      `Cannot make a Gemini schema as the root must be an object: current type is ${
        JSON.stringify(schema.type)
      }`,
    );
  }
  return geminiNode(schema, { root: schema, path: "#", refs: ["#"] }, true);
}

/** What an untyped node becomes: the values Gemini can send without a schema for them. */
const UNTYPED_ALTERNATIVES = [{ type: "string" }, { type: "number" }, { type: "boolean" }];

/** Said of an untyped node, so the model knows what it may and may not send there. */
export const UNTYPED_NOTE =
  "any value: no type is given; a text, a number or true/false is sent as it is, an object or a list cannot be sent here";

/** Said of a union whose free-form object alternative Gemini is not offered. */
export const MAP_LEFT_OUT_NOTE =
  "a free-form object is also accepted here, but cannot be sent through this schema";

interface Context {
  root: JsonSchema;
  path: string;
  /** `$ref`s being inlined on the way here, to detect recursion. */
  refs: string[];
}

/** The keywords whose values are schemas Gemini's subset reads (their paths name problems). */
const SCHEMA_HOLDERS = new Set(["properties", "items", "anyOf"]);

function geminiNode(node: unknown, context: Context, isRoot = false): JsonSchema {
  const { path } = context;
  if (!isRecord(node)) {
    throw new TypeError(`Cannot make a Gemini schema as ${path} is ${JSON.stringify(node)}`);
  }
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (context.refs.includes(ref)) {
      throw new TypeError(`Cannot make a Gemini schema as ${path} is recursive ($ref ${ref})`);
    }
    const { $ref: _ref, ...siblings } = node;
    const target = lookup(ref, context.root);
    return geminiNode({ ...target, ...siblings }, { ...context, refs: [...context.refs, ref] });
  }
  const source: JsonSchema = { ...collapsePatternAllOf(node) };
  if ("allOf" in source || "not" in source) {
    throw new TypeError(`Cannot make a Gemini schema as ${path} uses allOf/not`);
  }
  if ("oneOf" in source) {
    source.anyOf = [...(Array.isArray(source.anyOf) ? source.anyOf : []), ...asList(source.oneOf)];
    delete source.oneOf;
  }
  if ("const" in source && !("enum" in source)) {
    // Gemini has no const: a one-value enum (told in the description when not a string).
    source.enum = [source.const];
    delete source.const;
  }
  if (!("type" in source) && !("anyOf" in source)) Object.assign(source, impliedType(source));
  // No type at all (z.unknown, a document's untyped field): Gemini needs one on every node, so the
  // scalars it can send, and the description says honestly what cannot be sent.
  const untyped = !("type" in source) && !("anyOf" in source);
  if (untyped) source.anyOf = UNTYPED_ALTERNATIVES;
  if (isMapSchema(source) && isRoot && isRecord(source.additionalProperties)) {
    throw new TypeError(`Cannot make a Gemini schema as the root is a map`);
  }
  if (isMapSchema(source) && !isRoot) return encodedMap(source);

  const out: JsonSchema = {};
  const notes: string[] = [];
  for (const [keyword, value] of Object.entries(source)) {
    // A child's context only for the keywords that hold schemas (most are data: a new object
    // and path per keyword was a good part of exporting 200 generated tools).
    const child = SCHEMA_HOLDERS.has(keyword)
      ? { ...context, path: `${path}/${keyword}` }
      : context;
    if (keyword === "properties") {
      if (!isRecord(value)) {
        throw new TypeError(`Cannot make a Gemini schema as ${child.path} is not an object`);
      }
      out.properties = Object.fromEntries(
        Object.entries(value).map(([key, property]) => [
          key,
          geminiNode(property, { ...child, path: `${child.path}/${key}` }),
        ]),
      );
    } else if (keyword === "items") {
      if (Array.isArray(value)) {
        throw new TypeError(`Cannot make a Gemini schema as ${child.path} is a tuple`);
      }
      out.items = geminiNode(value, child);
    } else if (keyword === "anyOf") {
      let branches = asList(value);
      const ambiguous = (list: unknown[]) => {
        const leaves = anyOfLeaves(list, context.root);
        return leaves.some(isMapSchema) &&
          leaves.some((leaf) => !isMapSchema(leaf) && takesString(leaf));
      };
      if (ambiguous(branches)) {
        // A map's JSON text could not be told from the string beside it: a map that is a branch
        // of its own is left out, and the description says so; one nested deeper is refused.
        branches = branches.filter((branch) => !isDirectMap(branch, context.root));
        if (ambiguous(branches)) {
          throw new TypeError(
            `Cannot make a Gemini schema as ${child.path} has a map beside a string alternative (its JSON text would be ambiguous)`,
          );
        }
        notes.push(MAP_LEFT_OUT_NOTE);
      }
      out.anyOf = flattenAnyOf(
        branches.map((branch, index) =>
          geminiNode(branch, { ...child, path: `${child.path}/${index}` })
        ),
      );
    } else if (keyword === "format") {
      const allowed = GEMINI_FORMATS[String(source.type)];
      if (allowed?.has(String(value))) out.format = value;
      else notes.push(keywordNote(keyword, value)!);
    } else if (keyword === "enum") {
      if (Array.isArray(value) && value.every((item) => typeof item === "string")) out.enum = value;
      else notes.push(keywordNote(keyword, value)!);
    } else if (keyword === "exclusiveMinimum" || keyword === "exclusiveMaximum") {
      // OpenAPI 3.0: a boolean that makes `minimum`/`maximum` exclusive.
      const bound = source[keyword === "exclusiveMinimum" ? "minimum" : "maximum"];
      if (value === true) notes.push(keywordNote(keyword, bound)!);
      else if (typeof value === "number") notes.push(keywordNote(keyword, value)!);
    } else if (GEMINI_KEYWORDS.has(keyword)) {
      out[keyword] = value;
    } else {
      const note = keywordNote(keyword, value);
      if (note !== undefined) notes.push(note);
      // anything else (`additionalProperties`, `definitions`, `examples`, `title`…) is dropped
    }
  }
  if (untyped) notes.push(UNTYPED_NOTE);
  const description = appendNotes(out.description, notes);
  if (description !== undefined) out.description = description;
  return out;
}

/**
 * The type JSON Schema leaves implicit, written out for Gemini (which needs
 * one on every node): an `enum` the types of its values (several:
 * an `anyOf` of them, the values then told in the description), `properties`
 * an object and `items` an array. Nothing for a truly untyped node.
 */
function impliedType(source: JsonSchema): JsonSchema {
  const values = source.enum;
  if (Array.isArray(values)) {
    const types = [...new Set(values.filter((value) => value !== null).map(jsonType))];
    const nullable = values.includes(null) ? { nullable: true } : {};
    if (types.length === 1) return { type: types[0], ...nullable };
    if (types.length > 1) return { anyOf: types.map((type) => ({ type })), ...nullable };
    return {};
  }
  if (isRecord(source.properties)) return { type: "object" };
  if ("items" in source) return { type: "array" };
  return {};
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * A map as Gemini can take it: a string holding the object's JSON, the map's
 * schema in the description, `nullable` kept.
 */
function encodedMap(map: JsonSchema): JsonSchema {
  return {
    type: "string",
    description: encodedMapDescription(map),
    ...(map.nullable === true ? { nullable: true } : {}),
  };
}

/** The alternatives of an `anyOf`, nested `anyOf`/`oneOf`s and `$ref`s followed. */
/** Whether a union's branch is itself a map (after its `$ref`), not a union holding one. */
function isDirectMap(branch: unknown, root: JsonSchema): boolean {
  if (!isRecord(branch)) return false;
  const resolved = typeof branch.$ref === "string" ? lookup(branch.$ref, root) : branch;
  return !Array.isArray(resolved.anyOf) && !Array.isArray(resolved.oneOf) && isMapSchema(resolved);
}

function anyOfLeaves(branches: unknown, root: JsonSchema, depth = 0): JsonSchema[] {
  if (depth > 32) return [];
  return asList(branches).flatMap((branch) => {
    if (!isRecord(branch)) return [];
    const resolved = typeof branch.$ref === "string" ? lookup(branch.$ref, root) : branch;
    const nested = [resolved.anyOf, resolved.oneOf].filter(Array.isArray).flat();
    return nested.length > 0 ? anyOfLeaves(nested, root, depth + 1) : [resolved];
  });
}

/** The schema a local `$ref` points at (`#`, `#/definitions/x`, `#/$defs/x`). */
function lookup(ref: string, root: JsonSchema): JsonSchema {
  if (ref === "#") return root;
  const match = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref);
  const definitions = match ? root[match[1]] : undefined;
  const target = match && isRecord(definitions)
    ? definitions[match[2].replaceAll("~1", "/").replaceAll("~0", "~")]
    : undefined;
  if (!isRecord(target)) {
    throw new TypeError(`Cannot make a Gemini schema as $ref ${ref} cannot be resolved`);
  }
  return target;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
