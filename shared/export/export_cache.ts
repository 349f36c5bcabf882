/**
 * Exports kept by what they are made of rather than by which registry
 * asked. A tool whose definition is fixed by a content key (a generated
 * tool: the hash of its document and the stored plans' shape) has its
 * per-tool export kept under (that key, the tool's name, the format, the
 * provider name) for the whole process: registration's export checks, every
 * listing after them (MCP, `GET /tools?format=…`), a registration of the
 * same document again (another exposure, another tenant) and another
 * tenant's sync of it reuse one conversion, where each registry version used
 * to convert again. Tools without a key (the packs', those registered at run
 * time) are converted as before; a refusal is never kept, so it is made
 * again and named each time.
 *
 * @module
 */
import type { AnyTool } from "@shared/registry/registry.ts";

const keys = new WeakMap<AnyTool, string>();

/** Per-tool exports kept; the oldest used goes first (about 200 tools × 3 formats × 8 sources). */
export const EXPORT_CACHE_LIMIT = 5_000;
const entries = new Map<string, unknown>();

/**
 * Marks a tool's definition as fixed by `key`: two tools with the same key
 * and name export identically in every format. Only the tool's maker can
 * promise this (a generated tool's binding, whose name, description and
 * schemas come from the document alone).
 *
 * @param tool The tool.
 * @param key What its definition is made of (e.g. the document hash and plan shape).
 * @returns The tool.
 */
export function setExportKey<T extends AnyTool>(tool: T, key: string): T {
  keys.set(tool, key);
  return tool;
}

/** The content key a tool was marked with, if any. */
export function exportKeyOf(tool: AnyTool): string | undefined {
  return keys.get(tool);
}

/**
 * One tool's export in one format: kept when the tool has a content key,
 * made by `convert` otherwise or on a miss.
 *
 * @param tool The tool.
 * @param format The format's cache name (a format and the options that change its output).
 * @param providerName The tool's name in the format.
 * @param convert Makes the export; what it throws is not kept.
 * @returns The export, the same object for every hit (callers must not change it).
 */
export function cachedExport<T>(
  tool: AnyTool,
  format: string,
  providerName: string,
  convert: () => T,
): T {
  const content = keys.get(tool);
  if (content === undefined) return convert();
  const key = `${format}\n${providerName}\n${tool.name}\n${content}`;
  if (entries.has(key)) {
    const hit = entries.get(key) as T;
    entries.delete(key);
    entries.set(key, hit);
    return hit;
  }
  const made = convert();
  entries.set(key, made);
  if (entries.size > EXPORT_CACHE_LIMIT) entries.delete(entries.keys().next().value!);
  return made;
}

/** How many per-tool exports are kept (for tests and the bench). */
export function exportCacheSize(): number {
  return entries.size;
}
