/**
 * The marketing pack: Marketing & Sales, the staff agent that broadcasts
 * WhatsApp campaigns (seed 000 G), with a typed flow (`marketing_flow.ts`).
 * Tools: `broadcast_templates` (what may be sent), `broadcast_schedule` (an approved
 * template, its variables, an opted-in audience, a time moved out of quiet
 * hours) and `broadcast_cancel`, both staff only with confirmation; `broadcast_status`
 * (delivery counts from the status webhooks);
 * `broadcast_send_due`, the sender the platform's sweep runs every minute;
 * `marketing_opt_out`, which its counterpart calls when anyone writes STOP,
 * HAGARIKA or ARRÊT, for every tenant and before any routing. Tables:
 * migration `20261129000300_broadcasts.sql`.
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { broadcastCancel, broadcastSchedule } from "./broadcast_schedule.ts";
import { broadcastSendDue } from "./broadcast_sender.ts";
import { broadcastStatus } from "./broadcast_status.ts";
import { broadcastTemplates } from "./broadcast_templates.ts";
import { marketingFlow } from "./marketing_flow.ts";
import { marketingOptOut, OPT_OUT_COUNTERPART } from "./opt_out.ts";
import { MARKETING_TEXTS } from "./texts.ts";
import { MARKETING_STAFF_WORK, MARKETING_STAFF_WORK_NAME } from "./staff_work.ts";

/** The marketing pack. */
export const MARKETING_PACK: Pack = {
  id: "marketing_sales",
  tools: [
    broadcastTemplates,
    broadcastSchedule,
    broadcastCancel,
    broadcastStatus,
    broadcastSendDue,
    marketingOptOut,
  ],
  agents: [{
    id: "marketing_sales",
    name: "Marketing & Sales",
    description: "Schedules broadcasts from approved templates to opted-in audiences.",
    audience: "staff",
    // What customers ask of it: learnt as staff work, answered "our team does that".
    staffWork: MARKETING_STAFF_WORK,
    staffWorkName: MARKETING_STAFF_WORK_NAME,
    // Its entry in the staff desk's menu (staff agents are never on the customers' menu).
    menuTitle: { en: "Marketing & Sales", rw: "Kwamamaza no kugurisha", fr: "Marketing et ventes" },
    tools: [
      "search_supabase",
      "broadcast_templates",
      "broadcast_schedule",
      "broadcast_cancel",
      "broadcast_status",
      "analytics_log",
      "notify_staff",
    ],
    // Typed, with no intents or menu title: staff reach it from their own channel.
    ...marketingFlow,
  }],
  tables: {
    broadcast_templates: {
      id: "uuid",
      name: "text",
      language: "text",
      category: "text",
      body: "text",
      meta_status: "text",
      created_at: "timestamptz",
    },
    broadcast_campaigns: {
      id: "uuid",
      template_id: "uuid",
      status: "text",
      requested_at: "timestamptz",
      send_at: "timestamptz",
      estimated_reach: "number",
      stop_reason: "text",
      created_at: "timestamptz",
    },
    broadcast_sends: {
      campaign_id: "uuid",
      status: "text",
      error_code: "number",
      updated_at: "timestamptz",
    },
  },
  texts: MARKETING_TEXTS,
  services: [MESSAGING],
  // First of every pack's: a STOP is an opt-out whoever else might read it.
  counterparts: [OPT_OUT_COUNTERPART],
  schedules: [{ id: "send_due", tool: "broadcast_send_due", everyMinutes: 1 }],
};
