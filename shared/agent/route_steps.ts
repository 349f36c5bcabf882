/**
 * The route node as one pipeline of named steps, read top to bottom: each
 * step looks at the turn and either routes it or passes it on; the first
 * that routes wins. Before the words are read: an agent that keeps failing
 * goes to a person, a button's title typed is its tap, and a tap enters
 * what it names. Then, on the words (the router's decision, {@link decideRoute}): help asked mid-flow, the menu,
 * sensitive topics, work only staff do, a complaint made mid-flow (heard
 * aside), the words of an agent the classifier never learnt, the
 * classifier's sure answer, the model when the classifier is unsure, and last
 * a clarifying question.
 *
 * Steps are pure but for the model's: they return where the turn goes, and
 * the graph turns that into state.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import type { AgentReply, MenuEntry, TurnInput } from "@shared/registry/pack.ts";
import type { RouteDecision } from "./route_decision.ts";
import { asksForHelp } from "./help_request.ts";
import { typedChoice } from "./typed_choice.ts";

/** What the steps know of the turn. */
export interface RouteFacts {
  /** This turn's message. */
  input: TurnInput;
  /** The agent the conversation is with (the front desk before any). */
  current: string;
  /** Failed turns in a row. */
  failures: number;
  /** Failed turns in a row before the conversation goes to a person. */
  maxFailures: number;
  /** The agents by role, the menu, and the agent a message names by its words. */
  roster: {
    frontDesk: string;
    fallback: string;
    handoff: string;
    menu: readonly MenuEntry[];
    topicOf(text: string): string | null;
  };
  /** Every agent a customer may reach. */
  customer: readonly string[];
  /** The agents the classifier learnt (others are reached by their words). */
  learnt: readonly string[];
  /** The services a clarifying question lists, in order. */
  menuOptions: readonly string[];
  /** The clarifying question, in `language`. */
  clarifyText(language: Language, said: string): string;
  /** What a customer asking for staff-only work is told, in `language`. */
  staffWorkText(language: Language): string;
  /** What a person in a hurry inside a flow is told, in `language`. */
  hurryText(language: Language): string;
  /** What leads back to the current flow's question after an answer beside it, in `language`. */
  backText(language: Language): string;
  /**
   * The person's open work (a booking, a viewing, a ride), each with the agent that holds it,
   * as the agents' `pending` find it; `about` limits it to one agent.
   */
  openWork(
    language: Language,
    about?: string,
  ): Promise<ReadonlyArray<{ agent: string; summary: string }>>;
  /**
   * What a person asking for `service` (an agent this tenant does not run) is told, naming what
   * the tenant does offer, in `language`.
   */
  notOfferedText(language: Language, service: string): string;
  /**
   * The customer agent whose places stock an item `text` names (the tenant's own stock, in any
   * language it is named in), or null.
   */
  stockedBy(text: string): Promise<string | null>;
  /** What a person told there is nothing of theirs open to move or cancel hears, in `language`. */
  nothingOpenText(language: Language): string;
  /** The question asking which of their open work they mean, in `language`. */
  whichWorkText(language: Language): string;
  /** The current agent's last message, still unanswered (what a flow asked). */
  offered: readonly AgentReply[];
  /**
   * What help mid-flow says, in `language`: where the person is and what
   * they can do (the menu, a person), and to answer the question below when
   * `asking` (the flow's last message waits for an answer).
   */
  helpReply(language: Language, asking: boolean): AgentReply;
  /**
   * With a model: the agent it picks, null when unsure, undefined without a
   * model or when it failed (the offline decision stands).
   */
  askModel(language: Language): Promise<string | null | undefined>;
}

/** Where a step sends the turn. */
export interface Routed {
  /** The agent that takes the turn. */
  agent: string;
  /** Whether the agent starts afresh even when it is the current one (memory cleared). */
  fresh?: boolean;
  /** The message the agent sees instead of the user's (a menu number becomes its row's tap). */
  input?: TurnInput;
  /** Why the hand-off was reached without being asked for. */
  escalation?: "sensitive" | "failing";
  /** What the router answers by itself (a clarifying list); the agent does not act. */
  replies?: AgentReply[];
  /** The place the message named, for the agent it reaches. */
  place?: string;
  /**
   * The person asked to move or cancel their open work at this agent ("move it", or their
   * pick among several): the graph asks to confirm a cancel, or has the agent move it.
   */
  change?: "move" | "cancel";
  /**
   * The agent answers this message only, beside the current flow, which the
   * person keeps (a complaint made mid-flow).
   */
  aside?: true;
}

/** A step before the words are read. */
export type TapStep = (facts: RouteFacts) => Routed | null;

