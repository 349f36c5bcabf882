/**
 * Two-step tool discovery inside one model turn, shared by every model loop
 * (the customers' agent graph and the staff desk) so both offer, refuse and
 * bind tools the same way.
 *
 * The model starts the turn with the discovery tools only (list, search,
 * fetch). Each tool whose schema a successful fetch answered is offered for
 * the rest of the turn, but only if it is among the agent's tools (its
 * allowlist ∩ the tenant's policy): a fetch never widens what the agent may
 * call. A call to a tool not fetched this turn is refused before it runs, and
 * the model is told how to get there.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { DISCOVERY_TOOLS } from "@shared/tools/catalog/catalog_tools.ts";

/** How an agent's model discovers its tools. */
export interface ToolDiscovery {
  /** The tools the model starts the turn with. */
  start: readonly string[];
  /** The tool whose answer (`data.tools[].name`) binds tools for the rest of the turn. */
  fetch: string;
}

/**
 * How an agent of the agent file discovers: with the platform's discovery
 * tools when its entry says `tool_discovery: true`, else not at all (null).
 */
export function discoveryOf(agent: { toolDiscovery?: boolean } | undefined): ToolDiscovery | null {
  return agent?.toolDiscovery
    ? { start: Object.values(DISCOVERY_TOOLS), fetch: DISCOVERY_TOOLS.fetch }
    : null;
}

/** The model steps discovery may spend (search, fetch) before the agent's own work. */
export const DISCOVERY_STEPS = 2;

// The names a fetch answered: `{ok: true, data: {tools: [{name}]}}`.
function fetchedNames(result: ToolResult): string[] {
  if (!result.ok) return [];
  const tools = (result.data as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools)
    ? tools.flatMap((tool) => typeof tool?.name === "string" ? [tool.name as string] : [])
    : [];
}

/**
 * One turn's tool binding: what the model is offered, which calls run, and
 * what a fetch adds. Without discovery it offers every tool and refuses none.
 *
 * @example Binding a fetched tool
 * ```ts
 * import { DiscoveryTurn } from "@shared/agent/tool_discovery.ts";
 * const turn = new DiscoveryTurn([], { start: ["search_tools"], fetch: "fetch_tool_schemas" });
 * turn.refusal("property_search"); // VALIDATION_ERROR: fetch its schema first
 * ```
 */
export class DiscoveryTurn {
  #tools: readonly AnyTool[];
  #discovery: ToolDiscovery | null;
  #bound: Set<string>;

  /**
   * @param tools The agent's tools (its allowlist ∩ the tenant's policy), discovery tools included.
   * @param discovery How the agent discovers, or null to offer every tool.
   */
  constructor(tools: readonly AnyTool[], discovery: ToolDiscovery | null) {
    this.#tools = tools;
    this.#discovery = discovery;
    this.#bound = new Set(discovery?.start ?? []);
  }

  /** Whether the turn discovers (else every tool is offered). */
  get discovers(): boolean {
    return this.#discovery !== null;
  }

  /** Model steps the turn may take: `base`, plus the discovery steps when it discovers. */
  maxSteps(base: number): number {
    return this.#discovery ? base + DISCOVERY_STEPS : base;
  }

  /** The tools to offer the model at this step. */
  offered(): AnyTool[] {
    const discovery = this.#discovery;
    return discovery ? this.#tools.filter((tool) => this.#bound.has(tool.name)) : [...this.#tools];
  }

  /**
   * The answer to a call that must not run (its schema was not fetched this
   * turn), or null when it may run.
   */
  refusal(name: string): ToolResult | null {
    if (!this.#discovery || this.#bound.has(name)) return null;
    return fail("VALIDATION_ERROR", `Fetch its schema first with ${this.#discovery.fetch}`, {
      fields: [{ path: "tool", message: `not fetched this turn: ${name}` }],
    });
  }

  /** Takes note of a call's result: a fetch binds the tools it answered. */
  observe(name: string, result: ToolResult): void {
    if (!this.#discovery || name !== this.#discovery.fetch) return;
    for (const fetched of fetchedNames(result)) this.#bound.add(fetched);
  }
}
