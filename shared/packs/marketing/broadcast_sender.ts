/**
 * `broadcast_send_due`: the sender. The platform's sweep runs it every
 * minute for each tenant that runs Marketing & Sales (`Pack.schedules`), on
 * the platform's clock. For each campaign that is due (and not held after a
 * spam limit), outside the org's quiet hours, it claims up to `limit`
 * recipients not yet claimed and queues each one's template message on the
 * WhatsApp outbox, whose dispatcher sends at the number's throughput and
 * reacts to Meta's codes per message (131056: that recipient later).
 *
 * **Crash-safe.** A recipient's claim (`broadcast_sends`, one row per
 * campaign and person) and their queued message commit in one transaction,
 * the tool call's: a sender killed half-way rolls back whole, and the next
 * run claims exactly those not claimed yet. So nobody is queued twice or
 * skipped. The opt-in rows read are locked (`for share`), so an opt-out
 * either commits first and is seen, or waits and withdraws what was queued.
 *
 * Meta's answers about the whole campaign act in the database as they
 * arrive (trigger on `wa_outbox`, migration 20261129000300): 131048 holds
 * the campaign, 132015/132016 stop it and open a ticket for staff.
 *
 * @module
 */
import { z } from "zod";
import { int, ToolFailure } from "@shared/contract/mod.ts";
import type { Language } from "@shared/contract/language.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { MESSAGING, templateOut } from "@shared/capabilities/messaging/mod.ts";
import { type Audience, audienceSchema, ELIGIBLE_SQL, languageFilter } from "./audience.ts";
import { quietHoursOf } from "./broadcast_schedule.ts";
import { nextAllowedTime } from "./quiet_hours.ts";

/**
 * Recipients a campaign queues per run at most (each run is a minute apart):
 * 200 a minute leaves most of the number's 80 messages a second to
 * conversations, whose replies queue behind a campaign's batch.
 */
export const DEFAULT_BATCH = 200;

interface DueCampaign {
  id: string;
  variables: Record<string, string>;
  audience: unknown;
  status: string;
  template_name: string;
  template_language: Language;
  template_variables: string[];
  meta_status: string;
}

const output = z.object({
  campaigns: z.array(z.object({
    campaign_id: z.uuid(),
    queued: z.number().int().min(0).describe("Recipients claimed and queued by this run."),
    status: z.enum(["scheduled", "sending", "done", "stopped"]),
  })),
  quiet: z.boolean().describe("True when this run fell in quiet hours and queued nothing."),
});

/** The `broadcast_send_due` tool. */
export const broadcastSendDue = defineTool({
  name: "broadcast_send_due",
  title: "Send due broadcasts",
  description: "Queues the next recipients of every due WhatsApp campaign of the org, outside " +
    "quiet hours, once each. Run by the platform's sweep.",
  category: "marketing",
  input: z.strictObject({
    limit: int({ min: 1, max: 5000 }).optional().describe(
      `Recipients per campaign this run. Default ${DEFAULT_BATCH}.`,
    ),
  }),
  output,
  examples: [{ input: {} }],
  sideEffects: "writes.campaign",
  auth: "service",
  internal: true,
  latencyBudgetMs: 2000,
  async execute(args, ctx) {
    const orgId = ctx.org_id;
    if (!orgId) throw new ToolFailure("AUTH_ERROR", "The sender runs on one org");
    const now = ctx.services.now();
    if (nextAllowedTime(now, await quietHoursOf(ctx.db, orgId)) > now) {
      return { campaigns: [], quiet: true };
    }
    const messaging = ctx.services.get(MESSAGING);
    const limit = args.limit ?? DEFAULT_BATCH;
    // One sender per campaign at a time: another host's run skips what this one holds.
    const due = await ctx.db.query<DueCampaign>(
      `select c.id, c.variables, c.audience, c.status, t.name as template_name,
              t.language as template_language, t.variables as template_variables, t.meta_status
       from public.broadcast_campaigns c
       join public.broadcast_templates t on t.org_id = c.org_id and t.id = c.template_id
       where c.org_id = $1 and c.status in ('scheduled', 'sending') and c.send_at <= $2
         and (c.backoff_until is null or c.backoff_until <= $2)
       order by c.send_at
       for update of c skip locked`,
      [orgId, now.toISOString()],
    );
    const campaigns = [];
    for (const campaign of due) {
      if (campaign.meta_status !== "approved") {
        await stop(ctx.db, orgId, campaign);
        campaigns.push({ campaign_id: campaign.id, queued: 0, status: "stopped" as const });
        continue;
      }
      const audience: Audience = audienceSchema.parse(campaign.audience);
      const recipients = await ctx.db.query<{ user_id: string; phone: string }>(
        `select e.user_id, e.phone from (${ELIGIBLE_SQL}) e
         join public.marketing_opt_ins held on held.org_id = $1 and held.user_id = e.user_id
         where not exists (
           select 1 from public.broadcast_sends s where s.campaign_id = $3 and s.user_id = e.user_id)
         order by e.user_id
         limit $4
         for share of held`,
        [orgId, languageFilter(audience), campaign.id, limit],
      );
      const parameters = campaign.template_variables.map((name) => campaign.variables[name] ?? "");
      for (const recipient of recipients) {
        const outboxId = await messaging.send(ctx.db, {
          orgId,
          to: recipient.phone,
          message: templateOut({
            name: campaign.template_name,
            language: campaign.template_language,
            parameters,
          }),
          // One message per campaign and person, whatever runs again.
          idempotencyKey: `broadcast:${campaign.id}:${recipient.user_id}`,
          // Never twice: a message whose process died mid-send is reconciled, not resent.
          atMostOnce: true,
        });
        await ctx.db.query(
          `insert into public.broadcast_sends (campaign_id, org_id, user_id, outbox_id)
           values ($1, $2, $3, $4)`,
          [campaign.id, orgId, recipient.user_id, outboxId],
        );
      }
      // Fewer than a batch: everyone the audience holds now is queued.
      const status = recipients.length < limit ? "done" as const : "sending" as const;
      await ctx.db.query(
        "update public.broadcast_campaigns set status = $3, updated_at = now() where org_id = $1 and id = $2",
        [orgId, campaign.id, status],
      );
      campaigns.push({ campaign_id: campaign.id, queued: recipients.length, status });
    }
    return { campaigns, quiet: false };
  },
});

// A template no longer approved (recorded paused or disabled) stops its campaigns; staff hear.
async function stop(
  db: Queryable,
  orgId: string,
  campaign: DueCampaign,
): Promise<void> {
  const reason = `the template "${campaign.template_name}" is ${campaign.meta_status}`;
  await db.query(
    `update public.broadcast_campaigns set status = 'stopped', stop_reason = $3, updated_at = now()
     where org_id = $1 and id = $2`,
    [orgId, campaign.id, reason],
  );
  await db.query(
    `insert into public.staff_tickets (org_id, channel, reason, summary, priority)
     values ($1, 'inbox', 'Broadcast stopped', $2, 'high')`,
    [
      orgId,
      `Campaign ${campaign.id} stopped: ${reason}. Nothing more is sent; fix or replace the ` +
      "template and schedule it again.",
    ],
  );
}
