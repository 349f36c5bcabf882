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
 * Every exporter converts tools one by one: a tool that cannot be exported is
 * listed in `skipped` with a reason and never breaks the others.
 *
 * @module
 */
export * from "./json_schema.ts";
export * from "./names.ts";
export * from "./batch.ts";
export * from "./openai_strict_rules.ts";
export * from "./openai.ts";
export * from "./anthropic.ts";
export * from "./gemini.ts";
export * from "./mcp.ts";
export * from "./export_tools.ts";
