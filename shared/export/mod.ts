/**
 * Tool export: one zod definition, every dialect a model or client needs.
 *
 * - {@link toJsonSchema} / {@link exportJsonSchemaTool}: JSON Schema 2020-12,
 *   the source of the others.
 * - {@link toOpenAITools}: OpenAI function tools, strict mode when possible
 *   ({@link checkOpenAIStrict}); {@link fromOpenAIArguments} reads the calls.
 * - {@link toAnthropicTools}: Anthropic `input_schema` tools.
 * - {@link toGeminiFunctionDeclarations}: Gemini OpenAPI-subset declarations.
 * - {@link toMcpTools}: MCP `tools/list` entries with annotations.
 * - {@link NameMap}: reversible provider names (`markets.get_price` ↔ `markets_get_price`).
 * - {@link exportTools}: any of the above by format name, for the CLI.
 *
 * Every exporter carries every tool it is given, or throws a
 * {@link ToolExportError} naming each tool it cannot: no tool is left out
 * silently. Maps Gemini cannot describe are typed ({@link withMapShape}) or
 * sent as JSON text that the pipeline decodes ({@link decodeToolArguments}).
 *
 * @module
 */
export * from "./json_schema.ts";
export * from "./names.ts";
export * from "./batch.ts";
export * from "./export_cache.ts";
export * from "./map_shapes.ts";
export * from "./encoded_maps.ts";
export * from "./openai_strict_rules.ts";
export * from "./openai.ts";
export * from "./anthropic.ts";
export * from "./gemini.ts";
export * from "./mcp.ts";
export * from "./export_tools.ts";
