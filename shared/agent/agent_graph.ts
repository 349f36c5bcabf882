/**
 * The LangGraph agent: `route` picks the agent for the conversation (and
 * hands over when the topic changes), `act` runs that agent — a model bound
 * to the agent's allowlisted tools, or the deterministic mode — and
 * `confirm` is the human-in-the-loop step: a `confirmRequired` tool pauses
 * the graph with `interrupt()` until the user confirms or cancels.
 *
 * Every tool call goes through the one invoke pipeline with the agent's id,
 * so a tool outside the agent's allowlist answers AUTH_ERROR whoever asks.
 *
 * @module
 */
import { saysYes } from "@shared/contract/yes_answer.ts";
import {
  Annotation,
  type BaseCheckpointSaver,
  END,
  interrupt,
  START,
  StateGraph,
} from "@langchain/langgraph";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { Language } from "@shared/contract/language.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { TenantProfile } from "@shared/registry/tenant_policy.ts";
import { type ChatTurn, ModelUnavailableError } from "./model.ts";
import { type ModelTurn, workingText } from "./model_turn.ts";
import { languageFromLocale, phraseBook } from "@shared/contract/language.ts";
import type { AgentRoster } from "./roster.ts";
import { DiscoveryTurn, type ToolDiscovery } from "./tool_discovery.ts";
import { typedLeaveAnswer } from "@shared/contract/leave_answer.ts";
import { unusedMediaForModel, watchInput } from "./unused_input.ts";
import { decideRoute, type RouteContext, type RouteDecision } from "./route_decision.ts";
import { type Routed, type RouteFacts, routeTurn } from "./route_steps.ts";
import { CONFIDENCE_THRESHOLD } from "./intent_classifier.ts";
import { resumeMemory, stampVersion } from "@shared/registry/flow_memory.ts";
import { isKept, keepWork, KEPT_WORK, keptIds } from "./kept_work.ts";
import type {
  AgentReply,
  OfflineStep,
  OfflineToolCaller,
  OfflineTurn,
  OpenWork,
  PendingCall,
  TurnInput,
} from "@shared/registry/pack.ts";
import { moveOpenWorkChoice } from "@shared/registry/pack.ts";

export type { AgentReply, PendingCall, ToolDiscovery, TurnInput };

/** Calls a tool as the conversation's user, attributed to the agent. */
export type ToolCaller = (
  agentId: string,
  tool: string,
  args: unknown,
  options: { key: string; confirmation?: string; answersFailure?: boolean },
) => Promise<ToolResult>;

/** What the nodes need at run time (passed in `configurable`). */
export interface AgentDeps {
  /** Calls tools through the pipeline. */
  callTool: ToolCaller;
  /** The tools an agent may use (its allowlist ∩ the tenant's policy). */
  toolsFor(agentId: string): AnyTool[];
  /**
   * How an agent discovers its tools, when it does: its model is offered
   * only the `start` tools (list, search, fetch) and, for the rest of the
   * turn, each tool a successful call to `fetch` answered the schema of, as
   * long as {@link AgentDeps.toolsFor} has it. @default every agent is given all its tools
   */
  discovery?(agentId: string): ToolDiscovery | null;
  /**
   * The model for this turn (one deadline for all its calls), or null for the
   * deterministic mode: no key, or the model's breaker is open.
   */
  model: Pick<ModelTurn, "complete"> | null;
  /** Agent names and descriptions, for prompts and the router. */
  agents: Array<{ id: string; name: string; description: string }>;
  /**
   * The tenant the conversation belongs to: its brand is who the agents speak
   * as, its country and currency what the model is told. @default none (no brand)
   */
  tenant?: TenantProfile;
  /** The packs' agents: roles, words, menu and offline flows. */
  roster: AgentRoster;
  /** The router, trained once at start from the packs' intents. */
  router: RouteContext;
  /**
   * Told when the model could not answer (the turn then runs in the
   * deterministic mode); at most once per node that called it.
   */
  onModelFailure?(error: ModelUnavailableError, agentId: string): void;
  /**
   * Told when a pack's own code failed where the turn carries on without it (an agent's
   * `pending.find` asked for the person's open work): staff read it in the log.
   */
  onPackFailure?(error: unknown, agentId: string, where: string): void;
  /** Tells the user now that slow work is under way (see {@link OfflineTurn.progress}). */
  progress?(text: string): Promise<void>;
  /** The platform's clock (injected in tests), given to the flows. @default the flows' own reading */
  now?(): Date;
}

/** The graph's state, checkpointed per conversation. */
export const AgentState = Annotation.Root({
  input: Annotation<TurnInput>(),
  // Empty until the first route, which starts at the roster's front desk.
  agent: Annotation<string>({ reducer: (_old, next) => next, default: () => "" }),
  language: Annotation<Language>({ reducer: (_old, next) => next, default: () => "en" }),
  messages: Annotation<ChatTurn[]>({
    reducer: (old, next) => [...old, ...next].slice(-40),
    default: () => [],
  }),
  replies: Annotation<AgentReply[]>({ reducer: (_old, next) => next, default: () => [] }),
  pending: Annotation<PendingCall | null>({ reducer: (_old, next) => next, default: () => null }),
  handoff: Annotation<boolean>({ reducer: (_old, next) => next, default: () => false }),
  failures: Annotation<number>({ reducer: (_old, next) => next, default: () => 0 }),
  // The front desk's menu (or a clarifying list) was the last thing shown: a number picks.
  atMenu: Annotation<boolean>({ reducer: (_old, next) => next, default: () => false }),
  // The sticky reply language, changed by the words people write or ask for.
  langPref: Annotation<Language | null>({ reducer: (_old, next) => next, default: () => null }),
  // Why the hand-off was reached without being asked for, this turn.
  escalation: Annotation<"sensitive" | "failing" | null>({
    reducer: (_old, next) => next,
    default: () => null,
  }),
  // The last service agent the person was with (not the front desk or the hand-off): a
  // hand-off's ticket names it, even when the person came back to the menu first.
  lastAgent: Annotation<string | null>({ reducer: (_old, next) => next, default: () => null }),
  memory: Annotation<Record<string, unknown>>({
    reducer: (old, next) => ({ ...old, ...next }),
    default: () => ({}),
  }),
  // The last entry into a service agent (a route or a menu pick), numbered: a turn whose run
  // ends with a higher number than it began with entered that agent (its funnel_started).
  entry: Annotation<{ agent: string; seq: number } | null>({
    reducer: (_old, next) => next,
    default: () => null,
  }),
  // The user asked to leave a flow that left work open: where they were going, and the work,
  // until they say whether to cancel it or keep it.
  leaving: Annotation<Leaving | null>({ reducer: (_old, next) => next, default: () => null }),
  // Said before the next agent's first reply (what became of the work left open).
  preface: Annotation<AgentReply[]>({ reducer: (_old, next) => next, default: () => [] }),
  // Said after the next agent's replies (the "cancel or keep?" behind an urgent hand-off).
  postscript: Annotation<AgentReply[]>({ reducer: (_old, next) => next, default: () => [] }),
  // The read-back of a pending action this turn's message was asked beside (a question at a
  // confirmation): the flows answer the question alone, and the read-back is shown again.
  confirming: Annotation<string | null>({ reducer: (_old, next) => next, default: () => null }),
});

