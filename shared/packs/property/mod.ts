/**
 * The property pack: property's agent and the phrases the router learns it from (Property: houses,
 * rooms, apartments and land to rent or buy, viewings). Its tools come later: until then it
 * says plainly what it will do and offers a person.
 *
 * @module
 */
import { statelessFlow } from "@shared/registry/flow_memory.ts";
import { laterToolsFlow } from "@shared/registry/offline_steps.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { PROPERTY_INTENTS } from "./intents.ts";

/** What the agent says until its tools exist, in en, rw and fr. */
const TEXTS = {
  soon: {
    en:
      "Soon I will find houses and apartments to rent near you and arrange visits. I cannot search listings yet: a person from our team can help you now.",
    rw:
      "Vuba nzajya nkubonera inzu zo gukodesha hafi yawe kandi ntegure gusura. Ubu sindashobora gushaka inzu: umukozi wacu yagufasha ubu.",
    fr:
      "Bientôt je trouverai des maisons et appartements à louer près de vous et organiserai les visites. Je ne peux pas encore chercher : une personne de notre équipe peut vous aider maintenant.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
};

/** The property pack. */
export const PROPERTY_PACK: Pack = {
  ...agentOnlyPack("property", {
    id: "property",
    name: "Property",
    description: "Finds rentals and schedules viewings.",
    audience: "customers",
    tools: [
      "search_supabase",
      "schedule_viewing",
      "generate_pdf",
      "momo_charge",
      "notify_staff",
      "analytics_log",
    ],
    intents: PROPERTY_INTENTS,
    menuTitle: { en: "Rent a house", rw: "Gukodesha inzu", fr: "Louer un logement" },
    // It keeps nothing between turns: typed as such, a deploy never restarts it.
    ...statelessFlow(laterToolsFlow(TEXTS)),
  }),
  texts: TEXTS,
};
