/**
 * The pharmacy pack: medicines by name, stock and price at nearby pharmacies, an order after the
 * user confirms. Its tools (stock, orders) are the commerce tools registered by the buy & sell
 * pack.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { PHARMACY_INTENTS } from "./intents.ts";
import { PHARMACY_TEXTS, pharmacyFlow } from "./pharmacy_flow.ts";

const PHARMACY_WORDS =
  /\b(pharmacy|pharmacie|farumasi|medicine|médicament|medicament|imiti|umuti)\b/i;

/** The pharmacy pack. */
export const PHARMACY_PACK: Pack = {
  id: "pharmacy",
  tools: [],
  agents: [{
    id: "pharmacy",
    intents: PHARMACY_INTENTS,
    asks: (text) => PHARMACY_WORDS.test(text),
    menuTitle: { en: "Pharmacy", rw: "Farumasi", fr: "Pharmacie" },
    offlineFlow: pharmacyFlow,
  }],
  tables: { businesses: { id: "uuid", name: "text" } },
  texts: PHARMACY_TEXTS,
  services: [],
};
