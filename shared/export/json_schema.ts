/**
 * JSON Schema 2020-12 documents for a tool's input and output, made by zod 4's
 * built-in `z.toJSONSchema`. This is the source every provider dialect is
 * derived from.
 *
 * @module
 */
import { z } from "zod";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { SideEffects, ToolAuth } from "@shared/registry/define_tool.ts";
import { mapShapeOf } from "./map_shapes.ts";

/** A JSON Schema document or subschema (an object; boolean schemas are not produced here). */
export type JsonSchema = { [keyword: string]: unknown };

/** The `$schema` of every document this module makes. */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Which side of a tool a schema describes. */
export type SchemaIo = "input" | "output";

/** Options for {@link toJsonSchema}. */
export interface ToJsonSchemaOptions {
  /** The tool's arguments (`input`) or the `data` of a successful call (`output`). @default "input" */
  io?: SchemaIo;
}

/**
 * The JSON Schema 2020-12 document of a tool's input or output.
 *
 * Input uses zod's `io: "input"` view: fields with a default are optional and
 * objects allow unknown keys (zod strips them). Output uses `io: "output"`:
 * defaulted fields are required and objects have `additionalProperties: false`.
 * The document carries `title`, `description` and `examples` (the examples'
 * inputs, or for output the examples' outputs, when any).
 *
 * @param tool The tool.
 * @param options Which side to describe.
 * @returns A 2020-12 document with `$schema`.
 * @throws {Error} when zod cannot represent the schema (`z.date()`, `z.bigint()`,
 * transforms on the output side, …).
 *
 * @example The input schema of a tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { toJsonSchema } from "./json_schema.ts";
 *
 * const tool = defineTool({
 *   name: "markets.get_price", title: "Get price", description: "Latest price.",
 *   category: "markets", input: z.object({ symbol: z.string(), limit: z.int().default(10) }),
 *   output: z.object({ price: z.number() }), examples: [{ input: { symbol: "ACME" } }],
 *   sideEffects: "none", execute: () => Promise.resolve({ price: 1 }),
 * });
 * const schema = toJsonSchema(tool);
 * assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
 * assert.deepEqual(schema.required, ["symbol"]);
 * assert.deepEqual(schema.examples, [{ symbol: "ACME" }]);
 * ```
 */
export function toJsonSchema(tool: AnyTool, options: ToJsonSchemaOptions = {}): JsonSchema {
  const io = options.io ?? "input";
  if (io !== "input" && io !== "output") {
    throw new TypeError(
      `Cannot make a JSON Schema as io must be "input" or "output": current value is ${io}`,
    );
  }
  const body = zodToJsonSchema(io === "input" ? tool.input : tool.output, { io });
  const { $schema: _dialect, title: _title, description: ownDescription, ...rest } = body;
  const examples = io === "input"
    ? tool.examples.map((example) => example.input)
    : tool.examples.filter((example) => example.output !== undefined).map((example) =>
      example.output
    );
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: io === "input" ? tool.title : `${tool.title}: result`,
    ...(io === "input"
      ? { description: tool.description }
      : typeof ownDescription === "string"
      ? { description: ownDescription }
      : {}),
    ...rest,
    ...(examples.length > 0 ? { examples } : {}),
  };
}

/** Our descriptor, as exported next to the schemas. */
export interface ToolDescriptorExport {
  /** What the tool changes. */
  sideEffects: SideEffects;
  /** Whose privileges it runs with. */
  auth: ToolAuth;
  /** Expected latency in milliseconds. */
  latencyBudgetMs: number;
  /** Whether a repeat with the same key is safe. */
  idempotent: boolean;
  /** Whether a call needs an explicit confirmation. */
  confirmRequired: boolean;
  /** Whether it reaches outside our database. */
  openWorld: boolean;
}

/** A tool in our own JSON Schema export. */
export interface JsonSchemaTool {
  /** Our tool name. */
  name: string;
  /** Human title. */
  title: string;
  /** What it does and when to use it. */
  description: string;
  /** Grouping. */
  category: string;
  /** 2020-12 document of the arguments. */
  inputSchema: JsonSchema;
  /** 2020-12 document of the `data` of a successful call. */
  outputSchema: JsonSchema;
  /** Side effects, auth and the other descriptor fields. */
  descriptor: ToolDescriptorExport;
}

/**
 * A tool as plain JSON: its metadata, both schemas and its descriptor.
 *
 * @param tool The tool.
 * @returns A JSON-serialisable description of the tool.
 * @throws {Error} when zod cannot represent the input or output schema.
 */
export function exportJsonSchemaTool(tool: AnyTool): JsonSchemaTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    category: tool.category,
    inputSchema: toJsonSchema(tool, { io: "input" }),
    outputSchema: toJsonSchema(tool, { io: "output" }),
    descriptor: {
      sideEffects: tool.sideEffects,
      auth: tool.auth,
      latencyBudgetMs: tool.latencyBudgetMs,
      idempotent: tool.idempotent,
      confirmRequired: tool.confirmRequired,
      openWorld: tool.openWorld,
    },
  };
}

/** Options for {@link zodToJsonSchema}. */
export interface ZodToJsonSchemaOptions {
  /** Which side of transforms and defaults to describe. */
  io: SchemaIo;
  /** The dialect. @default "draft-2020-12" */
  target?: "draft-2020-12" | "openapi-3.0";
  /**
   * Describe a map that declared its shape (`withMapShape`) by that
   * shape instead, for dialects without maps. The map's `description` and
   * `nullable` stay. @default false
   */
  mapShapes?: boolean;
}

