/**
 * The payments pack: payments's agent and the phrases the router learns it from (Payments: MoMo
 * payments, failed payments, receipts, order and payment status). Its tools come later: until then it says
 * plainly what it will do and offers a person.
 *
 * @module
 */
import { laterToolsFlow } from "@shared/registry/offline_steps.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { PAYMENTS_INTENTS } from "./intents.ts";

/** What the agent says until its tools exist, in en, rw and fr. */
const TEXTS = {
  soon: {
    en:
      "Soon I will take and check Mobile Money payments and send receipts. I cannot handle payments yet: a person from our team can help you now.",
    rw:
      "Vuba nzajya nakira kandi ngenzure ubwishyu bwa Mobile Money, nkohereze inyemezabwishyu. Ubu sindabishobora: umukozi wacu yagufasha ubu.",
    fr:
      "Bientôt je recevrai et vérifierai les paiements Mobile Money et enverrai les reçus. Je ne peux pas encore : une personne de notre équipe peut vous aider maintenant.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
};

/** The payments pack. */
export const PAYMENTS_PACK: Pack = {
  ...agentOnlyPack("payments", {
    id: "payments",
    intents: PAYMENTS_INTENTS,
    // Reached by its words: the menu keeps a row free for the next pack (a list holds ten).
    offlineFlow: laterToolsFlow(TEXTS),
  }),
  texts: TEXTS,
};
