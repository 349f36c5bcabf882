/**
 * `broadcast_status`: where the org's campaigns stand, for staff: each
 * one's template, status, time, reach and how many of its messages are
 * queued, sent, delivered, read, failed or withdrawn. The counts follow
 * Meta's status webhooks (`wa_outbox` → `broadcast_sends`). Staff only,
 * read under RLS.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";

const COUNTED = [
  "queued",
  "sending",
  "sent",
  "delivered",
  "read",
  "failed",
  "withdrawn",
  // Sent or not, nobody knows: its process died mid-send and no delivery report came.
  "unknown",
] as const;

const output = z.object({
  campaigns: z.array(z.object({
    campaign_id: z.uuid(),
    template: z.string(),
    status: z.enum(["scheduled", "sending", "done", "cancelled", "stopped"]),
    scheduled_at: z.string(),
    estimated_reach: z.number().int().min(0),
    stop_reason: z.string().nullable(),
    counts: z.object(Object.fromEntries(COUNTED.map((s) => [s, z.number().int().min(0)]))),
  })),
});

interface Row {
  campaign_id: string;
  template: string;
  status: z.output<typeof output>["campaigns"][number]["status"];
  scheduled_at: string;
  estimated_reach: number;
  stop_reason: string | null;
  counts: Record<string, number> | null;
}

/** The `broadcast_status` tool. */
export const broadcastStatus = defineTool({
  name: "broadcast_status",
  title: "Broadcast delivery counts",
  description: "Staff only: the org's latest campaigns (or one), each with its status, time, " +
    "reach and how many messages are queued, sent, delivered, read, failed, withdrawn or " +
    "unknown (a send interrupted mid-way that no delivery report confirmed; never resent).",
  category: "marketing",
  input: z.object({
    campaign_id: z.uuid().optional().describe("One campaign; default the latest ten."),
    campaign_ids: z.array(z.uuid()).min(1).max(100).optional().describe(
      "These campaigns (at most 100), newest first: e.g. the tasks an MCP client follows.",
    ),
  }),
  output,
  examples: [{ input: {} }],
  sideEffects: "none",
  auth: "staff",
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const rows = await ctx.db.query<Row>(
      `select c.id as campaign_id, t.name as template, c.status,
              to_jsonb(c.send_at) #>> '{}' as scheduled_at, c.estimated_reach, c.stop_reason,
              (select jsonb_object_agg(s.status, s.n) from (
                 select status, count(*)::int as n from public.broadcast_sends
                 where campaign_id = c.id group by status) s) as counts
       from public.broadcast_campaigns c
       join public.broadcast_templates t on t.org_id = c.org_id and t.id = c.template_id
       where c.org_id = $1 and ($2::uuid is null or c.id = $2::uuid)
         and ($3::uuid[] is null or c.id = any($3::uuid[]))
       order by c.created_at desc limit $4`,
      [orgId, args.campaign_id ?? null, args.campaign_ids ?? null, args.campaign_ids?.length ?? 10],
    );
    return {
      campaigns: rows.map((row) => ({
        ...row,
        scheduled_at: new Date(row.scheduled_at).toISOString(),
        counts: Object.fromEntries(COUNTED.map((s) => [s, row.counts?.[s] ?? 0])),
      })),
    };
  },
});
