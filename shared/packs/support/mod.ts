/**
 * The support pack: a person takes over. `notify_staff` raises a ticket in
 * the Admin Inbox (and Slack/SMS when asked or urgent); Support Handoff is
 * where sensitive topics, requests for a person and failing agents go.
 *
 * - {@link SUPPORT_PACK}: the pack the composition root registers.
 * - {@link STAFF_NOTIFIER}: the service key the root provides Slack/SMS under.
 *
 * @module
 */
import { asksForPerson } from "@shared/contract/language.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { TICKET_CREATED, TICKET_UPDATED } from "./events.ts";
import {
  HANDOFF_STAFF_TEXTS,
  HANDOFF_TEXTS,
  handoffFlow,
  handoffFlowMemory,
} from "./handoff_flow.ts";
import { complainsAboutService } from "./complaint.ts";
import { followsUpPurchase } from "@shared/contract/follow_up.ts";
import { SUPPORT_INTENTS } from "./intents.ts";
import { notifyStaff } from "./notify_staff.ts";
import { STAFF_NOTIFIER } from "./staff_notifier.ts";

export { isoMinutes, notifyStaff } from "./notify_staff.ts";
export * from "./staff_notifier.ts";

/** The support pack. */
export const SUPPORT_PACK: Pack = {
  id: "support_handoff",
  tools: [notifyStaff],
  agents: [{
    id: "support_handoff",
    name: "Support & Handoff",
    description: "Hands the conversation to a person in the Admin Inbox.",
    audience: "customers",
    tools: ["notify_staff", "analytics_log"],
    intents: SUPPORT_INTENTS,
    asks: asksForPerson,
    takesComplaint: complainsAboutService,
    takesFollowUp: followsUpPurchase,
    role: "handoff",
    menuTitle: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
    offlineFlow: handoffFlow,
    memory: handoffFlowMemory,
  }],
  tables: {
    staff_tickets: {
      id: "uuid",
      convo_id: "uuid",
      channel: "text",
      reason: "text",
      summary: "text",
      priority: "text",
      status: "text",
      assigned_to: "uuid",
      created_at: "timestamptz",
      claimed_at: "timestamptz",
      resolved_at: "timestamptz",
    },
    conversations: {
      id: "uuid",
      channel: "text",
      agent_id: "text",
      status: "text",
      created_at: "timestamptz",
      updated_at: "timestamptz",
    },
  },
  texts: { ...HANDOFF_TEXTS, ...HANDOFF_STAFF_TEXTS },
  services: [STAFF_NOTIFIER],
  events: [TICKET_CREATED, TICKET_UPDATED],
};
