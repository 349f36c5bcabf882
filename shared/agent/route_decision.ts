/**
 * The router's decision for one incoming message, given where the
 * conversation stands: back to the main menu, pick a menu option, hand a
 * sensitive topic to a person, switch agent on a change of mind, stay with
 * the current agent, route a first message, or ask a clarifying question.
 * Pure: the classifier and language detector come in, a decision goes out;
 * the caller renders it and stores the next state.
 *
 * Topics come from the intent classifier. Small word lists only mark the
 * things a topic model should not guess: the words for "main menu", a menu
 * number, sensitive topics and a change of mind.
 *
 * @module
 */
import { asksForPerson, type Language } from "@shared/contract/language.ts";
import {
  CONFIDENCE_THRESHOLD,
  type IntentClassifier,
  trainIntentClassifier,
  type UnclearPhrases,
} from "./intent_classifier.ts";
import { tradesVehicle } from "./vehicle_trade.ts";
import { isClosing } from "@shared/contract/closing_message.ts";
import type { TextModel } from "./text_model.ts";
import { type IntentExamples, STAFF_WORK_LABEL } from "@shared/registry/intent_types.ts";
import {
  type LanguageDetector,
  requestedLanguage,
  trainLanguageDetector,
} from "./language_detect.ts";
import { safetyConcern } from "./safety.ts";
import { type HarmSignal, loadHarmSignal } from "./harm_signal.ts";
import { namesTrip, rideAskedTo } from "./trip_phrase.ts";
import {
  flowStep,
  newRequest,
  type PaymentAsked,
  paymentRequest,
  withoutLandmarks,
} from "@shared/contract/request_phrase.ts";
import { MENU_WORDS } from "@shared/contract/menu_words.ts";
import { asksOpeningHours } from "@shared/contract/opening_hours.ts";
import { asksHowToPay } from "@shared/contract/payment_question.ts";
import { asksWhereDelivered } from "@shared/contract/delivery_question.ts";
import { CANCEL_VERB, CHANGE_VERB } from "./change_verbs.ts";
import { withinTypo } from "@shared/contract/edit_distance.ts";
import {
  expandShorthands,
  type NameGazetteer,
  nameGazetteer,
  normalizeText,
  wordsOf,
} from "./text_features.ts";

/** Where a conversation stands, as far as routing is concerned. */
export interface RoutingState {
  /** The agent the conversation is with, or null before any. */
  agent: string | null;
  /** Whether the last thing sent was a menu (so a number picks an option). */
  atMenu: boolean;
  /** The ids of the options that menu showed, in order (option 1 first). */
  menuOptions: readonly string[];
  /** The user's sticky reply language, or null before we know it. */
  langPref: Language | null;
  /**
   * The titles of the options the current agent's last message offered. A
   * message naming one answers it ("c'est un taxi" to "Commercial (taxi…)"),
   * however much it sounds like another agent's topic.
   */
  offered?: readonly string[];
}

/** What to do with one message. */
export type RouteDecision =
  & {
    /** The language to reply in. */
    replyLanguage: Language;
    /** The sticky language preference to store for the next message. */
    langPref: Language | null;
    /** Whether the user explicitly asked for `langPref` in this message. */
    languageChanged: boolean;
  }
  & (
    /** Show the main menu. */
    | { kind: "menu" }
    /** The user picked option `option` (1-based) of the menu shown: go to `agent`. */
    | { kind: "pick"; option: number; agent: string }
    /**
     * Go to `agent` (a first message, a switch, or a sensitive topic when
     * `urgent`); `place` is the gazetteer's place the message names, if any:
     * where, for the agent, never what. `aside`: `agent` takes this message
     * only (a complaint made mid-flow) and the person keeps their flow.
     */
    | {
      kind: "route";
      agent: string;
      urgent: boolean;
      switched: boolean;
      confidence: number;
      place?: string;
      aside?: true;
      /** The message is the front desk's own (a greeting alone, an opening-hours question). */
      frontDeskOwn?: true;
    }
    /** Stay with the current agent; it handles the message. */
    | { kind: "stay"; agent: string }
    /**
     * Haste and nothing else, typed inside a flow ("vite svp", "quickly please", "haraka"): the
     * person wants the flow's work done fast; it is no answer, no item and no cry for help.
     */
    | { kind: "hurry" }
    /** Unsure: ask which of `options` the user means. */
    | { kind: "clarify"; options: readonly string[] }
    /**
     * A customer asks for work only staff do (a promotional video, a broadcast to every
     * customer, a report): no customer agent does it, and a staff agent is never reached; say
     * so and offer a person.
     */
    | {
      kind: "staff_work";
      /** Asked inside a flow: told beside it, the flow kept. */
      inFlow?: true;
    }
    /**
     * Moving or cancelling something not named ("move it", "je veux l'annuler", "ndashaka
     * kuyimura"): it is the person's open work, wherever it is; `about` is the agent the one
     * activity it names leans to ("guhagarika gusura": a viewing), if any; `change` is what
     * the person asked: a move (to another time) or a cancel.
     */
    | {
      kind: "open_work";
      about?: string;
      change: "move" | "cancel";
      /** Typed inside a flow: with nothing of the person's open, the flow reads it. */
      inFlow?: true;
    }
    /**
     * A first message surely asking for a service this tenant does not run ("I want a moto" to a
     * paper company): `service` is the agent that would answer it elsewhere; the person is told
     * this business does not offer it and what it does, never routed to another tenant's agent.
     */
    | { kind: "not_offered"; service: string }
  );

/** What the router decides with. */
export interface RouteContext {
  /** The trained intent classifier. */
  classifier: IntentClassifier;
  /** The trained language detector. */
  detector: LanguageDetector;
  /** Confidence below which a first message gets a clarifying question. @default CONFIDENCE_THRESHOLD */
  threshold?: number;
  /**
   * Confidence above which a message in the middle of a flow, with no "actually"
   * marker, still switches agent ("I need a taxi" while ordering food). @default 0.8
   */
  switchThreshold?: number;
  /** The agents it routes between, read from the packs (`createRouter`). */
  agents: RouterAgents;
  /** The places a message may name, handed to the agent a route reaches. @default none */
  places?: NameGazetteer;
  /**
   * The names a trip's ends may be: the places, and the other neutral names the packs read as
   * where (districts and towns the gazetteer cannot locate: "je veux aller à Rubavu" is a
   * trip the agent then asks about). @default `places`
   */
  tripEnds?: NameGazetteer;
  /** Vehicle makes and models, read as a vehicle where one is bought or sold. @default none */
  vehicles?: NameGazetteer;
  /**
   * The learned safety signal beside the lexicon: harm told in words the
   * lexicon never listed still goes to a person. @default none (lexicon only)
   */
  harm?: HarmSignal;
}

/** The agents the router routes between, by the part they play (read from the packs' roles). */
export interface RouterAgents {
  /** Where conversations start and return (never switched to on a change of mind). */
  frontDesk: string;
  /** Where sensitive topics go, urgently. */
  handoff: string;
  /** The services a clarifying question lists, in order (at most 10: one WhatsApp list). */
  menu: readonly string[];
  /** Every agent a customer may reach; staff-only agents are never among them. */
  customer: readonly string[];
  /** The agents the classifier learnt (the others are reached by their keywords or menu). */
  learnt?: readonly string[];
  /**
   * Whether a message in `agent`'s conversation stays with it whatever topic
   * its words name (`PackAgent.holds`). @default never
   */
  holds?(agent: string, text: string): boolean;
  /** The agents whose flow answers the hours of the place the person is at. @default none */
  answersHours?: readonly string[];
  /** The agent a first message naming a trip reaches (`PackAgent.takesTrips`). @default none */
  trips?: string;
  /**
   * The agent a first message buying or selling a vehicle reaches
   * (`PackAgent.takesVehicleTrade`). @default none
   */
  vehicleTrade?: string;
  /**
   * The agent a request to pay something other than the current flow's thing
   * reaches mid-flow (`PackAgent.takesPayments`). @default none
   */
  payments?: string;
  /**
   * The agent a complaint about a service reaches, and how it hears one
   * (`PackAgent.takesComplaint`; `inFlow` when the person is mid-flow).
   * @default none
   */
  complaints?: { agent: string; hears(text: string, options: { inFlow: boolean }): boolean };
  /**
   * The agent a first message following up a purchase reaches when the agent its words name
   * does not answer follow-ups (`answers`) or is not run, and how it hears one
   * (`PackAgent.takesFollowUp`). @default none
   */
  followUps?: { agent: string; hears(text: string): boolean; answers: readonly string[] };
  /**
   * A tenant's view only: the whole platform's classifier, which still reads a topic this tenant
   * does not run as that topic, so the person can be told it is not offered here. @default none
   */
  everyService?: IntentClassifier;
}

