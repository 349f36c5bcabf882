/**
 * The pharmacy pack: medicines by name, stock and price at nearby pharmacies, prescription-only
 * medicines marked, orders with quantities paid by MoMo, prescription photos passed to a
 * pharmacist. Its tools (stock, orders, payments, staff) are registered by the buy & sell,
 * commerce, payments and support packs.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { orderPending } from "@shared/capabilities/ordering/mod.ts";
import { ORDER_TEXTS, ORDERING_TABLES } from "@shared/capabilities/ordering/mod.ts";
import { PHARMACY_INTENTS } from "./intents.ts";
import { PHARMACY_TEXTS, pharmacyFlow, pharmacyFlowMemory } from "./pharmacy_flow.ts";

const PHARMACY_WORDS =
  /\b(pharmacy|pharmacie|farumasi|medicine|médicament|medicament|imiti|umuti)\b/i;

/** The pharmacy pack. */
export const PHARMACY_PACK: Pack = {
  id: "pharmacy",
  tools: [],
  agents: [{
    id: "pharmacy",
    name: "Pharmacy",
    description: "Finds medicine in nearby pharmacies, reads prescriptions and takes orders.",
    audience: "customers",
    answersFollowUps: true,
    answersHours: true,
    tools: [
      "search_supabase",
      "inventory_check",
      "order_create",
      "order_status_update",
      "order_cancel",
      "momo_charge",
      "ocr_extract",
      "notify_staff",
      "analytics_log",
    ],
    intents: PHARMACY_INTENTS,
    asks: (text) => PHARMACY_WORDS.test(text),
    menuTitle: { en: "Pharmacy", rw: "Farumasi", fr: "Pharmacie" },
    offlineFlow: pharmacyFlow,
    memory: pharmacyFlowMemory,
    // An unpaid order: cancelled (the venue told, its charge expired) or kept on leaving.
    pending: orderPending,
  }],
  tables: {
    ...ORDERING_TABLES,
    products: { ...ORDERING_TABLES.products, requires_prescription: "boolean" },
  },
  texts: { ...ORDER_TEXTS, ...PHARMACY_TEXTS },
  services: [],
};
