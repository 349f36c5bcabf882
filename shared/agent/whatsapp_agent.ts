/**
 * The LangGraph agent as the WhatsApp channel's conversation handler: one
 * graph thread per conversation (checkpointed in Postgres), a pending
 * confirmation resumed by the user's Confirm / Cancel, replies mapped to
 * WhatsApp text, buttons and lists within WhatsApp's limits.
 *
 * @module
 */
import { discoveryOf } from "./tool_discovery.ts";
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import { type Language, LANGUAGES } from "@shared/contract/language.ts";
import { Command, MemorySaver } from "@langchain/langgraph";
import type {
  ConversationHandler,
  ConversationTurn,
} from "@shared/channels/whatsapp/conversation.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { messageText } from "@shared/channels/whatsapp/inbound.ts";
import {
  buttonsMessage,
  documentMessage,
  listMessage,
  textMessage,
  type WhatsAppMessage,
} from "@shared/channels/whatsapp/mod.ts";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import {
  type AgentDeps,
  type AgentReply,
  type AgentStateType,
  buildAgentGraph,
  type TurnInput,
} from "./agent_graph.ts";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { DatabaseCheckpointSaver } from "./checkpointer.ts";
import { decisionOf } from "./intents.ts";
import { asksForHelp } from "./help_request.ts";
import { notDoneText, readAtConfirmation } from "./confirmation_aside.ts";
import { agentRoster, tenantRoster } from "./roster.ts";
import { staffDeskTurn } from "./staff_desk.ts";
import { requestedLanguage } from "./language_detect.ts";
import type { RouteContext } from "./route_decision.ts";
import { createRouter } from "./router.ts";
import { type ChatModel, modelFromEnv, ModelUnavailableError } from "./model.ts";
import { createModelFailureMonitor, type ModelFailureMonitor } from "./model_failures.ts";
import {
  createModelTurn,
  type ModelTurn,
  modelTurnOptionsFromEnv,
  type ModelTurnSettings,
  workingText,
} from "./model_turn.ts";
import {
  type BreakerKey,
  countsAgainstEndpoint,
  createModelBreaker,
  type ModelBreaker,
  modelBreakerOptionsFromEnv,
} from "./model_breaker.ts";

/** Options for {@link createAgentHandler}. */
export interface AgentHandlerOptions {
  /** The model; `null` for the deterministic mode. @default from OPENAI_API_KEY, else null */
  model?: ChatModel | null;
  /** Where conversation state is kept. @default the platform's database */
  checkpointer?: BaseCheckpointSaver;
  /**
   * Logs, counts and raises turns the model could not answer (those turns are
   * answered offline). @default a monitor over the platform
   */
  modelFailures?: ModelFailureMonitor;
  /** The packs whose agents it runs. @default the platform's */
  packs?: readonly Pack[];
  /**
   * One router for every tenant (a test's fixed router). @default
   * `routerFor` each tenant
   */
  router?: RouteContext;
  /**
   * The router for the agents one tenant runs, trained once per tenant by
   * the composition root (which knows the filler phrases). @default
   * trained from those agents' intents in `packs`
   */
  routerFor?: (runs: readonly string[]) => RouteContext;
  /**
   * The model's deadline per turn and when the user hears "working on it".
   * @default from MODEL_TURN_DEADLINE_MS and MODEL_WORKING_NOTICE_MS
   */
  modelTurn?: ModelTurnSettings;
  /**
   * The circuit breaker per org and model endpoint. @default one over the
   * platform's database, from MODEL_BREAKER_THRESHOLD and MODEL_BREAKER_COOLDOWN_MS
   */
  breaker?: ModelBreaker;
}

// The ask carries its colon: French sets a space before it ("Veuillez confirmer : …").
const CONFIRM_TEXT = {
  en: ["Please confirm:", "Confirm", "Cancel"],
  rw: ["Emeza:", "Emeza", "Reka"],
  fr: ["Veuillez confirmer :", "Confirmer", "Annuler"],
} as const;

// Help asked at a pending confirmation: what the buttons do, before the same read-back.
const CONFIRM_HELP = {
  en: "Tap “Confirm” to go ahead, or “Cancel” to drop it. Type 0 for the main menu.",
  rw: "Kanda “Emeza” kugira ngo bikorwe, cyangwa “Reka” kubireka. Andika 0 ujye ku ntangiriro.",
  fr: "Touchez « Confirmer » pour continuer, ou « Annuler » pour abandonner. Tapez 0 pour le menu.",
} as const;

