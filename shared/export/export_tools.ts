/**
 * One entry point for every export dialect, for the CLI and the docs
 * generator: `exportTools(tools, "openai")` returns a JSON-serialisable list
 * of every tool's definition plus the name map, or throws naming the tools
 * that format cannot carry.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { toAnthropicTools } from "./anthropic.ts";
import { exportEach, type ExportIssue } from "./batch.ts";
import { toGeminiFunctionDeclarations } from "./gemini.ts";
import { exportJsonSchemaTool } from "./json_schema.ts";
import { toMcpTools, type ToMcpToolsOptions } from "./mcp.ts";
import { NAME_RULES, type NameMap } from "./names.ts";
import { toOpenAITools, type ToOpenAIToolsOptions } from "./openai.ts";

/** Every export format, in the order the CLI lists them. */
export const EXPORT_FORMATS = ["jsonschema", "openai", "anthropic", "gemini", "mcp"] as const;

/**
 * The formats whose export can refuse a tool that the others accept: proving
 * these proves all of {@link EXPORT_FORMATS}. The JSON Schema export builds
 * the input and output schemas every format starts from; Anthropic's is the
 * provider input schema (`providerInputSchema`: an object root) and nothing
 * more; Gemini's subset refuses shapes (recursion, `allOf`/`not`, a map
 * root). OpenAI and MCP take that same provider input schema and never
 * refuse beyond it: a schema OpenAI's strict mode cannot carry is sent with
 * `strict: false`, an output MCP cannot carry is left open with a note, and
 * a name that breaks a format's rule gets a hash suffix. Registration checks
 * only these, so it does not pay for OpenAI's strict rewrite and MCP's
 * output envelopes before a listing asks for them.
 */
export const DECIDING_FORMATS = ["jsonschema", "anthropic", "gemini"] as const;

/** One export format. */
export type ExportFormat = typeof EXPORT_FORMATS[number];

/** Options for {@link exportTools}, per format. */
export interface ExportToolsOptions {
  /** For `"openai"`. */
  openai?: ToOpenAIToolsOptions;
  /** For `"mcp"`. */
  mcp?: ToMcpToolsOptions;
}

/** What {@link exportTools} returns. */
export interface ExportResult {
  /** The format exported. */
  format: ExportFormat;
  /**
   * The tool definitions, one per tool, JSON-serialisable, in input order: `JsonSchemaTool`s,
   * OpenAI `tools` entries, Anthropic tools, Gemini function declarations or
   * MCP tools.
   */
  tools: unknown[];
  /** Our names ↔ the format's names; serialises as `{ ourName: providerName }`. */
  names: NameMap;
  /**
   * Tools exported in a weaker form, with the reason: OpenAI tools sent with
   * `strict: false`, MCP tools without (or with a looser) `outputSchema`.
   */
  notes: ExportIssue[];
}

/** Whether a string names an export format. */
export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * Exports tools in one format: every tool, or an error naming each tool the
 * format cannot carry (never a shorter list).
 *
 * The `jsonschema` format uses our own names (the MCP name rule, which our
 * names always satisfy).
 *
 * @param tools The tools to export.
 * @param format One of {@link EXPORT_FORMATS}.
 * @param options Per-format options.
 * @returns The definitions, the name map and notes.
 * @throws {TypeError} when the format is unknown.
 * @throws {ToolExportError} naming each tool that cannot be exported in the format.
 *
 * @example Printing OpenAI tools
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { exportTools } from "./export_tools.ts";
 *
 * const tool = defineTool({
 *   name: "markets.get_price", title: "Get price", description: "Latest price.",
 *   category: "markets", input: z.object({ symbol: z.string() }),
 *   output: z.object({ price: z.number() }), examples: [{ input: { symbol: "ACME" } }],
 *   sideEffects: "none", execute: () => Promise.resolve({ price: 1 }),
 * });
 * const result = exportTools([tool], "openai");
 * const printed = JSON.parse(JSON.stringify(result));
 * assert.equal(printed.tools[0].function.name, "markets_get_price");
 * assert.deepEqual(printed.names, { "markets.get_price": "markets_get_price" });
 * ```
 */
export function exportTools(
  tools: readonly AnyTool[],
  format: ExportFormat,
  options: ExportToolsOptions = {},
): ExportResult {
  switch (format) {
    case "jsonschema": {
      const rule = { ...NAME_RULES.mcp, provider: "jsonschema" };
      const batch = exportEach(tools, rule, (tool) => exportJsonSchemaTool(tool), "jsonschema");
      return { format, tools: batch.items, names: batch.names, notes: [] };
    }
    case "openai": {
      const result = toOpenAITools(tools, options.openai);
      return { format, tools: result.tools, names: result.names, notes: result.nonStrict };
    }
    case "anthropic": {
      const { tools: exported, names } = toAnthropicTools(tools);
      return { format, tools: exported, names, notes: [] };
    }
    case "gemini": {
      const result = toGeminiFunctionDeclarations(tools);
      return { format, tools: result.functionDeclarations, names: result.names, notes: [] };
    }
    case "mcp": {
      // Our results are {ok, data, error}: that envelope is what an MCP server puts in
      // structuredContent, so by default the outputSchema describes it.
      const { tools: exported, names, notes } = toMcpTools(tools, {
        structuredContent: "envelope",
        ...options.mcp,
      });
      return { format, tools: exported, names, notes };
    }
    default: {
      throw new TypeError(
        `Cannot export tools as format must be one of ${
          EXPORT_FORMATS.join(", ")
        }: current value is ${String(format)}`,
      );
    }
  }
}
