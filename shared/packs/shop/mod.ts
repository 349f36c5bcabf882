/**
 * The shop pack: groceries and everyday items from shops near you (Shop), ordered with quantities
 * and paid by MoMo through the shared ordering steps. Its stock, order and payment tools are
 * registered by the buy & sell, commerce and payments packs; it issues proformas itself
 * (`proforma_issue`, and their PDFs: `proforma_pdf`).
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
import { SHOP_INTENTS } from "./intents.ts";
import { proformaIssue } from "./proforma_issue.ts";
import { proformaPdf } from "./proforma_pdf.ts";

/** What Shop says at the venue steps, in en, rw and fr. */
export const SHOP_TEXTS = {
  askVenue: {
    en:
      "Which shop would you like to order from? Type a number, tap a shop, or type what you need (e.g. “rice 5kg”).",
    rw:
      "Urashaka gutumiza mu iduka irihe? Andika nimero, kanda ku iduka, cyangwa wandike icyo ukeneye (urugero “umuceri 5kg”).",
    fr:
      "Dans quelle boutique voulez-vous commander ? Tapez un numéro, touchez une boutique, ou écrivez ce qu'il vous faut (ex. « riz 5kg »).",
  },
  noVenues: {
    en: "I found no shop right now. Type “menu” for the main menu.",
    rw: "Nta duka mbonye ubu. Andika “menu” usubire ahabanza.",
    fr: "Je n'ai trouvé aucune boutique pour l'instant. Écrivez « menu » pour le menu principal.",
  },
} as const;

// Words around an item's name that are not the name.
const FILLER =
  /\b(shop|boutique|iduka|groceries|grocery|supermarket|i need|need|do you have|i want|i would like|je cherche|je veux|je voudrais|faire des courses|des courses|courses|ndashaka|nkeneye|mufite|guhaha|hello|bonjour|bonsoir|salut|muraho|mwiriwe|mwaramutse|please|svp|stp)\b/gi;

/** The shop pack. */
export const SHOP_PACK: Pack = {
  id: "shop",
  tools: [proformaIssue, proformaPdf],
  agents: [{
    id: "shop",
    name: "Shop",
    description: "Checks shop stock and takes orders.",
    audience: "customers",
    answersFollowUps: true,
    answersHours: true,
    tools: [...ORDERING_TOOLS, "proforma_issue", "proforma_pdf"],
    intents: SHOP_INTENTS,
    menuTitle: { en: "Shop", rw: "Iduka", fr: "Boutique" },
    ...orderingAgentFlow({
      category: "shop",
      texts: SHOP_TEXTS,
      searchStock: true,
      filler: FILLER,
    }),
    // An unpaid order: cancelled (the venue told, its charge expired) or kept on leaving.
    pending: orderPending,
  }],
  tables: ORDERING_TABLES,
  texts: { ...ORDER_TEXTS, ...SHOP_TEXTS },
  services: [],
};
