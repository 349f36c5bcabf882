/**
 * Anthropic Messages API tools: `{ name, description, input_schema }`.
 *
 * `input_schema` takes any JSON Schema with an object root, so it is our
 * 2020-12 input schema without `$schema` (and without the root `title` and
 * `description`, which repeat the tool's own fields). Recursive schemas and
 * maps are fine here; only a tool zod cannot represent fails the export
 * (`ToolExportError`).
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { exportEach } from "./batch.ts";
import type { JsonSchema } from "./json_schema.ts";
import { NAME_RULES, type NameMap } from "./names.ts";
import { closeEmptyObject, providerInputSchema } from "./_util.ts";

/** One tool in the `tools` array of a Messages request. */
export interface AnthropicTool {
  /** Provider name, `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** What the tool does and when to use it. */
  description: string;
  /** JSON Schema of the input, object root. */
  input_schema: JsonSchema & { type: "object" };
}

/** What {@link toAnthropicTools} returns. */
export interface AnthropicExport {
  /** The tools, in input order. */
  tools: AnthropicTool[];
  /** Our names ↔ Anthropic names. */
  names: NameMap;
}

/**
 * Converts tools to Anthropic tool definitions.
 *
 * A tool without arguments gets `additionalProperties: false`, so the model
 * is told to send `{}`.
 *
 * @param tools The tools to export.
 * @returns Every tool and the name map.
 * @throws {ToolExportError} naming each tool zod cannot represent.
 *
 * @example Exporting one tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { toAnthropicTools } from "./anthropic.ts";
 *
 * const tool = defineTool({
 *   name: "markets.get_price", title: "Get price", description: "Latest price.",
 *   category: "markets", input: z.object({ symbol: z.string() }),
 *   output: z.object({ price: z.number() }), examples: [{ input: { symbol: "ACME" } }],
 *   sideEffects: "none", execute: () => Promise.resolve({ price: 1 }),
 * });
 * const { tools } = toAnthropicTools([tool]);
 * assert.equal(tools[0].name, "markets_get_price");
 * assert.equal(tools[0].input_schema.type, "object");
 * ```
 */
export function toAnthropicTools(tools: readonly AnyTool[]): AnthropicExport {
  const batch = exportEach(tools, NAME_RULES.anthropic, (tool, name): AnthropicTool => {
    const schema = closeEmptyObject(providerInputSchema(tool));
    return { name, description: tool.description, input_schema: { ...schema, type: "object" } };
  }, "anthropic");
  return { tools: batch.items, names: batch.names };
}
