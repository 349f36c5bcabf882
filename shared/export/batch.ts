/**
 * One export batch: names every tool for a provider, then converts each tool.
 * A tool that cannot be converted fails the whole export with a
 * {@link ToolExportError} naming it: a dialect either carries every tool it
 * is given or nothing, so a model is never silently offered fewer tools than
 * the registry holds.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { cachedExport } from "./export_cache.ts";
import { NameMap, type NameRule } from "./names.ts";

/** A tool exported in a weaker form (or one that could not be exported), and why. */
export interface ExportIssue {
  /** Our tool name. */
  tool: string;
  /** What went wrong, for the person running the export. */
  reason: string;
}

/**
 * An export that could not include every tool: it names each tool left out
 * and why. Thrown rather than returned so no caller can drop a tool unseen.
 */
export class ToolExportError extends Error {
  /** The provider whose export failed (`openai`, `gemini`, …). */
  readonly provider: string;
  /** Each tool that could not be included, with the reason. */
  readonly issues: readonly ExportIssue[];

  /**
   * Creates the error.
   *
   * @param provider The provider's label.
   * @param issues The tools that could not be included.
   */
  constructor(provider: string, issues: readonly ExportIssue[]) {
    super(
      `Cannot export tools to ${provider} as ${
        issues.map((issue) => `${issue.tool} cannot be included: ${issue.reason}`).join("; ")
      }`,
    );
    this.name = "ToolExportError";
    this.provider = provider;
    this.issues = issues;
  }
}

/** What {@link exportEach} returns. */
export interface ExportBatch<T> {
  /** The converted tools, one per tool passed in, in input order. */
  items: T[];
  /** Our names ↔ provider names, covering every tool passed in. */
  names: NameMap;
}

/**
 * Converts each tool with `convert`; every tool is tried, then any failure
 * fails the batch.
 *
 * Names are mapped from the whole batch, so a tool's provider name does not
 * depend on which other tools are exported with it failing or not.
 *
 * @param tools The tools to export.
 * @param rule The provider's name rule.
 * @param convert Converts one tool, given its provider name; throws when it cannot.
 * @param cacheAs The format's cache name: a tool with a content key is converted once per
 *   process under it ({@link cachedExport}). Only for a `convert` whose result depends on the
 *   tool and its provider name alone.
 * @returns The converted tools and the name map.
 * @throws {ToolExportError} naming every tool that could not be converted, and
 * every name given twice.
 *
 * @example A tool that cannot be converted fails the export, by name
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { exportEach, ToolExportError } from "./batch.ts";
 * import { NAME_RULES } from "./names.ts";
 *
 * const ping = defineTool({
 *   name: "system.ping", title: "Ping", description: "Checks the service.", category: "system",
 *   input: z.object({}), output: z.object({}), examples: [{ input: {} }], sideEffects: "none",
 *   execute: () => Promise.resolve({}),
 * });
 * assert.deepEqual(exportEach([ping], NAME_RULES.openai, (_tool, name) => name).items, [
 *   "system_ping",
 * ]);
 * assert.throws(
 *   () => exportEach([ping], NAME_RULES.openai, () => { throw new Error("not today"); }),
 *   new ToolExportError("openai", [{ tool: "system.ping", reason: "not today" }]),
 * );
 * ```
 */
export function exportEach<T>(
  tools: readonly AnyTool[],
  rule: NameRule,
  convert: (tool: AnyTool, providerName: string) => T,
  cacheAs?: string,
): ExportBatch<T> {
  const names = new NameMap(tools.map((tool) => tool.name), rule);
  const items: T[] = [];
  const issues: ExportIssue[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      issues.push({ tool: tool.name, reason: "its name is given twice in this export" });
      continue;
    }
    seen.add(tool.name);
    try {
      // Every name passed in is mapped, so this lookup cannot miss.
      const providerName = names.toProvider(tool.name)!;
      items.push(
        cacheAs === undefined
          ? convert(tool, providerName)
          : cachedExport(tool, cacheAs, providerName, () => convert(tool, providerName)),
      );
    } catch (error) {
      issues.push({
        tool: tool.name,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (issues.length > 0) throw new ToolExportError(rule.provider, issues);
  return { items, names };
}

/** What {@link exportLeavingOut} returns. */
export interface ListableExport<T> {
  /** The tools exported, in input order: those passed in less those left out. */
  kept: AnyTool[];
  /** The export of `kept`. */
  result: T;
  /** Each tool left out, with the reason its export failed. */
  leftOut: ExportIssue[];
}

/**
 * Exports tools for a listing: a tool the format cannot carry is left out
 * (and reported in `leftOut`, for the caller to log) instead of failing the
 * whole listing. Registration proves every tool exportable before it is
 * listed; this is the listing's guard, not its check.
 *
 * @param tools The tools to list.
 * @param exportAll One format's export (e.g. `(tools) => toMcpTools(tools)`), which throws
 *   {@link ToolExportError} naming the tools it cannot carry.
 * @param report Where each tool left out is logged, with the format's name.
 * @returns The tools kept, their export and the tools left out.
 * @throws whatever `exportAll` throws other than {@link ToolExportError}.
 *
 * @example Leaving out a tool that cannot be exported
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { exportEach, exportLeavingOut } from "./batch.ts";
 * import { NAME_RULES } from "./names.ts";
 *
 * const ping = defineTool({
 *   name: "demo.ping", title: "Ping", description: "Answers pong.", category: "demo",
 *   input: z.object({}), output: z.object({ pong: z.boolean() }),
 *   examples: [{ input: {} }], sideEffects: "none",
 *   execute: () => Promise.resolve({ pong: true }),
 * });
 * const listed = exportLeavingOut([ping], (tools) =>
 *   exportEach(tools, NAME_RULES.openai, () => { throw new Error("not today"); }));
 * assert.deepEqual(listed.kept, []);
 * assert.deepEqual(listed.leftOut, [{ tool: "demo.ping", reason: "not today" }]);
 * ```
 */
export function exportLeavingOut<T>(
  tools: readonly AnyTool[],
  exportAll: (tools: readonly AnyTool[]) => T,
  report?: LeftOutReport,
): ListableExport<T> {
  try {
    return { kept: [...tools], result: exportAll(tools), leftOut: [] };
  } catch (error) {
    if (!(error instanceof ToolExportError)) throw error;
    const refused = new Set(error.issues.map((issue) => issue.tool));
    const kept = tools.filter((tool) => !refused.has(tool.name));
    for (const issue of error.issues) {
      report?.log?.warn("tool_export_left_out", {
        format: report.format,
        tool: issue.tool,
        reason: issue.reason.slice(0, 300),
      });
    }
    // Each tool is exported on its own, so the others export again as they did.
    return { kept, result: exportAll(kept), leftOut: [...error.issues] };
  }
}

/** Where {@link exportLeavingOut} reports a tool it left out (`tool_export_left_out`). */
export interface LeftOutReport {
  /** The format listed, named in the report. */
  format: string;
  /** Where staff read it; none, nobody is told. */
  log?: { warn(event: string, fields?: Record<string, unknown>): void };
}
