/**
 * Analytics & Risk's tools, over the org's analytics events (`analytics_log`):
 *
 * - `funnel_report`: staff read the funnels of a window (started → confirmed
 *   → paid, per agent) and the anomalies raised in it;
 * - `risk_scan`: the scheduled check finds anomalies (a drop in vendors'
 *   response rate, repeated payment failures, a spike in hand-offs), records
 *   each once per kind per 24 hours, and answers those still to be raised;
 * - `risk_alert_raised`: records the staff ticket an anomaly was raised with.
 *
 * The events they read, written by the platform where each fact happens
 * (docs/agents.md, "Funnel and risk events"): `funnel_started`,
 * `funnel_confirmed`, `funnel_paid` (prop `agent`), `vendor_inquiry_sent`,
 * `vendor_replied`, `payment_failed`, `handoff_raised`.
 * Windows end at the platform's clock (`ctx.services.now()`).
 *
 * @module
 */
import { z } from "zod";
import { id } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** The anomalies Analytics & Risk raises. */
export const RISK_KINDS = ["vendor_response_drop", "payment_failures", "handoff_spike"] as const;

/** An anomaly's kind. */
export type RiskKind = typeof RISK_KINDS[number];

/** The thresholds the check applies. */
export const RISK_RULES = {
  /** A kind raised is not raised again for this long. */
  cooldownHours: 24,
  /** Vendors' response rate over the last 24 hours, against the 7 days before. */
  vendorMinInquiries: 5,
  vendorDrop: 0.2,
  /** Failed payments within the last hour. */
  paymentFailuresPerHour: 3,
  /** Hand-offs within the last hour: at least this many, and this many times the hourly average of the 7 days before. */
  handoffsPerHour: 5,
  handoffSpikeFactor: 3,
} as const;

const HOUR = 3_600_000;

const alert = z.object({
  id: z.uuid(),
  kind: z.enum(RISK_KINDS),
  raised_at: z.iso.datetime({ offset: true }),
  detail: z.record(z.string(), z.number()),
});

const funnel = z.object({
  agent: z.string(),
  started: z.int(),
  confirmed: z.int(),
  paid: z.int(),
});

/** The `funnel_report` tool. */
export const funnelReport = defineTool({
  name: "funnel_report",
  title: "Funnels and risks",
  description: "For staff: each agent's funnel (started, confirmed, paid) over the last hours, " +
    "and the anomalies raised to staff in that time.",
  category: "analytics",
  input: z.strictObject({
    hours: z.int().min(1).max(168).default(24).describe("The window, ending now."),
  }),
  output: z.object({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    funnels: z.array(funnel),
    alerts: z.array(alert),
  }),
  examples: [{ description: "How are we doing today?", input: { hours: 24 } }],
  sideEffects: "none",
  // Staff only: a customer's call learns nothing, not even that the figures are empty.
  auth: "staff",
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const to = ctx.services.now();
    const from = new Date(to.getTime() - args.hours * HOUR);
    const funnels = await ctx.db.query<z.output<typeof funnel>>(
      `select coalesce(props->>'agent', '') as agent,
              count(*) filter (where event = 'funnel_started')::int as started,
              count(*) filter (where event = 'funnel_confirmed')::int as confirmed,
              count(*) filter (where event = 'funnel_paid')::int as paid
       from public.analytics_events
       where org_id = $1 and created_at >= $2 and created_at < $3
         and event in ('funnel_started', 'funnel_confirmed', 'funnel_paid')
       group by 1 order by 2 desc, 1`,
      [ctx.org_id, from.toISOString(), to.toISOString()],
    );
    const alerts = await ctx.db.query<
      { id: string; kind: RiskKind; raised_at: Date | string; detail: Record<string, number> }
    >(
      `select id, kind, raised_at, detail from public.risk_alerts
       where org_id = $1 and raised_at >= $2 and raised_at <= $3 order by raised_at`,
      [ctx.org_id, from.toISOString(), to.toISOString()],
    );
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      funnels,
      alerts: alerts.map((row) => ({ ...row, raised_at: new Date(row.raised_at).toISOString() })),
    };
  },
});

