/**
 * `broadcast_schedule` and `broadcast_cancel` (seed 000 G): staff schedule a
 * WhatsApp campaign from a template recorded as approved, with exactly its
 * variables, to the people with opt-in proof, at a time moved out of the
 * org's quiet hours; and cancel one, which withdraws what is still queued.
 *
 * Both are staff tools (`auth: "staff"`: anyone else is refused before
 * the arguments are read) run as the caller, and the tables let only staff
 * of the org read or write them (RLS). Both need
 * the caller's confirmation, whose read-back names the template, the reach
 * and the adjusted time. The sender (`broadcast_send_due`) does the rest.
 *
 * @module
 */
import { z } from "zod";
import { dateTime, text, ToolFailure } from "@shared/contract/mod.ts";
import { type Language, LANGUAGES } from "@shared/contract/language.ts";
import type { Queryable } from "@shared/db/types.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { defineTool, type ToolJobStatus } from "@shared/registry/define_tool.ts";
import { audienceSchema, ELIGIBLE_SQL, languageFilter } from "./audience.ts";
import { DEFAULT_QUIET_HOURS, nextAllowedTime, type QuietHours } from "./quiet_hours.ts";
import { say } from "./texts.ts";

/** How far in the past `when` may be (a clock a little behind): later, it is refused. */
const PAST_GRACE_MS = 5 * 60_000;

const VARIABLE_NAME = /^[a-z0-9_]{1,40}$/;

const language = z.enum(LANGUAGES).optional().describe(
  "The staff member's language, for the confirmation's read-back.",
);

const input = z.object({
  template_id: z.uuid().describe("An approved template of the org (broadcast_templates.id)."),
  audience: audienceSchema,
  when: dateTime().describe(
    "When to send, with its offset (Kigali is +02:00); quiet hours move it to the next allowed time.",
  ),
  variables: z.record(
    z.string().regex(VARIABLE_NAME, "must be a variable name (a-z, 0-9, _)"),
    text({ max: 1024 }),
  ).optional().describe("A value for each of the template's variables, by name; no others."),
  language,
});

const output = z.object({
  campaign_id: z.uuid(),
  estimated_reach: z.number().int().min(0).describe(
    "People with opt-in proof and no opt-out that the audience selects.",
  ),
  scheduled_at: z.string().describe("When it goes out, after quiet hours (ISO 8601)."),
  requested_at: z.string().describe("When it was asked for (ISO 8601)."),
  moved_by_quiet_hours: z.boolean(),
  template: z.object({ name: z.string(), language: z.enum(LANGUAGES) }),
});

/** A campaign's state as `broadcast_status` shows it, as a task's (`null`: not shown). */
export function campaignState(
  data: unknown,
): { status: ToolJobStatus; message?: string } | null {
  const [campaign] = (data as { campaigns?: { status: string; stop_reason: string | null }[] })
    .campaigns ?? [];
  if (!campaign) return null;
  switch (campaign.status) {
    case "done":
      return { status: "completed" };
    case "cancelled":
      return { status: "cancelled" };
    case "stopped":
      return { status: "failed", message: campaign.stop_reason ?? "Stopped" };
    default:
      return { status: "working", message: campaign.status };
  }
}

interface TemplateRow {
  id: string;
  name: string;
  language: Language;
  variables: string[];
  meta_status: string;
}

/** The org's quiet hours: its own row, else 21:00–08:00 Africa/Kigali. */
export async function quietHoursOf(db: Queryable, orgId: string): Promise<QuietHours> {
  const [row] = await db.query<{ quiet_start: string; quiet_end: string; time_zone: string }>(
    "select quiet_start::text, quiet_end::text, time_zone from public.broadcast_settings where org_id = $1",
    [orgId],
  );
  return row
    ? {
      start: row.quiet_start.slice(0, 5),
      end: row.quiet_end.slice(0, 5),
      timeZone: row.time_zone,
    }
    : DEFAULT_QUIET_HOURS;
}

interface Plan {
  template: TemplateRow;
  /** When it would go but for quiet hours: the time asked, or now when that has just passed. */
  start: Date;
  reach: number;
  requestedAt: Date;
  sendAt: Date;
}

