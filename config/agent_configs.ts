/**
 * GENERATED from config/agent_configs.yaml by `deno task gen:agents`; do not edit.
 * Bundled into every function; the platform checks it at start.
 *
 * @module
 */

/** The data of config/agent_configs.yaml (unchecked: see checkAgentConfig). */
export const AGENT_CONFIGS: unknown = {
  "version": 1,
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
    {
      "name": "sora_generate_video",
      "category": "video",
      "description": "Generate video ads with the Sora-2 API.",
    },
  ],
  "agents": [
    {
      "id": "concierge_router",
      "name": "Concierge Router",
      "tenant": "easymo",
      "description":
        "First contact; works out what the user needs and hands over to the right agent.",
      "tools": [
        "search_supabase",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "waiter_ai",
      "name": "Waiter AI",
      "tenant": "easymo",
      "description": "Takes orders from a venue's menu, tracks them and takes payment.",
      "tools": [
        "search_supabase",
        "order_create",
        "order_status_update",
        "reservation_book",
        "momo_charge",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "mobility_orchestrator",
      "name": "Mobility Orchestrator",
      "tenant": "easymo",
      "description": "Finds nearby drivers and arranges rides.",
      "tools": [
        "maps_geosearch",
        "trip_price_estimate",
        "place_lookup",
        "ride_request",
        "ride_status",
        "ride_cancel",
        "search_supabase",
        "momo_charge",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "buy_and_sell",
      "name": "Buy & Sell",
      "tenant": "easymo",
      "description":
        "Finds vendors that have what the user wants and asks them on the user's behalf.",
      "tools": [
        "search_businesses_with_tags",
        "create_vendor_inquiries_and_message_vendors",
        "get_vendor_inquiry_updates",
        "choose_vendor_for_inquiry",
        "log_user_feedback_on_vendor",
        "inventory_check",
        "order_create",
        "momo_charge",
        "ocr_extract",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "pharmacy",
      "name": "Pharmacy",
      "tenant": "easymo",
      "description": "Finds medicine in nearby pharmacies, reads prescriptions and takes orders.",
      "tools": [
        "search_supabase",
        "inventory_check",
        "order_create",
        "order_status_update",
        "momo_charge",
        "ocr_extract",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "hardware",
      "name": "Hardware",
      "tenant": "easymo",
      "description": "Checks hardware stock and takes orders.",
      "tools": [
        "search_supabase",
        "inventory_check",
        "order_create",
        "order_status_update",
        "momo_charge",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "shop",
      "name": "Shop",
      "tenant": "easymo",
      "description": "Checks shop stock and takes orders.",
      "tools": [
        "search_supabase",
        "inventory_check",
        "order_create",
        "order_status_update",
        "momo_charge",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "insurance",
      "name": "Insurance",
      "tenant": "easymo",
      "description": "Reads vehicle documents, prices motor insurance and issues certificates.",
      "tools": [
        "ocr_extract",
        "price_insurance",
        "generate_pdf",
        "momo_charge",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "property",
      "name": "Property",
      "tenant": "easymo",
      "description": "Finds rentals and schedules viewings.",
      "tools": [
        "search_supabase",
        "schedule_viewing",
        "generate_pdf",
        "momo_charge",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "legal_intake",
      "name": "Legal Intake",
      "tenant": "easymo",
      "description": "Takes down legal cases for a lawyer; gives no legal advice.",
      "tools": [
        "search_supabase",
        "generate_pdf",
        "momo_charge",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "payments",
      "name": "Payments",
      "tenant": "easymo",
      "description": "Creates mobile money payment requests.",
      "tools": [
        "momo_charge",
        "payment_status",
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "marketing_sales",
      "name": "Marketing & Sales",
      "tenant": "easymo",
      "description": "Schedules broadcasts from approved templates to opted-in audiences.",
      "tools": [
        "search_supabase",
        "broadcast_schedule",
        "analytics_log",
        "notify_staff",
      ],
    },
    {
      "id": "sora_video",
      "name": "Sora-2 Video",
      "tenant": "easymo",
      "description": "Produces short video ads from a brand kit.",
      "tools": [
        "sora_generate_video",
        "search_supabase",
        "analytics_log",
      ],
    },
    {
      "id": "support_handoff",
      "name": "Support & Handoff",
      "tenant": "easymo",
      "description": "Hands the conversation to a person in the Admin Inbox.",
      "tools": [
        "notify_staff",
        "analytics_log",
      ],
    },
    {
      "id": "locops",
      "name": "Locops",
      "tenant": "easymo",
      "description": "Looks up operational data for the local operations team.",
      "tools": [
        "search_supabase",
        "analytics_log",
      ],
    },
    {
      "id": "analytics_risk",
      "name": "Analytics & Risk",
      "tenant": "easymo",
      "description": "Watches funnels and raises risks to staff.",
      "tools": [
        "analytics_log",
        "notify_staff",
      ],
    },
  ],
};
