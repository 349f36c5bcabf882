/**
 * The one tool registry: Mu's verbs (register, list, get) plus the tool-surface design's
 * `getToolsForTenant`. Tools are global or belong to one tenant, and may
 * arrive at run time (apps, OpenAPI/GraphQL imports); names are unique per
 * tenant and a tenant tool never shadows a global one.
 *
 * @module
 */
import type { z } from "zod";
import type { Tool } from "./define_tool.ts";
import { policyAllows, type TenantDirectory } from "./tenant_policy.ts";

/** A tool of any schema, as the registry stores it. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any, any>;

/** Options for {@link ToolRegistry.register}. */
export interface RegisterOptions {
  /** The org that owns the tool; global when absent. */
  tenantId?: string;
}

/** What `register` returns, to take the tool back out. */
export interface ToolHandle {
  /** The registered tool. */
  readonly tool: AnyTool;
  /** The owning tenant, or `null` for a global tool. */
  readonly tenantId: string | null;
  /** Removes the tool; later calls to it answer NOT_FOUND. */
  unregister(): void;
}

/** Filters for {@link ToolRegistry.list}. */
export interface ListOptions {
  /** Include this tenant's own tools. */
  tenantId?: string;
  /** Only tools of this category. */
  category?: string;
}

/** What changed, for {@link ToolRegistry.subscribe}: a global tool (`null`) or one tenant's. */
export interface RegistryChange {
  /** The tenant whose tools changed, or `null` when a global tool did (every tenant sees it). */
  readonly tenantId: string | null;
  /** The tool registered or removed. */
  readonly tool: string;
}

/** The registry. */
export class ToolRegistry {
  #global = new Map<string, AnyTool>();
  #byTenant = new Map<string, Map<string, AnyTool>>();
  #version = 0;
  #listeners = new Set<(change: RegistryChange) => void>();

  /**
   * Adds a tool.
   *
   * @throws {TypeError} when the name is taken for that tenant.
   */
  register<I extends z.ZodObject, O extends z.ZodType>(
    tool: Tool<I, O>,
    options: RegisterOptions = {},
  ): ToolHandle {
    const tenantId = options.tenantId ?? null;
    const taken = this.#global.has(tool.name) ||
      (tenantId !== null && this.#byTenant.get(tenantId)?.has(tool.name)) ||
      (tenantId === null &&
        [...this.#byTenant.values()].some((tools) => tools.has(tool.name)));
    if (taken) {
      throw new TypeError(
        `Cannot register tool as the name is taken: current value is "${tool.name}"`,
      );
    }
    const target = tenantId === null ? this.#global : this.#tenantMap(tenantId);
    target.set(tool.name, tool);
    this.#changed({ tenantId, tool: tool.name });
    return {
      tool,
      tenantId,
      unregister: () => {
        if (target.get(tool.name) === tool) {
          target.delete(tool.name);
          this.#changed({ tenantId, tool: tool.name });
        }
      },
    };
  }

  /** A tool by name: the tenant's own first, then the global ones. */
  get(name: string, options: { tenantId?: string | null } = {}): AnyTool | undefined {
    return this.#global.get(name) ??
      (options.tenantId ? this.#byTenant.get(options.tenantId)?.get(name) : undefined);
  }

  /** Global tools plus (with `tenantId`) that tenant's own, sorted by name. */
  list(options: ListOptions = {}): AnyTool[] {
    const tools = [...this.#global.values()];
    if (options.tenantId) tools.push(...(this.#byTenant.get(options.tenantId)?.values() ?? []));
    return tools
      .filter((tool) => !options.category || tool.category === options.category)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * What a tenant's users and agents may use: its visible tools filtered by
   * its tool policy, without internal (service-only) tools.
   */
  getToolsForTenant(tenantId: string, tenants: TenantDirectory): AnyTool[] {
    const policy = tenants.get(tenantId)?.policy ?? null;
    const own = this.#byTenant.get(tenantId);
    return this.list({ tenantId }).filter((tool) =>
      !tool.internal && policyAllows(policy, tool.name, { ownTool: own?.get(tool.name) === tool })
    );
  }

  /** Bumped on every change, so exports can be cached. */
  get version(): number {
    return this.#version;
  }

  /**
   * Calls `listener` after every register and unregister (e.g. so an MCP
   * session tells its client `notifications/tools/list_changed`). A listener
   * that throws does not stop the others.
   *
   * @returns a function that removes the listener.
   */
  subscribe(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(change: RegistryChange): void {
    this.#version++;
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch {
        // One listener's failure (a closed session) must not keep the change from the others.
      }
    }
  }

  #tenantMap(tenantId: string): Map<string, AnyTool> {
    let tools = this.#byTenant.get(tenantId);
    if (!tools) this.#byTenant.set(tenantId, tools = new Map());
    return tools;
  }
}
