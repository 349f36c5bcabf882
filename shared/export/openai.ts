/**
 * OpenAI function-calling tools, in strict mode whenever the schema allows.
 *
 * Strict mode makes the model's arguments always match the schema, but it
 * accepts only a subset of JSON Schema (see {@link checkOpenAIStrict}).
 * {@link toOpenAIStrictSchema} rewrites our 2020-12 input schema into that
 * subset: every object gets `additionalProperties: false` and all its
 * properties in `required`; an optional property becomes nullable, so the
 * model sends `null` for "not given" — {@link fromOpenAIArguments} turns those
 * `null`s back into absent keys before our zod schema (which uses
 * `.optional()`, not `.nullable()`) sees them. Keywords strict mode lacks
 * (`default`, `minLength`, unsupported `format`s, …) move into the
 * description. A tool that cannot be made strict (maps such as `z.record`,
 * tuples, `z.any()`, …) is sent with `strict: false` and listed in
 * `nonStrict`; a tool that cannot be exported at all fails the export
 * (`ToolExportError`).
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { exportEach, type ExportIssue } from "./batch.ts";
import type { JsonSchema } from "./json_schema.ts";
import { NAME_RULES, type NameMap } from "./names.ts";
import {
  checkOpenAIStrict,
  OPENAI_STRICT_FORMATS,
  OPENAI_STRICT_KEYWORDS,
} from "./openai_strict_rules.ts";
import {
  appendNotes,
  collapsePatternAllOf,
  flattenAnyOf,
  isRecord,
  keywordNote,
  providerInputSchema,
  resolveLocalRef,
  schemaBranches,
} from "./_util.ts";

/** One tool in the `tools` array of a Chat Completions request. */
export interface OpenAIFunctionTool {
  /** Always `"function"`. */
  type: "function";
  /** The function definition. */
  function: {
    /** Provider name, see {@link NameMap}. */
    name: string;
    /** What the tool does and when to use it. */
    description: string;
    /** JSON Schema of the arguments; strict-ready when `strict` is true. */
    parameters: JsonSchema;
    /** Whether the model's arguments are guaranteed to match `parameters`. */
    strict: boolean;
  };
}

/** Options for {@link toOpenAITools}. */
export interface ToOpenAIToolsOptions {
  /** Try strict mode for every tool. @default true */
  strict?: boolean;
}

/** What {@link toOpenAITools} returns. */
export interface OpenAIExport {
  /** The tools, in input order. */
  tools: OpenAIFunctionTool[];
  /** Our names ↔ OpenAI names. */
  names: NameMap;
  /** Tools sent with `strict: false` although strict was asked for, with the reason. */
  nonStrict: ExportIssue[];
}

/**
 * Converts tools to OpenAI function tools.
 *
 * @param tools The tools to export.
 * @param options Whether to try strict mode.
 * @returns Every tool, the name map, and the tools sent non-strict.
 * @throws {ToolExportError} naming each tool that cannot be exported at all
 * (its schema is not JSON Schema, e.g. `z.date()`).
 *
 * @example Exporting one tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { toOpenAITools } from "./openai.ts";
 *
 * const tool = defineTool({
 *   name: "markets.get_price", title: "Get price", description: "Latest price.",
 *   category: "markets", input: z.object({ symbol: z.string(), day: z.iso.date().optional() }),
 *   output: z.object({ price: z.number() }), examples: [{ input: { symbol: "ACME" } }],
 *   sideEffects: "none", execute: () => Promise.resolve({ price: 1 }),
 * });
 * const { tools } = toOpenAITools([tool]);
 * assert.equal(tools[0].function.name, "markets_get_price");
 * assert.equal(tools[0].function.strict, true);
 * assert.deepEqual(tools[0].function.parameters.required, ["symbol", "day"]);
 * ```
 */
export function toOpenAITools(
  tools: readonly AnyTool[],
  options: ToOpenAIToolsOptions = {},
): OpenAIExport {
  const strict = options.strict ?? true;
  const nonStrict: ExportIssue[] = [];
  const batch = exportEach(tools, NAME_RULES.openai, (tool, name): OpenAIFunctionTool => {
    const schema = providerInputSchema(tool);
    let parameters: JsonSchema | undefined;
    let reason: string | undefined;
    if (strict) {
      try {
        parameters = toOpenAIStrictSchema(schema);
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
    }
    if (parameters === undefined) {
      parameters = toOpenAILooseSchema(schema);
      if (reason !== undefined) nonStrict.push({ tool: tool.name, reason });
    }
    return {
      type: "function",
      function: {
        name,
        description: tool.description,
        parameters,
        strict: reason === undefined && strict,
      },
    };
  });
  return { tools: batch.items, names: batch.names, nonStrict };
}

/** Keywords that make a schema impossible to express in strict mode. */
const REJECTED_KEYWORDS = [
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "contains",
  "minContains",
  "maxContains",
];

/** Annotations dropped without a trace. */
const SILENT_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$anchor",
  "$comment",
  "examples",
  "readOnly",
  "writeOnly",
  "deprecated",
  "contentEncoding",
  "contentMediaType",
]);

