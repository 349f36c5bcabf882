/**
 * GENERATED from config/agent_configs.yaml by `deno task gen:agents`; do not edit.
 * Bundled into every function; the platform checks it at start.
 *
 * @module
 */

/** The data of config/agent_configs.yaml (unchecked: see checkAgentConfig). */
export const AGENT_CONFIGS: unknown = {
  "version": 2,
  "planned_tools": [],
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
          "tool_discovery": true,
        },
        {
          "id": "sora_video",
          "tool_discovery": true,
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
    "beaver-paper": {
      "agents": [
        {
          "id": "concierge_router",
        },
        {
          "id": "shop",
        },
        {
          "id": "support_handoff",
        },
        {
          "id": "analytics_risk",
        },
      ],
    },
  },
};
