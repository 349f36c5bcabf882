/**
 * The tools a caller may see: the tenant's (or one of its agents') tools
 * under its policy, and for anonymous callers only those the tenant made
 * public; staff tools (`auth: "staff"`) only for the org's staff and the
 * service. The tools function's list and the MCP endpoint's `tools/list`
 * both answer from here, so the two surfaces never disagree.
 *
 * @module
 */
import { fail, type ToolFail } from "@shared/contract/mod.ts";
import { type Caller, seesStaffTools } from "@shared/auth/caller.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { policyIsPublic } from "@shared/registry/tenant_policy.ts";

/** Options for {@link callerTools}. */
export interface CallerToolsOptions {
  /** Only what this agent of the caller's tenant may use. */
  agent?: string;
}

/** What {@link callerTools} answers: the tools, or why none can be listed. */
export type CallerTools = { ok: true; tools: AnyTool[] } | ToolFail;

/**
 * Lists what `caller` may use, sorted by name.
 *
 * @param platform The platform.
 * @param caller The verified caller.
 * @param options An agent to narrow to.
 * @returns AUTH_ERROR without an org; NOT_FOUND for an agent the tenant does not run.
 */
export function callerTools(
  platform: Platform,
  caller: Caller,
  options: CallerToolsOptions = {},
): CallerTools {
  const orgId = caller.org_id;
  if (!orgId) return fail("AUTH_ERROR", "Name an org in x-org-id");
  const { agent } = options;
  if (agent) {
    const tenant = platform.tenants.get(orgId)?.slug;
    if (!tenant || !platform.agents.get(tenant, agent)) return fail("NOT_FOUND", "Unknown agent");
  }
  const tools = agent ? platform.getToolsForAgent(agent, orgId) : platform.getToolsForTenant(orgId);
  if (caller.claims.role !== "anon") {
    // The caller's memberships as resolved; the policy step reads them afresh on a call.
    if (seesStaffTools(caller)) return { ok: true, tools };
    return { ok: true, tools: tools.filter((tool) => tool.auth !== "staff") };
  }
  // Anonymous callers see the tools their tenant made public, never a service tool.
  const policy = platform.tenants.get(orgId)?.policy ?? null;
  return {
    ok: true,
    tools: tools.filter((tool) =>
      tool.auth !== "service" && tool.auth !== "staff" && policyIsPublic(policy, tool.name)
    ),
  };
}
