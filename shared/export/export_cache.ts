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

/**
 * Bump when an exporter's output for the same tool changes: exports stored
 * in Postgres by an instance of an older deployment are then not read.
 */
export const EXPORT_FORMAT_VERSION = 1;

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
  if (!entries.has(key)) takeOffered(content, format);
  if (entries.has(key)) {
    const hit = entries.get(key) as T;
    entries.delete(key);
    entries.set(key, hit);
    return hit;
  }
  const made = convert();
  stats.converted++;
  entries.set(key, made);
  if (entries.size > EXPORT_CACHE_LIMIT) entries.delete(entries.keys().next().value!);
  return made;
}

/** How many per-tool exports are kept (for tests and the bench). */
export function exportCacheSize(): number {
  return entries.size;
}

const stats = { converted: 0 };

/** How many per-tool exports this process has converted itself (for tests and the bench). */
export function exportsConverted(): number {
  return stats.converted;
}

/**
 * Forgets every kept and offered export, as a new process starts (tests
 * and the bench play several instances in one process).
 */
export function forgetExports(): void {
  entries.clear();
  offered.clear();
  stats.converted = 0;
}

/**
 * Another instance's exports of one format under one content key, as JSON
 * text (`api_source_exports`), read only when this process first needs that
 * format: `{"<provider name>\n<tool name>": export}`.
 */
const offered = new Map<string, string>();

/**
 * Offers exports another instance made (and stored) for the tools of one
 * content key, in one format. They are parsed on the first export of that
 * format and key that this process would otherwise convert, so formats
 * nobody lists here cost nothing but the offer.
 *
 * @param content The tools' content key ({@link setExportKey}).
 * @param format The format's cache name.
 * @param text The exports as {@link exportsUnder} gave them, as JSON text.
 */
export function offerExports(content: string, format: string, text: string): void {
  const at = `${format}\n${content}`;
  offered.delete(at);
  offered.set(at, text);
  // Texts of formats nobody lists here would otherwise stay for good: the oldest offers go.
  while (offered.size > OFFERED_LIMIT) offered.delete(offered.keys().next().value!);
}

/** Offers kept unread at most (a source's formats, for about 40 sources). */
export const OFFERED_LIMIT = 200;

function takeOffered(content: string, format: string): void {
  const at = `${format}\n${content}`;
  const text = offered.get(at);
  if (text === undefined) return;
  offered.delete(at);
  let exports: Record<string, unknown>;
  try {
    exports = JSON.parse(text);
  } catch {
    return; // Not ours to trust: converted here instead.
  }
  if (!exports || typeof exports !== "object" || Array.isArray(exports)) return;
  for (const [names, made] of Object.entries(exports)) {
    const key = `${format}\n${names}\n${content}`;
    if (!entries.has(key)) entries.set(key, made);
  }
  while (entries.size > EXPORT_CACHE_LIMIT) entries.delete(entries.keys().next().value!);
}

/**
 * The exports this process keeps for some tools of one content key, by
 * format, as {@link offerExports} takes them (what an instance stores for
 * the others).
 *
 * @param content The tools' content key.
 * @param toolNames Only these tools' (one source's).
 * @returns Per format's cache name, `{"<provider name>\n<tool name>": export}`.
 */
export function exportsUnder(
  content: string,
  toolNames: ReadonlySet<string>,
): Map<string, Record<string, unknown>> {
  const byFormat = new Map<string, Record<string, unknown>>();
  const suffix = `\n${content}`;
  for (const [key, made] of entries) {
    if (!key.endsWith(suffix)) continue;
    const [format, providerName, toolName] = key.slice(0, -suffix.length).split("\n");
    if (!toolNames.has(toolName)) continue;
    let exports = byFormat.get(format);
    if (!exports) byFormat.set(format, exports = {});
    exports[`${providerName}\n${toolName}`] = made;
  }
  return byFormat;
}