/** A departure waiting for the user's "cancel or keep?". */
interface Leaving {
  /** The agent whose work is open. */
  from: string;
  /** The open work. */
  work: OpenWork;
  /** The route the user asked for, applied once they answer. */
  to: Record<string, unknown>;
  /** The work is held (a paused ride) until the answer: "keep" releases it. */
  held?: boolean;
  /**
   * The question came with an urgent hand-off: the answer is all its turn
   * says, and the person stays with staff.
   */
  withStaff?: boolean;
}

/** The state's type. */
export type AgentStateType = typeof AgentState.State;

function deps(config: LangGraphRunnableConfig): AgentDeps {
  return config.configurable?.deps as AgentDeps;
}

/** Failed turns in a row before the conversation goes to a person. */
export const MAX_FAILURES = 3;

// What a call the user refused to confirm comes to: never made, nothing done.
const CANCELLED: ToolResult = fail("CANCELLED");

// The agent's own words, in every language.
const say = phraseBook({
  yesNothing: {
    en: "Nothing is waiting for a yes right now. What would you like? Pick a service below.",
    rw: "Nta kintu gitegereje ko wemeza ubu. Ukeneye iki? Hitamo serivisi hepfo.",
    fr:
      "Rien n'attend votre confirmation pour l'instant. Que souhaitez-vous ? Choisissez un service ci-dessous.",
  },
  clarify: {
    en: "Sorry, I did not catch that. Which service do you need?",
    rw: "Mutwihanganire, sinabyumvise neza. Ni iyihe serivisi ukeneye?",
    fr: "Désolé, je n'ai pas bien compris. De quel service avez-vous besoin ?",
  },
  // "Move it" / "cancel it" with nothing of theirs open: said plainly, then the menu. It names no
  // kind of work: which kinds exist is the tenant's packs' business, and the menu shows them.
  nothingOpen: {
    en: "You have nothing open with us to move or cancel right now. What would you like to do?",
    rw: "Nta kintu ufite gitegereje twakwimura cyangwa twahagarika ubu. Wifuza gukora iki?",
    fr:
      "Vous n'avez rien en cours chez nous à déplacer ou annuler pour le moment. Que souhaitez-vous faire ?",
  },
  // "Move it" / "cancel it" with several things open: which one.
  whichWork: {
    en: "You have more than one thing open. Which one do you mean?",
    rw: "Ufite ibintu birenze kimwe bitegereje. Ni ikihe ushaka kuvuga?",
    fr: "Vous avez plusieurs choses en cours. Laquelle voulez-vous dire ?",
  },
  // A customer asking for the team's own work: no service in this chat does it, and saying so
  // beats a wrong service or "did not catch that". The work is named by the packs that do it.
  staffWork: {
    en: "That is done by our team, not in this chat. I can put you through to a person.",
    rw: "Ibyo bikorwa n'itsinda ryacu, si muri iki kiganiro. Nshobora kuguhuza n'umuntu.",
    fr:
      "Cela est fait par notre équipe, pas dans cette discussion. Je peux vous mettre en relation avec une personne.",
  },
  staffWorkNamed: {
    en:
      "That is done by our team, not in this chat: {work} are handled by our staff. I can put you through to a person.",
    rw:
      "Ibyo bikorwa n'itsinda ryacu, si muri iki kiganiro: {work}, ni akazi k'abakozi bacu. Nshobora kuguhuza n'umuntu.",
    fr:
      "Cela est fait par notre équipe, pas dans cette discussion : {work}, c'est notre personnel qui s'en occupe. Je peux vous mettre en relation avec une personne.",
  },
  // A service only other tenants run: this business does not offer it; what it does, by name.
  notOffered: {
    en: "{brand} does not offer {service}. Here we offer: {offered}. What would you like?",
    rw: "{brand} ntitanga serivisi ya {service}. Hano dutanga: {offered}. Wifuza iki?",
    fr: "{brand} ne propose pas {service}. Ici, nous proposons : {offered}. Que souhaitez-vous ?",
  },
  // Said for the brand when a conversation has no tenant.
  thisBusiness: { en: "This business", rw: "Iyi serivisi", fr: "Cette entreprise" },
  // The last two of a list ("videos, broadcasts and reports").
  and: { en: "and", rw: "na", fr: "et" },
  leaveAsk: {
    en: "Before you go: you still have {what}. Cancel it, or keep it?",
    rw: "Mbere yo kugenda: ufite {what}. Ubihagarike, cyangwa ubigumane?",
    fr: "Avant de partir : vous avez encore {what}. L'annuler, ou le garder ?",
  },
  // Asked with an urgent hand-off: the person is not leaving, staff are coming.
  heldAsk: {
    en: "Meanwhile, you still have {what}; it is on hold until you answer. Cancel it, or keep it?",
    rw: "Hagati aho, ufite {what}; bihagaze kugeza usubije. Ubihagarike, cyangwa ubigumane?",
    fr:
      "En attendant, vous avez encore {what} ; c'est suspendu jusqu'à votre réponse. L'annuler, ou le garder ?",
  },
  handoffAsk: {
    en: "Meanwhile, you still have {what}. Cancel it, or keep it?",
    rw: "Hagati aho, ufite {what}. Ubihagarike, cyangwa ubigumane?",
    fr: "En attendant, vous avez encore {what}. L'annuler, ou le garder ?",
  },
  // "Cancel it" with one thing open: that thing, by name.
  cancelAsk: {
    en: "Cancel {what}, or keep it?",
    rw: "Uhagarike {what}, cyangwa ubigumane?",
    fr: "Annuler {what}, ou le garder ?",
  },
  notMovableAsk: {
    en: "I cannot move {what}: it has no date or time to change. Cancel it, or keep it?",
    rw:
      "Sinshobora kwimura {what}: nta tariki cyangwa isaha bifite byo guhindura. Ubihagarike, cyangwa ubigumane?",
    fr:
      "Je ne peux pas déplacer {what} : rien n'y est fixé à une date ou une heure. L'annuler, ou le garder ?",
  },
  leaveCancel: { en: "Cancel it", rw: "Bihagarike", fr: "Annuler" },
  leaveKeep: { en: "Keep it", rw: "Bigumane", fr: "Le garder" },
  leaveKept: {
    en: "OK, I keep {what}: I will write when there is news.",
    rw: "Ni byiza, ndabigumana ({what}): ndakwandikira nihagira igishya.",
    fr: "D'accord, je garde {what} : je vous écris dès qu'il y a du nouveau.",
  },
  // Help with no question pending (the flow's last message was no question): where they are.
  helpIdle: {
    en:
      "You are in “{service}”. Tell me what you need here, send 0 for the main menu, or tap below to talk to a person.",
    rw:
      "Uri muri “{service}”. Mbwira icyo ukeneye hano, wandike 0 ujye ku rutonde nyamukuru, cyangwa ukande hasi uvugane n'umuntu.",
    fr:
      "Vous êtes dans « {service} ». Dites-moi ce qu'il vous faut ici, envoyez 0 pour le menu principal, ou touchez ci-dessous pour parler à quelqu'un.",
  },
  help: {
    en:
      "You are in “{service}”. Answer the question below to carry on, send 0 for the main menu, or tap below to talk to a person.",
    rw:
      "Uri muri “{service}”. Subiza ikibazo gikurikira ngo dukomeze, wandike 0 ujye ku rutonde nyamukuru, cyangwa ukande hasi uvugane n'umuntu.",
    fr:
      "Vous êtes dans « {service} ». Répondez à la question ci-dessous pour continuer, envoyez 0 pour le menu principal, ou touchez ci-dessous pour parler à quelqu'un.",
  },
  hurry: {
    en:
      "Understood, you are in a hurry: I will be as quick as I can. If it is an emergency, tap below to talk to a person.",
    rw:
      "Numvise ko wihuta: ndakora vuba uko nshoboye. Niba ari ikibazo cyihutirwa, kanda hasi uvugane n'umuntu.",
    fr:
      "Bien compris, c'est pressé : je fais au plus vite. En cas d'urgence, touchez ci-dessous pour parler à une personne.",
  },
  backTo: {
    en: "Back to “{service}”:",
    rw: "Dusubire kuri “{service}”:",
    fr: "Revenons à “{service}” :",
  },
  carryOn: {
    en: "Meanwhile, we can carry on where we were:",
    rw: "Hagati aho, dushobora gukomeza aho twari tugeze:",
    fr: "En attendant, nous pouvons reprendre où nous en étions :",
  },
  restarted: {
    en:
      "This service has been updated since your last message, so we start again from the beginning.",
    rw: "Iyi serivisi yavuguruwe kuva ubutumwa bwawe buheruka, bityo turongera gutangira bushya.",
    fr:
      "Ce service a été mis à jour depuis votre dernier message : nous reprenons depuis le début.",
  },
  unfinished: {
    en: "Sorry, I could not finish that. Please try again.",
    rw: "Mutwihanganire, sinabirangije. Ongera ugerageze.",
    fr: "Désolé, je n'ai pas pu terminer. Veuillez réessayer.",
  },
  // The model's write went through, then the model failed before its reply: said so, never done
  // a second time by the offline flow.
  doneUnanswered: {
    en:
      "That is done, but I could not finish my reply in time. Ask me about it, or send 0 for the menu.",
    rw:
      "Byakozwe, ariko sinashoboye kurangiza igisubizo cyanjye ku gihe. Mumbaze kuri byo, cyangwa mwohereze 0 ubone menu.",
    fr:
      "C'est fait, mais je n'ai pas pu terminer ma réponse à temps. Demandez-moi où cela en est, ou envoyez 0 pour le menu.",
  },
});

