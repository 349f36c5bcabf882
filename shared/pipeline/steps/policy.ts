/**
 * The policy step: the caller's tenant, agent and role may use the tool;
 * anonymous callers only the tools their tenant made public, and never
 * service tools; staff tools (`auth: "staff"`) only the org's staff and the
 * service (AUTH_ERROR). Every refusal comes before the arguments are read,
 * so a caller the tool is not for gets no read-back, spends no rate token
 * and learns nothing of what it would have done.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { Database } from "@shared/db/types.ts";
import type { AgentDirectory } from "@shared/registry/agent_config.ts";
import {
  policyAllows,
  policyIsPublic,
  type TenantDirectory,
} from "@shared/registry/tenant_policy.ts";
import type { Call, CallStep, NextStep } from "../call.ts";

/** Options for {@link policyStep}. */
export interface PolicyStepOptions {
  /** Tenants and their policies. */
  tenants: Pick<TenantDirectory, "get">;
  /** Agents and their allowlists. */
  agents: Pick<AgentDirectory, "get" | "allows">;
  /** Where a staff tool's caller is looked up (as themselves, so RLS decides). */
  db: Pick<Database, "asCaller">;
  /** Whether a tool is a tenant's own (registered at run time), not a global one. @default never */
  isTenantTool?: (name: string) => boolean;
}

/** Why a staff tool refuses a signed-in user who is not the org's staff. */
export const STAFF_ONLY = "This tool is for the organisation's staff";

// One read as the caller: the membership table, not a cached copy, decides.
const STAFF_OF_ORG = "select 1 from private.my_staff_memberships v where v.org_id = $1";

/** The step that refuses a caller the tool is not for (AUTH_ERROR). */
export function policyStep(options: PolicyStepOptions): CallStep {
  const { tenants, agents, db } = options;

  function refusal(call: Call): string | null {
    const tool = call.tool!;
    const context = call.context;
    if (!context.org_id) return "This call needs a tenant";
    const tenant = tenants.get(context.org_id);
    if (!tenant) return "Unknown tenant";
    const tenantTool = options.isTenantTool?.(tool.name) ?? false;
    if (!policyAllows(tenant.policy, tool.name, { ownTool: tenantTool })) {
      return "This tool is not enabled for your organisation";
    }
    if (context.agent_id) {
      if (!agents.get(tenant.slug, context.agent_id)) return "Unknown agent";
      if (!agents.allows(tenant.slug, context.agent_id, tool.name, { tenantTool })) {
        return `This agent may not use ${tool.name}`;
      }
    }
    const claims = call.request.caller.claims;
    const role = claims.role;
    if (tool.internal && role !== "service_role") return "This tool is not available";
    if (
      role === "anon" &&
      (!policyIsPublic(tenant.policy, tool.name, { ownTool: tenantTool }) ||
        tool.auth === "service" ||
        tool.auth === "staff")
    ) {
      return "Please sign in first";
    }
    if (tool.auth !== "none" && role === "authenticated" && !claims.sub) {
      return "Please sign in first";
    }
    return null;
  }

  // A staff tool's signed-in caller: staff (or admin) of the org the call acts in, or refused.
  async function staffOnly(call: Call, next: NextStep): Promise<ToolResult> {
    const rows = await db.asCaller(
      call.request.caller.claims,
      (tx) => tx.query(STAFF_OF_ORG, [call.context.org_id]),
    );
    return rows.length > 0 ? await next(call) : fail("AUTH_ERROR", STAFF_ONLY);
  }

  return function policy(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const denied = refusal(call);
    if (denied) return fail("AUTH_ERROR", denied);
    // The service acts for the org (sweeps, automations); everyone else must be its staff.
    if (call.tool!.auth === "staff" && call.request.caller.claims.role !== "service_role") {
      return staffOnly(call, next);
    }
    return next(call);
  };
}