/**
 * Rewrites a 2020-12 object schema into OpenAI's strict-mode subset.
 *
 * `oneOf` (zod's discriminated unions) becomes `anyOf`; a type list such as
 * `["string", "number"]` becomes an `anyOf`; optional properties become
 * nullable and required; unsupported annotations move into the description.
 *
 * @param schema A 2020-12 schema with an object root (no `$schema` needed).
 * @returns A schema for which {@link checkOpenAIStrict} reports nothing.
 * @throws {TypeError} when the schema cannot be made strict, naming the part.
 */
export function toOpenAIStrictSchema(schema: JsonSchema): JsonSchema {
  const result = strictNode(schema, "#");
  if (isRecord(schema.$defs)) {
    result.$defs = Object.fromEntries(
      Object.entries(schema.$defs).map(([name, definition]) => [
        name,
        strictNode(definition, `#/$defs/${name}`),
      ]),
    );
  }
  const violations = checkOpenAIStrict(result);
  if (violations.length > 0) {
    throw new TypeError(`Cannot make schema strict as ${violations.join("; ")}`);
  }
  return result;
}

/** One subschema in strict form; `$defs` are handled by the caller. */
function strictNode(input: unknown, path: string): JsonSchema {
  if (!isRecord(input)) {
    throw new TypeError(`Cannot make schema strict as ${path} is ${JSON.stringify(input)}`);
  }
  const node = collapsePatternAllOf(input);
  const extra = node.additionalProperties;
  if (isRecord(extra) && Object.keys(extra).length > 0) {
    throw new TypeError(
      `Cannot make schema strict as ${path} is a map (additionalProperties is a schema, e.g. z.record)`,
    );
  }
  for (const keyword of REJECTED_KEYWORDS) {
    if (keyword in node) {
      throw new TypeError(`Cannot make schema strict as ${path} uses "${keyword}"`);
    }
  }
  let source = node;
  if ("oneOf" in source) {
    if ("anyOf" in source) {
      throw new TypeError(`Cannot make schema strict as ${path} has both oneOf and anyOf`);
    }
    const { oneOf, ...rest } = source;
    source = { ...rest, anyOf: oneOf };
  }
  if (Array.isArray(source.type)) {
    const split = splitTypeList(source);
    if (split !== source) return strictNode(split, path);
  }

  const out: JsonSchema = {};
  const notes: string[] = [];
  const types = Array.isArray(source.type) ? source.type : [source.type];
  const isObject = types.includes("object") || "properties" in source;
  for (const [keyword, value] of Object.entries(source)) {
    if (keyword === "$defs" || keyword === "required" || keyword === "properties") continue;
    // `false`, `true` or `{}` (z.looseObject): strict objects are closed (set below).
    if (keyword === "additionalProperties") continue;
    if (keyword === "items") {
      if (Array.isArray(value)) {
        throw new TypeError(`Cannot make schema strict as ${path}/items is a tuple`);
      }
      out.items = strictNode(value, `${path}/items`);
    } else if (keyword === "anyOf") {
      if (!Array.isArray(value)) {
        throw new TypeError(`Cannot make schema strict as ${path}/anyOf is not a list`);
      }
      out.anyOf = flattenAnyOf(
        value.map((branch, index) => strictNode(branch, `${path}/anyOf/${index}`)),
      );
    } else if (
      keyword === "format" && typeof value === "string" && !OPENAI_STRICT_FORMATS.has(value)
    ) {
      notes.push(keywordNote(keyword, value)!);
    } else if (OPENAI_STRICT_KEYWORDS.has(keyword)) {
      out[keyword] = value;
    } else if (SILENT_KEYWORDS.has(keyword)) {
      // annotation only: drop
    } else {
      const note = keywordNote(keyword, value);
      if (note === undefined) {
        throw new TypeError(`Cannot make schema strict as ${path} uses "${keyword}"`);
      }
      notes.push(note);
    }
  }
  if (isObject) {
    const properties = isRecord(source.properties) ? source.properties : {};
    const required = new Set(Array.isArray(source.required) ? source.required : []);
    const strictProperties: JsonSchema = {};
    for (const [key, child] of Object.entries(properties)) {
      const converted = strictNode(child, `${path}/properties/${key}`);
      strictProperties[key] = required.has(key) ? converted : nullable(converted);
    }
    out.type ??= "object";
    out.properties = strictProperties;
    out.required = Object.keys(strictProperties);
    out.additionalProperties = false;
  }
  const description = appendNotes(out.description, notes);
  if (description !== undefined) out.description = description;
  return out;
}