/**
 * The model failed after a tool that writes went through in the same turn:
 * the turn is answered from what was done, never by the offline flow
 * starting the same work again (a second booking, a second order).
 */
class ModelFailedAfterWrite extends ModelUnavailableError {
  constructor(readonly failure: ModelUnavailableError, readonly update: Partial<AgentStateType>) {
    super(failure.message, {
      reason: failure.reason,
      status: failure.status,
      code: failure.code,
      cause: failure,
    });
  }
}

// "Cancel it, or keep it?" with its two buttons.
/**
 * A model's tool call with the conversation's language filled in where the
 * tool takes a `language` and the model left it out: its read-back, receipt
 * and later messages then speak the language of the chat, not the profile's.
 */
function inConversationLanguage(
  tool: AnyTool | undefined,
  args: unknown,
  language: Language,
): unknown {
  if (!tool || !("language" in tool.input.shape)) return args;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  return "language" in args ? args : { ...args, language };
}

function leaveQuestion(text: string, language: Language): AgentReply {
  return {
    text,
    buttons: [
      { id: "leave:cancel", title: say("leaveCancel", language) },
      { id: "leave:keep", title: say("leaveKeep", language) },
    ],
  };
}

function leaveAnswer(input: TurnInput): "cancel" | "keep" | null {
  if (input.choice === "leave:cancel" || input.choice === "leave:keep") {
    return input.choice.slice(6) as "cancel" | "keep";
  }
  return typedLeaveAnswer(input.text ?? "");
}

/**
 * Routes the turn; leaving a flow that declares open work (a ride waiting
 * for drivers) first asks whether to cancel it or keep it, and the answer
 * then takes the route the user asked for. The kernel names no pack: the
 * work and its cancellation are the agent's `pending`.
 */