/** The `risk_scan` tool. */
export const riskScan = defineTool({
  name: "risk_scan",
  title: "Find anomalies",
  description: "Finds anomalies in the org's analytics events (vendor response rate drop, " +
    "repeated payment failures, hand-off spike), records each kind at most once per 24 hours " +
    "and returns those not yet raised to staff. Run by the platform's sweep.",
  category: "analytics",
  input: z.strictObject({}),
  output: z.object({ found: z.array(z.enum(RISK_KINDS)), pending: z.array(alert) }),
  examples: [{ input: {} }],
  sideEffects: "writes.analytics",
  auth: "service",
  internal: true,
  latencyBudgetMs: 500,
  async execute(_args, ctx) {
    const orgId = ctx.org_id!;
    const now = ctx.services.now();
    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR).toISOString();
    const [counts] = await ctx.db.query<Record<string, number>>(
      `select
         count(*) filter (where event = 'vendor_inquiry_sent' and created_at >= $3)::int as sent_day,
         count(*) filter (where event = 'vendor_replied' and created_at >= $3)::int as replied_day,
         count(*) filter (where event = 'vendor_inquiry_sent' and created_at < $3)::int as sent_base,
         count(*) filter (where event = 'vendor_replied' and created_at < $3)::int as replied_base,
         count(*) filter (where event = 'payment_failed' and created_at >= $4)::int as failed_hour,
         count(*) filter (where event = 'handoff_raised' and created_at >= $4)::int as handoffs_hour,
         count(*) filter (where event = 'handoff_raised' and created_at < $3)::int as handoffs_base
       from public.analytics_events
       where org_id = $1 and created_at >= $2 and created_at < $5
         and event in ('vendor_inquiry_sent', 'vendor_replied', 'payment_failed', 'handoff_raised')`,
      [orgId, at(24 * 8), at(24), at(1), now.toISOString()],
    );
    const found: Array<{ kind: RiskKind; detail: Record<string, number> }> = [];
    const rules = RISK_RULES;
    if (
      counts.sent_day >= rules.vendorMinInquiries && counts.sent_base >= rules.vendorMinInquiries
    ) {
      const rate = counts.replied_day / counts.sent_day;
      const usual = counts.replied_base / counts.sent_base;
      if (rate < usual - rules.vendorDrop) {
        found.push({
          kind: "vendor_response_drop",
          detail: {
            rate: round(rate),
            usual: round(usual),
            inquiries: counts.sent_day,
            replies: counts.replied_day,
          },
        });
      }
    }
    if (counts.failed_hour >= rules.paymentFailuresPerHour) {
      found.push({ kind: "payment_failures", detail: { failed: counts.failed_hour, hours: 1 } });
    }
    const hourly = counts.handoffs_base / (7 * 24);
    if (
      counts.handoffs_hour >= rules.handoffsPerHour &&
      counts.handoffs_hour >= rules.handoffSpikeFactor * hourly
    ) {
      found.push({
        kind: "handoff_spike",
        detail: { handoffs: counts.handoffs_hour, usual_per_hour: round(hourly) },
      });
    }
    for (const anomaly of found) {
      // Once per kind per cooldown: the same drop is not raised on every sweep.
      await ctx.db.query(
        `insert into public.risk_alerts (org_id, kind, detail, raised_at)
         select $1, $2, $3, $4
         where not exists (
           select 1 from public.risk_alerts
           where org_id = $1 and kind = $2 and raised_at > $5)`,
        [orgId, anomaly.kind, anomaly.detail, now.toISOString(), at(rules.cooldownHours)],
      );
    }
    // What is still to be raised (this sweep's, or one a crash left without its ticket).
    const pending = await ctx.db.query<
      { id: string; kind: RiskKind; raised_at: Date | string; detail: Record<string, number> }
    >(
      `select id, kind, raised_at, detail from public.risk_alerts
       where org_id = $1 and ticket_id is null and raised_at > $2 order by raised_at`,
      [orgId, at(rules.cooldownHours)],
    );
    return {
      found: found.map((anomaly) => anomaly.kind),
      pending: pending.map((row) => ({ ...row, raised_at: new Date(row.raised_at).toISOString() })),
    };
  },
});

/** The `risk_alert_raised` tool. */
export const riskAlertRaised = defineTool({
  name: "risk_alert_raised",
  title: "Record a raised anomaly",
  description: "Records the staff ticket an anomaly was raised with. Run by the platform's sweep.",
  category: "analytics",
  input: z.strictObject({ alert_id: id(), ticket_id: id() }),
  output: z.object({ recorded: z.boolean() }),
  examples: [{
    input: {
      alert_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d",
      ticket_id: "6c9f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2e",
    },
  }],
  sideEffects: "writes.analytics",
  auth: "service",
  internal: true,
  latencyBudgetMs: 200,
  async execute(args, ctx) {
    const rows = await ctx.db.query(
      `update public.risk_alerts set ticket_id = $3
       where id = $1 and org_id = $2 and ticket_id is null returning id`,
      [args.alert_id, ctx.org_id, args.ticket_id],
    );
    return { recorded: rows.length === 1 };
  },
});

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
