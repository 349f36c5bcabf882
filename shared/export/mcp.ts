/**
 * MCP `tools/list` entries: name, title, description, 2020-12 `inputSchema`
 * (object root), optional `outputSchema`, and `annotations` mapped from our
 * descriptor.
 *
 * The MCP SDK client validates every `structuredContent` against the tool's
 * `outputSchema` — error results included — so the schema must describe what
 * the server really puts there. With `structuredContent: "data"` (the
 * default) it is the `data` of a successful call, and is omitted when that is
 * not an object (MCP requires an object root). With `"envelope"` it is our
 * `{ ok, data?, error? }` result, which is always an object; use it when the
 * server sends the whole result as `structuredContent`.
 *
 * @module
 */
import { z } from "zod";
import type { Tool as McpTool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { ERROR_CODES, type ErrorCode } from "@shared/contract/errors.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { exportEach, type ExportIssue } from "./batch.ts";
import {
  type JsonSchema,
  presetJsonSchemaOf,
  toJsonSchema,
  zodToJsonSchema,
} from "./json_schema.ts";
import { NAME_RULES, type NameMap } from "./names.ts";
import { closeEmptyObject, providerInputSchema } from "./_util.ts";

/** What a tool's `structuredContent` holds, which decides its `outputSchema`. */
export type McpStructuredContent = "data" | "envelope";

/** Options for {@link toMcpTools}. */
export interface ToMcpToolsOptions {
  /** What the server puts in `structuredContent`. @default "data" */
  structuredContent?: McpStructuredContent;
}

/** What {@link toMcpTools} returns. */
export interface McpExport {
  /** The tools, in input order. */
  tools: McpTool[];
  /** Our names ↔ MCP names (ours are already valid, so this is the identity). */
  names: NameMap;
  /** Tools exported without an `outputSchema` (or with a looser one), and why. */
  notes: ExportIssue[];
}

/**
 * Converts tools to MCP tool definitions.
 *
 * @param tools The tools to export.
 * @param options What `structuredContent` holds.
 * @returns Every tool, the name map and notes.
 * @throws {ToolExportError} naming each tool whose input zod cannot represent.
 *
 * @example A read-only tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { toMcpTools } from "./mcp.ts";
 *
 * const tool = defineTool({
 *   name: "markets.get_price", title: "Get price", description: "Latest price.",
 *   category: "markets", input: z.object({ symbol: z.string() }),
 *   output: z.object({ price: z.number() }), examples: [{ input: { symbol: "ACME" } }],
 *   sideEffects: "none", execute: () => Promise.resolve({ price: 1 }),
 * });
 * const [mcp] = toMcpTools([tool]).tools;
 * assert.equal(mcp.name, "markets.get_price");
 * assert.equal(mcp.annotations?.readOnlyHint, true);
 * assert.equal(mcp.outputSchema?.type, "object");
 * ```
 */
export function toMcpTools(tools: readonly AnyTool[], options: ToMcpToolsOptions = {}): McpExport {
  const structuredContent = options.structuredContent ?? "data";
  if (structuredContent !== "data" && structuredContent !== "envelope") {
    throw new TypeError(
      `Cannot export MCP tools as structuredContent must be "data" or "envelope": current value is ${structuredContent}`,
    );
  }
  // Each tool's entry and its note are kept together (a generated tool's, per process and
  // through `api_source_exports` for other instances), so a kept entry still says its note.
  const batch = exportEach(tools, NAME_RULES.mcp, (tool, name): McpEntry => {
    const inputSchema = closeEmptyObject(providerInputSchema(tool));
    const output = structuredContent === "data"
      ? dataOutputSchema(tool)
      : envelopeOutputSchema(tool);
    const mcp: McpTool = {
      name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchema as McpTool["inputSchema"],
      ...(output.schema ? { outputSchema: output.schema as McpTool["outputSchema"] } : {}),
      annotations: mcpAnnotations(tool),
    };
    return output.note ? { tool: mcp, note: output.note } : { tool: mcp };
  }, `mcp:${structuredContent}`);
  const notes: ExportIssue[] = [];
  batch.items.forEach((entry, index) => {
    if (entry.note) notes.push({ tool: tools[index].name, reason: entry.note });
  });
  return { tools: batch.items.map((entry) => entry.tool), names: batch.names, notes };
}

/**
 * MCP annotations from our descriptor.
 *
 * `readOnlyHint`: `sideEffects` is `none` or `read-only-nav`.
 * `destructiveHint`: writes that are irreversible, i.e. need confirmation.
 * `idempotentHint`: `idempotent`. `openWorldHint`: `openWorld`.
 *
 * @param tool The tool.
 * @returns The annotations, with `title`.
 */
export function mcpAnnotations(tool: AnyTool): ToolAnnotations {
  const readOnly = tool.sideEffects === "none" || tool.sideEffects === "read-only-nav";
  return {
    title: tool.title,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && tool.confirmRequired,
    idempotentHint: tool.idempotent,
    openWorldHint: tool.openWorld,
  };
}

/** One tool's MCP entry and why part of it was left open, if it was. */
interface McpEntry {
  tool: McpTool;
  note?: string;
}

interface OutputChoice {
  schema?: JsonSchema;
  note?: string;
}

/** The `data` schema, when it has an object root. */
function dataOutputSchema(tool: AnyTool): OutputChoice {
  let document: JsonSchema;
  try {
    document = toJsonSchema(tool, { io: "output" });
  } catch (error) {
    return { note: `outputSchema omitted: ${error instanceof Error ? error.message : error}` };
  }
  const { $schema: _dialect, title: _title, description: _description, ...schema } = document;
  if (schema.type !== "object") {
    return {
      note: `outputSchema omitted: output is not an object (MCP needs an object root): type is ${
        JSON.stringify(schema.type)
      }`,
    };
  }
  return { schema };
}

/** Error half of the envelope, after the contract's `ToolError`. */
const TOOL_ERROR = z.looseObject({
  code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
  msg: z.string(),
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  confirmation: z.object({ token: z.string(), summary: z.string(), expires_at: z.string() })
    .optional(),
});

/** The `{ ok, data?, error? }` schema around the tool's output. */
function envelopeOutputSchema(tool: AnyTool): OutputChoice {
  try {
    return { schema: envelopeSchema(tool.output) };
  } catch (error) {
    return {
      schema: envelopeSchema(z.unknown()),
      note: `outputSchema data left open: ${error instanceof Error ? error.message : error}`,
    };
  }
}

function envelopeSchema(data: z.ZodType): JsonSchema {
  const preset = presetJsonSchemaOf(data, { freeze: false });
  if (preset) {
    // A stored schema (generated tools) goes in as it is: wrapping it in zod would build it. It is
    // placed by reference and never changed here, so it is not frozen for this.
    const { $defs, ...body } = preset;
    const envelope = openEnvelope();
    (envelope.properties as JsonSchema).data = body;
    if ($defs) {
      envelope.$defs = { ...(envelope.$defs as JsonSchema | undefined), ...$defs as JsonSchema };
    }
    return envelope;
  }
  return openAsTrue(zodToJsonSchema(
    z.looseObject({ ok: z.boolean(), data: data.optional(), error: TOOL_ERROR.optional() }),
    { io: "output" },
  )) as JsonSchema;
}

/**
 * The envelope around any data, as `envelopeSchema(z.unknown())` converts it
 * from zod (`mcp_test.ts` checks they are equal), written out: each stored
 * (generated) tool's listing wraps its schema in a fresh one, and converting
 * it from zod on a new instance's first listing, then parsing a copy per
 * tool, was a fifth of that listing. Only the root and its `properties` are
 * made per tool (`data` is the tool's); `ok` and `error` are one frozen
 * object shared by every envelope, as the frozen stored schemas are.
 */
function openEnvelope(): JsonSchema {
  return {
    type: "object",
    properties: { ok: ENVELOPE_OK, data: {}, error: ENVELOPE_ERROR },
    required: ["ok"],
    additionalProperties: true,
  };
}

const ENVELOPE_OK: JsonSchema = Object.freeze({ type: "boolean" });

/** The contract's error, as {@link TOOL_ERROR} converts (deeply frozen: shared by every listing). */
const ENVELOPE_ERROR: JsonSchema = (() => {
  const closed = (properties: JsonSchema, required: string[]): JsonSchema => ({
    type: "object",
    properties,
    required,
    additionalProperties: false,
  });
  const error: JsonSchema = {
    type: "object",
    properties: {
      code: { type: "string", enum: Object.keys(ERROR_CODES) },
      msg: { type: "string" },
      fields: {
        type: "array",
        items: closed({ path: { type: "string" }, message: { type: "string" } }, [
          "path",
          "message",
        ]),
      },
      confirmation: closed({
        token: { type: "string" },
        summary: { type: "string" },
        expires_at: { type: "string" },
      }, ["token", "summary", "expires_at"]),
    },
    required: ["code", "msg"],
    additionalProperties: true,
  };
  const freeze = (value: unknown): void => {
    if (value && typeof value === "object") {
      Object.freeze(value);
      for (const item of Object.values(value)) freeze(item);
    }
  };
  freeze(error);
  return error;
})();

/**
 * `additionalProperties: {}` (zod's spelling of an open object) as `true`:
 * the same contract, which schema linters (the MCP Inspector's portability
 * check) read as deliberate rather than as a schema that forgot its keywords.
 */
function openAsTrue(schema: unknown, inProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => openAsTrue(item));
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const empty = typeof value === "object" && value !== null && !Array.isArray(value) &&
      Object.keys(value).length === 0;
    // A property that happens to be named additionalProperties is a property, not the keyword.
    out[key] = !inProperties && key === "additionalProperties" && empty
      ? true
      : openAsTrue(value, !inProperties && key === "properties");
  }
  return out;
}