/** What {@linkcode trainRouteContext} trains from. */
export interface RouteTraining {
  /** Every customer agent's phrases (the packs' `PACK_INTENTS`). */
  examples: readonly IntentExamples[];
  /** Filler phrases taught as the unclear class (the packs' `UNCLEAR_PHRASES`). */
  unclear?: UnclearPhrases;
  /** The agents it routes between, read from the packs. */
  agents: RouterAgents;
  /** Names that carry no language and no topic (the packs' places and brands). @default [] */
  neutralNames?: readonly string[];
  /** The packs' gazetteer of places: neutral too, and a route hands the one named to the agent. @default [] */
  places?: readonly string[];
  /** The packs' vehicle makes and models (already among `neutralNames`). @default [] */
  vehicleNames?: readonly string[];
  /** The linear model blended into the intent classifier (see `IntentTrainOptions.model`). */
  model?: TextModel;
  /** Its share of the blend. @default ROUTING_MODEL_SHARE */
  modelShare?: number;
}

/**
 * The linear model's share of the intent classifier's belief when one is given: chosen on the
 * dev sets and the cross-writer check (docs/agents.md, routing): half keeps naive Bayes's
 * sureness on the curated phrases and adds what the corpus taught the linear model.
 */
export const ROUTING_MODEL_SHARE = 0.5;

/**
 * Trains, at start, the intent classifier and the language detector the
 * router decides with, reading each phrase's features once for both.
 *
 * @example
 * ```ts
 * import { trainRouteContext } from "@shared/agent/route_decision.ts";
 * import { createRouter } from "@shared/agent/router.ts";
 * import { PACK_INTENTS, PACKS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
 * // The agents are the packs' (createRouter reads them); only the training differs here.
 * const { agents } = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });
 * const context = trainRouteContext({ examples: PACK_INTENTS, unclear: UNCLEAR_PHRASES, agents });
 * ```
 */
export function trainRouteContext(training: RouteTraining): RouteContext {
  const featureCache = new Map<string, string[]>();
  const places = training.places ?? [];
  const neutralNames = [...training.neutralNames ?? [], ...places];
  return {
    classifier: trainIntentClassifier(training.examples, {
      unclear: training.unclear,
      featureCache,
      neutralNames,
      model: training.model,
      modelShare: training.modelShare ?? ROUTING_MODEL_SHARE,
    }),
    detector: trainLanguageDetector(training.examples, { featureCache, neutralNames }),
    agents: training.agents,
    places: nameGazetteer(places),
    tripEnds: nameGazetteer(neutralNames),
    vehicles: nameGazetteer(training.vehicleNames ?? []),
    // Its own corpus only: the router's phrases never move a harm verdict.
    harm: loadHarmSignal(),
  };
}

// Normalised once: the checks below run on every message.
const MENU_KEYS = MENU_WORDS.map(normalizeText);
const MENU_NUMBERS = new Set(["num"]); // "0" normalises to "num"; checked on the raw text below.

// "vuba" and "urgent" ask for speed ("moto vuba"); with a call for help, or
// alone, they are a cry for help.
const URGENT_WORDS = new Set(["urgent", "urgently", "vuba", "asap", "vite", "quickly"]);
const HELP_WORDS = new Set([
  "help",
  "aide",
  "aidez",
  "secours",
  "ubufasha",
  "mumfashe",
  "mfasha",
  "nfasha",
  "please",
]);
// The words a bare cry for help may carry beside its urgent and help words.
const CRY_WORDS = new Set([
  "i",
  "need",
  "me",
  "us",
  "now",
  "pls",
  "plz",
  "moi",
  "nous",
  // "svp" and "stp", as the router reads them written out.
  "s",
  "il",
  "vous",
  "te",
  "plait",
  "maintenant",
  "ubu",
  "nonaha",
  "nkeneye",
  "ndakwinginze",
  "mwihangane",
]);

const CHANGE_OF_MIND = [
  "actually",
  "instead",
  "rather",
  "changed my mind",
  "change of plan",
  "no wait",
  "forget it",
  "forget that",
  "en fait",
  "plutot",
  "finalement",
  "non en fait",
  "j ai change d avis",
  "laisse tomber",
  "ahubwo",
  "ahubwose",
  "nahinduye",
  "nhinduye",
  "reka da",
  "oya reka",
];

const CHANGE_OF_MIND_KEYS = CHANGE_OF_MIND.map(normalizeText);

// Asking us to stop sending messages, in the three languages ("stop sending me…", "ne m'envoyez
// plus…", "ntimukongere kunyoherereza…"); a bare "STOP" is the broadcasts' own opt-out.
const STOP_RECEIVING_KEYS = [
  "stop sending me",
  "stop texting me",
  "stop messaging me",
  "don't send me",
  "do not send me",
  "no more messages",
  "unsubscribe me",
  "remove me from",
  "arretez de m'envoyer",
  "arrete de m'envoyer",
  "ne m'envoyez plus",
  "je ne veux plus recevoir",
  "desabonnez moi",
  "mureke kunyoherereza",
  "mureke kunyandikira",
  "ntimukongere kunyoherereza",
  "ntimukongere kunyandikira",
  "sinshaka ubutumwa",
].map(normalizeText);

function asksToStopReceiving(normalized: string): boolean {
  const padded = ` ${normalized} `;
  return STOP_RECEIVING_KEYS.some((key) => padded.includes(` ${key} `));
}

/**
 * Decides what to do with one message.
 *
 * @example A change of mind mid-flow
 * ```ts
 * import { decideRoute } from "@shared/agent/route_decision.ts";
 * import { createRouter } from "@shared/agent/router.ts";
 * import { PACKS } from "@shared/platform/platform.ts";
 * const context = createRouter({ packs: PACKS });
 * const state = { agent: "waiter_ai", atMenu: false, menuOptions: [], langPref: "en" as const };
 * decideRoute("actually I need a taxi", state, context).kind; // "route"
 * ```
 */
