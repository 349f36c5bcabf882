/**
 * The MCP definitions of the registry's tools (shared/export/mcp.ts, with
 * `structuredContent` the whole `{ok, data, error}` result), plus an icon
 * per category. Built once per tool and kept until the registry's version
 * moves, so a large catalog costs its export once per change, not per page.
 * A tool whose export fails is left out of the listing, with a logged
 * reason, rather than failing every page it is on.
 *
 * @module
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { exportLeavingOut } from "@shared/export/batch.ts";
import { toMcpTools } from "@shared/export/mcp.ts";
import type { AnyTool, ToolRegistry } from "@shared/registry/registry.ts";
import type { Logger } from "@shared/runtime/log.ts";

/** MCP tool definitions for a registry, cached by its version. */
export class McpToolCatalog {
  #registry: ToolRegistry;
  #log: Logger | undefined;
  #version = -1;
  #byTool = new WeakMap<AnyTool, McpTool>();
  #leftOut = new WeakSet<AnyTool>();

  /**
   * @param registry The registry whose tools are listed.
   * @param log Where a tool left out of the listing is reported.
   */
  constructor(registry: ToolRegistry, log?: Logger) {
    this.#registry = registry;
    this.#log = log;
  }

  /** The definitions of `tools`, in their order, less those MCP cannot carry. */
  definitions(tools: readonly AnyTool[]): McpTool[] {
    if (this.#version !== this.#registry.version) {
      this.#byTool = new WeakMap();
      this.#leftOut = new WeakSet();
      this.#version = this.#registry.version;
    }
    const missing = tools.filter((tool) => !this.#byTool.has(tool) && !this.#leftOut.has(tool));
    if (missing.length) {
      const { kept, result, leftOut } = exportLeavingOut(
        missing,
        (some) => toMcpTools(some, { structuredContent: "envelope" }),
        { format: "mcp", log: this.#log },
      );
      kept.forEach((tool, index) => {
        this.#byTool.set(tool, {
          ...result.tools[index],
          icons: [categoryIcon(tool.category)],
          // A long-running tool may be followed as a task; called plainly it answers its job id.
          ...(tool.task ? { execution: { taskSupport: "optional" as const } } : {}),
        });
      });
      const refused = new Set(leftOut.map((issue) => issue.tool));
      for (const tool of missing) if (refused.has(tool.name)) this.#leftOut.add(tool);
    }
    return tools.flatMap((tool) => this.#byTool.get(tool) ?? []);
  }
}

const ICON_COLOURS = ["#0b7a75", "#6a4c93", "#c05621", "#2b6cb0", "#2f855a", "#b83280"];

/**
 * A small SVG badge with the category's initial, as a data URI: every tool
 * has an icon a client can show without fetching anything from us.
 */
export function categoryIcon(category: string): NonNullable<McpTool["icons"]>[number] {
  let hash = 0;
  for (const char of category) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const colour = ICON_COLOURS[hash % ICON_COLOURS.length];
  const letter = (category.match(/[a-z]/i)?.[0] ?? "t").toUpperCase();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="7" fill="${colour}"/>` +
    `<text x="16" y="22" font-family="sans-serif" font-size="17" text-anchor="middle" ` +
    `fill="#fff">${letter}</text></svg>`;
  return {
    src: `data:image/svg+xml;base64,${btoa(svg)}`,
    mimeType: "image/svg+xml",
    sizes: ["any"],
  };
}
