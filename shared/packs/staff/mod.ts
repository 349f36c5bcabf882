/**
 * The staff agents: the marketing desk, the video studio, local operations
 * and analytics. Staff reach them from the Admin Inbox; a customer's message
 * never routes to them (their audience is staff), so they have no intents,
 * menu title or offline flow. Their tools that are not built yet are listed
 * under `planned_tools` in `config/agent_configs.yaml`.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";

/** The staff pack. */
export const STAFF_PACK: Pack = {
  id: "staff",
  tools: [],
  agents: [
    {
      id: "marketing_sales",
      name: "Marketing & Sales",
      description: "Schedules broadcasts from approved templates to opted-in audiences.",
      audience: "staff",
      tools: ["search_supabase", "broadcast_schedule", "analytics_log", "notify_staff"],
    },
    {
      id: "locops",
      name: "Locops",
      description: "Looks up operational data for the local operations team.",
      audience: "staff",
      tools: ["search_supabase", "analytics_log"],
    },
    {
      id: "analytics_risk",
      name: "Analytics & Risk",
      description: "Watches funnels and raises risks to staff.",
      audience: "staff",
      tools: ["analytics_log", "notify_staff"],
    },
  ],
  tables: {},
  texts: {},
  services: [],
};
