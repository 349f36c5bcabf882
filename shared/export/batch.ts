/**
 * One export batch: names every tool for a provider, then converts each tool
 * on its own, so a tool that cannot be converted is skipped with a reason and
 * never breaks the others (one rejected tool fails a whole provider request).
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";
import { NameMap, type NameRule } from "./names.ts";

/** A tool left out of an export, or exported in a weaker form, and why. */
export interface ExportIssue {
  /** Our tool name. */
  tool: string;
  /** What went wrong, for the person running the export. */
  reason: string;
}

/** What {@link exportEach} returns. */
export interface ExportBatch<T> {
  /** The converted tools, in input order. */
  items: T[];
  /** Our names ↔ provider names, covering every tool passed in (skipped ones too). */
  names: NameMap;
  /** Tools that could not be converted. */
  skipped: ExportIssue[];
}

/**
 * Converts each tool with `convert`, catching failures per tool.
 *
 * A tool whose name repeats an earlier tool's is skipped. Names are mapped
 * from the whole batch, so a tool's provider name does not depend on which
 * other tools fail to convert.
 *
 * @param tools The tools to export.
 * @param rule The provider's name rule.
 * @param convert Converts one tool, given its provider name; throws to skip it.
 * @returns The converted tools, the name map and the skipped tools.
 *
 * @example Skipping a tool that cannot be converted
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@shared/registry/define_tool.ts";
 * import { exportEach } from "./batch.ts";
 * import { NAME_RULES } from "./names.ts";
 *
 * const ping = defineTool({
 *   name: "system.ping", title: "Ping", description: "Checks the service.", category: "system",
 *   input: z.object({}), output: z.object({}), examples: [{ input: {} }], sideEffects: "none",
 *   execute: () => Promise.resolve({}),
 * });
 * const batch = exportEach([ping], NAME_RULES.openai, (tool, name) => {
 *   if (tool.name === "system.ping") throw new Error("not today");
 *   return name;
 * });
 * assert.deepEqual(batch.skipped, [{ tool: "system.ping", reason: "not today" }]);
 * assert.equal(batch.names.toProvider("system.ping"), "system_ping");
 * ```
 */
export function exportEach<T>(
  tools: readonly AnyTool[],
  rule: NameRule,
  convert: (tool: AnyTool, providerName: string) => T,
): ExportBatch<T> {
  const names = new NameMap(tools.map((tool) => tool.name), rule);
  const items: T[] = [];
  const skipped: ExportIssue[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      skipped.push({ tool: tool.name, reason: "duplicate tool name in this export" });
      continue;
    }
    seen.add(tool.name);
    try {
      // Every name passed in is mapped, so this lookup cannot miss.
      items.push(convert(tool, names.toProvider(tool.name)!));
    } catch (error) {
      skipped.push({
        tool: tool.name,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { items, names, skipped };
}