// Everything the schedule decides, read as the caller: the same for the read-back and the call.
async function plan(
  db: Queryable,
  orgId: string,
  args: z.output<typeof input>,
  now: Date | null,
): Promise<Plan> {
  const [template] = await db.query<TemplateRow>(
    `select id, name, language, variables, meta_status from public.broadcast_templates
     where org_id = $1 and id = $2`,
    [orgId, args.template_id],
  );
  if (!template) {
    throw new ToolFailure("NOT_FOUND", "No such template in this org", {
      fields: [{ path: "template_id", message: "no template of this org has this id" }],
    });
  }
  if (template.meta_status !== "approved") {
    throw new ToolFailure("VALIDATION_ERROR", "Only approved templates can be broadcast", {
      fields: [{
        path: "template_id",
        message: `the template is ${template.meta_status}, not approved`,
      }],
    });
  }
  const given = args.variables ?? {};
  const fields = [
    ...template.variables.filter((name) => !(name in given)).map((name) => ({
      path: `variables.${name}`,
      message: `missing: the template "${template.name}" needs ${name}`,
    })),
    ...Object.keys(given).filter((name) => !template.variables.includes(name)).map((name) => ({
      path: `variables.${name}`,
      message: `not a variable of the template "${template.name}" (it has ${
        template.variables.join(", ") || "none"
      })`,
    })),
  ];
  if (fields.length) {
    throw new ToolFailure("VALIDATION_ERROR", "The variables do not match the template", {
      fields,
    });
  }
  const requestedAt = new Date(args.when);
  if (now && requestedAt.getTime() < now.getTime() - PAST_GRACE_MS) {
    throw new ToolFailure("VALIDATION_ERROR", "A broadcast cannot be scheduled in the past", {
      fields: [{ path: "when", message: "must not be in the past" }],
    });
  }
  const start = now && requestedAt.getTime() < now.getTime() ? now : requestedAt;
  const sendAt = nextAllowedTime(start, await quietHoursOf(db, orgId));
  const [count] = await db.query<{ reach: number }>(
    `select count(*)::int as reach from (${ELIGIBLE_SQL}) eligible`,
    [orgId, languageFilter(args.audience)],
  );
  return { template, reach: count.reach, requestedAt, start, sendAt };
}

