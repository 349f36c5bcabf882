/**
 * The waiter pack: Waiter AI takes food and drink orders from a venue's menu. Its tools (menus,
 * orders) are the commerce tools registered by the buy & sell pack; offline it browses venues and
 * orders one item.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { WAITER_INTENTS } from "./intents.ts";
import { WAITER_TEXTS, waiterFlow } from "./waiter_flow.ts";

const WAITER_WORDS = /\b(menu|food|eat|restaurant|order food|ifunguro|kurya|resto|manger|carte)\b/i;

/** The waiter pack. */
export const WAITER_PACK: Pack = {
  id: "waiter",
  tools: [],
  agents: [{
    id: "waiter_ai",
    intents: WAITER_INTENTS,
    asks: (text) => WAITER_WORDS.test(text),
    menuTitle: { en: "Food & drinks", rw: "Ibiryo n'ibinyobwa", fr: "Repas et boissons" },
    offlineFlow: waiterFlow,
  }],
  tables: {
    businesses: { id: "uuid", name: "text", area: "text", category: "text" },
    products: {
      business_id: "uuid",
      sku: "text",
      name: "text",
      price: "number",
      is_available: "boolean",
    },
  },
  texts: WAITER_TEXTS,
  services: [],
};
