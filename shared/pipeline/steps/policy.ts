/**
 * The policy step: the caller's tenant, agent and role may use the tool;
 * anonymous callers only the tools their tenant made public, and never
 * service tools (AUTH_ERROR).
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
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
  /** Whether a tool is a tenant's own (registered at run time), not a global one. @default never */
  isTenantTool?: (name: string) => boolean;
}

/** The step that refuses a caller the tool is not for (AUTH_ERROR). */
export function policyStep(options: PolicyStepOptions): CallStep {
  const { tenants, agents } = options;

  function refusal(call: Call): string | null {
    const tool = call.tool!;
    const context = call.context;
    if (!context.org_id) return "This call needs a tenant";
    const tenant = tenants.get(context.org_id);
    if (!tenant) return "Unknown tenant";
    if (!policyAllows(tenant.policy, tool.name)) {
      return "This tool is not enabled for your organisation";
    }
    if (context.agent_id) {
      if (!agents.get(tenant.slug, context.agent_id)) return "Unknown agent";
      const tenantTool = options.isTenantTool?.(tool.name) ?? false;
      if (!agents.allows(tenant.slug, context.agent_id, tool.name, { tenantTool })) {
        return `This agent may not use ${tool.name}`;
      }
    }
    const claims = call.request.caller.claims;
    const role = claims.role;
    if (tool.internal && role !== "service_role") return "This tool is not available";
    if (role === "anon" && (!policyIsPublic(tenant.policy, tool.name) || tool.auth === "service")) {
      return "Please sign in first";
    }
    if (tool.auth !== "none" && role === "authenticated" && !claims.sub) {
      return "Please sign in first";
    }
    return null;
  }

  return function policy(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const denied = refusal(call);
    return denied ? fail("AUTH_ERROR", denied) : next(call);
  };
}
