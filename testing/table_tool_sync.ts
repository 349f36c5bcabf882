/**
 * A small database-backed {@link TenantToolSync} for tests of what consumes
 * one (the MCP endpoint's cross-instance `list_changed`): a tenant's
 * run-time tools are rows of `private.test_runtime_tools`, each an echo
 * tool, and the version is the rows' count and newest sequence number. The
 * real one (generated tools) replaces it when the lead wires it.
 *
 * @module
 */
import { z } from "zod";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { ToolHandle, ToolRegistry } from "@shared/registry/registry.ts";
import type { TenantToolSync } from "@shared/registry/tenant_catalog.ts";

/** Creates the table (idempotent). */
export async function installTableToolSync(db: Queryable): Promise<void> {
  await db.query(`create table if not exists private.test_runtime_tools (
    seq bigserial primary key,
    org_id uuid not null,
    name text not null,
    unique (org_id, name)
  )`);
}

/** Adds a run-time tool for `orgId`, as another instance's registration would. */
export async function addRuntimeTool(db: Queryable, orgId: string, name: string): Promise<void> {
  await db.query(`insert into private.test_runtime_tools (org_id, name) values ($1, $2)`, [
    orgId,
    name,
  ]);
}

/** One instance's view of the table: it remembers what it registered, to take it back out. */
export function tableToolSync(db: Queryable): TenantToolSync {
  const handles = new Map<string, Map<string, ToolHandle>>();
  return {
    async version(orgId) {
      const [row] = await db.query<{ version: string }>(
        `select count(*)::text || ':' || coalesce(max(seq), 0)::text as version
           from private.test_runtime_tools where org_id = $1`,
        [orgId],
      );
      return row.version;
    },
    async sync(orgId: string, registry: ToolRegistry) {
      const rows = await db.query<{ name: string }>(
        `select name from private.test_runtime_tools where org_id = $1`,
        [orgId],
      );
      const held = handles.get(orgId) ?? new Map<string, ToolHandle>();
      handles.set(orgId, held);
      const wanted = new Set(rows.map((row) => row.name));
      let changed = false;
      for (const [name, handle] of held) {
        if (wanted.has(name)) continue;
        handle.unregister();
        held.delete(name);
        changed = true;
      }
      for (const name of wanted) {
        if (held.has(name)) continue;
        held.set(name, registry.register(echoTool(name), { tenantId: orgId }));
        changed = true;
      }
      return changed;
    },
  };
}

function echoTool(name: string) {
  return defineTool({
    name,
    title: `Echo (${name})`,
    description: "Echoes its text back (a run-time tool in tests).",
    category: "runtime",
    input: z.object({ text: z.string().max(100) }),
    output: z.object({ text: z.string() }),
    examples: [{ input: { text: "hi" } }],
    sideEffects: "none",
    usesDatabase: false,
    execute: (args) => Promise.resolve({ text: args.text }),
  });
}