export function decideRoute(
  text: string,
  state: RoutingState,
  context: RouteContext,
): RouteDecision {
  const { detector } = context;
  const agents = context.agents;
  const isCustomer = (agent: string) => isCustomerAgent(agent, agents);
  const threshold = context.threshold ?? CONFIDENCE_THRESHOLD;
  const switchThreshold = context.switchThreshold ?? 0.8;
  const normalized = normalizeText(text);
  const words = wordsOf(normalized);

  const requested = requestedLanguage(text);
  // "menu", "0", "home" say nothing about the language ("main" is French too); a courtesy
  // with them does ("menu stp").
  const menuRequest = isMenuRequest(text, normalized);
  const detected = requested ??
    (menuRequest
      ? detector.detect(courtesiesOf(words).join(" "))
      // Mid-flow, a reply's borrowed English nouns (the shop's "sugar") keep the conversation's
      // language; a first message or one at the menu is read as it stands.
      : detector.detect(text, { conversation: state.agent !== null ? state.langPref : null }));
  const langPref = detected ?? state.langPref;
  const language = {
    replyLanguage: langPref ?? "en",
    langPref,
    languageChanged: requested !== null,
  };
  const currentAgent = state.agent !== null && isCustomer(state.agent) ? state.agent : null;
  // What the front desk answers itself from the tenant's data (hours, how to pay, a greeting).
  const frontDeskAnswers = (switched = false): RouteDecision => ({
    ...language,
    kind: "route",
    agent: agents.frontDesk,
    urgent: false,
    switched,
    confidence: 1,
    frontDeskOwn: true,
  });

  // Haste typed inside a flow is about the flow's work ("quickly please" while ordering), unless
  // it calls for help or names a danger: then it is a cry, handed to a person below.
  const serving = currentAgent !== null && !state.atMenu && currentAgent !== agents.frontDesk &&
    currentAgent !== agents.handoff;
  if (
    serving && onlyHaste(words) && safetyConcern(text) === null && !context.harm?.flags(text)
  ) {
    return { ...language, kind: "hurry" };
  }
  if (isUnsafe(text, words, context.harm)) {
    return {
      ...language,
      kind: "route",
      agent: agents.handoff,
      urgent: true,
      switched: currentAgent !== agents.handoff,
      confidence: 1,
    };
  }
  if (menuRequest) return { ...language, kind: "menu" };
  // "Are you open on Sunday?", « vous ouvrez à quelle heure ? », "mufungura saa ngahe?": the
  // front desk answers from the places' hours, unless the words surely seek a kind of place
  // another agent finds ("is there a pharmacy open now in Remera?").
  // Inside a flow that knows where the person is (the place being ordered from), that place's.
  if (asksOpeningHours(text) && !seeksAPlace(text, context)) {
    if (serving && agents.answersHours?.includes(currentAgent)) {
      return { ...language, kind: "stay", agent: currentAgent };
    }
    return frontDeskAnswers(currentAgent !== null && currentAgent !== agents.frontDesk);
  }
  // A complaint about a driver, a vendor, an order or a venue goes to a person, not urgently,
  // whatever service its words name ("Mfite ikibazo, umushoferi yanshyize nabi" is no new ride).
  // Made mid-flow ("the driver was rude" while booking a ride), it is heard aside: the person
  // keeps the flow they are in, unless they ask for a person (then they are handed over).
  const complaints = agents.complaints;
  const atFrontDesk = currentAgent === null || state.atMenu || currentAgent === agents.frontDesk;
  const inFlow = !atFrontDesk && currentAgent !== complaints?.agent && !asksForPerson(text);
  if (
    complaints !== undefined && isCustomer(complaints.agent) &&
    (atFrontDesk || inFlow) && complaints.hears(text, { inFlow })
  ) {
    return {
      ...language,
      kind: "route",
      agent: complaints.agent,
      urgent: false,
      switched: currentAgent !== complaints.agent,
      confidence: 1,
      ...(inFlow ? { aside: true as const } : {}),
    };
  }

  // How to pay, asked first ("Je peux payer par MoMo ?") where no payments agent is run: the
  // front desk answers from the tenant's own data; it is no service missing and no item.
  const paymentsRun = agents.payments !== undefined && isCustomer(agents.payments);
  if (atFrontDesk && !paymentsRun && asksHowToPay(text)) {
    return frontDeskAnswers();
  }
  // Whether and where the business delivers, asked first ("mukora delivery i Remera?", "do you
  // deliver?"): the front desk answers from the places' delivery data. Inside a flow, the flow
  // answers it for its own place; one that names a thing to bring ("vous livrez des sambusa ?",
  // "vous livrez des médicaments ?") is the agent's that sells it (one rule with the front desk's
  // own turn: `asksWhereDelivered`).
  if (atFrontDesk && asksWhereDelivered(text)) {
    return frontDeskAnswers();
  }

  const number = menuNumber(text);
  if (number !== null && state.atMenu) {
    const agent = state.menuOptions[number - 1];
    if (agent !== undefined && isCustomer(agent)) {
      return { ...language, kind: "pick", option: number, agent };
    }
    return { ...language, kind: "menu" };
  }

  if (requested !== null) {
    // Only a language change (the request is the whole message): carry on where we were.
    if (currentAgent !== null) return { ...language, kind: "stay", agent: currentAgent };
    return { ...language, kind: "menu" };
  }

  const changeOfMind = markedChangeOfMind(normalized);
  // Moving or cancelling "it" from the front desk names no service: it is the person's open work
  // (a booking, a viewing, a ride), never a search for the verb.
  if (changeOfMind === null && atFrontDesk) {
    const changed = unnamedChange(words);
    if (changed !== null) {
      const leaning = changed.length > 0 ? context.classifier.classify(changed) : null;
      const about = leaning !== null && leaning.agent !== null && isCustomer(leaning.agent) &&
          leaning.confidence >= threshold
        ? leaning.agent
        : null;
      const change = words.some((word) => CANCEL_VERB.test(word)) ? "cancel" : "move";
      return { ...language, kind: "open_work", change, ...(about !== null ? { about } : {}) };
    }
  }
  const topicText = changeOfMind ?? text;
  const { agent, confidence } = changeOfMind === null && (state.agent === null || state.atMenu)
    ? requestTopic(text, words, context, threshold, agents.frontDesk)
    : topicOf(topicText, words, context, threshold, agents.frontDesk);
  const routable = agent !== null && isCustomer(agent) ? agent : null;

  if (currentAgent !== null && !state.atMenu) {
    const elsewhere = (candidate: string | null): candidate is string =>
      candidate !== null && isCustomer(candidate) && candidate !== currentAgent &&
      candidate !== agents.frontDesk;
    // Paying something that is not the flow's thing ("I want to pay my electricity bill" while
    // ordering) is a new request for payments, whatever the bill's words lean to, and though
    // "pay" is on the flow's own button ("Pay with MoMo"); paying what the flow sells ("to pay
    // the premium" at Insurance) stays.
    const payments = agents.payments ?? null;
    const paid = changeOfMind === null && elsewhere(payments) &&
        currentAgent !== agents.frontDesk
      ? paymentRequest(text)
      : null;
    const paysOut = paid !== null && paysElsewhere(paid, currentAgent, context);
    if (changeOfMind === null && !paysOut && namesAnOption(words, state.offered ?? [])) {
      return { ...language, kind: "stay", agent: currentAgent };
    }
    if (changeOfMind === null && agents.holds?.(currentAgent, text)) {
      return { ...language, kind: "stay", agent: currentAgent };
    }
    // "Move it" or "cancel it" and nothing else, typed inside a flow, means what it means at the
    // menu: the person's open work (an order just placed), never an item or a place to read.
    // The steps hand the turn back to the flow when nothing of theirs is open.
    if (changeOfMind === null && unnamedChange(words) === "") {
      const change = words.some((word) => CANCEL_VERB.test(word)) ? "cancel" : "move";
      return { ...language, kind: "open_work", change, inFlow: true };
    }
    if (paysOut && payments !== null) {
      return {
        ...language,
        kind: "route",
        agent: payments,
        urgent: false,
        switched: true,
        confidence: 1,
        ...placeOf(normalized, context),
      };
    }
    // In a flow (not at the front desk) paying for its thing, its delivery or its pickup is the
    // flow's next step ("I want to pay with momo" while ordering), not the payments service.
    const inFlow = currentAgent !== agents.frontDesk;
    // A new request ("I want to buy medicine") leaves for the agent its object names surely: the
    // whole message or the request alone, whichever is surer. Below that bar a request is the
    // flow's own ("I want to pay now" while ordering, "I need it delivered").
    const asked = changeOfMind === null ? newRequest(text, { skipFlowSteps: inFlow }) : null;
    // How the flow's thing is paid ("can I pay cash?", "nakwishyura mu ntoki?") is a question
    // to the flow, however surely "pay" names the payments service.
    const paysHow = changeOfMind === null && inFlow && !paysOut && asksHowToPay(text);
    if (paysHow || changeOfMind === null && asked === null && inFlow && flowStep(text) !== null) {
      return { ...language, kind: "stay", agent: currentAgent };
    }
    // The team's own work asked mid-flow ("how many drivers are online in total?") is told
    // aside, as at the menu; the flow is kept. A sentence, surely staff work: a flow's short
    // answer never is, and a weak lean stays the flow's to read.
    if (
      changeOfMind === null && agent === STAFF_WORK_LABEL && confidence >= STAFF_WORK_IN_FLOW &&
      words.length >= 3 && !isContentFree(words)
    ) {
      return { ...language, kind: "staff_work", inFlow: true };
    }
    // A landmark ("a house near a pharmacy") says where, not what: the flow reads the message
    // without it. A message that is only a landmark ("near the gare") answers where.
    const { agent: placedAgent, confidence: placedConfidence } = changeOfMind === null
      ? withoutLandmarksTopic(text, words, context, threshold, agents.frontDesk)
      : { agent, confidence };
    const placed = placedAgent !== null && isCustomer(placedAgent) ? placedAgent : null;
    // Two words ("ndashaka kwishyura") may be the flow's own step as much as a new service.
    if (
      asked !== null && words.length >= 3 && !isContentFree(wordsOf(asked)) &&
      !asksForUnnamedThing(wordsOf(asked))
    ) {
      const alone = context.classifier.classify(asked);
      const best = elsewhere(alone.agent) && alone.confidence > placedConfidence
        ? { agent: alone.agent, confidence: alone.confidence }
        : { agent: placed, confidence: placedConfidence };
      if (elsewhere(best.agent) && best.confidence >= Math.max(threshold, REQUEST_SWITCH)) {
        return {
          ...language,
          kind: "route",
          agent: best.agent,
          urgent: false,
          switched: true,
          confidence: best.confidence,
          ...placeOf(normalized, context),
        };
      }
    }
    // Anything else is the flow's answer: a story, a description, an address. Only a short,
    // surely-named thing with no amount or number in it ("a moto to Remera") still leaves; the
    // money and places an answer tells of are the flow's to read.
    const shortBareRequest = asked === null && words.length >= 3 &&
      words.length <= SHORT_REQUEST_WORDS && !words.some((word) => ANSWER_DATA.has(word)) &&
      placedConfidence >= switchThreshold;
    const switchTo = changeOfMind !== null
      ? (elsewhere(routable) && confidence >= threshold ? routable : null)
      : (elsewhere(placed) && shortBareRequest ? placed : null);
    if (switchTo === null) return { ...language, kind: "stay", agent: currentAgent };
    return {
      ...language,
      kind: "route",
      agent: switchTo,
      urgent: false,
      switched: true,
      confidence,
      ...placeOf(normalized, context),
    };
  }

  if (number !== null) return { ...language, kind: "menu" };
  // A purchase followed up ("my order is late", « facture pour ma commande A-1001 ») goes where
  // follow-ups are answered: the agent its words name, if it answers them, else a person; never
  // "which service?" because the tenant does not run the agent that would (a waiter, payments).
  const followUps = agents.followUps;
  if (
    followUps !== undefined && isCustomer(followUps.agent) && followUps.hears(text) &&
    !(routable !== null && confidence >= threshold && followUps.answers.includes(routable))
  ) {
    return {
      ...language,
      kind: "route",
      agent: followUps.agent,
      urgent: false,
      switched: false,
      confidence: 1,
    };
  }
  // An origin and a destination ask for a ride whatever the rest leans to ("kuva Remera
  // kugera Kicukiro" is all places and joining words to the topic model), unless the rest
  // surely names another agent's thing ("cement from Gisozi to Kimironko").
  const trips = agents.trips;
  if (
    trips !== undefined && isCustomer(trips) &&
    (context.places !== undefined &&
        namesTrip(text, context.tripEnds ?? context.places) &&
        !(routable !== null && routable !== trips && routable !== agents.frontDesk &&
          confidence >= TRIP_OVERRIDE) ||
      hiresRide(text, trips, context, agents.frontDesk))
  ) {
    return {
      ...language,
      kind: "route",
      agent: trips,
      urgent: false,
      switched: false,
      confidence: Math.max(confidence, threshold),
      ...placeOf(normalized, context),
    };
  }
  // A greeting and nothing else is for the front desk, whatever its letters
  // share with a topic ("bon apres midi" is no lunch order).
  if (isGreetingOnly(words)) {
    return frontDeskAnswers();
  }
  // Thanks or goodbye and nothing else asks for no service: the front desk takes leave, never
  // "which service?".
  if (isClosing(text)) return frontDeskAnswers();
  // The team's own work asked for ("make a video ad for my shop"): told plainly, never routed.
  if (agent === STAFF_WORK_LABEL && confidence >= threshold && !isContentFree(words)) {
    // Asking for our messages to stop names the broadcasts too, but it is the person's own
    // matter, which a person sees to (their data, their consent), not work to be told about.
    if (!asksToStopReceiving(normalized)) return { ...language, kind: "staff_work" };
    return {
      ...language,
      kind: "route",
      agent: agents.handoff,
      urgent: false,
      switched: currentAgent !== agents.handoff,
      confidence,
    };
  }
  // A service only other tenants run, asked for surely ("I want a moto" to a paper company):
  // said plainly, never "did not catch that" and never another tenant's agent.
  const elsewhere = routable === null || confidence < threshold
    ? notRunService(text, words, context, threshold)
    : null;
  if (elsewhere !== null) return { ...language, kind: "not_offered", service: elsewhere };
  // Only words that carry no topic ("i need", "est ce que", "nkeneye"): ask, whatever the
  // model makes of their letters.
  if (
    routable === null || confidence < threshold || isContentFree(words) ||
    asksForUnnamedThing(withoutGreetings(words)) || pointsBackOnly(withoutGreetings(words))
  ) {
    return { ...language, kind: "clarify", options: agents.menu };
  }
  return {
    ...language,
    kind: "route",
    agent: routable,
    urgent: false,
    switched: false,
    confidence,
    ...placeOf(normalized, context),
  };
}