/** The read-back a pending action waits on, with its Confirm and Cancel buttons. */
function confirmationMessage(language: Language, summary: string, before = "") {
  const [ask, yes, no] = CONFIRM_TEXT[language];
  return buttonsMessage({
    body: `${before}${ask} ${summary}`.slice(0, 1024),
    buttons: [{ id: "agent_confirm", title: yes }, { id: "agent_cancel", title: no }],
  });
}

// The label of a list's button and section.
const CHOOSE = { en: "Choose", rw: "Hitamo", fr: "Choisir" } as const;

/** A WhatsApp message as an agent's turn input. */
export function inputOf(turn: ConversationTurn): TurnInput {
  const content = turn.message.content;
  return {
    wamid: turn.message.wamid,
    text: messageText(content).trim(),
    choice: content.kind === "button_reply" || content.kind === "list_reply"
      ? content.id
      : content.kind === "quick_reply"
      ? content.payload
      : undefined,
    location: content.kind === "location"
      ? { latitude: content.latitude, longitude: content.longitude }
      : undefined,
    phone: turn.user.phone,
    name: turn.message.profileName,
    media: content.kind === "media"
      ? {
        type: content.mediaType,
        ref: content.stored
          ? `storage://${content.stored.bucket}/${content.stored.path}`
          : undefined,
      }
      : undefined,
  };
}

/** An agent reply as a WhatsApp message, within WhatsApp's limits. */
export function toWhatsApp(reply: AgentReply, chooseLabel = "Choose"): WhatsAppMessage {
  const body = reply.text.slice(0, 1024) || "…";
  if (reply.document) {
    const { link, filename, mimeType, size } = reply.document;
    return documentMessage({ link, filename, caption: body, file: { mimeType, size } });
  }
  if (reply.buttons?.length) {
    return buttonsMessage({
      body,
      buttons: reply.buttons.slice(0, 3).map((b) => ({
        id: b.id,
        title: shortenTitle(b.title, TITLE_LIMITS.button),
      })),
    });
  }
  if (reply.rows?.length) {
    return listMessage({
      body,
      button: shortenTitle(reply.list?.button ?? chooseLabel, TITLE_LIMITS.button),
      sections: [{
        title: shortenTitle(reply.list?.section ?? chooseLabel, TITLE_LIMITS.section),
        rows: reply.rows.slice(0, 10).map((row) => ({
          id: row.id.slice(0, 200),
          title: shortenTitle(row.title, TITLE_LIMITS.row),
          ...(row.description
            ? { description: shortenTitle(row.description, TITLE_LIMITS.description) }
            : {}),
        })),
      }],
    });
  }
  return textMessage(reply.text.slice(0, 4096) || "…");
}

/**
 * Builds the handler.
 *
 * @throws {TypeError} when the packs leave a routing role (front desk,
 * fallback, hand-off) unheld or held twice.
 */
