/**
 * The legal pack: legal_intake's agent and the phrases the router learns it from (Legal Intake:
 * lawyers, contracts, disputes, notary services). Its tools come later: until
 * then it says plainly what it will do and offers a person.
 *
 * @module
 */
import { statelessFlow } from "@shared/registry/flow_memory.ts";
import { laterToolsFlow } from "@shared/registry/offline_steps.ts";
import { agentOnlyPack, type Pack } from "@shared/registry/pack.ts";
import { LEGAL_INTENTS } from "./intents.ts";

/** What the agent says until its tools exist, in en, rw and fr. */
const TEXTS = {
  soon: {
    en:
      "Soon I will take down your legal question and prepare your documents for a lawyer. I cannot do that yet: a person from our team can help you now.",
    rw:
      "Vuba nzajya nandika ikibazo cyawe cy'amategeko kandi ntegure inyandiko zawe ku munyamategeko. Ubu sindabishobora: umukozi wacu yagufasha ubu.",
    fr:
      "Bientôt je noterai votre question juridique et préparerai vos documents pour un avocat. Je ne peux pas encore : une personne de notre équipe peut vous aider maintenant.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
};

/** The legal pack. */
export const LEGAL_PACK: Pack = {
  ...agentOnlyPack("legal_intake", {
    id: "legal_intake",
    name: "Legal Intake",
    description: "Takes down legal cases for a lawyer; gives no legal advice.",
    audience: "customers",
    tools: ["search_supabase", "generate_pdf", "momo_charge", "notify_staff", "analytics_log"],
    intents: LEGAL_INTENTS,
    // Reached by its words: the menu holds the ten services a WhatsApp list can show.
    // It keeps nothing between turns: typed as such, a deploy never restarts it.
    ...statelessFlow(laterToolsFlow(TEXTS)),
  }),
  texts: TEXTS,
};
