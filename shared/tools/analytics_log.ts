/**
 * `analytics_log`: records a funnel event with its properties minimised
 * (identifiers hashed with a keyed hash, free text dropped).
 *
 * @module
 */
import { z } from "zod";
import { text } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { minimiseProps } from "./pii.ts";

const input = z.object({
  event: z.string().regex(/^[a-z][a-z0-9_.:-]{0,63}$/, "use lower-case words joined by _ . : -")
    .describe("Event name, e.g. order_started."),
  props: z.array(z.object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "use snake_case"),
    value: z.union([text({ max: 500, trim: false }), z.number(), z.boolean(), z.null()]),
  })).max(30).default([]).describe("Event properties as key/value pairs."),
});

const output = z.object({
  logged_at: z.iso.datetime({ offset: true }),
  hashed: z.array(z.string()).describe("Keys stored as a keyed hash."),
  dropped: z.array(z.string()).describe("Keys not stored (free text or sensitive)."),
});

/** The `analytics_log` tool. */
export const analyticsLog = defineTool({
  name: "analytics_log",
  title: "Log analytics event",
  description: "Record a funnel or KPI event. Personal data is minimised: phone numbers and " +
    "emails are stored as keyed hashes, free text is dropped.",
  category: "analytics",
  input,
  output,
  examples: [{
    description: "A user started an order",
    input: {
      event: "order_started",
      props: [{ key: "venue_category", value: "restaurant" }, { key: "items", value: 2 }],
    },
  }],
  sideEffects: "writes.analytics",
  auth: "user",
  latencyBudgetMs: 200,
  async execute(args, ctx) {
    const minimised = await minimiseProps(args.props, ctx.services.pseudonymise);
    // No RETURNING: callers may add events but only staff may read them back.
    const loggedAt = ctx.services.now().toISOString();
    await ctx.db.query(
      `insert into public.analytics_events
         (org_id, event, props, user_id, convo_id, trace_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        ctx.org_id,
        args.event,
        minimised.props,
        ctx.user_id,
        ctx.convo_id,
        ctx.trace_id,
        loggedAt,
      ],
    );
    return { logged_at: loggedAt, hashed: minimised.hashed, dropped: minimised.dropped };
  },
});