// The customer service a first message surely asks for when this tenant does not run it (read
// by the whole platform's classifier, greetings and request openers aside), else null.
function notRunService(
  text: string,
  words: readonly string[],
  context: RouteContext,
  threshold: number,
): string | null {
  const { everyService, frontDesk, handoff, customer, payments } = context.agents;
  if (everyService === undefined || isContentFree(words)) return null;
  const whole = { ...context, classifier: everyService };
  const { agent, confidence } = requestTopic(text, words, whole, threshold, frontDesk);
  // Paying ("can I pay with momo?") is how any business is paid, never a service it lacks.
  return agent !== null && confidence >= Math.max(threshold, NOT_OFFERED_CONFIDENCE) &&
      agent !== frontDesk && agent !== handoff && agent !== payments &&
      agent !== STAFF_WORK_LABEL && !customer.includes(agent)
    ? agent
    : null;
}

// How sure a reading of an opening-hours question must be that it seeks a kind of place (a
// pharmacy open now) rather than asks the business's own hours.
const PLACE_SOUGHT = 0.8;

function seeksAPlace(text: string, context: RouteContext): boolean {
  // Read by the whole platform: a pharmacy sought from a paper company is not its hours.
  const { agent, confidence } = (context.agents.everyService ?? context.classifier).classify(text);
  return agent !== null && agent !== context.agents.frontDesk &&
    agent !== context.agents.handoff && confidence >= PLACE_SOUGHT;
}

