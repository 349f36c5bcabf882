/**
 * What both video tools check before anything else: a person asks (the
 * descriptors' `auth: "staff"` has already refused anyone but the org's
 * staff), and a provider is set up (no key, no job: the tool says so rather
 * than queue what nothing will render).
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
 * Checks a staff member (not the service acting for no one) asks, and that
 * the studio can render.
 *
 * @throws {ToolFailure} AUTH_ERROR without a person, SERVICE_UNAVAILABLE without a provider.
 */
export function studioCaller(ctx: ExecutionContext): StudioCaller {
  const orgId = ctx.org_id;
  const userId = ctx.user_id;
  if (!orgId || !userId) throw new ToolFailure("AUTH_ERROR", "Only an org's staff make videos");
  if (!ctx.services.get(VIDEO_PROVIDER).configured) {
    throw new ToolFailure(
      "SERVICE_UNAVAILABLE",
      "Video generation is not set up here (no provider key): no job was made",
    );
  }
  return { orgId, userId };
}
