/**
 * The staff agents still without a domain of their own: the marketing desk
 * and the video studio (Locops and Analytics & Risk have their packs). A
 * customer's message never routes to them (their audience is staff). Staff
 * reach a staff agent through the staff desk once it has a flow; these have
 * none yet, so the staff menu does not list them. Their tools that are not
 * built yet are listed under `planned_tools` in `config/agent_configs.yaml`.
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
      id: "sora_video",
      name: "Sora-2 Video",
      description: "Produces short video ads from a brand kit.",
      audience: "staff",
      tools: ["sora_generate_video", "search_supabase", "analytics_log"],
    },
  ],
  tables: {},
  texts: {},
  services: [],
};
