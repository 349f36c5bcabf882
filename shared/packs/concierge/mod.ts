/**
 * The concierge pack: the front desk. A conversation starts here; a greeting (or a message for an
 * agent with no flow of its own) gets the welcome and the menu of every agent that has a menu
 * title.
 *
 * @module
 */
import { phraseBook } from "@shared/contract/language.ts";
import { statelessFlow } from "@shared/registry/flow_memory.ts";
import type { OfflineFlow, Pack } from "@shared/registry/pack.ts";
import { MESSAGE_RECEIVED } from "@shared/capabilities/messaging/events.ts";
import { CONCIERGE_INTENTS } from "./intents.ts";

const TEXTS = {
  welcome: {
    en: "Hi! I'm {brand}. What do you need today?",
    rw: "Muraho! Ndi {brand}. Ukeneye iki uyu munsi?",
    fr: "Bonjour ! Je suis {brand}. De quoi avez-vous besoin aujourd'hui ?",
  },
  // A tenant without a brand (tests building a bare roster) is greeted without a name.
  welcome_unbranded: {
    en: "Hi! What do you need today?",
    rw: "Muraho! Ukeneye iki uyu munsi?",
    fr: "Bonjour ! De quoi avez-vous besoin aujourd'hui ?",
  },
} as const;

const say = phraseBook(TEXTS);

/** The welcome and the menu. */
export const frontDeskFlow: OfflineFlow = (turn) =>
  Promise.resolve({
    replies: [{
      text: turn.brand
        ? say("welcome", turn.language, { brand: turn.brand })
        : say("welcome_unbranded", turn.language),
      rows: turn.menu.map((entry) => ({
        id: `agent:${entry.id}`,
        title: entry.title[turn.language],
      })),
    }],
  });

/** The concierge pack. */
export const CONCIERGE_PACK: Pack = {
  id: "concierge_router",
  tools: [],
  agents: [{
    id: "concierge_router",
    name: "Concierge Router",
    description: "First contact; works out what the user needs and hands over to the right agent.",
    audience: "customers",
    tools: ["search_supabase", "notify_staff", "analytics_log"],
    intents: CONCIERGE_INTENTS,
    role: "front_desk",
    // It keeps nothing between turns; agents without a flow of their own (the staff agents)
    // answer with it, and with its memory.
    ...statelessFlow(frontDeskFlow),
  }],
  tables: {},
  texts: TEXTS,
  services: [],
  // The front desk owns the conversation; the channel writes the event when a message commits.
  events: [MESSAGE_RECEIVED],
};