/** The `broadcast_schedule` tool. */
export const broadcastSchedule = defineTool({
  name: "broadcast_schedule",
  title: "Schedule a WhatsApp broadcast",
  description: "Staff only: send a message to all customers who opted in (or those of one " +
    "language) as a WhatsApp campaign from one of the org's approved templates, with a " +
    "value for each of its variables, " +
    "at a time; quiet hours (default 21:00–08:00 Kigali) move it " +
    "to the next allowed time. Returns the campaign, its estimated reach and when it goes " +
    "out. Needs the caller's confirmation.",
  category: "marketing",
  input,
  output,
  examples: [{
    input: {
      template_id: "5b3a8f0e-2c1d-4e6f-9a7b-0c1d2e3f4a5b",
      audience: { segment: "opted_in", filters: { language: "en" } },
      when: "2026-12-05T18:00:00+02:00",
      variables: { first_name: "Aline", offer: "10% off" },
    },
  }],
  sideEffects: "writes.campaign",
  auth: "staff",
  confirmRequired: true,
  latencyBudgetMs: 400,
  // The campaign row is the job: an MCP client may follow it as a task until it is sent.
  task: {
    jobId: (data) => data.campaign_id,
    statusTool: "broadcast_status",
    statusArgs: (campaignId) => ({ campaign_id: campaignId }),
    state: campaignState,
    // tasks/list: a page's campaigns in one status call.
    statusMany: {
      args: (campaignIds) => ({ campaign_ids: campaignIds }),
      split: (data) =>
        new Map(
          ((data as { campaigns?: { campaign_id: string }[] }).campaigns ?? [])
            .map((campaign) => [campaign.campaign_id, { campaigns: [campaign] }]),
        ),
    },
    pollIntervalMs: 60_000,
    // tasks/cancel: a campaign not yet sent is cancelled (its confirmation asked for).
    cancel: { tool: "broadcast_cancel", args: (campaignId) => ({ campaign_id: campaignId }) },
  },
  async confirmSummary(args, context) {
    const lang = args.language ?? "en";
    try {
      const [org] = await context.read.query<{ org_id: string }>(
        "select org_id from public.broadcast_templates where id = $1",
        [args.template_id],
      );
      if (!org) throw new Error("template not readable");
      // The read-back has no clock: it shows the time asked for, after quiet hours; the call
      // itself refuses a time in the past, on the platform's clock.
      const planned = await plan(context.read, org.org_id, args, null);
      return summaryOf(planned, lang);
    } catch {
      return say("scheduleSummary", lang, {
        template: args.template_id,
        language: "?",
        reach: "?",
        when: formatKigaliDate(args.when, lang, { time: true }),
        moved: "",
      });
    }
  },
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const planned = await plan(ctx.db, orgId, args, ctx.services.now());
    const [campaign] = await ctx.db.query<{ id: string }>(
      `insert into public.broadcast_campaigns
         (org_id, template_id, variables, audience, requested_at, send_at, estimated_reach)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [
        orgId,
        planned.template.id,
        args.variables ?? {},
        args.audience,
        planned.requestedAt.toISOString(),
        planned.sendAt.toISOString(),
        planned.reach,
      ],
    );
    return {
      campaign_id: campaign.id,
      estimated_reach: planned.reach,
      scheduled_at: planned.sendAt.toISOString(),
      requested_at: planned.requestedAt.toISOString(),
      moved_by_quiet_hours: planned.sendAt.getTime() > planned.start.getTime(),
      template: { name: planned.template.name, language: planned.template.language },
    };
  },
});

function summaryOf(planned: Plan, lang: Language): string {
  const moved = planned.sendAt.getTime() > planned.start.getTime();
  return say("scheduleSummary", lang, {
    template: planned.template.name,
    language: planned.template.language,
    reach: planned.reach,
    when: formatKigaliDate(planned.sendAt, lang, { time: true }),
    moved: moved
      ? say("movedForQuietHours", lang, {
        asked: formatKigaliDate(planned.requestedAt, lang, { time: true }),
      })
      : "",
  });
}

type CampaignStatus = "scheduled" | "sending" | "done" | "cancelled" | "stopped";

const cancelOutput = z.object({
  campaign_id: z.uuid(),
  status: z.enum(["cancelled", "done", "stopped"]),
  withdrawn: z.number().int().min(0).describe("Queued messages withdrawn before they left."),
  changed: z.boolean().describe("False when the campaign had already ended."),
});

/** The `broadcast_cancel` tool. */
export const broadcastCancel = defineTool({
  name: "broadcast_cancel",
  title: "Cancel a WhatsApp broadcast",
  description: "Staff only: cancel a scheduled or sending campaign; its messages not yet sent " +
    "are withdrawn at once. Needs the caller's confirmation.",
  category: "marketing",
  input: z.object({ campaign_id: z.uuid(), language }),
  output: cancelOutput,
  examples: [{ input: { campaign_id: "5b3a8f0e-2c1d-4e6f-9a7b-0c1d2e3f4a5b" } }],
  sideEffects: "writes.campaign",
  auth: "staff",
  confirmRequired: true,
  latencyBudgetMs: 300,
  confirmSummary: (args) =>
    say("cancelSummary", args.language ?? "en", { campaign: args.campaign_id.slice(0, 8) }),
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const [row] = await ctx.db.query<{ status: CampaignStatus }>(
      "select status from public.broadcast_campaigns where org_id = $1 and id = $2 for update",
      [orgId, args.campaign_id],
    );
    if (!row) {
      throw new ToolFailure("NOT_FOUND", "No such campaign in this org", {
        fields: [{ path: "campaign_id", message: "no campaign of this org has this id" }],
      });
    }
    if (row.status === "cancelled" || row.status === "done" || row.status === "stopped") {
      return { campaign_id: args.campaign_id, status: row.status, withdrawn: 0, changed: false };
    }
    await ctx.db.query(
      `update public.broadcast_campaigns set status = 'cancelled', updated_at = now()
       where org_id = $1 and id = $2`,
      [orgId, args.campaign_id],
    );
    // The update's trigger (private.broadcast_campaign_ended) withdrew what was still queued.
    const [withdrawn] = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from public.broadcast_sends
       where org_id = $1 and campaign_id = $2 and status = 'withdrawn'`,
      [orgId, args.campaign_id],
    );
    return {
      campaign_id: args.campaign_id,
      status: "cancelled" as const,
      withdrawn: withdrawn.n,
      changed: true,
    };
  },
});