/** A step on the words: the router's decision is read. */
export type WordStep = (
  facts: RouteFacts,
  decision: RouteDecision,
) => Routed | null | Promise<Routed | null>;

/** An agent that keeps failing goes to a person. */
export function failingStep(facts: RouteFacts): Routed | null {
  return facts.failures >= facts.maxFailures
    ? { agent: facts.roster.handoff, escalation: "failing" }
    : null;
}

/**
 * A tapped service (menu, clarifying question, "talk to a person") enters
 * that agent; any other tap answers the current agent's flow; a message with
 * no words (a location) stays, or at the front desk goes to the fallback.
 */
export function tapStep(facts: RouteFacts): Routed | null {
  const { input, current, roster } = facts;
  const tapped = input.choice?.startsWith("agent:") ? input.choice.slice(6) : null;
  if (tapped !== null && facts.customer.includes(tapped)) return { agent: tapped, fresh: true };
  // One of several open works picked ("work:cancel:<agent>"): the verb goes with the pick.
  const picked = /^work:(move|cancel):(.+)$/.exec(input.choice ?? "");
  if (picked && facts.customer.includes(picked[2])) {
    return { agent: picked[2], fresh: true, change: picked[1] as "move" | "cancel" };
  }
  if (input.choice) return { agent: current };
  if (!input.text) {
    return { agent: input.location && current === roster.frontDesk ? roster.fallback : current };
  }
  return null;
}

/**
 * A button or list row typed instead of tapped (« Continuer », "talk to a persn") is that tap,
 * as WhatsApp would have sent it (its id, its title as the text): every flow that reads only
 * the tapped id gets it. The words are then not read, so the conversation's language stays.
 */
export function typedTapStep(facts: RouteFacts): Routed | null {
  const { input } = facts;
  if (input.choice || !input.text) return null;
  const option = typedChoice(input.text, facts.offered, { name: input.name });
  if (option === null) return null;
  const tapped = { ...input, text: option.title, choice: option.id };
  const routed = tapStep({ ...facts, input: tapped })!;
  return { ...routed, input: routed.input ?? tapped };
}

/** "menu" and "0" go to the front desk; a menu number picks its row; a flow's answer stays. */
export function menuStep(facts: RouteFacts, decision: RouteDecision): Routed | null {
  const { input, current, roster } = facts;
  switch (decision.kind) {
    case "menu":
      return { agent: roster.frontDesk, fresh: true, input: { ...input, text: "" } };
    case "pick":
      // The agent starts as if its menu row was tapped: the number is no request.
      return {
        agent: decision.agent,
        fresh: true,
        input: { wamid: input.wamid, text: "", choice: `agent:${decision.agent}` },
      };
    case "stay":
      // A message that only asks for a language ("parlez français") answers no question: the
      // agent sees no words and asks its question again, now in that language, instead of
      // reading the request as a place, a name or an item.
      return decision.languageChanged
        ? { agent: current, input: { ...input, text: "" } }
        : { agent: current };
    default:
      return null;
  }
}

/**
 * A bare request for help mid-flow ("ubufasha", "aide", "help") is no answer
 * to the flow's question: the person hears where they are and what they can
 * do, and the question again. The flow and its memory stay as they were.
 */
export function helpStep(facts: RouteFacts, decision: RouteDecision): Routed | null {
  const { input, current, roster } = facts;
  if (decision.kind === "menu" || (decision.kind === "route" && decision.urgent)) return null;
  const inFlow = current !== roster.frontDesk && current !== roster.handoff &&
    facts.customer.includes(current);
  if (!inFlow || !asksForHelp(input.text)) return null;
  const asking = facts.offered.some(asksSomething);
  return {
    agent: current,
    replies: [facts.helpReply(decision.replyLanguage, asking), ...(asking ? facts.offered : [])],
  };
}

// A message that waits for an answer: choices to tap, or a question (often followed by how to
// answer it: "Where should the driver pick you up? Share your location…").
function asksSomething(reply: AgentReply): boolean {
  return !!(reply.buttons?.length || reply.rows?.length) || /[?？]/.test(reply.text);
}

/**
 * Haste typed inside a flow ("vite svp", "quickly please", "haraka") is heard: the person is told
 * we are quick, with a person offered should it be an emergency, and the flow's question again,
 * short. The flow and its memory stay; the haste is never read as an item or an answer.
 */
export function hurryStep(facts: RouteFacts, decision: RouteDecision): Routed | null {
  if (decision.kind !== "hurry") return null;
  const language = decision.replyLanguage;
  return {
    agent: facts.current,
    replies: [
      { text: facts.hurryText(language), ...personButtons(facts, language) },
      // Whatever the flow last said is what it waits on ("Send a photo of your card").
      ...resumeFlow(facts.offered, facts.backText(language), { orLast: true }),
    ],
  };
}