// How sure the platform's reading must be before a person hears "we do not offer that": a
// wrong "not offered" turns a customer away ("do you print documents?" leans to the pharmacy).
const NOT_OFFERED_CONFIDENCE = 0.75;

// How sure the reading of what a payment pays for must be that it is another service's thing
// for paying it to leave the flow (the rent, while shopping).
const OTHER_THING = 0.5;

// Whether paying `asked` is another matter than the current flow's: a utility, fees, airtime
// or someone paid, or a thing another service reads surely; the premium at Insurance, the
// rent in Property or a thing the reader cannot place stays the flow's.
function paysElsewhere(asked: PaymentAsked, current: string, context: RouteContext): boolean {
  if (asked.obligation) return true;
  const reading = context.classifier.classify(asked.paid);
  return reading.agent !== null && reading.agent !== current &&
    reading.confidence >= OTHER_THING;
}

// How sure the reading of a new request's object must be for it to leave the flow: the things
// another service sells read at 1.0 ("to buy medicine", "a taxi"); the flow's own next step
// ("to pay now", "it delivered") reads lower.
const REQUEST_SWITCH = 0.9;
// How sure the classifier must be that a sentence typed inside a flow asks for staff work: above
// the first message's bar, as a flow's answers are read first as answers.
const STAFF_WORK_IN_FLOW = 0.6;

// The most words a message without a request opener may have and still leave a flow by naming
// another agent's thing ("a moto to Remera please"); longer, it tells the flow something.
const SHORT_REQUEST_WORDS = 5;

// What normalizeText makes of amounts and phone numbers: data an answer gives the flow.
const ANSWER_DATA = new Set(["num", "phone"]);

// How sure another agent's reading of a message naming a trip must be to keep it.
const TRIP_OVERRIDE = 0.85;

// A vehicle hired to somewhere ("a moto to the pharmacy", "une moto jusqu'à la pharmacie"): the
// destination's words say where, so the ride is asked for, unless what comes before the
// vehicle surely names another service's thing carried there.
function hiresRide(
  text: string,
  trips: string,
  context: RouteContext,
  frontDesk: string,
): boolean {
  const asked = rideAskedTo(text);
  if (asked === null) return false;
  const read = context.classifier.classify(asked);
  return read.agent === null || read.agent === trips || read.agent === frontDesk ||
    read.confidence < TRIP_OVERRIDE;
}

// The topic of a message read without its landmarks (request_phrase.ts): unchanged when it names
// none, no agent when it is all landmark.
function withoutLandmarksTopic(
  text: string,
  words: readonly string[],
  context: RouteContext,
  threshold: number,
  frontDesk: string,
): { agent: string | null; confidence: number } {
  const rest = withoutLandmarks(text);
  if (rest === null) return topicOf(text, words, context, threshold, frontDesk);
  if (rest === "") return { agent: null, confidence: 0 };
  return topicOf(rest, wordsOf(normalizeText(rest)), context, threshold, frontDesk);
}

// How sure a first message without its landmarks must be to speak for it when the whole
// message is surer of another agent.
const PLACED_CONFIDENCE = 0.5;

// How sure the reading of a first message's object must be to speak for the whole message.
const OBJECT_CONFIDENCE = 0.9;

// A first message that opens with a request ("ndashaka kugura panadol", "I want to sell my
// car") is about what it asks for: the openers ("I want", "ndashaka", "il me faut") are in
// every agent's phrases and lean to whichever has most of them. When the object alone names an
// agent surely, and surer than the whole message does, it decides; landmarks and home are where.
function requestTopic(
  text: string,
  words: readonly string[],
  context: RouteContext,
  threshold: number,
  frontDesk: string,
): { agent: string | null; confidence: number } {
  // A first message is never all landmark: when what is left names nothing surely ("how long
  // for my food order"), the landmark's words are the thing asked about.
  const whole = topicOf(text, words, context, threshold, frontDesk);
  const trade = vehicleTradeTopic(text, whole, context, threshold);
  if (trade !== null) return trade;
  const rest = withoutLandmarks(text);
  const restWords = rest === null ? [] : wordsOf(rest);
  const placed = restWords.length === 0 || isContentFree(restWords)
    ? whole
    : topicOf(rest!, restWords, context, threshold, frontDesk);
  // The thing without its purpose speaks when it is sure, or surer than the whole message: "a
  // doctor" alone is torn (hardware 0.26), "a doctor for my child" is the pharmacy's (0.40).
  const base = placed.agent !== null && placed.confidence >= threshold &&
      (placed.confidence >= PLACED_CONFIDENCE || placed.confidence >= whole.confidence)
    ? placed
    : whole;
  const object = newRequest(text);
  if (object === null) return base;
  const objectWords = wordsOf(object);
  if (isContentFree(objectWords) || asksForUnnamedThing(objectWords)) return base;
  const alone = objectReading(objectWords, context);
  return alone.agent !== null && alone.agent !== frontDesk && alone.agent !== base.agent &&
      alone.confidence >= OBJECT_CONFIDENCE && alone.confidence > base.confidence
    ? { agent: alone.agent, confidence: alone.confidence }
    : base;
}

// How sure the whole message must be of another agent to keep a vehicle bought or sold: "buy
// car insurance" is the insurer's.
const VEHICLE_OTHER_AGENT = 0.8;

// A first message buying or selling a vehicle (vehicle_trade.ts) is the vehicle trader's, unless
// it reads as a ride or surely names another agent's thing.
function vehicleTradeTopic(
  text: string,
  whole: { agent: string | null; confidence: number },
  context: RouteContext,
  threshold: number,
): { agent: string; confidence: number } | null {
  const { vehicleTrade, trips, frontDesk } = context.agents;
  if (vehicleTrade === undefined || whole.agent === vehicleTrade) return null;
  if (!tradesVehicle(normalizeText(text), context.vehicles)) return null;
  const other = whole.agent !== null && whole.agent !== trips && whole.agent !== frontDesk &&
    whole.confidence >= VEHICLE_OTHER_AGENT;
  return other ? null : { agent: vehicleTrade, confidence: Math.max(whole.confidence, threshold) };
}

// The most words of an object's head: the thing and whose or what kind ("umuti w inka", "a
// bag of cement", "une boîte de panadol").
const HEAD_WORDS = 3;
// "to", a Kinyarwanda infinitive (ku-/gu-/kw-) or a French infinitive.
const OPENS_WITH_VERB = /^(?:to|(?:ku|gu|kw)[a-z]{3,}|[a-z]{2,}(?:er|ir))$/;

// What a request's object names: the whole object, or, when that is unsure, its head alone, so
// what is said about the thing after it ("umuti w'inka yanze kurya": medicine for a cow that
// stopped eating) does not outweigh the thing asked for.
function objectReading(
  objectWords: readonly string[],
  context: RouteContext,
): { agent: string | null; confidence: number } {
  const whole = context.classifier.classify(objectWords.join(" "));
  // An object that opens with a verb ("to schedule a campaign", "gutwarwa ku isoko",
  // "réserver une table") has no thing at its head: the verb needs the rest.
  if (
    whole.confidence >= OBJECT_CONFIDENCE || objectWords.length <= HEAD_WORDS ||
    OPENS_WITH_VERB.test(objectWords[0])
  ) return whole;
  const head = context.classifier.classify(objectWords.slice(0, HEAD_WORDS).join(" "));
  return head.agent !== null && head.confidence >= OBJECT_CONFIDENCE ? head : whole;
}

// How sure the request after a greeting must be to outweigh the greeting's front desk.
const REQUEST_AFTER_GREETING = 0.5;

