/**
 * Who a property tool acts as: every one of them acts as a person of a tenant.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/mod.ts";
import type { ExecutionContext } from "@shared/registry/define_tool.ts";

/** Options for {@link member}. */
export interface MemberOptions {
  /** The service acting for the org (a sweep): an org and no person. @default false */
  service?: boolean;
}

/**
 * The caller's org and person (the service's calls: the org, and an empty person).
 *
 * @throws {ToolFailure} AUTH_ERROR for a caller without them (an anonymous one).
 */
export function member(
  ctx: Pick<ExecutionContext, "org_id" | "user_id">,
  options: MemberOptions = {},
): { orgId: string; userId: string } {
  if (options.service && ctx.org_id) return { orgId: ctx.org_id, userId: ctx.user_id ?? "" };
  if (!ctx.org_id || !ctx.user_id) {
    throw new ToolFailure("AUTH_ERROR", "Sign in as a member of the tenant first");
  }
  return { orgId: ctx.org_id, userId: ctx.user_id };
}
