/**
 * Loads the held-out routing sets and scores the router on them; shared by
 * `scripts/eval_routing.ts` (the report) and the sets' own tests.
 *
 * @module
 */
import { parse } from "yaml";
import type { Language } from "@shared/contract/language.ts";
import { decideRoute, type RouteContext, type RoutingState } from "@shared/agent/route_decision.ts";

const DIR = new URL("./", import.meta.url);

/** One labelled first message. */
export interface FirstMessage {
  text: string;
  language: Language;
  /** The agent it should reach, or `clarify`. */
  expect: string;
  /** Whether it describes danger, violence or theft: it must reach a person, urgently. */
  safety?: boolean;
}

/** The label of a harder set's messages that must reach a person urgently. */
export const SAFETY_LABEL = "safety";

/**
 * Which harder set: `held_out` (harder_messages.*.yaml, never tuned on) or
 * `dev` (harder_dev, dev_patterns, dev_morphology and dev_harm .*.yaml, what the harder-message behaviour
 * was tuned on).
 */
export type HarderSplit = "held_out" | "dev";

/**
 * The harder first messages of every language (place names beside unrelated
 * topics, vehicle makes, SMS spelling, code-switching, safety said
 * indirectly). A message under `safety` expects the hand-off agent, urgently.
 */
export function loadHarderMessages(
  split: HarderSplit = "held_out",
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  // The dev split is the first tuning set plus the pattern set written to find weaknesses
  // by kind (code-switching, SMS spelling, places and vehicles in any topic, vague asks).
  return loadSafetyLabelledSet(
    split === "held_out"
      ? ["harder_messages"]
      : ["harder_dev", "dev_patterns", "dev_morphology", "dev_harm"],
    handoff,
  );
}

/**
 * The blind first messages of every language (blind_messages.*.yaml): written
 * without reading the router, its training phrases or the other sets, so they
 * measure how routing generalises; never tune on them. A message under
 * `safety` expects the hand-off agent, urgently.
 */
export function loadBlindMessages(handoff = "support_handoff"): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet(["blind_messages"], handoff);
}

/**
 * Which half of the fresh sets: `dev` (fresh_dev.*.yaml, to tune on) or
 * `blind` (fresh_blind.*.yaml, scored once and never read for errors).
 */
export type FreshSplit = "dev" | "blind";

/**
 * The fresh first messages of every language (issue 24 item 6): written as
 * customers type on WhatsApp before reading the router, then split at random
 * into a half to tune on and a half held out. A message under `safety`
 * expects the hand-off agent, urgently.
 */
export function loadFreshMessages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh_${split}`], handoff);
}

/**
 * The second fresh set (fresh2_*.yaml, issue 24 item 6): written like the
 * first before the router was read, covering the newer packs (property, legal
 * intake) and indirect safety wording, split by need with one seed for all
 * three languages so no held-out message translates a tuning one.
 */
export function loadFresh2Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh2_${split}`], handoff);
}

/**
 * The third fresh set (fresh3_*.yaml, issue 24 item 6): written like the
 * others before the router was read, with more indirect safety wording (fear,
 * hiding, being followed, a child or old person hurt or missing, fire, gas, an
 * overdose) and ordinary needs said with alarming words ("your prices are
 * killing me", insurance against theft), split by need with one seed.
 */
export function loadFresh3Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh3_${split}`], handoff);
}

/**
 * The fourth fresh set (fresh4_*.yaml, issue 24 item 6): ordinary first
 * messages only (no safety), written like the others before the router was
 * read, in proportion to real use (food, rides, pharmacy, shops, hardware,
 * buy & sell, insurance, property, legal, payments), with greetings and
 * unclear messages, split by need with one seed.
 */
export function loadFresh4Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh4_${split}`], handoff);
}

/**
 * The safety set (safety5_*.yaml, issue 24 item 6): danger, violence and theft
 * said indirectly (fear, hiding, threats by text, a child hurt or missing, fire,
 * gas, poison, a robbery just done, a fraud, violence at home told obliquely,
 * self-harm hinted) and ordinary needs said with alarming words, written before
 * the harm code was read and split by need with one seed
 * (`source/split_set.py safety5`). Its files' header states the labelling policy.
 */