// A greeting before a request says nothing of the request ("bonjour, une moto pour
// Kacyiru"), though the front desk's phrases are full of greetings: the request alone is
// read first, and the whole message only when the request alone names no agent surely.
function topicOf(
  text: string,
  words: readonly string[],
  context: RouteContext,
  threshold: number,
  frontDesk: string,
): { agent: string | null; confidence: number } {
  const whole = context.classifier.classify(text);
  const rest = withoutGreetings(words);
  if (rest.length === words.length || rest.length === 0 || isContentFree(rest)) return whole;
  const request = context.classifier.classify(rest.join(" "));
  // A clear reading only: the whole message already has one (the front desk's).
  return request.agent !== null && request.agent !== frontDesk &&
      request.confidence >= Math.max(threshold, REQUEST_AFTER_GREETING)
    ? request
    : whole;
}

// The place a message names, for the route's `place`.
function placeOf(normalized: string, context: RouteContext): { place?: string } {
  const place = context.places?.find(normalized) ?? null;
  return place === null ? {} : { place };
}

// A word of three letters or more that one of the offered titles has.
function namesAnOption(words: readonly string[], offered: readonly string[]): boolean {
  if (!offered.length) return false;
  const optionWords = new Set(
    offered.flatMap((title) => wordsOf(normalizeText(title))).filter((word) => word.length >= 3),
  );
  return words.some((word) => optionWords.has(word));
}

/** Whether `agent` is one a customer may reach (never a staff agent: the packs say whose). */
export function isCustomerAgent(agent: string, agents: RouterAgents): boolean {
  return agents.customer.includes(agent);
}

// The lexicon's hit unless the harm signal clears the message as plainly ordinary, or the
// signal's own flag: the two read different evidence (words against a model of the whole
// message). The signal judges only what it can read (`clears`): a cry of a word or two keeps the
// lexicon's word, as a missed cry for help costs more than a false alarm.
function isUnsafe(text: string, words: string[], harm?: HarmSignal): boolean {
  if (harm === undefined) return isSensitive(text, words);
  if (harm.flags(text)) return true;
  return isSensitive(text, words) && !harm.clears(text);
}

// Danger, violence or theft in any wording (safety.ts), or a bare cry for help: an urgent word
// with nothing but calls for help, "please" and "me" ("urgent", "help me quickly", "mumfashe
// vuba"). A thing or a service named beside the haste is an order in a hurry ("moto vuba",
// "Panadol asap", "a taxi quickly please"), for its agent.
function isSensitive(text: string, words: string[]): boolean {
  if (safetyConcern(text) !== null) return true;
  if (!words.some((word) => URGENT_WORDS.has(word))) return false;
  return words.every((word) =>
    URGENT_WORDS.has(word) || HELP_WORDS.has(word) || CRY_WORDS.has(word)
  );
}

// Words of haste: the urgent words but "urgent" itself (alone, a cry even mid-flow), and
// "haraka" (Swahili, said in Kigali), "hurry", « dépêchez-vous », "bwangu".
const HASTE_WORDS = new Set([
  ...[...URGENT_WORDS].filter((word) => !word.startsWith("urgent")),
  ...[
    "haraka",
    "hurry",
    "fast",
    "faster",
    "quick",
    "rapidement",
    "rapide",
    "depeche",
    "depechez",
    "bwangu",
  ].map(normalizeText),
]);
// What haste may come with: courtesies, "now", "very" ("vite svp", "vuba cyane nkwinginze").
const HASTE_COMPANIONS = new Set(
  [
    "please",
    "pls",
    "plz",
    "svp",
    "stp",
    "s",
    "il",
    "vous",
    "te",
    "plait",
    "now",
    "up",
    "very",
    "so",
    "maintenant",
    "tres",
    "plus",
    "ubu",
    "nonaha",
    "cyane",
    "nkwinginze",
    "ndakwinginze",
    "mwihangane",
    "thanks",
    "merci",
    "murakoze",
  ].map(normalizeText),
);

// Only haste: a word of haste, with nothing but courtesies; never a call for help ("help me
// quickly", "mumfashe vuba" stay cries).
function onlyHaste(words: readonly string[]): boolean {
  return words.some((word) => HASTE_WORDS.has(word)) &&
    words.every((word) => HASTE_WORDS.has(word) || HASTE_COMPANIONS.has(word));
}

// Words that greet, in the three languages; and the words a greeting may come with.
const GREETINGS = new Set([
  "hi",
  "hello",
  "helo",
  "hey",
  "morning",
  "afternoon",
  "evening",
  "bonjour",
  "bonsoir",
  "salut",
  "slt",
  "bjr",
  "bsr",
  "muraho",
  "mwaramutse",
  "mwiriwe",
  "bite",
  "amakuru",
  // French "coucou" and the Swahili greetings Kigali mixes in. ("cc", SMS for "coucou", would
  // fold to "c", which is also "c'est": "c koi le plat du jour" would lose its first word.)
  "coucou",
  "hiya",
  "halo",
  "habari",
  "jambo",
  "mambo",
]);
const GREETING_COMPANIONS = new Set([
  "good",
  "day",
  "there",
  "to",
  "you",
  "all",
  "how",
  "are",
  "u",
  "doing",
  "again",
  "dear",
  "friend",
  "a",
  "vous",
  "tous",
  "ca",
  "va",
  "cv",
  "comment",
  "allez",
  "neza",
  "cyane",
  "se",
  "yanyu",
  "yawe",
  "mwese",
  "nshuti",
  "bayobozi",
  "mwe",
]);

// Greetings of several words whose words alone greet no one, and asking whether anyone is
// there ("is anyone there?", "il y a quelqu'un ?", "hari umuntu uhari?"), which opens a chat as
// a greeting does: it asks for no person in particular, nor for a service.
const GREETING_PHRASES = [
  "bon apres midi",
  "bonne journee",
  "bonne soiree",
  "good day",
  "is anyone there",
  "is anybody there",
  "anyone there",
  "anybody there",
  "are you there",
  "r u there",
  "il y a quelqu un",
  "y a quelqu un",
  "ya quelqu un",
  "vous etes la",
  "hari umuntu uhari",
  "hari uhari",
  "muri aho",
].map(normalizeText);

// Words that ask, point or want without saying what: pronouns, articles, question words,
// "want", "need", "can" (normalised; "help" is not among them: it asks the front desk).
// What it costs or whether it is there, without saying what ("how much?", "ni angahe?",
// "c'est dispo?", "birahari?"): every service has prices and stock, so the question names none.
// A thing beside them ("cement how much") is content.
const PRICE_WORDS = new Set(
  [
    "much",
    "price",
    "cost",
    "available",
    "availability",
    "combien",
    "prix",
    "coute",
    "dispo",
    "disponible",
    "angahe",
    "igiciro",
    "birahari",
    "bihari",
    "arahari",
    "irahari",
    "harahari",
  ].map(normalizeText),
);