/**
 * A zod schema as a bare JSON Schema: `z.toJSONSchema` without `$schema`.
 *
 * @param schema Any zod schema.
 * @param options The side and dialect.
 * @returns The schema, with recursive parts under `$defs` (2020-12) or
 * `definitions` (OpenAPI 3.0).
 * @throws {Error} when zod cannot represent the schema.
 */
export function zodToJsonSchema(schema: z.ZodType, options: ZodToJsonSchemaOptions): JsonSchema {
  const target = options.target ?? "draft-2020-12";
  const preset = target === "draft-2020-12" ? presets.get(schema) : undefined;
  // Frozen, so handing it out uncopied is safe: a caller adapting it in place would throw.
  if (preset) return deepFreeze(preset);
  const document = z.toJSONSchema(schema, {
    target,
    io: options.io,
    ...(options.mapShapes
      ? {
        override: ({ zodSchema, jsonSchema }) => {
          const shape = mapShapeOf(zodSchema);
          if (shape) describeByShape(jsonSchema, shape, { ...options, target });
        },
      }
      : {}),
  }) as JsonSchema;
  const { $schema: _dialect, ...body } = document;
  return body;
}

const presets = new WeakMap<z.ZodType, JsonSchema>();

/**
 * Gives a schema the 2020-12 document it exports as, so exporting it builds
 * nothing: for generated tools, whose JSON Schema is stored and whose zod
 * checks are built only when a call needs them. Other dialects still read
 * the zod schema.
 *
 * @param schema The zod schema (a tool's input or output).
 * @param json Its bare JSON Schema (no `$schema`), as {@link zodToJsonSchema} made it; frozen
 *   when first handed out, so not to be changed after.
 */
export function presetJsonSchema(schema: z.ZodType, json: JsonSchema): void {
  // Frozen when first handed out, so registering many costs nothing until they are listed.
  presets.set(schema, json);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * The document {@link presetJsonSchema} gave a schema (frozen), if any.
 *
 * @param schema The zod schema.
 * @param options `freeze: false` hands it out as it is, for a caller that only places it, by
 *   reference and unchanged, inside a document of its own (MCP's output envelope: freezing every
 *   answer schema of 200 tools was a third of an instance's first listing).
 * @returns Its preset 2020-12 document (frozen unless asked not to), or `undefined`.
 */
export function presetJsonSchemaOf(
  schema: z.ZodType,
  options: { freeze?: boolean } = {},
): JsonSchema | undefined {
  const preset = presets.get(schema);
  return preset && (options.freeze === false ? preset : deepFreeze(preset));
}

/**
 * A 2020-12 schema as {@link zodToJsonSchema} writes it, in the OpenAPI 3.0
 * dialect as zod's `openapi-3.0` target writes the same schema: a stored
 * (generated) tool's input exported to 3.0 dialects (Gemini) without
 * building its zod schema and converting it again. A nullable type list
 * becomes `nullable`, `const` a one-value `enum`, numeric exclusive bounds the
 * boolean form, `type: "null"` and several patterns zod's 3.0 spelling, and `propertyNames`
 * (not in 3.0) is dropped. Tests check it against zod's own route. One
 * spelling differs: `anyOf: [X, {type: "null"}]` stays a union with a null
 * branch even where zod's route would write X with `nullable` (its 2020-12
 * form cannot tell a nullable from a union with null); both take the same
 * values.
 *
 * @param schema A bare 2020-12 schema made by {@link zodToJsonSchema}.
 * @returns A new schema; the argument is not changed.
 */
export function openapi30FromJsonSchema(schema: JsonSchema): JsonSchema {
  return to30(schema) as JsonSchema;
}

function to30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(to30);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // Under these keywords the keys are names, not keywords.
    out[key] = (key === "properties" || key === "$defs" || key === "patternProperties") &&
        value && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([name, item]) => [name, to30(item)]))
      : to30(value);
  }
  if (Array.isArray(out.type) && out.type.includes("null")) {
    const types = out.type.filter((type) => type !== "null");
    if (types.length === 1) {
      const { type: _type, ...rest } = out;
      return { nullable: true, ...rest, type: types[0] };
    }
  }
  // Several patterns on a string: zod's 3.0 target types each part.
  if (
    Array.isArray(out.allOf) &&
    out.allOf.every((part) =>
      typeof part === "object" && part !== null && Object.keys(part).join() === "pattern"
    )
  ) {
    out.allOf = out.allOf.map((part) => ({ type: "string", ...part }));
  }
  if (out.type === "null") Object.assign(out, { type: "string", nullable: true, enum: [null] });
  delete out.propertyNames;
  if ("const" in out) {
    out.enum = [out.const];
    delete out.const;
  }
  if (typeof out.exclusiveMinimum === "number") {
    out.minimum = out.exclusiveMinimum;
    out.exclusiveMinimum = true;
  }
  if (typeof out.exclusiveMaximum === "number") {
    out.maximum = out.exclusiveMaximum;
    out.exclusiveMaximum = true;
  }
  return out;
}

/** Rewrites a map's schema, in place, into its declared shape's. */
function describeByShape(
  map: JsonSchema,
  shape: z.ZodType,
  options: ZodToJsonSchemaOptions,
): void {
  const { description, nullable } = map;
  const typed = zodToJsonSchema(shape, { ...options, mapShapes: true });
  for (const key of Object.keys(map)) delete map[key];
  Object.assign(map, typed);
  const descriptions = [description, typed.description].filter((text) => typeof text === "string");
  if (descriptions.length > 0) map.description = descriptions.join(" ");
  if (nullable === true) map.nullable = true;
}
