/**
 * The hardware pack: building materials and tools from hardware stores near you (Hardware), with
 * quantities and units, ordered and paid by MoMo through the shared ordering steps; a large order
 * offers delivery arranged by our team. Its tools (stock, orders, payments, staff) are registered
 * by the buy & sell, commerce, payments and support packs.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import {
  ORDER_TEXTS,
  ORDERING_TABLES,
  ORDERING_TOOLS,
  orderingAgentFlow,
  orderPending,
} from "@shared/capabilities/ordering/mod.ts";
import { HARDWARE_INTENTS } from "./intents.ts";

/** What Hardware says at the venue steps, in en, rw and fr. */
export const HARDWARE_TEXTS = {
  askVenue: {
    en:
      "Which hardware store? Type a number, tap a store, or type what you need (e.g. “20 bags of cement”).",
    rw:
      "Iduka ry'ibikoresho irihe? Andika nimero, kanda ku iduka, cyangwa wandike icyo ukeneye (urugero “imifuka 20 ya sima”).",
    fr:
      "Quelle quincaillerie ? Tapez un numéro, touchez une quincaillerie, ou écrivez ce qu'il vous faut (ex. « 20 sacs de ciment »).",
  },
  noVenues: {
    en: "I found no hardware store right now. Type “menu” for the main menu.",
    rw: "Nta duka ry'ibikoresho mbonye ubu. Andika “menu” usubire ahabanza.",
    fr:
      "Je n'ai trouvé aucune quincaillerie pour l'instant. Écrivez « menu » pour le menu principal.",
  },
} as const;

// Words around a material's name that are not the name.
const FILLER =
  /\b(hardware|quincaillerie|i need|need|do you have|price of|prix|i want|je cherche|il me faut|ndashaka|nkeneye|mufite|bags? of|sacs? de)\b/gi;

/** Orders from this total (RWF) are offered delivery, arranged by staff. */
export const HARDWARE_DELIVERY_FROM = 200_000;

/** The hardware pack. */
export const HARDWARE_PACK: Pack = {
  id: "hardware",
  tools: [],
  agents: [{
    id: "hardware",
    name: "Hardware",
    description: "Checks hardware stock and takes orders.",
    audience: "customers",
    answersFollowUps: true,
    answersHours: true,
    tools: ORDERING_TOOLS,
    intents: HARDWARE_INTENTS,
    menuTitle: { en: "Hardware", rw: "Ibikoresho by'ubwubatsi", fr: "Quincaillerie" },
    ...orderingAgentFlow({
      category: "hardware",
      texts: HARDWARE_TEXTS,
      searchStock: true,
      filler: FILLER,
      deliveryFrom: HARDWARE_DELIVERY_FROM,
    }),
    // An unpaid order: cancelled (the venue told, its charge expired) or kept on leaving.
    pending: orderPending,
  }],
  tables: ORDERING_TABLES,
  texts: { ...ORDER_TEXTS, ...HARDWARE_TEXTS },
  services: [],
};