/** `type: ["string", "number", …]` as an `anyOf` of single types (`[T, "null"]` is kept). */
function splitTypeList(schema: JsonSchema): JsonSchema {
  const types = (schema.type as unknown[]).filter((type) => typeof type === "string") as string[];
  const nonNull = types.filter((type) => type !== "null");
  if (nonNull.length <= 1) {
    return types.length === 1 ? { ...schema, type: types[0] } : schema;
  }
  const { type: _type, description, ...rest } = schema;
  return {
    anyOf: types.map((type) => (type === "null" ? { type } : { ...rest, type })),
    ...(description === undefined ? {} : { description }),
  };
}

/** The same schema, also accepting `null`. */
function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  const withNullEnum = Array.isArray(schema.enum) && !schema.enum.includes(null)
    ? { enum: [...schema.enum, null] }
    : {};
  if (typeof type === "string" && !("const" in schema)) {
    return type === "null" ? schema : { ...schema, type: [type, "null"], ...withNullEnum };
  }
  if (Array.isArray(type) && !("const" in schema)) {
    return type.includes("null") ? schema : { ...schema, type: [...type, "null"], ...withNullEnum };
  }
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((branch) => isRecord(branch) && branch.type === "null");
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  }
  if (type === undefined && "enum" in schema && !("$ref" in schema)) {
    return { ...schema, ...withNullEnum };
  }
  const { description, ...rest } = schema;
  return {
    anyOf: [rest, { type: "null" }],
    ...(description === undefined ? {} : { description }),
  };
}

/** The schema sent with `strict: false`: our 2020-12 schema minus `examples`. */
function toOpenAILooseSchema(schema: JsonSchema): JsonSchema {
  const { examples: _examples, ...rest } = schema;
  return rest;
}

/** Options for {@link fromOpenAIArguments}. */
export interface FromOpenAIArgumentsOptions {
  /**
   * The tool's 2020-12 input schema (e.g. `toJsonSchema(tool)`). With it, only
   * `null`s of properties that were optional are removed, so `null` stays
   * for required `.nullable()` fields. Without it every `null`-valued
   * property is removed.
   */
  schema?: JsonSchema;
}

/**
 * Parses the `arguments` string of an OpenAI tool call into input for our
 * zod schema.
 *
 * In strict mode every property is required and optional ones are nullable,
 * so the model sends `null` where it means "not given". Our zod schemas use
 * `.optional()`, which rejects `null`; this removes those properties
 * (recursively, including objects inside arrays) so defaults apply and the
 * input validates. Pass the input schema to keep `null` for properties that
 * are required there (`.nullable()` fields). `null` array elements are kept.
 *
 * @param json The `arguments` string from the tool call.
 * @param options The tool's input schema, to tell optional from nullable.
 * @returns The arguments with `null` placeholders removed.
 * @throws {SyntaxError} when `json` is not valid JSON.
 *
 * @example Removing nulls the model sent for omitted optionals
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromOpenAIArguments } from "./openai.ts";
 *
 * assert.deepEqual(fromOpenAIArguments('{"symbol":"ACME","day":null}'), { symbol: "ACME" });
 * ```
 */
export function fromOpenAIArguments(
  json: string,
  options: FromOpenAIArgumentsOptions = {},
): unknown {
  const value: unknown = JSON.parse(json);
  return stripNulls(value, options.schema, options.schema);
}

function stripNulls(value: unknown, schema: unknown, root: JsonSchema | undefined): unknown {
  const resolved = resolveLocalRef(schema, root);
  if (Array.isArray(value)) {
    const items = schemaBranches(resolved, root).map((branch) => branch.items).find(isRecord);
    return value.map((item) => stripNulls(item, items, root));
  }
  if (!isRecord(value)) return value;
  const shapes = schemaBranches(resolved, root);
  const required = new Set(
    shapes.flatMap((shape) => Array.isArray(shape.required) ? shape.required : []),
  );
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null && !required.has(key)) continue;
    const property = shapes
      .map((shape) => (isRecord(shape.properties) ? shape.properties[key] : undefined))
      .find((candidate) => candidate !== undefined);
    out[key] = stripNulls(item, property, root);
  }
  return out;
}