const FUNCTION_WORDS = new Set(
  [
    // English
    "i",
    "me",
    "my",
    "you",
    "u",
    "we",
    "it",
    "is",
    "are",
    "am",
    "a",
    "an",
    "the",
    "to",
    "for",
    "of",
    "so",
    "and",
    "or",
    "do",
    "does",
    "can",
    "could",
    "would",
    "will",
    "want",
    "wanna",
    "need",
    "like",
    "have",
    "how",
    "who",
    "what",
    "where",
    "when",
    "why",
    "which",
    "tell",
    "this",
    "that",
    "there",
    "here",
    "anyone",
    "someone",
    "something",
    "anything",
    "possible",
    "ok",
    "yes",
    "no",
    // French
    "je",
    "j",
    "moi",
    "tu",
    "vous",
    "il",
    "elle",
    "on",
    "nous",
    "le",
    "la",
    "les",
    "l",
    "un",
    "une",
    "des",
    "de",
    "du",
    "d",
    "et",
    "ou",
    "mais",
    "est",
    "c",
    "ce",
    "ca",
    "que",
    "qu",
    "qui",
    "quoi",
    "comment",
    "pourquoi",
    "quand",
    "veux",
    "voudrais",
    "besoin",
    "faut",
    "ai",
    "avez",
    "peux",
    "pouvez",
    "dites",
    "dis",
    "alors",
    "m",
    "me",
    "entendez",
    "quelqu",
    "chose",
    "oui",
    "non",
    // Kinyarwanda
    "ndashaka",
    "nshaka",
    "nkeneye",
    "ndifuza",
    "nifuza",
    "ese",
    "se",
    "nde",
    "iki",
    "ki",
    "gute",
    "ryari",
    "he",
    "mbwira",
    "mumbwire",
    "mwumva",
    "ko",
    "ni",
    "na",
    "kandi",
    "cyangwa",
    "nakora",
    "birashoboka",
    "yego",
    "oya",
    // When, where and asking particles that name nothing ("ni angahe ubu?", "mbese ni he?",
    // "ngo iki?"), and "could you" without what ("mwashobora?").
    "ubu",
    "ubungubu",
    "nonaha",
    "mbese",
    "none",
    "hano",
    "aha",
    "ngo",
    "nshobora",
    "mushobora",
    "mwashobora",
    // "something" in the three languages and their SMS forms: a thing not named.
    "ikintu",
    "kintu",
    "qqch",
    "qqc",
    "quelquechose",
    "truc",
    "smth",
    "sth",
    "stuff",
    // Looking for, without saying what.
    "cherche",
    "looking",
    "search",
    ...PRICE_WORDS,
    // A problem or a question, without saying about what ("mfite ikibazo gito", "j'ai un souci").
    "problem",
    "issue",
    "question",
    "got",
    "small",
    "little",
    "probleme",
    "souci",
    "petit",
    "ikibazo",
    "mfite",
    "gito",
  ].map(normalizeText),
);

// A short message of function words only ("i need", "est ce que", "nkeneye", "mfite
// ikibazo"): it names nothing to route on. Longer ones ("what can you do for me") ask about
// the service.
function isContentFree(given: readonly string[]): boolean {
  // SMS forms ("nshk", "nkny", "pls") read as the words they stand for.
  const words = wordsOf(expandShorthands(given.join(" ")));
  // An elided letter ("what's", "c'est", "j'ai") is part of its word, not a word of its own.
  const plain = words.filter((word) => !COURTESIES.has(word) && word.length > 1);
  // A price or stock question may take a few more ("how much is it?", "is it still available").
  const most = plain.some((word) => PRICE_WORDS.has(word)) ? 5 : 3;
  return plain.length > 0 && plain.length <= most &&
    words.every((word) => COURTESIES.has(word) || FUNCTION_WORDS.has(word) || word === "s");
}

// "Something" in the three languages, a thing not named; and asking or a problem, about
// nothing named ("I want to ask", "ndashaka kubaza", "I have a small issue").
const UNNAMED = new Set(
  [
    "something",
    "smth",
    "sth",
    "stuff",
    "truc",
    "qqch",
    "qqc",
    "quelquechose",
    "ikintu",
    "kintu",
    "ask",
    "asking",
    "inquire",
    "enquire",
    "know",
    "savoir",
    "demander",
    "renseignement",
    "info",
    "information",
    "kubaza",
    "kumenya",
    "nabazaga",
    "nashakaga",
    "issue",
    "problem",
    "question",
    "probleme",
    "souci",
    "ikibazo",
  ].map(normalizeText),
);
// Help asked for, and the words that join it to what it is for ("help with", "aide pour",
// "ubufasha ku"), which name no service either.
const UNNAMED_COMPANIONS = new Set(
  [
    "help",
    "helping",
    "aide",
    "aider",
    "ubufasha",
    "gufashwa",
    "with",
    "from",
    "about",
    "on",
    "guys",
    "small",
    "quick",
    "pour",
    "sur",
    "petit",
    "chose",
    "quelque",
    "ku",
    "kuri",
    "gito",
    "voudrais",
    "aimerais",
    "veux",
    "juste",
    "just",
    "quick",
    "une",
    "un",
  ].map(normalizeText),
);

// Help with "something" and nothing named ("I need help with something", "j'ai besoin d'aide
// pour un truc", "ndashaka ubufasha ku kintu"): whatever the help words lean to (legal advice,
// a person), the thing is not said, so the router asks which service.
function asksForUnnamedThing(words: readonly string[]): boolean {
  const plain = words.filter((word) => !COURTESIES.has(word));
  return plain.length <= 8 && plain.some((word) => UNNAMED.has(word)) &&
    plain.every((word) =>
      UNNAMED.has(word) || UNNAMED_COMPANIONS.has(word) || FUNCTION_WORDS.has(word)
    );
}

// Words that point back to something said before, or to a time, without naming a thing ("is it
// still there?", "tomorrow morning then", "the one I asked about", "celui dont je vous ai parlé",
// "ejo mu gitondo noneho", "same as last time"): a first message made of them alone refers to a
// conversation the router has not seen, so it asks which service rather than guess.
const POINTING_BACK = new Set(
  [
    // English
    "still",
    "then",
    "again",
    "same",
    "one",
    "ones",
    "asked",
    "told",
    "mentioned",
    "said",
    "about",
    "earlier",
    "before",
    "last",
    "time",
    "as",
    "usual",
    "yesterday",
    "today",
    "tomorrow",
    "tonight",
    "morning",
    "later",
    "now",
    "at",
    "in",
    "on",
    // French
    "toujours",
    "encore",
    "demain",
    "matin",
    "soir",
    "hier",
    "aujourd",
    "hui",
    "celui",
    "celle",
    "ceux",
    "dont",
    "parle",
    "dit",
    "demande",
    "meme",
    "comme",
    "fois",
    "derniere",
    "habitude",
    "d",
    "y",
    "a",
    "en",
    // Kinyarwanda
    "ejo",
    "mu",
    "ku",
    "gitondo",
    "nimugoroba",
    "noneho",
    "uyu",
    "munsi",
    "cya",
    "kindi",
    "bya",
    "bindi",
    "ya",
    "yindi",
    "kiriya",
    "biriya",
    "nyine",
    "nka",
    "nk",
    "ubushize",
    "nababajije",
    "nababwiye",
    "mwambwiye",
  ].map(normalizeText),
);
// The same words with a thing's name in them that are still no thing: "is it there" as one
// Kinyarwanda verb ("kiracyahari", "biracyahari", "aracyahari": subject, "still", "be there").
const STILL_THERE = /^(?:ki|bi|a|i|u|ri|zi|ka|tu|cyi|byi)?(?:ra)?(?:cya)?hari$/;

// A first message of words that point back or to a time, and nothing named (up to eight words).
function pointsBackOnly(given: readonly string[]): boolean {
  const words = wordsOf(expandShorthands(given.join(" ")))
    .filter((word) => !COURTESIES.has(word));
  if (words.length === 0 || words.length > 8) return false;
  const pointing = (word: string) => POINTING_BACK.has(word) || STILL_THERE.test(word);
  return words.some((word) => pointing(word) && word.length > 2) &&
    words.every((word) => pointing(word) || FUNCTION_WORDS.has(word) || word.length <= 1);
}

// Words that stand for the thing without naming it ("it", "l'", "that one"), and the rest of
// "s'il vous plaît".
const OBJECT_PRONOUNS = new Set(
  ["it", "l", "la", "le", "les", "that", "this", "one", "them", "plait", "plais"],
);
// A Kinyarwanda infinitive names an activity ("gusura", to visit), not a thing.
const ACTIVITY = /^(?:ku|gu|kw)[a-z]{3,}$/;

/**
 * A message that only moves or cancels something it does not name: the words beside the verb,
 * "" when there are none, or an activity it names alone ("gusura"); null when it is no such
 * message (no verb, or a thing named: "cancel my booking" goes to the booking's agent).
 */