export function loadSafety5Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`safety5_${split}`], handoff);
}

/**
 * The second safety set (safety6_*.yaml, issue 24 item 6): danger written
 * differently from safety5 (one clause of a long message, danger to a third
 * person, told as a question, Kinyarwanda SMS verb forms, French SMS, medical
 * emergencies) and ordinary needs using alarming words in new ways (media,
 * idioms, products, jobs, past paperwork), written before the harm code was
 * read and split by need with one seed (`source/split_set.py safety6`).
 */
export function loadSafety6Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`safety6_${split}`], handoff);
}

/**
 * The fifth fresh set (fresh5_*.rw.yaml, issue 24 item 6): Kinyarwanda only,
 * ordinary first messages as typed on WhatsApp (SMS spelling, dropped vowels,
 * code-switched nouns, verb forms with object infixes), written before the
 * router or its phrases were read, split by need with one seed.
 */
export function loadFresh5Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh5_${split}`], handoff, ["rw"]);
}

/**
 * The sixth fresh set (fresh6_*.yaml, issue 24 item 6): ordinary first messages
 * written before the router or its phrases were read, weighted to what earlier
 * sets under-covered: a story before the need, needs said indirectly ("the
 * fridge is empty"), two domains where one is the object ("a moto to the
 * pharmacy"), Kinyarwanda verb forms and SMS spelling, code-switching inside a
 * sentence; split by need with one seed (`source/split_set.py fresh6`).
 */
export function loadFresh6Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh6_${split}`], handoff);
}

/**
 * The seventh fresh set (fresh7_blind.*.yaml, issue 24 item 6): ordinary first
 * messages of every customer agent in proportion to real use, with greetings
 * and unclear asks, written by an engineer who tunes nothing, before reading
 * the router, its phrases or the other sets. Blind only: it has no dev half.
 */
export function loadFresh7Messages(handoff = "support_handoff"): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet(["fresh7_blind"], handoff);
}

/**
 * The third safety set (safety7_blind.*.yaml, issue 24 item 6): danger now or
 * just done (violence, theft, fraud, threats, medical emergencies, a third
 * person, one clause of an ordinary request, a question) and ordinary needs
 * said with alarming words, written like the seventh fresh set by an engineer
 * who tunes nothing. Blind only: it has no dev half; policy in its files' header.
 */
export function loadSafety7Messages(handoff = "support_handoff"): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet(["safety7_blind"], handoff);
}

/**
 * The eighth fresh set (fresh8_blind.*.yaml, issue 24 item 6): 140 ordinary
 * first messages per language over every customer agent in proportion to real
 * use, with greetings and unclear asks (long stories with the need at the end,
 * negations, mixed needs, questions about an order or booking already made),
 * written by a second engineer who tunes nothing, before reading the router, its
 * phrases, corpus or the other sets. Blind only: it has no dev half.
 */
export function loadFresh8Messages(handoff = "support_handoff"): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet(["fresh8_blind"], handoff);
}

/**
 * The fourth safety set (safety8_blind.*.yaml, issue 24 item 6): 45 messages per
 * language describing danger, violence, theft, threats, a medical emergency,
 * someone missing, fire or being followed, mostly without the obvious word, and
 * 48 ordinary needs said with alarming words, written like the eighth fresh set.
 * Blind only: it has no dev half; policy in its files' header.
 */
export function loadSafety8Messages(handoff = "support_handoff"): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet(["safety8_blind"], handoff);
}

/**
 * The ninth fresh set (fresh9_*.yaml, issue 24 item 6): fresh8's size and labels
 * (140 ordinary first messages per language), written by a new writer before the
 * round that tunes on it: other ages and jobs, long stories, one-word asks, SMS
 * spelling, code-switching with Swahili and French words, complaints, negations,
 * two needs in one message; split by need with one seed (`source/split_set.py fresh9`).
 */