// The hand-off's menu row as a button, when the tenant has one.
function personButtons(facts: RouteFacts, language: Language): Pick<AgentReply, "buttons"> {
  const { handoff, menu } = facts.roster;
  const title = menu.find((entry) => entry.id === handoff)?.title[language];
  return title ? { buttons: [{ id: `agent:${handoff}`, title }] } : {};
}

/** A sensitive topic goes to a person at once. */
export function sensitiveStep(facts: RouteFacts, decision: RouteDecision): Routed | null {
  return decision.kind === "route" && decision.urgent
    ? { agent: facts.roster.handoff, escalation: "sensitive" }
    : null;
}

/**
 * Work only staff do, asked for by a customer: the front desk says the team does it and offers
 * a person (the hand-off's menu row), in the customer's language.
 */
export function staffWorkStep(facts: RouteFacts, decision: RouteDecision): Routed | null {
  if (decision.kind !== "staff_work") return null;
  const language = decision.replyLanguage;
  const { frontDesk } = facts.roster;
  const told: AgentReply = {
    text: facts.staffWorkText(language),
    ...personButtons(facts, language),
  };
  // Asked inside a flow: the flow and its memory stay, and its question is asked again, short.
  if (decision.inFlow && facts.current !== frontDesk) {
    return {
      agent: facts.current,
      replies: [told, ...resumeFlow(facts.offered, facts.backText(language))],
    };
  }
  return { agent: frontDesk, fresh: true, replies: [told] };
}

/**
 * The flow's question again, said short after an answer beside it: its last message that asks,
 * led by `back` ("Back to “Food & drinks”:"), its buttons or rows kept. Where the choices carry
 * the rest (a menu listed above its rows), only the paragraph that asks is said again; a message
 * without choices is said whole, as its text is all the person can answer from. Nothing when the
 * flow asked nothing, unless `orLast`: then its last message ("Send a photo of the card").
 */
export function resumeFlow(
  offered: readonly AgentReply[],
  back: string,
  { orLast = false }: { orLast?: boolean } = {},
): AgentReply[] {
  const question = offered.findLast(asksSomething) ?? (orLast ? offered.at(-1) : undefined);
  if (!question) return [];
  const paragraphs = question.text.split(/\n\s*\n/).map((part) => part.trim()).filter(Boolean);
  const choices = !!(question.buttons?.length || question.rows?.length);
  const asking = choices
    ? paragraphs.findLast((part) => /[?？]/.test(part)) ?? paragraphs.at(-1) ?? question.text
    : question.text;
  return [{ ...question, text: `${back}\n${asking}` }];
}

/**
 * Moving or cancelling something unnamed ("move it", "je veux l'annuler", "ndashaka kuyimura")
 * goes to the agent that holds the person's one open work; with several, the front desk asks
 * which, by name; with none, it says so and shows the menu. Never a search for the verb.
 */
export async function openWorkStep(
  facts: RouteFacts,
  decision: RouteDecision,
): Promise<Routed | null> {
  if (decision.kind !== "open_work") return null;
  const language = decision.replyLanguage;
  const open = await facts.openWork(language, decision.about);
  // Typed inside a flow with nothing of theirs open: the flow's own words to read.
  if (decision.inFlow && open.length === 0) return { agent: facts.current };
  const agents = [...new Set(open.map((work) => work.agent))];
  // Afresh: "it" is their open work, not what an earlier visit to the agent left under way.
  if (agents.length === 1) return { agent: agents[0], fresh: true, change: decision.change };
  const { frontDesk } = facts.roster;
  if (agents.length > 1) {
    const titles = new Map(facts.roster.menu.map((entry) => [entry.id, entry.title[language]]));
    return {
      agent: frontDesk,
      fresh: true,
      replies: [{
        text: [facts.whichWorkText(language), ...open.map((work) => `• ${work.summary}`)].join(
          "\n",
        ),
        rows: agents.flatMap((id) => {
          const title = titles.get(id);
          return title ? [{ id: `work:${decision.change}:${id}`, title }] : [];
        }),
      }],
    };
  }
  const menu = clarifyStep(facts, decision);
  return { ...menu, replies: [{ ...menu.replies![0], text: facts.nothingOpenText(language) }] };
}

/**
 * A first message at the front desk that names no service surely (a clarifying question, a
 * service the tenant does not run, or a greeting with more after it) goes to the agent whose
 * places stock the thing it names: « Bonjour, je voudrais des enveloppes C5 » is the paper
 * shop's, in any language its stock is named in. Never mid-flow: there the flow reads it.
 */