function unnamedChange(words: readonly string[]): string | null {
  const plain = wordsOf(expandShorthands(words.join(" "))).filter((word) => !COURTESIES.has(word));
  if (plain.length === 0 || plain.length > 8 || !plain.some((word) => CHANGE_VERB.test(word))) {
    return null;
  }
  const rest = plain.filter((word) =>
    !CHANGE_VERB.test(word) && !OBJECT_PRONOUNS.has(word) && !FUNCTION_WORDS.has(word) &&
    word.length > 1
  );
  if (rest.length === 0) return "";
  return rest.length === 1 && ACTIVITY.test(rest[0]) ? rest[0] : null;
}

// The words of a message after the greetings it opens with ("bonjour", "bon apres midi");
// only at the start, where a greeting stands ("bikoreshwa bite" is "how does it work").
function withoutGreetings(words: readonly string[]): string[] {
  let at = 0;
  while (at < words.length) {
    const rest = ` ${words.slice(at).join(" ")} `;
    const phrase = GREETING_PHRASES.find((p) => rest.startsWith(` ${p} `));
    if (phrase !== undefined) at += phrase.split(" ").length;
    else if (GREETINGS.has(words[at])) at++;
    else break;
  }
  return words.slice(at);
}

// Only a greeting: at least one greeting and nothing but greetings and their
// companions ("good afternoon", "bonjour a tous", "mwiriwe neza").
function isGreetingOnly(words: readonly string[]): boolean {
  let text = ` ${words.filter((word) => !COURTESIES.has(word)).join(" ")} `;
  let greeted = false;
  for (const phrase of GREETING_PHRASES) {
    if (text.includes(` ${phrase} `)) {
      greeted = true;
      text = text.replaceAll(` ${phrase} `, " ");
    }
  }
  const rest = wordsOf(text.trim());
  return (greeted || rest.some((word) => GREETINGS.has(word))) &&
    rest.every((word) => GREETINGS.has(word) || GREETING_COMPANIONS.has(word));
}

// Courtesies a menu word may come with ("menu please", "menu stp", "ahabanza nkwinginze").
const COURTESIES = new Set(
  ["please", "pls", "plz", "stp", "svp", "merci", "thanks", "nkwinginze", "murakoze"].map(
    normalizeText,
  ),
);

function courtesiesOf(words: readonly string[]): string[] {
  return words.filter((word) => COURTESIES.has(word));
}

/**
 * Whether a message asks for the main menu, as the router reads it anywhere: "menu" and its
 * typos, "0", a wish to go back to the start ("go back to the start", « retour au début »,
 * "subira ahabanza"), a courtesy beside.
 */
export function asksForMenu(text: string): boolean {
  return isMenuRequest(text, normalizeText(text));
}

function isMenuRequest(text: string, normalized: string): boolean {
  if (/^\s*0+\s*[.!]?\s*$/.test(text)) return true;
  const plain = wordsOf(normalized).filter((word) => !COURTESIES.has(word)).join(" ");
  if (plain === "" || MENU_NUMBERS.has(plain) && !/^\s*0/.test(text)) return false;
  if (MENU_KEYS.some((word) => withinTypo(plain, word))) return true;
  return asksForMainMenu(plain);
}

// Verbs and articles that ask to be shown something, at a message's start, in the three
// languages ("show me the", "montre moi le", "nyereka", "mwampa").
const SHOW_WORDS = new Set(
  [
    "show",
    "send",
    "give",
    "gimme",
    "me",
    "the",
    "your",
    "montre",
    "montrez",
    "envoie",
    "envoyez",
    "donne",
    "donnez",
    "moi",
    "le",
    "votre",
    "nyereka",
    "munyereke",
    "mwanyereka",
    "nyoherereza",
    "mpa",
    "mumpe",
    "mwampa",
  ].map(normalizeText),
);
// The menu words that can only mean the main menu ("main menu", "menu principal",
// "ahabanza"), not a venue's ("show me the menu" at a bar is the waiter's).
const MAIN_MENU_KEYS = MENU_KEYS.filter((key) =>
  !/^(?:menu|menyu|meni|menue|munu|back|home)$/.test(key)
);

// Going back, and the words that lead there, in the three languages ("back to the", "take me
// back to", "retour au", "nsubize kuri", "subira ku"): going back to a menu can only be the
// main one, never a venue's.
const RETURN_WORDS = new Set(
  [
    "back",
    "go",
    "take",
    "bring",
    "return",
    "retour",
    "retourner",
    "revenir",
    "ramene",
    "ramenez",
    "nsubize",
    "nsubiza",
    "subira",
    "gusubira",
    "dusubire",
    "tusubire",
    "nsubire",
  ].map(normalizeText),
);
// What leads from a return word to the menu ("to the", "au", "kuri"), with the show words.
const RETURN_LEADS = new Set(
  ["to", "the", "au", "a", "la", "le", "kuri", "ku", "kuri", "me", "moi"].map(normalizeText),
);
// The main menu said as "the first menu" or "the main menu" in Kinyarwanda ("menu ya mbere",
// "menu nkuru"), which a venue's menu never is.
const RW_MAIN_MENU = /^(?:menu|menyu) (?:ya mbere|nkuru|y ibanze|ya mbere mbere)$/;

// The start, as where going back leads ("back to the start", "retour au début", "gusubira ku
// ntangiriro"): only after a return word, since "start" alone starts something.
const START_KEYS = new Set(
  ["start", "beginning", "debut", "depart", "commencement", "ntangiriro", "itangiriro"].map(
    normalizeText,
  ),
);
// How a wish opens before going back ("i want to", "je voudrais", "ndashaka", "nifuza"): it
// leads to the return word, which must follow.
const WISH_OPENERS = new Set(
  [
    "i",
    "want",
    "wanna",
    "would",
    "like",
    "to",
    "je",
    "veux",
    "voudrais",
    "aimerais",
    "ndashaka",
    "nshaka",
    "ndifuza",
    "nifuza",
  ].map(normalizeText),
);

// A greeting and a request to be shown, or taken back to, the main menu ("slt, montre moi le
// menu principal", "back to the main menu please", "nsubize kuri menu ya mbere", "i want to
// go back to the start").
function asksForMainMenu(plain: string): boolean {
  const spoken = withoutGreetings(wordsOf(plain));
  const opener = spoken.findIndex((word) => !WISH_OPENERS.has(word));
  const words = opener > 0 && RETURN_WORDS.has(spoken[opener]) ? spoken.slice(opener) : spoken;
  let at = 0;
  let back = false;
  while (
    at < words.length &&
    (SHOW_WORDS.has(words[at]) || RETURN_WORDS.has(words[at]) ||
      (back && RETURN_LEADS.has(words[at])))
  ) {
    back ||= RETURN_WORDS.has(words[at]);
    at++;
  }
  const rest = words.slice(at).join(" ");
  if (rest === "") return false;
  return MAIN_MENU_KEYS.includes(rest) || RW_MAIN_MENU.test(rest) ||
    (back && (START_KEYS.has(rest) || MENU_KEYS.some((word) => withinTypo(rest, word))));
}

// "2", "2.", "option 2", "no 2", "n°2", "2️⃣": a menu number, or null.
function menuNumber(text: string): number | null {
  const match =
    /^\s*(?:option|choice|choix|no|n°|nº|#|numero|nimero)?\s*(\d{1,2})\s*(?:\uFE0F?\u20E3)?\s*[.)!]?\s*$/i
      .exec(text);
  return match === null ? null : Number(match[1]);
}

// The request after a change-of-mind marker, or null when there is none.
function markedChangeOfMind(normalized: string): string | null {
  const padded = ` ${normalized} `;
  for (const marker of CHANGE_OF_MIND_KEYS) {
    const at = padded.indexOf(` ${marker} `);
    if (at === -1) continue;
    const rest = padded.slice(at + marker.length + 2).trim();
    return rest === "" ? normalized : rest;
  }
  return null;
}
