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
import { asksOpeningHours } from "@shared/contract/opening_hours.ts";
import { HOURS_TABLES, readHoursAnswer } from "@shared/capabilities/opening_hours/mod.ts";
import { asksHowToPay, otherMeansAnswer } from "@shared/contract/payment_question.ts";
import { asksWhereDelivered } from "@shared/contract/delivery_question.ts";
import { isClosing } from "@shared/contract/closing_message.ts";
import {
  DELIVERY_TABLES,
  deliveryAnswer,
  readDeliveryPlaces,
} from "@shared/capabilities/delivery/mod.ts";

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
  // How to pay, asked first: from whether the tenant has a MoMo account on record.
  paysMomo: {
    en:
      "Yes, {brand} takes MoMo: once you confirm an order, a MoMo payment request comes to your phone. What would you like?",
    rw:
      "Yego, {brand} yakira MoMo: numara kwemeza itumiza, ubusabe bwo kwishyura na MoMo buza kuri telefoni yawe. Wifuza iki?",
    fr:
      "Oui, {brand} accepte MoMo : une fois votre commande confirmée, une demande de paiement MoMo arrive sur votre téléphone. Que souhaitez-vous ?",
  },
  paysAsk: {
    en: "{brand} takes no payment in this chat. A person from our team can tell you how to pay.",
    rw:
      "{brand} ntiyakira kwishyura muri iki kiganiro. Umuntu wo mu itsinda ryacu arakubwira uko wishyura.",
    fr:
      "{brand} ne prend pas de paiement dans cette discussion. Une personne de notre équipe peut vous dire comment payer.",
  },
  // Thanks or goodbye alone: leave taken, and the way back.
  farewell: {
    en: "You're welcome! Write any time you need something: 'menu' shows our services.",
    rw: "Urakoze nawe! Igihe cyose ukeneye ikintu, andika 'menu' urebe serivisi zacu.",
    fr: "Avec plaisir ! Écrivez-nous quand vous voulez : « menu » affiche nos services.",
  },
  thisBusiness: { en: "This business", rw: "Iki kigo", fr: "Cette entreprise" },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à une personne" },
  noDeliveryRead: {
    en: "I cannot read the delivery details right now. A person from our team can tell you.",
    rw:
      "Sinshoboye kubona amakuru y'uko tugeza ibicuruzwa ku bakiriya ubu. Umuntu wo mu itsinda ryacu arabikubwira.",
    fr:
      "Je ne peux pas lire les informations de livraison pour l'instant. Une personne de notre équipe peut vous renseigner.",
  },
} as const;

const say = phraseBook(TEXTS);

/**
 * The welcome and the menu; an opening-hours question ("are you open on Sunday?", « vous ouvrez
 * à quelle heure ? ») is answered from the tenant's places' hours first, with the menu under it.
 */
export const frontDeskFlow: OfflineFlow = async (turn, callTool) => {
  const rows = turn.menu.map((entry) => ({
    id: `agent:${entry.id}`,
    title: entry.title[turn.language],
  }));
  if (turn.input.text && isClosing(turn.input.text)) {
    return { replies: [{ text: say("farewell", turn.language) }] };
  }
  if (turn.input.text && asksOpeningHours(turn.input.text)) {
    const text = await readHoursAnswer(callTool, {
      text: turn.input.text,
      language: turn.language,
      now: turn.now ?? new Date(),
    });
    if (text !== null) return { replies: [{ text, rows }] };
  }
  // "Do you deliver to Nyamata?", "do you deliver?": from the places' delivery data; without
  // any, a person. One naming a thing to bring is its seller's (the router's rule too).
  if (turn.input.text && asksWhereDelivered(turn.input.text)) {
    const places = await readDeliveryPlaces(callTool);
    const answer = places
      ? deliveryAnswer({
        places,
        text: turn.input.text,
        language: turn.language,
        currency: turn.currency,
      })
      : { text: say("noDeliveryRead", turn.language), askPerson: true };
    // A person offered as the one button when nothing is on record; the menu otherwise.
    return {
      replies: [
        answer.askPerson && turn.handoff
          ? {
            text: answer.text,
            buttons: [{ id: `agent:${turn.handoff}`, title: say("person", turn.language) }],
          }
          : { text: answer.text, rows },
      ],
    };
  }
  // Known only when the tenant's data says (a bare roster in tests says nothing: the welcome).
  if (turn.input.text && turn.takesMomo !== undefined && asksHowToPay(turn.input.text)) {
    const brand = turn.brand ?? say("thisBusiness", turn.language);
    // A bank transfer, a card, cash, paying on delivery: not known from the data, so never a yes.
    const other = turn.takesMomo
      ? otherMeansAnswer(turn.input.text, { language: turn.language, brand })
      : null;
    if (other) {
      return {
        replies: [{
          text: other,
          ...(turn.handoff
            ? { buttons: [{ id: `agent:${turn.handoff}`, title: say("person", turn.language) }] }
            : { rows }),
        }],
      };
    }
    return {
      replies: [{
        text: say(turn.takesMomo ? "paysMomo" : "paysAsk", turn.language, { brand }),
        rows,
      }],
    };
  }
  return {
    replies: [{
      text: turn.brand
        ? say("welcome", turn.language, { brand: turn.brand })
        : say("welcome_unbranded", turn.language),
      rows,
    }],
  };
};

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
  // The places, their weekly hours and their delivery, for "are you open on Sunday?" and "do
  // you deliver to Remera?".
  tables: {
    ...DELIVERY_TABLES,
    ...HOURS_TABLES,
  },
  texts: TEXTS,
  services: [],
  // The front desk owns the conversation; the channel writes the event when a message commits.
  events: [MESSAGE_RECEIVED],
};
