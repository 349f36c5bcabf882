/**
 * Locops: the local operations team's assistant, for staff only. Staff reach
 * it from their registered WhatsApp number or the Admin Inbox's assistant
 * panel (the staff desk); a customer's message never routes to it (its
 * audience is staff): what a customer asks of it is learnt as staff work and
 * answered "our team does that" (staff_work.ts). It reads the
 * tenant's open orders, drivers online, waiting charges and tickets through
 * `search_supabase`, as the staff member.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { LOCOPS_FLOW, LOCOPS_TEXTS } from "./locops_flow.ts";
import { LOCOPS_STAFF_WORK, LOCOPS_STAFF_WORK_NAME } from "./staff_work.ts";

/** The Locops pack. */
export const LOCOPS_PACK: Pack = {
  id: "locops",
  tools: [],
  agents: [{
    id: "locops",
    name: "Locops",
    description: "Answers the operations team: open orders per venue, drivers online, " +
      "charges waiting to be paid and tickets waiting, by name.",
    audience: "staff",
    // What customers ask of it: learnt as staff work, answered "our team does that".
    staffWork: LOCOPS_STAFF_WORK,
    staffWorkName: LOCOPS_STAFF_WORK_NAME,
    tools: ["search_supabase", "analytics_log"],
    menuTitle: { en: "Operations (Locops)", rw: "Ibikorwa (Locops)", fr: "Opérations (Locops)" },
    ...LOCOPS_FLOW,
  }],
  // What Locops reads besides the other packs' orders, venues and tickets; RLS still decides rows.
  tables: {
    drivers: {
      id: "uuid",
      display_name: "text",
      vehicle_type: "text",
      available_until: "timestamptz",
      is_active: "boolean",
    },
    payments: {
      id: "uuid",
      amount: "number",
      currency: "text",
      status: "text",
      memo: "text",
      expires_at: "timestamptz",
      created_at: "timestamptz",
    },
  },
  texts: LOCOPS_TEXTS,
  services: [],
};
