/**
 * The insurance pack: insurance's agent and the phrases the router learns it from (Insurance: motor
 * insurance, carte jaune, travel and health cover, claims). Its tools come later: until then it
 * says plainly what it will do and offers a person.
 *
 * @module
 */
import { laterToolsFlow } from "@shared/registry/offline_steps.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { INSURANCE_INTENTS } from "./intents.ts";
import { priceInsurance } from "./price_insurance.ts";
import { ocrExtract } from "./ocr_extract.ts";

/** What the agent says until its tools exist, in en, rw and fr. */
const TEXTS = {
  soon: {
    en:
      "Soon I will quote and renew insurance for your car or moto from a photo of your documents. I cannot quote yet: a person from our team can help you now.",
    rw:
      "Vuba nzajya nkubarira kandi nkongerera ubwishingizi bw'imodoka cyangwa moto uhereye ku ifoto y'ibyangombwa. Ubu sindabishobora: umukozi wacu yagufasha ubu.",
    fr:
      "Bientôt je ferai le devis et le renouvellement de l'assurance de votre voiture ou moto à partir d'une photo de vos documents. Je ne peux pas encore : une personne de notre équipe peut vous aider maintenant.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
};

/** The insurance pack. */
export const INSURANCE_PACK: Pack = {
  ...agentOnlyPack("insurance", {
    id: "insurance",
    intents: INSURANCE_INTENTS,
    menuTitle: { en: "Insurance", rw: "Ubwishingizi", fr: "Assurance" },
    offlineFlow: laterToolsFlow(TEXTS),
  }),
  tools: [priceInsurance, ocrExtract],
  texts: TEXTS,
};
