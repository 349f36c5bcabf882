/**
 * The hardware pack: hardware's agent and the phrases the router learns it from (Hardware:
 * construction materials, tools, quincaillerie). Its tools come later: until
 * then it says plainly what it will do and offers a person.
 *
 * @module
 */
import { laterToolsFlow } from "@shared/registry/offline_steps.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { HARDWARE_INTENTS } from "./intents.ts";

/** What the agent says until its tools exist, in en, rw and fr. */
const TEXTS = {
  soon: {
    en:
      "Soon I will check building materials and tools in hardware stores near you. I cannot check stock yet: a person from our team can help you now.",
    rw:
      "Vuba nzajya ngenzura ibikoresho by'ubwubatsi mu maduka akwegereye. Ubu sindashobora kubigenzura: umukozi wacu yagufasha ubu.",
    fr:
      "Bientôt je vérifierai les matériaux et outils dans les quincailleries près de vous. Je ne peux pas encore vérifier : une personne de notre équipe peut vous aider maintenant.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
};

/** The hardware pack. */
export const HARDWARE_PACK: Pack = {
  ...agentOnlyPack("hardware", {
    id: "hardware",
    intents: HARDWARE_INTENTS,
    menuTitle: { en: "Hardware", rw: "Ibikoresho by'ubwubatsi", fr: "Quincaillerie" },
    offlineFlow: laterToolsFlow(TEXTS),
  }),
  texts: TEXTS,
};