export async function stockStep(
  facts: RouteFacts,
  decision: RouteDecision,
): Promise<Routed | null> {
  const { frontDesk } = facts.roster;
  const unplaced = decision.kind === "clarify" || decision.kind === "not_offered" ||
    (decision.kind === "route" && decision.agent === frontDesk && !decision.frontDeskOwn);
  if (!unplaced || facts.current !== frontDesk) return null;
  const agent = await facts.stockedBy(facts.input.text);
  return agent === null ? null : { agent, fresh: true };
}

/**
 * A service the tenant does not run, asked for surely: the front desk says this business does not
 * offer it, naming what it does, with its menu to pick from, in the person's language.
 */
export function notOfferedStep(facts: RouteFacts, decision: RouteDecision): Routed | null {
  if (decision.kind !== "not_offered") return null;
  const menu = clarifyStep(facts, decision);
  return {
    ...menu,
    replies: [{
      ...menu.replies![0],
      text: facts.notOfferedText(decision.replyLanguage, decision.service),
    }],
  };
}

/** A complaint made mid-flow reaches a person beside the flow, which the person keeps. */
export function asideStep(_facts: RouteFacts, decision: RouteDecision): Routed | null {
  return decision.kind === "route" && decision.aside
    ? { agent: decision.agent, aside: true }
    : null;
}

/** An agent the classifier never learnt (a pack with keywords only) claims its own words first. */
export function topicWordsStep(facts: RouteFacts, decision: RouteDecision): Routed | null {
  const named = facts.roster.topicOf(facts.input.text);
  if (named === null || facts.learnt.includes(named)) return null;
  // The place the message named still goes with it when the classifier chose the same agent.
  return decision.kind === "route" && decision.agent === named && decision.place !== undefined
    ? { agent: named, place: decision.place }
    : { agent: named };
}

/** The classifier's sure answer: its agent, with the place the message named. */
export function classifierStep(_facts: RouteFacts, decision: RouteDecision): Routed | null {
  if (decision.kind !== "route") return null;
  return decision.place === undefined
    ? { agent: decision.agent }
    : { agent: decision.agent, place: decision.place };
}

/**
 * When the classifier is unsure, the model routes from the agents'
 * descriptions (same threshold); a sure decision never waits on it.
 */
export async function modelStep(
  facts: RouteFacts,
  decision: RouteDecision,
): Promise<Routed | null> {
  if (decision.kind !== "clarify") return null;
  const picked = await facts.askModel(decision.replyLanguage);
  return typeof picked === "string" ? { agent: picked } : null;
}

/** Nobody is sure: the front desk asks which service, listing the menu's. */
export function clarifyStep(facts: RouteFacts, decision: RouteDecision): Routed {
  const language = decision.replyLanguage;
  const titles = new Map(facts.roster.menu.map((entry) => [entry.id, entry.title]));
  return {
    agent: facts.roster.frontDesk,
    fresh: true,
    replies: [{
      text: facts.clarifyText(language, facts.input.text),
      rows: facts.menuOptions.flatMap((id) => {
        const title = titles.get(id)?.[language];
        return title ? [{ id: `agent:${id}`, title }] : [];
      }),
    }],
  };
}

/** The steps before the words, in order. */
export const TAP_STEPS: readonly TapStep[] = [failingStep, typedTapStep, tapStep];

/** The steps on the words, in order; the last always routes. */
export const WORD_STEPS: readonly WordStep[] = [
  helpStep,
  hurryStep,
  menuStep,
  sensitiveStep,
  staffWorkStep,
  openWorkStep,
  stockStep,
  notOfferedStep,
  asideStep,
  topicWordsStep,
  classifierStep,
  modelStep,
  clarifyStep,
];

/**
 * Routes the turn through the steps: those before the words, then, when the
 * message has words, `decide()`'s decision through the word steps.
 *
 * @returns where the turn goes, and the decision when the words were read.
 */
export async function routeTurn(
  facts: RouteFacts,
  decide: () => RouteDecision,
  steps: { taps?: readonly TapStep[]; words?: readonly WordStep[] } = {},
): Promise<{ routed: Routed; decision: RouteDecision | null }> {
  for (const step of steps.taps ?? TAP_STEPS) {
    const routed = step(facts);
    if (routed) return { routed, decision: null };
  }
  const decision = decide();
  for (const step of steps.words ?? WORD_STEPS) {
    const routed = await step(facts, decision);
    if (routed) return { routed, decision };
  }
  return { routed: clarifyStep(facts, decision), decision };
}
