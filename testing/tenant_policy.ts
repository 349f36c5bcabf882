/**
 * Test helper: a tenant's tool policy widened for a probe. Isolation tests
 * ask "may another tenant that runs this tool reach this tenant's rows?";
 * Beaver's seeded allowlist refuses most tools before any row is read, so
 * such a probe first enables the tools it calls for the other tenant.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { TenantDirectory } from "@shared/registry/tenant_policy.ts";

/**
 * Adds `tools` to `org`'s `enabled_tools` (when its policy has that list)
 * and reloads `tenants` so the pipeline sees it at once.
 */
export async function enableTools(
  db: Queryable,
  tenants: TenantDirectory,
  org: string,
  tools: readonly string[],
): Promise<void> {
  await db.query(
    `update public.orgs set tool_policy = jsonb_set(tool_policy, '{enabled_tools}',
       (tool_policy -> 'enabled_tools') || $2::text::jsonb)
     where id = $1 and jsonb_typeof(tool_policy -> 'enabled_tools') = 'array'`,
    [org, JSON.stringify(tools)],
  );
  await tenants.load(db);
}