async function route(state: AgentStateType, config: LangGraphRunnableConfig) {
  const { roster, callTool } = deps(config);
  const leaving = state.leaving;
  if (leaving) {
    const answer = leaveAnswer(state.input);
    const pending = roster.pendingOf(leaving.from);
    if (answer !== null && pending) {
      const language = (leaving.to.language as Language | undefined) ?? state.language;
      const context = { language, memory: state.memory };
      const asUser: OfflineToolCaller = (tool, args, name) =>
        callTool(leaving.from, tool, args, { key: `${state.input.wamid}:leave:${name}` });
      // The user was just asked to cancel this very work, by name, and tapped Cancel: that answer
      // is their confirmation, so a tool that needs one (a booking's cancel) is confirmed at once.
      const confirming: OfflineToolCaller = async (tool, args, name) => {
        const key = `${state.input.wamid}:leave:${name}`;
        const asked = await callTool(leaving.from, tool, args, { key });
        const token = !asked.ok && asked.error.code === "CONFIRMATION_REQUIRED"
          ? asked.error.confirmation?.token
          : undefined;
        return token
          ? await callTool(leaving.from, tool, args, { key, confirmation: token })
          : asked;
      };
      if (answer === "keep" && leaving.held) await pending.resume?.(leaving.work, context, asUser);
      const said = answer === "cancel"
        ? await pending.cancel(leaving.work, context, confirming)
        : say("leaveKept", language, { what: leaving.work.summary });
      // Kept work is remembered, so leaving this flow again does not ask about it again.
      const kept = answer === "keep" ? keepWork(state.memory, leaving.from, leaving.work) : {};
      // With staff already: the answer is all this turn says, and they stay in the queue.
      if (leaving.withStaff) {
        return { replies: [{ text: said }], handoff: false, leaving: null, memory: kept };
      }
      const to = leaving.to as Partial<AgentStateType>;
      const memory = { ...to.memory, ...kept };
      // A route that answers by itself (a clarifying list) carries the words; else the next agent.
      return to.replies?.length
        ? { ...to, memory, replies: [{ text: said }, ...to.replies], leaving: null }
        : { ...to, memory, preface: [{ text: said }], leaving: null };
    }
  }
  const update = await decide(leaving ? { ...state, leaving: null } : state, config);
  // A cancel of their open work asked to be confirmed: nothing is left behind by asking.
  if (update.leaving) return update;
  // Back from staff without an answer (they left the queue): held work is never forgotten
  // paused; the question comes before where they asked to go.
  if (leaving?.held && roster.pendingOf(leaving.from)) {
    const language = update.language ?? state.language;
    return {
      language,
      langPref: update.langPref ?? state.langPref,
      atMenu: false,
      handoff: false,
      replies: [leaveQuestion(say("leaveAsk", language, { what: leaving.work.summary }), language)],
      leaving: {
        ...leaving,
        to: { ...update, input: update.input ?? state.input },
        withStaff: false,
      },
    };
  }
  const current = state.agent || roster.frontDesk;
  const pending = roster.pendingOf(current);
  if (!pending || update.agent === current) return { ...update, leaving: null };
  const language = update.language ?? state.language;
  const context = { language, memory: state.memory, kept: keptIds(state.memory, current) };
  const asUser: OfflineToolCaller = (tool, args, name) =>
    callTool(current, tool, args, { key: `${state.input.wamid}:leave:${name}` });
  const work = await pending.find(context, asUser);
  // Work they already chose to keep, unchanged since, is not asked about again.
  if (!work || isKept(state.memory, current, work)) return { ...update, leaving: null };
  const ask = leaveQuestion(say("leaveAsk", language, { what: work.summary }), language);
  // An escalation (danger, a failing agent) never waits for the question: the person is
  // handed off now and asked in the same reply. Meanwhile the work is held, so nobody acts
  // on it (a driver accepting and receiving the rider's details) while they are with staff.
  if (update.escalation) {
    await pending.pause?.(work, context, asUser);
    const phrase = pending.pause ? "heldAsk" : "handoffAsk";
    return {
      ...update,
      postscript: [{ ...ask, text: say(phrase, language, { what: work.summary }) }],
      leaving: { from: current, work, to: { language }, held: !!pending.pause, withStaff: true },
    };
  }
  return {
    language,
    langPref: update.langPref ?? state.langPref,
    atMenu: false,
    handoff: false,
    replies: [ask],
    // The user's message is kept for the route it asked for (its words may be a request).
    leaving: { from: current, work, to: { ...update, input: update.input ?? state.input } },
  };
}

// The person's open work at one agent, found as the person, or null when it has none or the
// pack's lookup failed: one pack failing loses its own work, never the answer (staff see it).
async function openWorkAt(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
  agent: string,
  options: { language: Language; memory: Record<string, unknown>; keyPart: string },
): Promise<OpenWork | null> {
  const { roster, callTool, onPackFailure } = deps(config);
  const pending = roster.pendingOf(agent);
  if (!pending) return null;
  const asUser: OfflineToolCaller = (tool, args, name) =>
    callTool(agent, tool, args, { key: `${state.input.wamid}:${options.keyPart}:${name}` });
  try {
    // Work kept on an earlier leave is still theirs to move or cancel.
    return await pending.find({
      language: options.language,
      memory: options.memory,
      kept: keptIds(state.memory, agent),
    }, asUser);
  } catch (error) {
    onPackFailure?.(error, agent, "pending.find");
    return null;
  }
}

// The customer agent whose places stock an item `text` names, asked as the person (their
// tenant's stock only), in menu order; a pack that fails is told and skipped.
async function stockedBy(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
  text: string,
): Promise<string | null> {
  const { roster, router, callTool, onPackFailure } = deps(config);
  for (const agent of router.agents?.customer ?? []) {
    const stocks = roster.stocksOf(agent);
    if (!stocks) continue;
    const asUser: OfflineToolCaller = (tool, args, name) =>
      callTool(agent, tool, args, { key: `${state.input.wamid}:stocked:${agent}:${name}` });
    try {
      if (await stocks(text, asUser)) return agent;
    } catch (error) {
      onPackFailure?.(error, agent, "stocks");
    }
  }
  return null;
}

// The person's open work across the agents that declare it (or the one `about` names): what
// "move it" or "cancel it" with nothing named can mean.
async function openWorkOf(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
  language: Language,
  about?: string,
): Promise<Array<{ agent: string; summary: string }>> {
  const { roster, router } = deps(config);
  const agents = about !== undefined ? [about] : router.agents?.customer ?? [];
  const found = await Promise.all(agents.map(async (agent) => {
    // The flow's memory is the current agent's only; another agent's work is found as the user's.
    const memory = agent === (state.agent || roster.frontDesk) ? state.memory : {};
    const work = await openWorkAt(state, config, agent, {
      language,
      memory,
      keyPart: `open:${agent}`,
    });
    return work ? [{ agent, summary: work.summary }] : [];
  }));
  return found.flat();
}

/**
 * The person's open work at the agent they asked to move or cancel it at ("move it", or their
 * pick among several), found as them. A cancel is asked to be confirmed by the work's name
 * ("Cancel your viewing of … on Fri 28 Nov, or keep it?"): the answer goes through the same
 * path as leaving a flow (the pack's `pending.cancel` ends it and tells the other side), then
 * the menu. A move enters the agent with the work's id ({@linkcode moveOpenWorkChoice}): its
 * flow asks for the new time; work with no time to move (`movable: false`, an order) is said
 * so and asked about like a cancel. Nothing found (ended meanwhile, or the pack failed): the agent
 * takes the message as it came.
 */
