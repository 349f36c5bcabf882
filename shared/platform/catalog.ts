/**
 * The catalog's shared services, read from the pack list: one per pack (its
 * agents' names, description and example requests in en/rw/fr; its events
 * for automations) and one for the platform's own tools. The root is the
 * one place that reads the packs, so the catalog code names none.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { CatalogService } from "@shared/tools/catalog/catalog_entries.ts";

/** The service of the platform's own tools (search, analytics, PDFs, discovery). */
export const PLATFORM_SERVICE = "platform";

/**
 * The shared services of the catalog.
 *
 * @param packs The packs.
 * @returns One service per pack, then the platform's.
 */
export function catalogServices(packs: readonly Pack[]): CatalogService[] {
  const services: CatalogService[] = packs.map((pack) => {
    const names = pack.agents.map((agent) => agent.name);
    const first = pack.agents[0]?.description ?? "";
    return {
      name: pack.id,
      title: names.length ? names.join(", ") : titled(pack.id),
      summary: (first.split(/(?<=[.!?])\s/)[0] ?? "").slice(0, 300),
      keywords: pack.agents.flatMap((agent) => [
        agent.description,
        ...(agent.intents
          ? Object.values(agent.intents.phrases).flatMap((phrases) => [...phrases])
          : []),
      ]).join(" ").slice(0, 20000),
      kind: "pack",
      capabilities: { events: pack.events ?? [] },
    };
  });
  services.push({
    name: PLATFORM_SERVICE,
    title: "Platform",
    summary: "Records search, analytics, PDFs and tool discovery.",
    kind: "platform",
  });
  return services;
}

/**
 * Which service a tool belongs to: a shared tool's is the pack that brings
 * it, else the platform's; a tenant's own tool's is its namespace
 * (`crm.get_contact` → `crm`), else its category (an imported API's name),
 * as a service name.
 */
export function catalogServiceOf(
  packs: readonly Pack[],
): (tool: AnyTool, tenantId: string | null) => string {
  const owner = new Map<string, string>();
  for (const pack of packs) for (const tool of pack.tools) owner.set(tool.name, pack.id);
  return (tool, tenantId) => {
    if (tenantId === null) return owner.get(tool.name) ?? PLATFORM_SERVICE;
    const source = tool.name.includes(".") ? tool.name.split(".")[0] : tool.category;
    const name = source.toLowerCase().replace(/[^a-z0-9_]+/g, "_").replace(/^[^a-z]+/, "")
      .slice(0, 64);
    return name || "tenant_api";
  };
}

function titled(id: string): string {
  return id.split("_").map((word) => word[0].toUpperCase() + word.slice(1)).join(" ");
}
