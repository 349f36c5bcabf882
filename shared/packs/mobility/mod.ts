/**
 * The mobility pack: mobility_orchestrator's agent and the phrases the router learns it from (the
 * Mobility Orchestrator: moto, taxi and cab rides, drivers, trips across Kigali). Its tools come later:
 * until then it says plainly what it will do and offers a person.
 *
 * @module
 */
import { laterToolsFlow } from "@shared/registry/offline_steps.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { MOBILITY_INTENTS } from "./intents.ts";

/** What the agent says until its tools exist, in en, rw and fr. */
const TEXTS = {
  soon: {
    en:
      "Soon I will book motos and taxis across Kigali and tell you the fare before you ride. I cannot book rides yet: a person from our team can help you now.",
    rw:
      "Vuba nzajya nguhamagarira moto na tagisi muri Kigali, nkubwire igiciro mbere yo kugenda. Ubu sindashobora gutumiza urugendo: umukozi wacu yagufasha ubu.",
    fr:
      "Bientôt je réserverai motos et taxis dans Kigali et vous dirai le prix avant la course. Je ne peux pas encore réserver : une personne de notre équipe peut vous aider maintenant.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
};

/** The mobility pack. */
export const MOBILITY_PACK: Pack = {
  ...agentOnlyPack("mobility", {
    id: "mobility_orchestrator",
    intents: MOBILITY_INTENTS,
    menuTitle: { en: "Rides & moto", rw: "Ingendo na moto", fr: "Courses et moto" },
    offlineFlow: laterToolsFlow(TEXTS),
  }),
  texts: TEXTS,
};