async function changeOpenWork(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
  routed: Routed,
  language: Language,
): Promise<{ ask?: Partial<AgentStateType>; routed?: Routed } | null> {
  const { roster } = deps(config);
  // Asked inside the agent's own flow, its memory holds the work (an order just placed).
  const current = state.agent || roster.frontDesk;
  const work = await openWorkAt(state, config, routed.agent, {
    language,
    memory: routed.agent === current ? state.memory : {},
    keyPart: "change",
  });
  if (!work) return null;
  const { wamid } = state.input;
  const movable = work.movable !== false;
  if (routed.change === "move" && movable) {
    return {
      routed: { ...routed, input: { wamid, text: "", choice: moveOpenWorkChoice(work.id) } },
    };
  }
  // Work with no time to move (an order) is said so, then offered like a cancel: never a flow
  // entered afresh as if "move it" were a new request.
  const question = routed.change === "move" ? "notMovableAsk" : "cancelAsk";
  const ask = leaveQuestion(say(question, language, { what: work.summary }), language);
  return {
    ask: {
      agent: roster.frontDesk,
      language,
      atMenu: false,
      handoff: false,
      replies: [ask],
      leaving: {
        from: routed.agent,
        work,
        // Answered, the person hears what became of it, then the menu.
        to: {
          agent: roster.frontDesk,
          atMenu: true,
          language,
          handoff: false,
          escalation: null,
          replies: [],
          memory: { step: null, channelFlow: null },
          input: { wamid, text: "" },
        },
      },
    },
  };
}

