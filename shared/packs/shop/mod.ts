/**
 * The shop pack: shop's agent and the phrases the router learns it from (Shop: groceries,
 * supermarket and boutique everyday items). Its tools come later: until then it says
 * plainly what it will do and offers a person.
 *
 * @module
 */
import { laterToolsFlow } from "@shared/registry/offline_steps.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { SHOP_INTENTS } from "./intents.ts";

/** What the agent says until its tools exist, in en, rw and fr. */
const TEXTS = {
  soon: {
    en:
      "Soon I will check groceries and everyday items in shops near you and order them. I cannot order yet: a person from our team can help you now.",
    rw:
      "Vuba nzajya ngenzura ibiribwa n'ibindi bikenerwa mu maduka akwegereye, nkanabitumiza. Ubu sindashobora gutumiza: umukozi wacu yagufasha ubu.",
    fr:
      "Bientôt je vérifierai les courses et articles du quotidien dans les boutiques près de vous et les commanderai. Je ne peux pas encore : une personne de notre équipe peut vous aider maintenant.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
};

/** The shop pack. */
export const SHOP_PACK: Pack = {
  ...agentOnlyPack("shop", {
    id: "shop",
    intents: SHOP_INTENTS,
    menuTitle: { en: "Shop", rw: "Iduka", fr: "Boutique" },
    offlineFlow: laterToolsFlow(TEXTS),
  }),
  texts: TEXTS,
};
