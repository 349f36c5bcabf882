/**
 * GENERATED from config/agent_configs.yaml by `deno task gen:agents`; do not edit.
 * Bundled into every function; the platform checks it at start.
 *
 * @module
 */

/** The data of config/agent_configs.yaml (unchecked: see checkAgentConfig). */
export const AGENT_CONFIGS: unknown = {
  "version": 2,
  "planned_tools": [
    {
      "name": "property_search",
      "category": "property",
      "description": "Search rental properties.",
    },
    {
      "name": "schedule_viewing",
      "category": "property",
      "description": "Schedule a property viewing appointment.",
    },
    {
      "name": "case_intake",
      "category": "legal",
      "description": "Create a legal case intake record.",
    },
    {
      "name": "broadcast_schedule",
      "category": "marketing",
      "description": "Schedule a WhatsApp broadcast campaign from an approved template.",
    },
  ],
  "tenants": {
    "easymo": {
      "agents": [
        {
          "id": "concierge_router",
        },
        {
          "id": "waiter_ai",
        },
        {
          "id": "mobility_orchestrator",
        },
        {
          "id": "buy_and_sell",
        },
        {
          "id": "pharmacy",
        },
        {
          "id": "hardware",
        },
        {
          "id": "shop",
        },
        {
          "id": "insurance",
        },
        {
          "id": "property",
        },
        {
          "id": "legal_intake",
        },
        {
          "id": "payments",
        },
        {
          "id": "marketing_sales",
        },
        {
          "id": "sora_video",
        },
        {
          "id": "support_handoff",
        },
        {
          "id": "locops",
        },
        {
          "id": "analytics_risk",
        },
      ],
    },
  },
};
