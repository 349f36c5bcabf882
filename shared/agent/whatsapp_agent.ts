/**
 * The LangGraph agent as the WhatsApp channel's conversation handler: one
 * graph thread per conversation (checkpointed in Postgres), a pending
 * confirmation resumed by the user's Confirm / Cancel, replies mapped to
 * WhatsApp text, buttons and lists within WhatsApp's limits.
 *
 * @module
 */
import { Command } from "@langchain/langgraph";
import type {
  ConversationHandler,
  ConversationTurn,
} from "@shared/channels/whatsapp/conversation.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { messageText } from "@shared/channels/whatsapp/inbound.ts";
import {
  buttonsMessage,
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
import { agentRoster } from "./roster.ts";
import type { RouteContext } from "./route_decision.ts";
import { createRouter } from "./router.ts";
import { type ChatModel, modelFromEnv, type ModelUnavailableError } from "./model.ts";
import { createModelFailureMonitor, type ModelFailureMonitor } from "./model_failures.ts";

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
   * The router, trained once at start by the composition root. @default
   * trained from `packs` (once per pack list)
   */
  router?: RouteContext;
}

const CONFIRM_TEXT = {
  en: ["Please confirm", "Confirm", "Cancel"],
  rw: ["Emeza", "Emeza", "Reka"],
  fr: ["Veuillez confirmer", "Confirmer", "Annuler"],
} as const;

// The label of a list's button and section.
const CHOOSE = { en: "Choose", rw: "Hitamo", fr: "Choisir" } as const;

function inputOf(turn: ConversationTurn): TurnInput {
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
  if (reply.buttons?.length) {
    return buttonsMessage({
      body,
      buttons: reply.buttons.slice(0, 3).map((b) => ({ id: b.id, title: b.title.slice(0, 20) })),
    });
  }
  if (reply.rows?.length) {
    return listMessage({
      body,
      button: chooseLabel,
      sections: [{
        title: chooseLabel,
        rows: reply.rows.slice(0, 10).map((row) => ({
          id: row.id.slice(0, 200),
          title: row.title.slice(0, 24),
          ...(row.description ? { description: row.description.slice(0, 72) } : {}),
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
  const router = options.router ?? createRouter({ packs });
  const graph = buildAgentGraph(
    options.checkpointer ?? new DatabaseCheckpointSaver({ db: platform.db }),
  );
  const model = options.model === undefined ? modelFromEnv() : options.model;
  const monitor = options.modelFailures ?? createModelFailureMonitor({ platform });
  const agents = platform.agents.list().map(({ id, name, description }) => ({
    id,
    name,
    description,
  }));

  const runTurn = async (turn: Parameters<ConversationHandler>[0]) => {
    let failure: { error: ModelUnavailableError; agentId: string } | null = null;
    const deps: AgentDeps = {
      model,
      onModelFailure: (error, agentId) => {
        failure ??= { error, agentId };
      },
      agents,
      roster,
      router,
      toolsFor: (agentId) => platform.getToolsForAgent(agentId, turn.orgId),
      ...(turn.progress ? { progress: turn.progress } : {}),
      callTool: (agentId, tool, args, callOptions) =>
        turn.callTool(tool, args, {
          agentId,
          key: callOptions.key,
          confirmation: callOptions.confirmation,
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
    const waiting = snapshot.tasks.some((task) => task.interrupts.length > 0);
    let state: AgentStateType & { __interrupt__?: Array<{ value: { summary: string } }> };
    if (waiting) {
      const decision = decisionOf(input.input.text, input.input.choice);
      state = await graph.invoke(new Command({ resume: decision ?? "cancel" }), config);
      // Anything but an answer cancels the pending action, then is handled as itself.
      if (!decision) state = await graph.invoke(input, config);
    } else {
      state = await graph.invoke(input, config);
    }
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
    const language = state.language ?? "en";
    const pending = state.__interrupt__?.[0]?.value;
    if (pending) {
      const [ask, yes, no] = CONFIRM_TEXT[language];
      return {
        replies: [buttonsMessage({
          body: `${ask}: ${pending.summary}`.slice(0, 1024),
          buttons: [{ id: "agent_confirm", title: yes }, { id: "agent_cancel", title: no }],
        })],
        state: { agent: state.agent, awaiting: "confirmation" },
      };
    }
    // Offline (no model, or the model failed this turn), an agent whose pack gives it a
    // channel flow (buy & sell's concierge) is that flow itself (same tools, same consent step).
    // Packs type their channel flows for this channel, the one that runs them.
    const conversation = roster.conversationOf(state.agent) as ConversationHandler | undefined;
    if ((!model || failure) && conversation) {
      const memory = state.memory as { channelFlow?: Record<string, unknown> };
      // Entered from the menu: the flow starts afresh, the tapped row or number is no request.
      const entered = state.input.choice === `agent:${state.agent}`;
      const outcome = await conversation({
        ...turn,
        message: entered ? { ...turn.message, content: { kind: "text", text: "" } } : turn.message,
        language,
        user: { ...turn.user, state: memory.channelFlow ?? {} },
      });
      await graph.updateState(config, { memory: { channelFlow: outcome.state } });
      return { ...outcome, state: { agent: state.agent } };
    }
    return {
      replies: state.replies.map((reply) => toWhatsApp(reply, CHOOSE[language])),
      state: { agent: state.agent },
      handoff: state.handoff,
    };
  };
  // Each turn runs in a clean LangGraph context. A loop started inside a node (a worker's
  // message handler, a queue woken by a tool) keeps that node's async context, and a turn
  // reached from it would inherit the old run's config, checkpoint id included, and resume
  // the conversation from a stale checkpoint.
  return (turn) =>
    AsyncLocalStorageProviderSingleton.getInstance().run(undefined, () => runTurn(turn));
}