// What a customer asking for staff-only work hears: the work of the staff agents the tenant
// runs, as their packs name it; the kernel names none.
function staffWorkText(roster: AgentRoster, language: Language): string {
  const names = roster.staffWorkNames(language).map((work) => work.name);
  if (names.length === 0) return say("staffWork", language);
  const work = names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(", ")} ${say("and", language)} ${names.at(-1)}`;
  return say("staffWorkNamed", language, { work });
}

// What a person asking for a service the tenant does not run hears: the tenant's brand, the
// service as other tenants' menus name it, and the services this tenant's menu has.
function notOfferedText(
  roster: AgentRoster,
  brand: string | undefined,
  language: Language,
  service: string,
): string {
  const titles = roster.menu.map((entry) => entry.title[language]);
  const offered = titles.length <= 1
    ? titles.join("")
    : `${titles.slice(0, -1).join(", ")} ${say("and", language)} ${titles.at(-1)}`;
  return say("notOffered", language, {
    brand: brand ?? say("thisBusiness", language),
    service: roster.titleOf(service, language),
    offered,
  });
}

// The route node's pipeline (route_steps.ts) over this turn's state: where the turn goes
// becomes the state the next node reads.
async function decide(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
): Promise<Partial<AgentStateType>> {
  const { roster, router } = deps(config);
  const input = state.input;
  const current = state.agent || roster.frontDesk;
  const facts: RouteFacts = {
    input,
    current,
    failures: state.failures,
    maxFailures: MAX_FAILURES,
    roster,
    customer: router.agents?.customer ?? [],
    learnt: router.agents?.learnt ?? [],
    menuOptions: router.agents?.menu ?? [],
    // A yes with nothing waiting on it says so, before the menu: not a service misread.
    clarifyText: (language, said) => say(saysYes(said) ? "yesNothing" : "clarify", language),
    staffWorkText: (language) => staffWorkText(roster, language),
    hurryText: (language) => say("hurry", language),
    backText: (language) =>
      say("backTo", language, {
        // The service as the menu names it ("Food & drinks"), not the agent's staff-facing name.
        service: roster.menu.find((entry) => entry.id === current)?.title[language] ??
          roster.nameOf(current, language),
      }),
    notOfferedText: (language, service) =>
      notOfferedText(roster, deps(config).tenant?.brand, language, service),
    nothingOpenText: (language) => say("nothingOpen", language),
    whichWorkText: (language) => say("whichWork", language),
    openWork: (language, about) => openWorkOf(state, config, language, about),
    stockedBy: (text) => stockedBy(state, config, text),
    offered: state.replies ?? [],
    helpReply: (language, asking) => {
      const titleOf = (id: string) => roster.menu.find((entry) => entry.id === id)?.title[language];
      const person = titleOf(roster.handoff);
      // The service as the menu names it ("Rides & moto"), not the agent's staff-facing name.
      const service = titleOf(current) ?? roster.nameOf(current, language);
      return {
        text: say(asking ? "help" : "helpIdle", language, { service }),
        ...(person ? { buttons: [{ id: `agent:${roster.handoff}`, title: person }] } : {}),
      };
    },
    askModel: (language) => modelRoute(state, config, current, language),
  };
  const { routed: picked, decision } = await routeTurn(facts, () =>
    decideRoute(input.text, {
      agent: state.agent || null,
      atMenu: state.atMenu,
      menuOptions: router.agents?.menu ?? [],
      langPref: state.langPref,
      // What the agent's last message offered (still in the state until this turn answers);
      // a button to another agent ("Talk to a person") is a route, not an answer.
      offered: state.replies.flatMap((reply) =>
        [...reply.buttons ?? [], ...reply.rows ?? []]
          .filter((option) => !option.id.startsWith("agent:"))
          .map((option) => option.title)
      ),
    }, router));
  const sticky = state.langPref ?? state.language;
  // "Move it" / "cancel it": a cancel is asked to be confirmed by name, a move is the agent's.
  const change = picked.change
    ? await changeOpenWork(state, config, picked, decision ? decision.replyLanguage : sticky)
    : null;
  if (change?.ask) return { ...change.ask, ...(decision ? { langPref: decision.langPref } : {}) };
  const routed = change?.routed ?? picked;
  if (routed.aside) return await heardAside(state, config, routed.agent, decision ?? null);
  // A new agent starts from a clean slate of flow memory (and of the untyped `channelFlow`
  // conversations kept before every flow was typed, so it is never migrated on a later visit).
  const lastAgent = current === roster.frontDesk || current === roster.handoff
    ? state.lastAgent
    : current;
  const agent = routed.agent;
  const fresh = routed.fresh || agent !== current;
  const memory = {
    step: null,
    channelFlow: null,
    // Who the person was with, for the hand-off's ticket.
    ...(agent === roster.handoff ? { handedFrom: lastAgent ?? current } : {}),
    // The place the message named is where, for the agent it reaches.
    ...(routed.place !== undefined ? { place: routed.place } : {}),
  };
  // Entering a service (not the menu, the fallback or the hand-off) starts its funnel.
  const service = agent !== roster.frontDesk && agent !== roster.handoff &&
    agent !== roster.fallback;
  return {
    agent,
    ...(fresh && service ? { entry: { agent, seq: (state.entry?.seq ?? 0) + 1 } } : {}),
    language: decision ? decision.replyLanguage : sticky,
    replies: routed.replies ?? [],
    handoff: false,
    escalation: routed.escalation ?? null,
    atMenu: agent === roster.frontDesk,
    lastAgent,
    ...(fresh ? { memory } : {}),
    ...(decision ? { langPref: decision.langPref } : {}),
    ...(routed.input ? { input: routed.input } : {}),
  };
}

/**
 * A message another agent answers beside the flow (a complaint made mid-flow):
 * that agent's flow runs for this turn alone (the hand-off raises its ticket,
 * naming the flow the person was in), then the flow's last question is asked
 * again. The flow's agent and memory stay as they were: the person carries on,
 * or taps "menu" as anywhere.
 */
async function heardAside(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
  agent: string,
  decision: RouteDecision | null,
): Promise<Partial<AgentStateType>> {
  const current = state.agent || deps(config).roster.frontDesk;
  const language = decision ? decision.replyLanguage : state.langPref ?? state.language;
  const step = await runFlow(
    { ...state, agent, language, memory: { handedFrom: current } },
    deps(config),
    { aside: true },
  );
  // The flow's last message (still in the state until this turn answers), offered back.
  const replies = state.replies.length
    ? [
      ...withPostscript(step.replies ?? [], [{ text: say("carryOn", language) }]),
      ...state.replies,
    ]
    : step.replies ?? [];
  return {
    agent: current,
    language,
    ...(decision ? { langPref: decision.langPref } : {}),
    replies,
    handoff: false,
    atMenu: false,
  };
}

/**
 * With a model: the agent it picks from the agents' descriptions, null when
 * it is unsure (below the router's threshold), undefined without a model or
 * when it failed (the offline decision stands).
 */
async function modelRoute(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
  current: string,
  language: Language,
): Promise<string | null | undefined> {
  const { model, agents, router } = deps(config);
  if (!model) return undefined;
  const routable = new Set(router.agents?.customer ?? []);
  const listed = agents.filter((agent) => routable.has(agent.id));
  try {
    return await chooseAgent(model, listed, {
      text: state.input.text,
      threshold: router.threshold ?? CONFIDENCE_THRESHOLD,
      language,
    });
  } catch (error) {
    if (!(error instanceof ModelUnavailableError)) throw error;
    deps(config).onModelFailure?.(error, current);
    return undefined;
  }
}

async function chooseAgent(
  model: NonNullable<AgentDeps["model"]>,
  agents: AgentDeps["agents"],
  ask: { text: string; threshold: number; language: Language },
): Promise<string | null | undefined> {
  const { text, threshold } = ask;
  const list = agents.map((agent) => `- ${agent.id}: ${agent.description}`).join("\n");
  const reply = await model.complete({
    messages: [
      {
        role: "system",
        content: "Pick the agent for the user's message (English, Kinyarwanda or French). " +
          'Answer with JSON only: {"agent": "<id>", "confidence": <0..1>}.\n' + list,
      },
      { role: "user", content: text },
    ],
    tools: [],
  }, ask.language);
  const picked = parseRouting(reply.content);
  // An answer we cannot read is no decision: the offline router's stands.
  if (!picked || !agents.some((agent) => agent.id === picked.agent)) return undefined;
  return picked.confidence >= threshold ? picked.agent : null;
}

function parseRouting(content: string): { agent: string; confidence: number } | null {
  const json = /\{[\s\S]*\}/.exec(content)?.[0];
  if (!json) return null;
  try {
    const value = JSON.parse(json) as { agent?: unknown; confidence?: unknown };
    if (typeof value.agent !== "string" || typeof value.confidence !== "number") return null;
    return { agent: value.agent, confidence: value.confidence };
  } catch {
    return null;
  }
}

/**
 * The turn as the agent's flow may read it. A flow that declares its memory
 * gets it only in a shape it reads: kept memory of another version is
 * migrated, or the flow starts again as if entered from the menu, the user
 * told why. `kept` is merged into the memory before the step's own.
 */
function resumed(state: AgentStateType, deps: AgentDeps) {
  const declared = deps.roster.memoryOf(state.agent);
  if (!declared) return { memory: state.memory, input: state.input, kept: {}, notice: [] };
  const stamp = stampVersion(state.memory, state.agent, declared.version);
  const resume = resumeMemory(declared, state.agent, state.memory);
  if (resume.kind === "current") {
    return { memory: state.memory, input: state.input, kept: stamp, notice: [] };
  }
  // What the memory kept is cleared (merged memory keeps a cleared key as null).
  // The work kept on leaving is the conversation's, not the flow's: it outlives a restart.
  const cleared = Object.fromEntries(
    Object.keys(state.memory).filter((key) => key !== KEPT_WORK).map((key) => [key, null]),
  );
  if (resume.kind === "migrated") {
    return {
      memory: resume.memory,
      input: state.input,
      kept: { ...cleared, ...resume.memory, ...stamp },
      notice: [],
    };
  }
  return {
    memory: {},
    input: { wamid: state.input.wamid, text: "", choice: `agent:${state.agent}` },
    kept: { ...cleared, ...stamp },
    notice: [{ text: say("restarted", state.language) }],
  };
}

/**
 * Runs the agent's offline flow for this turn. Progress the channel cannot
 * send early ("Reading your document…") leads the step's replies instead.
 */
async function runFlow(
  state: AgentStateType,
  deps: AgentDeps,
  extra: Pick<OfflineTurn, "escalation" | "aside"> = {},
): Promise<OfflineStep> {
  const early: AgentReply[] = [];
  const { memory, input: given, kept, notice } = resumed(state, deps);
  const watched = watchInput(given);
  const input = watched.input;
  const step = await deps.roster.flowOf(state.agent)(
    {
      agent: state.agent,
      language: state.language,
      input,
      memory,
      menu: deps.roster.menu,
      handoff: deps.roster.handoff,
      agentName: deps.roster.nameOf,
      // Staff read the tenant's first language (orgs.languages), English without a tenant.
      staffLanguage: languageFromLocale(deps.tenant?.languages[0]),
      ...(deps.tenant ? { brand: deps.tenant.brand } : {}),
      ...(deps.tenant?.takesMomo !== undefined ? { takesMomo: deps.tenant.takesMomo } : {}),
      ...(deps.tenant?.currency ? { currency: deps.tenant.currency } : {}),
      progress: deps.progress ?? ((text) => Promise.resolve(void early.push({ text }))),
      ...(deps.now ? { now: deps.now() } : {}),
      ...(state.confirming ? { confirming: state.confirming } : {}),
      ...extra,
    },
    (tool, args, name, callOptions) =>
      deps.callTool(state.agent, tool, args, {
        key: `${state.input.wamid}:${name}`,
        ...(callOptions?.answersFailure ? { answersFailure: true } : {}),
      }),
  );
  const said = [...notice, ...watched.notice(state.language), ...early];
  return {
    ...step,
    ...(said.length ? { replies: [...said, ...(step.replies ?? [])] } : {}),
    ...(Object.keys(kept).length ? { memory: { ...kept, ...step.memory } } : {}),
  };
}

// What became of work left open leads the next agent's first replies.
async function act(state: AgentStateType, config: LangGraphRunnableConfig) {
  const update = await actOnce(state, config);
  if (!state.preface.length && !state.postscript.length) return update;
  return {
    ...update,
    replies: [...state.preface, ...withPostscript(update.replies ?? [], state.postscript)],
    preface: [],
    postscript: [],
  };
}

// The postscript joins the last reply when that offers no choices of its own: one message,
// so the hand-off's emergency numbers and the question arrive together.
function withPostscript(replies: AgentReply[], postscript: AgentReply[]): AgentReply[] {
  const last = replies.at(-1);
  const [first, ...rest] = postscript;
  if (!last || !first || last.buttons?.length || last.rows?.length) {
    return [...replies, ...postscript];
  }
  return [...replies.slice(0, -1), { ...first, text: `${last.text}\n\n${first.text}` }, ...rest];
}

async function actOnce(state: AgentStateType, config: LangGraphRunnableConfig) {
  const outer = deps(config);
  const { roster } = outer;
  if (state.agent === roster.handoff) return await handOff(state, config);
  // Count the turn's failed tool calls (refusals to confirm are not failures).
  let failed = false;
  const counting: AgentDeps = {
    ...outer,
    callTool: async (...args) => {
      const result = await outer.callTool(...args);
      if (!result.ok && result.error.code !== "CONFIRMATION_REQUIRED") failed = true;
      return result;
    },
  };
  const scoped = { ...config, configurable: { ...config.configurable, deps: counting } };
  const offline = async () => {
    const { done, ...step } = await runFlow(state, counting);
    return done ? { ...step, agent: roster.frontDesk } : step;
  };
  let update;
  try {
    update = outer.model ? await modelAct(state, scoped) : await offline();
  } catch (error) {
    if (!(error instanceof ModelUnavailableError)) throw error;
    // The model failing is never silence: this turn is answered offline (at once when it
    // already failed or ran out of time routing: a turn waits for the model once), unless the
    // model's write already went through: then from what it did.
    if (error instanceof ModelFailedAfterWrite) {
      outer.onModelFailure?.(error.failure, state.agent);
      update = error.update;
    } else {
      outer.onModelFailure?.(error, state.agent);
      update = await offline();
    }
  }
  return { ...update, failures: failed ? state.failures + 1 : 0 };
}

// The hand-off runs its pack's flow with or without a model, then returns to the front desk.
async function handOff(state: AgentStateType, config: LangGraphRunnableConfig) {
  const outer = deps(config);
  const { roster } = outer;
  const step = await runFlow(state, outer, { escalation: state.escalation ?? undefined });
  return {
    replies: step.replies ?? [],
    handoff: step.handoff ?? false,
    agent: step.done ? roster.frontDesk : state.agent,
    atMenu: false,
    failures: 0,
  };
}

const MAX_STEPS = 4;

/**
 * The model's instructions for an agent: who it speaks as (the tenant's
 * brand), where (its country), in which language, and in which currency
 * amounts are; all from the tenant's row and the agent's own description.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemPrompt } from "./agent_graph.ts";
 *
 * const prompt = systemPrompt({
 *   tenant: { brand: "Acme", country: "KE", currency: "KES", timeZone: "UTC", languages: ["en"] },
 *   agentName: "Shop Assistant",
 *   description: "Finds products.",
 *   language: "en",
 * });
 * assert.match(prompt, /^You are Acme's Shop Assistant on WhatsApp in Kenya\./);
 * assert.match(prompt, /amounts are in KES/);
 * ```
 */