export function createAgentHandler(
  runtime: { platform: Platform },
  options: AgentHandlerOptions = {},
): ConversationHandler {
  const { platform } = runtime;
  const packs = options.packs ?? platform.packs;
  const roster = agentRoster(packs);
  const routerFor = options.routerFor ?? ((runs) => createRouter({ packs, runs }));
  const graph = buildAgentGraph(
    options.checkpointer ?? new DatabaseCheckpointSaver({ db: platform.db }),
  );
  const model = options.model === undefined ? modelFromEnv() : options.model;
  const monitor = options.modelFailures ?? createModelFailureMonitor({ platform });
  const turnSettings = { ...modelTurnOptionsFromEnv(), ...options.modelTurn };
  const breaker = options.breaker ?? createModelBreaker({
    db: platform.db,
    ...modelBreakerOptionsFromEnv(),
    // A probe holds off others for its whole turn, and a little more.
    probeMs: turnSettings.deadlineMs + 5_000,
  });
  // What a tenant's conversations see: the agents it runs (the agent file's view), on its menu,
  // in its router and in its prompts; built once per tenant.
  type TenantView = Pick<AgentDeps, "agents" | "roster" | "router" | "tenant">;
  const views = new Map<string, TenantView>();
  function tenantView(orgId: string): TenantView {
    const known = views.get(orgId);
    if (known) return known;
    const tenant = platform.tenants.get(orgId);
    const agents = platform.agents.list(tenant?.slug ?? "").map(({ id, name, description }) => ({
      id,
      name,
      description,
    }));
    const runs = new Set(agents.map((agent) => agent.id));
    const view = {
      agents,
      roster: tenantRoster(roster, runs),
      router: options.router ?? routerFor([...runs]),
      tenant: tenant?.profile,
    };
    if (tenant) views.set(orgId, view);
    return view;
  }

  // Whether this turn may use the model (the breaker), and the turn's model if so.
  async function modelFor(turn: Parameters<ConversationHandler>[0], key: BreakerKey | null) {
    if (!model || !key) return null;
    let gate;
    try {
      gate = await breaker.gate(key);
    } catch (error) {
      // The breaker's state out of reach: the deadline still bounds the wait.
      platform.log.error("model_breaker_unreadable", {
        trace_id: turn.message.wamid,
        error: error instanceof Error ? error.message : String(error),
      });
      gate = "closed";
    }
    if (gate === "open") {
      platform.log.info("model_skipped", {
        trace_id: turn.message.wamid,
        org_id: turn.orgId,
        reason: "breaker_open",
        fallback: "offline",
      });
      return null;
    }
    if (gate === "probe") {
      platform.log.info("model_probe", { trace_id: turn.message.wamid, org_id: turn.orgId });
    }
    const progress = turn.progress;
    return createModelTurn({
      model,
      ...turnSettings,
      ...(progress ? { notice: (language) => progress(workingText(language)) } : {}),
    });
  }

  // The turn's outcome for the breaker: a failure counts, an answer closes it.
  async function recordOutcome(
    turn: Parameters<ConversationHandler>[0],
    key: BreakerKey,
    used: ModelTurn,
  ) {
    try {
      if (used.failure && countsAgainstEndpoint(used.failure)) {
        const outcome = await breaker.failed(key);
        if (outcome.opened) {
          platform.log.warn("model_breaker_opened", {
            trace_id: turn.message.wamid,
            org_id: turn.orgId,
            failures: outcome.failures,
          });
        }
      } else if (used.answered && await breaker.succeeded(key)) {
        platform.log.info("model_breaker_closed", {
          trace_id: turn.message.wamid,
          org_id: turn.orgId,
        });
      }
    } catch (error) {
      // Keeping count must never cost the user their reply.
      platform.log.error("model_breaker_not_recorded", {
        trace_id: turn.message.wamid,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  // A question asked while an action waits on Confirm / Cancel runs on a copy of the
  // conversation, never on its thread: the thread keeps waiting on the same read-back (its
  // buttons bound to the same call), and the copy is thrown away after the turn.
  const besideSaver = new MemorySaver();
  const besideGraph = buildAgentGraph(besideSaver);
  async function answerBeside(
    values: AgentStateType,
    input: TurnInput,
    summary: string,
    deps: AgentDeps,
    turn: Parameters<ConversationHandler>[0],
  ): Promise<{ replies: AgentReply[]; language: Language } | null> {
    const threadId = `beside:${turn.user.conversationId}:${turn.message.wamid}`;
    const callId = values.pending?.callId;
    // The model never reads a call left without its result: the waiting one is left out.
    const messages = (values.messages ?? []).filter((message) =>
      !(message.role === "assistant" && message.tool_calls?.some((call) => call.id === callId))
    );
    try {
      const state = await besideGraph.invoke(
        { ...values, messages, pending: null, confirming: summary, input },
        { configurable: { thread_id: threadId, deps }, durability: "exit" as const },
      ) as AgentStateType & { __interrupt__?: unknown[] };
      // A confirmation of its own (the order redrafted: "make it 30 reams"), a hand-off or a
      // question of its own ("cancel it or keep it?") is a new request, not an aside.
      if (state.__interrupt__?.length || state.handoff || state.leaving) return null;
      // A front-desk answer (the hours) comes without its menu: the read-back is the question.
      const replies = state.atMenu
        ? state.replies.map((reply) => ({ text: reply.text }))
        : state.replies;
      return { replies, language: state.language };
    } finally {
      await besideSaver.deleteThread(threadId);
    }
  }

  // A staff member on their registered number: the staff desk, never the customers' graph.
  const staffTurn = async (turn: Parameters<ConversationHandler>[0]) => {
    let failure: { error: ModelUnavailableError; agentId: string } | null = null;
    const key = model ? { orgId: turn.orgId, endpoint: model.endpoint ?? "default" } : null;
    const turnModel = await modelFor(turn, key);
    const view = tenantView(turn.orgId);
    const outcome = await staffDeskTurn({
      input: inputOf(turn),
      state: turn.user.state,
      locale: turn.user.locale,
      roster: view.roster,
      now: platform.now(),
      detect: (text) => requestedLanguage(text) ?? view.router.detector.detect(text),
      ...(view.tenant ? { brand: view.tenant.brand } : {}),
      ...(view.tenant?.currency ? { currency: view.tenant.currency } : {}),
      model: turnModel,
      toolsFor: (agentId) => platform.getToolsForAgent(agentId, turn.orgId),
      discovery: (agentId) =>
        discoveryOf(platform.agents.get(platform.tenants.get(turn.orgId)?.slug ?? "", agentId)),
      describe: (agentId) => view.agents.find((agent) => agent.id === agentId),
      isModelFailure: (error) => error instanceof ModelUnavailableError,
      onModelFailure: (error, agentId) => {
        failure ??= { error, agentId };
      },
      callTool: (agentId, tool, args, callOptions) =>
        turn.callTool(tool, args, {
          agentId,
          key: callOptions.key,
          confirmation: callOptions.confirmation,
        }),
    });
    if (turnModel && key) await recordOutcome(turn, key, turnModel);
    if (failure) {
      const { error, agentId } = failure;
      await monitor.record({
        orgId: turn.orgId,
        convoId: turn.user.conversationId,
        traceId: turn.message.wamid,
        agentId,
        error,
      });
    }
    const language = outcome.state.language ?? "en";
    return {
      replies: outcome.replies.map((reply) => toWhatsApp(reply, CHOOSE[language])),
      state: outcome.state,
    };
  };

  const runTurn = async (turn: Parameters<ConversationHandler>[0]) => {
    // The tenant's generated tools as the database holds them (cheap when nothing moved), so
    // an agent with `tenant_tools` is offered what the tenant's staff registered elsewhere.
    await platform.syncTools(turn.orgId);
    if (turn.user.staff) return await staffTurn(turn);
    let failure: { error: ModelUnavailableError; agentId: string } | null = null;
    const key = model ? { orgId: turn.orgId, endpoint: model.endpoint ?? "default" } : null;
    const turnModel = await modelFor(turn, key);
    const deps: AgentDeps = {
      model: turnModel,
      onModelFailure: (error, agentId) => {
        failure ??= { error, agentId };
      },
      onPackFailure: (error, agentId, where) => {
        platform.log.error("pack_failed", {
          trace_id: turn.message.wamid,
          org_id: turn.orgId,
          agent_id: agentId,
          where,
          error: error instanceof Error ? error.message : String(error),
        });
      },
      ...tenantView(turn.orgId),
      toolsFor: (agentId) => platform.getToolsForAgent(agentId, turn.orgId),
      discovery: (agentId) =>
        discoveryOf(platform.agents.get(platform.tenants.get(turn.orgId)?.slug ?? "", agentId)),
      ...(turn.progress ? { progress: turn.progress } : {}),
      now: () => platform.now(),
      callTool: (agentId, tool, args, callOptions) =>
        turn.callTool(tool, args, {
          agentId,
          key: callOptions.key,
          confirmation: callOptions.confirmation,
          answersFailure: callOptions.answersFailure,
        }),
    };
    // The thread is checkpointed once, when the turn's run ends (done, interrupted for a
    // confirmation, or failed), not after every step: a turn is one message and is retried whole,
    // and each step's checkpoint and writes were seven of the 34 statements a message cost, the
    // largest (about two fifths of its database time on PGlite).
    const config = {
      configurable: { thread_id: turn.user.conversationId, deps },
      durability: "exit" as const,
    };
    const snapshot = await graph.getState(config);
    // Until the conversation has a language of its own, the profile's is the sticky one.
    const input = {
      input: inputOf(turn),
      ...(snapshot.values?.langPref ? {} : { langPref: turn.user.locale }),
    };
    const entriesBefore = snapshot.values?.entry?.seq ?? 0;
    const waiting = snapshot.tasks.some((task) => task.interrupts.length > 0);
    let state: AgentStateType & { __interrupt__?: Array<{ value: { summary: string } }> };
    // Said before the replies: a pending action dropped for a new request, by its name.
    let dropped: WhatsAppMessage | null = null;
    if (waiting) {
      const decision = decisionOf(input.input.text, input.input.choice);
      const waited = snapshot.tasks.flatMap((task) => task.interrupts)[0]?.value as
        | { summary?: string; summaries?: Partial<Record<Language, string>>; tool?: string }
        | undefined;
      const summary = waited?.summary;
      // The read-back shown again is read in the language of this moment, where it was drafted
      // in it (an English order asked about in French reads « Commande chez … », « 260 000 RWF »).
      const summaryIn = (language: Language) => waited?.summaries?.[language] ?? summary!;
      // The language the last question beside the read-back was answered in (the thread itself
      // waits, unchanged): "annuler" after French questions is answered in French.
      const besideLanguage = LANGUAGES.find((language) => language === turn.user.state.language);
      const values = snapshot.values as AgentStateType;
      // Words, not a button: read as the router reads any message. A tapped button of an
      // earlier message (a list row, "Talk to a person") is a new request of its own.
      const read = decision || !summary
        ? null
        : input.input.choice
        ? { kind: "replace" as const, language: values.language ?? "en" }
        : readAtConfirmation(input.input.text, {
          agent: values.agent || null,
          langPref: besideLanguage ?? values.langPref ?? null,
        }, deps.router);
      // "help", « aide », "ubufasha", or words that name nothing: the pending action is
      // explained and asked again.
      if (read && summary && (read.kind === "help" || asksForHelp(input.input.text))) {
        return {
          replies: [
            confirmationMessage(
              read.language,
              summaryIn(read.language),
              `${CONFIRM_HELP[read.language]}\n\n`,
            ),
          ],
          state: { agent: values.agent, awaiting: "confirmation", language: read.language },
        };
      }
      // A question or an aside ("can I pay with MoMo?", "how much is a ream?"): answered, and
      // the same read-back shown again, its buttons bound to the same call.
      if (read?.kind === "aside" && summary) {
        const aside = await answerBeside(values, input.input, summary, deps, turn);
        if (aside) {
          if (turnModel && key) await recordOutcome(turn, key, turnModel);
          const language = aside.language ?? read.language;
          return {
            replies: [
              ...aside.replies.map((reply) => toWhatsApp(reply, CHOOSE[language])),
              confirmationMessage(language, summaryIn(language)),
            ],
            state: { agent: values.agent, awaiting: "confirmation", language },
          };
        }
      }
      const spoken = besideLanguage
        ? { update: { language: besideLanguage, langPref: besideLanguage } }
        : {};
      state = await graph.invoke(new Command({ resume: decision ?? "cancel", ...spoken }), config);
      // A new request (or the menu) replaces the pending action: it is cancelled, the person
      // is told it was not done, then the message is handled as itself.
      if (!decision) {
        state = await graph.invoke(input, config);
        // The same call asked again in other terms (the order redrafted: "make it 12") is the
        // pending one changed, shown by its new read-back, not another request.
        const redrafted = (state as { __interrupt__?: Array<{ value: { tool?: string } }> })
          .__interrupt__?.[0]?.value.tool === waited?.tool;
        if (read?.kind !== "cancel" && summary && !redrafted) {
          const language = state.language ?? read?.language ?? "en";
          dropped = textMessage(notDoneText(summaryIn(language), language));
        }
      }
    } else {
      state = await graph.invoke(input, config);
    }
    if (turnModel && key) await recordOutcome(turn, key, turnModel);
    if (failure) {
      const { error, agentId } = failure;
      await monitor.record({
        orgId: turn.orgId,
        convoId: turn.user.conversationId,
        traceId: turn.message.wamid,
        agentId: state.agent ?? agentId,
        error,
      });
    }
    // The conversation's language becomes the person's: what reaches them later outside this
    // conversation (an order's progress, a payment, a ride offer) is written in it.
    if (state.langPref && state.langPref !== turn.user.locale) {
      await platform.db.query("update public.profiles set locale = $2 where id = $1", [
        turn.user.userId,
        state.langPref,
      ]);
    }
    // The agent this turn's route entered, for the channel to record with the turn.
    const entered = state.entry && state.entry.seq > entriesBefore
      ? { entered: state.entry.agent }
      : {};
    const language = state.language ?? "en";
    const pending = state.__interrupt__?.[0]?.value;
    if (pending) {
      return {
        // What the step said before asking (an order placed, before its payment is confirmed).
        replies: [
          ...dropped ? [dropped] : [],
          ...state.replies.map((reply) => toWhatsApp(reply, CHOOSE[language])),
          confirmationMessage(language, pending.summary),
        ],
        state: { agent: state.agent, awaiting: "confirmation" },
        ...entered,
      };
    }
    return {
      replies: [
        ...dropped ? [dropped] : [],
        ...state.replies.map((reply) => toWhatsApp(reply, CHOOSE[language])),
      ],
      // "Cancel or keep?" asked with an urgent hand-off: the channel lets a typed answer
      // through the queue to the assistant, which holds the work.
      state: { agent: state.agent, ...(state.leaving?.withStaff ? { awaiting: "leave" } : {}) },
      handoff: state.handoff,
      ...entered,
    };
  };
  // Each turn runs in a clean LangGraph context. A loop started inside a node (a worker's
  // message handler, a queue woken by a tool) keeps that node's async context, and a turn
  // reached from it would inherit the old run's config, checkpoint id included, and resume
  // the conversation from a stale checkpoint.
  return (turn) =>
    AsyncLocalStorageProviderSingleton.getInstance().run(undefined, () => runTurn(turn));
}