export function loadFresh9Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh9_${split}`], handoff);
}

/**
 * The tenth fresh set (fresh10_*.yaml, issue 24 item 6): fresh9's size and labels,
 * written by another new writer before the round that tunes on it, as people unlike
 * fresh9's: market women, moto drivers, students, relatives abroad paying for family,
 * elderly people dictating to a grandchild, shop owners, nurses; Kinyarwanda as typed,
 * Kigali French, second-language English; split by need with one seed
 * (`source/split_set.py fresh10`).
 */
export function loadFresh10Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh10_${split}`], handoff);
}

/**
 * The eleventh fresh set (fresh11_*.yaml, issue 24 item 6): fresh10's size and labels,
 * written by another new writer before the round that tunes on it, as people unlike
 * fresh10's: church volunteers, bus travellers up-country, hairdressers, night guards,
 * new arrivals from Burundi and the DRC, teenagers typing slang, a formal accountant;
 * split by need with one seed (`source/split_set.py fresh11`).
 */
export function loadFresh11Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh11_${split}`], handoff);
}

/**
 * The fifth safety set (safety9_*.yaml, issue 24 item 6): 48 dangers per language
 * (theft and threats told without the word, violence at home told by a relative, a
 * medical emergency now, fire, gas, fumes, a child or an elder missing, blackmail,
 * a trafficked worker) each beside an everyday neighbour on the same ground (a gas
 * refill, sleeping pills for grief, last year's theft in court), written by a new
 * writer before the round that tunes on it and split by need with one seed
 * (`source/split_set.py safety9`). Its files' header states the labelling policy.
 */
export function loadSafety9Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`safety9_${split}`], handoff);
}

/**
 * The twelfth fresh set (fresh12_*.yaml, issue 24 item 6): fresh11's size and labels,
 * written by another new writer before the round that tunes on it, as people unlike
 * fresh11's: market traders, moto drivers writing as customers, university students,
 * retired teachers, night-shift nurses, relatives abroad ordering for family in Kigali,
 * farmers up-country, people dictating to a friend; split by need with one seed
 * (`source/split_set.py fresh12`).
 */
export function loadFresh12Messages(
  split: FreshSplit,
  handoff = "support_handoff",
): Promise<FirstMessage[]> {
  return loadSafetyLabelledSet([`fresh12_${split}`], handoff);
}

/** A held-out set with no dev half: nobody tunes on it and its errors are never read. */
export interface BlindOnlySet {
  /** The report's title. */
  title: string;
  /** Its messages; a `safety` message expects `handoff`, urgently. */
  load: (handoff?: string) => Promise<FirstMessage[]>;
}

/**
 * The blind-only sets, written by someone other than the people who tune the
 * router, so the router cannot learn their author's wording. Scored only with
 * `--blind`, totals only.
 */
export const BLIND_ONLY_SETS: readonly BlindOnlySet[] = [
  { title: "Seventh fresh first messages", load: loadFresh7Messages },
  { title: "Third safety set", load: loadSafety7Messages },
  { title: "Eighth fresh first messages", load: loadFresh8Messages },
  { title: "Fourth safety set", load: loadSafety8Messages },
];

/** A set split into a half to tune on (`dev`) and a half held out (`blind`). */
export interface HalvedSet {
  /** The report's title. */
  title: string;
  /** One half's messages; a `safety` message expects `handoff`, urgently. */
  load: (split: FreshSplit, handoff?: string) => Promise<FirstMessage[]>;
}

/**
 * Every set with a dev and a blind half, in the report's order: the one list
 * the evaluation, the rule ablation and the sets' own tests walk, so a new set
 * is added here once.
 */
export const HALVED_SETS: readonly HalvedSet[] = [
  { title: "Fresh first messages", load: loadFreshMessages },
  { title: "Second fresh first messages", load: loadFresh2Messages },
  { title: "Third fresh first messages", load: loadFresh3Messages },
  { title: "Fourth fresh first messages", load: loadFresh4Messages },
  { title: "Safety set", load: loadSafety5Messages },
  { title: "Second safety set", load: loadSafety6Messages },
  // Kinyarwanda only: its other languages' lines read n/a.
  { title: "Fifth fresh first messages (rw)", load: loadFresh5Messages },
  { title: "Sixth fresh first messages", load: loadFresh6Messages },
  { title: "Ninth fresh first messages", load: loadFresh9Messages },
  { title: "Tenth fresh first messages", load: loadFresh10Messages },
  { title: "Eleventh fresh first messages", load: loadFresh11Messages },
  { title: "Fifth safety set", load: loadSafety9Messages },
  { title: "Twelfth fresh first messages", load: loadFresh12Messages },
];

/**
 * Every first message the router may be tuned on: the first set, the harder
 * set's dev split and the dev half of each {@linkcode HALVED_SETS}; nothing
 * blind.
 */
export async function loadDevMessages(handoff = "support_handoff"): Promise<FirstMessage[]> {
  const halves = await Promise.all(HALVED_SETS.map(({ load }) => load("dev", handoff)));
  return [
    ...await loadFirstMessages(),
    ...await loadHarderMessages("dev", handoff),
    ...halves.flat(),
  ];
}

// A set of `<stem>.<language>.yaml` files mapping a route to its messages,
// where the `safety` label stands for the hand-off agent, urgently. A set
// written in fewer languages names them.
async function loadSafetyLabelledSet(
  stems: readonly string[],
  handoff: string,
  languages: readonly Language[] = ["en", "rw", "fr"],
): Promise<FirstMessage[]> {
  const all: FirstMessage[] = [];
  for (const stem of stems) {
    for (const language of languages) {
      const file = new URL(`${stem}.${language}.yaml`, DIR);
      const sets = parse(await Deno.readTextFile(file)) as Record<string, unknown[]>;
      for (const [label, texts] of Object.entries(sets)) {
        const safety = label === SAFETY_LABEL;
        for (const text of texts) {
          all.push({
            text: messageText(text, file),
            language,
            expect: safety ? handoff : label,
            safety,
          });
        }
      }
    }
  }
  return all;
}

/** One turn of a labelled conversation. */
export interface Turn {
  text: string;
  /** The agent after the turn, or `menu` / `clarify`. */
  expect: string;
  /** The language the reply should be in. */
  language: Language;
}

/** A labelled conversation. */
export interface Conversation {
  name: string;
  turns: Turn[];
  /** Never tuned on: the evaluation reports its total, never its errors. */
  heldOut?: boolean;
}

/** The held-out first messages of every language. */
export async function loadFirstMessages(): Promise<FirstMessage[]> {
  const all: FirstMessage[] = [];
  for (const language of ["en", "rw", "fr"] as const) {
    const file = new URL(`first_messages.${language}.yaml`, DIR);
    const sets = parse(await Deno.readTextFile(file)) as Record<string, unknown[]>;
    for (const [expect, texts] of Object.entries(sets)) {
      for (const text of texts) all.push({ text: messageText(text, file), language, expect });
    }
  }
  return all;
}

// A message must be a YAML scalar: an unquoted "? ..." or "- ..." line
// parses as a mapping or list and would be scored as "[object Object]".
function messageText(value: unknown, file: URL): string {
  if (typeof value === "string" || typeof value === "number") return String(value);
  throw new TypeError(
    `Cannot read a routing eval message as it is not text (quote it): current value is ${
      JSON.stringify(value)
    } in ${file.pathname}`,
  );
}

/** The held-out conversations. */
export async function loadConversations(): Promise<Conversation[]> {
  const raw = parse(await Deno.readTextFile(new URL("conversations.yaml", DIR))) as Array<
    { name: string; held_out?: boolean; turns: Array<[string | number, string, Language]> }
  >;
  return raw.map(({ name, held_out, turns }) => ({
    name,
    ...(held_out ? { heldOut: true } : {}),
    turns: turns.map(([text, expect, language]) => ({ text: String(text), expect, language })),
  }));
}

/** What the router did with one message, beside what it should have done. */
export interface Scored {
  text: string;
  language: Language;
  expect: string;
  got: string;
  expectLanguage?: Language;
  gotLanguage: Language;
  /** Whether the message must reach a person urgently (a harder set's safety message). */
  safety?: boolean;
  /** Whether the decision was an urgent hand-off to a person. */
  urgent?: boolean;
}

/** How a message is decided: {@linkcode decideRoute}, or a variant of it being measured. */
export type Decide = typeof decideRoute;

/** The route a decision amounts to, and the state after it. */
export function applyDecision(
  text: string,
  state: RoutingState,
  context: RouteContext,
  decide: Decide = decideRoute,
): { got: string; replyLanguage: Language; next: RoutingState; urgent: boolean } {
  const decision = decide(text, state, context);
  const urgent = decision.kind === "route" && decision.urgent;
  const langPref = decision.langPref;
  // The live router's menu (from the packs).
  const menu = context.agents.menu;
  const atMenuState = { agent: null, atMenu: true, menuOptions: menu, langPref };
  switch (decision.kind) {
    case "menu":
      return { got: "menu", replyLanguage: decision.replyLanguage, next: atMenuState, urgent };
    case "clarify":
      return { got: "clarify", replyLanguage: decision.replyLanguage, next: atMenuState, urgent };
    case "staff_work":
      // Told that the team does it, at the front desk (a customer asking for staff-only work).
      return {
        got: "staff_work",
        replyLanguage: decision.replyLanguage,
        next: atMenuState,
        urgent,
      };
    case "open_work":
      // The person's open work, wherever it is (a bare "move it"): the agent it leans to, if any.
      return {
        got: decision.about ?? "open_work",
        replyLanguage: decision.replyLanguage,
        next: atMenuState,
        urgent,
      };
    case "not_offered":
      // A service the tenant does not run (a tenant's router only): told so, with its menu.
      return {
        got: "not_offered",
        replyLanguage: decision.replyLanguage,
        next: atMenuState,
        urgent,
      };
    case "hurry":
      // Haste inside a flow: heard, and the flow kept.
      return {
        got: state.agent ?? "hurry",
        replyLanguage: decision.replyLanguage,
        next: { ...state, langPref },
        urgent,
      };
    case "stay":
      return {
        got: decision.agent,
        replyLanguage: decision.replyLanguage,
        next: { ...state, langPref },
        urgent,
      };
    default: {
      // The concierge greets with the main menu.
      const atMenu = decision.agent === context.agents.frontDesk;
      return {
        got: decision.agent,
        replyLanguage: decision.replyLanguage,
        next: { agent: decision.agent, atMenu, menuOptions: atMenu ? menu : [], langPref },
        urgent,
      };
    }
  }
}

/** The empty state of a new conversation. */
export const NEW_CONVERSATION: RoutingState = {
  agent: null,
  atMenu: false,
  menuOptions: [],
  langPref: null,
};

/** Scores every first message as the opening of a new conversation. */
export function scoreFirstMessages(
  messages: FirstMessage[],
  context: RouteContext,
  decide: Decide = decideRoute,
): Scored[] {
  return messages.map(({ text, language, expect, safety }) => {
    const decided = applyDecision(text, NEW_CONVERSATION, context, decide);
    const { replyLanguage, urgent } = decided;
    // A first message asking for the main menu is answered by the front desk (the route step
    // sends "menu" there), so it is right where the front desk is expected.
    const got = decided.got === "menu" && expect !== "menu"
      ? context.agents.frontDesk
      : decided.got;
    return {
      text,
      language,
      expect,
      // A safety message is right only when handed to a person urgently.
      got: safety && !urgent && got === expect ? `${got} (not urgent)` : got,
      expectLanguage: language,
      gotLanguage: replyLanguage,
      safety,
      urgent,
    };
  });
}

/** Scores every turn of every conversation, carrying the state between turns. */
export function scoreConversations(
  conversations: Conversation[],
  context: RouteContext,
  decide: Decide = decideRoute,
): Array<Scored & { conversation: string; heldOut?: boolean }> {
  const scored: Array<Scored & { conversation: string; heldOut?: boolean }> = [];
  for (const { name, turns, heldOut } of conversations) {
    let state = NEW_CONVERSATION;
    for (const turn of turns) {
      const { got, replyLanguage, next } = applyDecision(turn.text, state, context, decide);
      scored.push({
        conversation: name,
        ...(heldOut ? { heldOut } : {}),
        text: turn.text,
        language: turn.language,
        expect: turn.expect,
        got,
        expectLanguage: turn.language,
        gotLanguage: replyLanguage,
      });
      state = next;
    }
  }
  return scored;
}