export function systemPrompt(options: {
  tenant?: TenantProfile;
  agentName: string;
  description: string;
  language: Language;
}): string {
  const { tenant, agentName } = options;
  const who = tenant ? `${tenant.brand}'s ${agentName}` : `the ${agentName}`;
  const where = tenant?.country ? ` in ${countryName(tenant.country)}` : "";
  const money = tenant?.currency ? `; amounts are in ${tenant.currency}` : "";
  return `You are ${who} on WhatsApp${where}. ${options.description} ` +
    `Reply briefly in the user's language (${options.language}). Use tools to act${money}.`;
}

const REGIONS = new Intl.DisplayNames(["en"], { type: "region" });

// The country's English name ("KE" -> "Kenya"); the code itself when Intl does not know it.
function countryName(code: string): string {
  try {
    return REGIONS.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The tool that puts a conversation in staff's queue (the offline hand-off calls it too). */
const HANDOFF_TOOL = "notify_staff";

/** A tool with at least this latency budget is announced to the user before it runs. */
const SLOW_TOOL_MS = 3000;

// A shared location reaches the model as its coordinates: a pickup is useless without them.
function sharedLocation(input: TurnInput): string {
  const at = input.location;
  return at
    ? `(shared a location: lat ${at.latitude}, lng ${at.longitude})`
    : "(shared a location)";
}

async function modelAct(
  state: AgentStateType,
  config: LangGraphRunnableConfig,
): Promise<Partial<AgentStateType>> {
  const { model, toolsFor, callTool, agents, progress, roster, tenant } = deps(config);
  const agent = agents.find((candidate) => candidate.id === state.agent);
  const tools = toolsFor(state.agent);
  // With discovery the model starts with the discovery tools and gains what it fetches; it can
  // never gain a tool the agent's allowlist and the tenant's policy (toolsFor) do not give.
  const binding = new DiscoveryTurn(tools, deps(config).discovery?.(state.agent) ?? null);
  const rules = roster.rulesOf(state.agent);
  const system: ChatTurn = {
    role: "system",
    content: systemPrompt({
      tenant,
      agentName: agent?.name ?? state.agent,
      description: agent?.description ?? "",
      language: state.language,
    }) + (rules.instructions ? ` ${rules.instructions}` : ""),
  };
  // After a confirmation the conversation already holds the tool result: continue from it.
  const starting = state.pending === null && state.messages.at(-1)?.role !== "tool";
  // A photo, file or voice note the model cannot read is said so to the person (as the flows
  // do) and to the model, never passed to it as a location.
  const fresh: ChatTurn[] = starting
    ? [{
      role: "user",
      content: state.input.text || unusedMediaForModel(state.input) ||
        sharedLocation(state.input),
    }]
    : [];
  const notice = starting ? watchInput(state.input).notice(state.language, "model") : [];
  const turns: ChatTurn[] = [...fresh];
  // The model raised a ticket for staff: the conversation is with them, as after the offline
  // hand-off (each later message gets its place in the queue, "menu" offers to leave it).
  let handedOff = false;
  const ending = () =>
    handedOff
      ? { handoff: true, agent: roster.frontDesk, lastAgent: state.agent, atMenu: false }
      : {};
  // Discovery spends up to two steps (search, fetch) before the agent's own work begins; the
  // turn's one model deadline still bounds the time.
  const maxSteps = binding.maxSteps(MAX_STEPS);
  // The last write that went through this turn: if the model fails after it, the turn says so
  // rather than letting the offline flow do the same work again.
  let wrote: unknown = null;
  for (let step = 0; step < maxSteps; step++) {
    let reply;
    try {
      reply = await model!.complete({
        messages: [system, ...state.messages, ...turns],
        tools: binding.offered(),
      }, state.language);
    } catch (error) {
      if (wrote === null || !(error instanceof ModelUnavailableError)) throw error;
      const text = say("doneUnanswered", state.language);
      throw new ModelFailedAfterWrite(error, {
        messages: [...turns, { role: "assistant", content: text }],
        replies: [...notice, { text }],
        pending: null,
        // What the write made stays known, as after a reply (`lastConfirmed`).
        memory: { lastResult: null, lastTool: undefined, lastConfirmed: wrote },
        ...ending(),
      });
    }
    if (!reply.tool_calls.length) {
      // A reply that breaks the agent's rules is replaced before anyone reads it, in the
      // conversation's history too: the model never builds on words the user never saw.
      const guarded = rules.guardReply?.(reply.content, {
        language: state.language,
        handoff: roster.handoff,
      }) ?? null;
      const said = guarded ?? { text: reply.content };
      return {
        messages: [...turns, { role: "assistant" as const, content: said.text }],
        replies: [...notice, said],
        pending: null,
        // The model has told the user how a confirmed call went: an offline turn must not again.
        // What the call made stays known (`lastConfirmed`), so leaving the agent still finds
        // the work it left open (an order the model placed, not paid).
        memory: {
          lastResult: null,
          lastTool: undefined,
          ...(state.memory?.lastResult ? { lastConfirmed: state.memory.lastResult } : {}),
        },
        ...ending(),
      };
    }
    turns.push({ role: "assistant", content: reply.content, tool_calls: reply.tool_calls });
    // A slow tool (reading a photo, drawing a PDF) is announced before it runs: the
    // model's own words with the call when it gave some, else a short "one moment".
    const slow = reply.tool_calls.some((call) =>
      (tools.find((tool) => tool.name === call.name)?.latencyBudgetMs ?? 0) >= SLOW_TOOL_MS
    );
    if (slow && progress) {
      // The model's words are guarded as its replies are: words that break the agent's rules
      // give way to the plain "one moment".
      const words = reply.content.trim();
      const guarded = words &&
        rules.guardReply?.(words, { language: state.language, handoff: roster.handoff });
      await progress(words && !guarded ? words : workingText(state.language));
    }
    for (const call of reply.tool_calls) {
      const key = `${state.input.wamid}:${step}:${call.name}`;
      const args = inConversationLanguage(
        tools.find((tool) => tool.name === call.name),
        call.args,
        state.language,
      );
      // With discovery, a tool is called once its schema was fetched this turn: the model
      // then knows its arguments, and is told how to get there otherwise.
      const result = binding.refusal(call.name) ??
        await callTool(state.agent, call.name, args, { key });
      if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
        return {
          messages: turns,
          pending: {
            tool: call.name,
            args,
            key,
            summary: result.error.confirmation?.summary ?? result.error.msg,
            callId: call.id,
          },
        };
      }
      if (call.name === HANDOFF_TOOL && result.ok) handedOff = true;
      const writes = tools.find((tool) => tool.name === call.name)?.sideEffects.startsWith(
        "writes.",
      );
      if (result.ok && writes) wrote = result;
      binding.observe(call.name, result);
      turns.push({ role: "tool", content: JSON.stringify(result), tool_call_id: call.id });
    }
  }
  return {
    messages: turns,
    replies: [{ text: say("unfinished", state.language) }],
    pending: null,
    ...ending(),
  };
}

async function confirm(state: AgentStateType, config: LangGraphRunnableConfig) {
  const pending = state.pending!;
  // Re-run from here on resume: nothing above the interrupt has an effect.
  const decision = interrupt<
    { summary: string; summaries?: PendingCall["summaries"]; tool: string },
    "confirm" | "cancel"
  >({
    summary: pending.summary,
    ...(pending.summaries ? { summaries: pending.summaries } : {}),
    tool: pending.tool,
  });
  const { callTool } = deps(config);
  let result = CANCELLED;
  if (decision === "confirm") {
    // A fresh token for the same call (same arguments, same key), then the call itself.
    const asked = await callTool(state.agent, pending.tool, pending.args, { key: pending.key });
    const token = !asked.ok ? asked.error.confirmation?.token : undefined;
    result = token
      ? await callTool(state.agent, pending.tool, pending.args, {
        key: pending.key,
        confirmation: token,
      })
      : asked;
  }
  return {
    pending: null,
    messages: [{
      role: "tool" as const,
      content: JSON.stringify(result),
      tool_call_id: pending.callId,
    }],
    memory: { lastResult: result, lastTool: pending.tool },
  };
}

/** Builds and compiles the agent graph with a checkpointer. */
export function buildAgentGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(AgentState)
    .addNode("route", route)
    .addNode("act", act)
    .addNode("confirm", confirm)
    .addEdge(START, "route")
    // A clarifying question is answered by the router itself.
    .addConditionalEdges("route", (state) => state.replies.length ? END : "act", ["act", END])
    .addConditionalEdges("act", (state) => state.pending ? "confirm" : END, ["confirm", END])
    .addEdge("confirm", "act")
    .compile({ checkpointer });
}
