/**
 * What both video tools check before anything else: the caller is staff of
 * the org they act in, and a provider is set up (no key, no job: the tool
 * says so rather than queue what nothing will render).
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/result.ts";
import type { ExecutionContext } from "@shared/registry/define_tool.ts";
import { VIDEO_PROVIDER } from "./video_provider.ts";

/** The org and staff member a video call acts for. */
export interface StudioCaller {
  orgId: string;
  userId: string;
}

/**
 * Checks the caller may use the studio and that it can render.
 *
 * @throws {ToolFailure} AUTH_ERROR for anyone but the org's staff, SERVICE_UNAVAILABLE without a provider.
 */
export async function studioCaller(ctx: ExecutionContext): Promise<StudioCaller> {
  const orgId = ctx.org_id;
  const userId = ctx.user_id;
  if (!orgId || !userId) throw new ToolFailure("AUTH_ERROR", "Only an org's staff make videos");
  const [staff] = await ctx.db.query<{ staff: boolean }>(
    "select exists (select 1 from private.my_staff_memberships v where v.org_id = $1) as staff",
    [orgId],
  );
  if (!staff?.staff) throw new ToolFailure("AUTH_ERROR", "Only the org's staff make videos");
  if (!ctx.services.get(VIDEO_PROVIDER).configured) {
    throw new ToolFailure(
      "SERVICE_UNAVAILABLE",
      "Video generation is not set up here (no provider key): no job was made",
    );
  }
  return { orgId, userId };
}
