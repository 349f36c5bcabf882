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
import {
  Annotation,
  type BaseCheckpointSaver,
  END,
  interrupt,
  START,
  StateGraph,
} from "@langchain/langgraph";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ToolResult } from "@shared/contract/mod.ts";
import { type Language, languageOf } from "@shared/contract/language.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { type ChatModel, type ChatTurn, ModelUnavailableError } from "./model.ts";
import { isGreeting, isSensitive } from "./intents.ts";
import type { AgentRoster } from "./roster.ts";
import type { AgentReply, OfflineTurn, PendingCall, TurnInput } from "@shared/registry/pack.ts";

export type { AgentReply, PendingCall, TurnInput };

/** Calls a tool as the conversation's user, attributed to the agent. */
export type ToolCaller = (
  agentId: string,
  tool: string,
  args: unknown,
  options: { key: string; confirmation?: string },
) => Promise<ToolResult>;

/** What the nodes need at run time (passed in `configurable`). */
export interface AgentDeps {
  /** Calls tools through the pipeline. */
  callTool: ToolCaller;
  /** The tools an agent may use (its allowlist ∩ the tenant's policy). */
  toolsFor(agentId: string): AnyTool[];
  /** The model, or null for the deterministic mode. */
  model: ChatModel | null;
  /** Agent names and descriptions, for prompts and the router. */
  agents: Array<{ id: string; name: string; description: string }>;
  /** The packs' agents: roles, words, menu and offline flows. */
  roster: AgentRoster;
  /**
   * Told when the model could not answer (the turn then runs in the
   * deterministic mode); at most once per node that called it.
   */
  onModelFailure?(error: ModelUnavailableError, agentId: string): void;
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
  memory: Annotation<Record<string, unknown>>({
    reducer: (old, next) => ({ ...old, ...next }),
    default: () => ({}),
  }),
});

/** The state's type. */
export type AgentStateType = typeof AgentState.State;

function deps(config: LangGraphRunnableConfig): AgentDeps {
  return config.configurable?.deps as AgentDeps;
}

/** Failed turns in a row before the conversation goes to a person. */
export const MAX_FAILURES = 3;

const CANCELLED = { ok: false, error: { code: "CANCELLED", msg: "The user cancelled" } };

async function route(state: AgentStateType, config: LangGraphRunnableConfig) {
  const language = languageOf(state.input.text, state.language);
  // A tapped agent from the front desk's menu, else the words.
  const chosen = state.input.choice?.startsWith("agent:") ? state.input.choice.slice(6) : null;
  // Sensitive topics and an agent that keeps failing go to a person.
  const escalate = isSensitive(state.input.text) || state.failures >= MAX_FAILURES;
  const { model, agents, roster } = deps(config);
  const current = state.agent || roster.frontDesk;
  const topic = escalate ? roster.handoff : chosen ?? roster.topicOf(state.input.text);
  let agent = topic ?? current;
  // The model routes only what keywords cannot, and only from the front desk.
  const atFrontDesk = !topic && current === roster.frontDesk;
  if (atFrontDesk && state.input.location) {
    // A shared location at the front desk is about finding something nearby.
    agent = roster.fallback;
  } else if (atFrontDesk && state.input.text && !isGreeting(state.input.text)) {
    // Words that name no topic: the model decides, else it is something to find.
    const picked = model
      ? await chooseAgent(model, agents, state.input.text).catch((error) => {
        if (error instanceof ModelUnavailableError) {
          deps(config).onModelFailure?.(error, current);
        }
        return null;
      })
      : null;
    agent = picked ?? roster.fallback;
  }
  const handover = agent !== current;
  return {
    agent,
    language,
    replies: [],
    handoff: false,
    // A new agent starts from a clean slate of flow memory.
    ...(handover ? { memory: { step: null } } : {}),
  };
}

async function chooseAgent(
  model: ChatModel,
  agents: AgentDeps["agents"],
  text: string,
): Promise<string | null> {
  const list = agents.map((agent) => `- ${agent.id}: ${agent.description}`).join("\n");
  const reply = await model.complete({
    messages: [
      {
        role: "system",
        content: `Pick the agent for the user's message. Answer with the agent id only.\n${list}`,
      },
      { role: "user", content: text },
    ],
    tools: [],
  });
  const id = reply.content.trim().split(/\s+/)[0]?.replace(/[^a-z_]/g, "");
  return agents.some((agent) => agent.id === id) ? id : null;
}

function offlineTurn(state: AgentStateType, roster: AgentRoster): OfflineTurn {
  return {
    agent: state.agent,
    language: state.language,
    input: state.input,
    memory: state.memory,
    menu: roster.menu,
  };
}

async function act(state: AgentStateType, config: LangGraphRunnableConfig) {
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
    const { done, ...step } = await roster.flowOf(state.agent)(
      offlineTurn(state, roster),
      (tool, args, name) =>
        counting.callTool(state.agent, tool, args, { key: `${state.input.wamid}:${name}` }),
    );
    return done ? { ...step, agent: roster.frontDesk } : step;
  };
  let update;
  try {
    update = outer.model ? await modelAct(state, scoped) : await offline();
  } catch (error) {
    if (!(error instanceof ModelUnavailableError)) throw error;
    // The model failing is never silence: this turn is answered offline.
    outer.onModelFailure?.(error, state.agent);
    update = await offline();
  }
  return { ...update, failures: failed ? state.failures + 1 : 0 };
}

// The hand-off runs its pack's flow with or without a model, then returns to the front desk.
async function handOff(state: AgentStateType, config: LangGraphRunnableConfig) {
  const { roster, callTool } = deps(config);
  const escalation = isSensitive(state.input.text)
    ? "sensitive"
    : state.failures >= MAX_FAILURES
    ? "failing"
    : undefined;
  const step = await roster.flowOf(state.agent)(
    { ...offlineTurn(state, roster), escalation },
    (tool, args, name) =>
      callTool(state.agent, tool, args, { key: `${state.input.wamid}:${name}` }),
  );
  return {
    replies: step.replies ?? [],
    handoff: step.handoff ?? false,
    agent: step.done ? roster.frontDesk : state.agent,
    failures: 0,
  };
}

const MAX_STEPS = 4;

async function modelAct(state: AgentStateType, config: LangGraphRunnableConfig) {
  const { model, toolsFor, callTool, agents } = deps(config);
  const agent = agents.find((candidate) => candidate.id === state.agent);
  const tools = toolsFor(state.agent);
  const system: ChatTurn = {
    role: "system",
    content: `You are EasyMO's ${agent?.name ?? state.agent} on WhatsApp in Rwanda. ` +
      `${agent?.description ?? ""} Reply briefly in the user's language (${state.language}). ` +
      "Use tools to act; amounts are in RWF.",
  };
  // After a confirmation the conversation already holds the tool result: continue from it.
  const fresh: ChatTurn[] = state.pending === null && state.messages.at(-1)?.role !== "tool"
    ? [{ role: "user", content: state.input.text || "(shared a location)" }]
    : [];
  const turns: ChatTurn[] = [...fresh];
  for (let step = 0; step < MAX_STEPS; step++) {
    const reply = await model!.complete({
      messages: [system, ...state.messages, ...turns],
      tools,
    });
    if (!reply.tool_calls.length) {
      return {
        messages: [...turns, { role: "assistant" as const, content: reply.content }],
        replies: [{ text: reply.content }],
        pending: null,
        // The model has told the user how a confirmed call went: an offline turn must not again.
        memory: { lastResult: null, lastTool: undefined },
      };
    }
    turns.push({ role: "assistant", content: reply.content, tool_calls: reply.tool_calls });
    for (const call of reply.tool_calls) {
      const key = `${state.input.wamid}:${step}:${call.name}`;
      const result = await callTool(state.agent, call.name, call.args, { key });
      if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
        return {
          messages: turns,
          pending: {
            tool: call.name,
            args: call.args,
            key,
            summary: result.error.confirmation?.summary ?? result.error.msg,
            callId: call.id,
          },
        };
      }
      turns.push({ role: "tool", content: JSON.stringify(result), tool_call_id: call.id });
    }
  }
  return {
    messages: turns,
    replies: [{ text: "Sorry, I could not finish that. Please try again." }],
    pending: null,
  };
}

async function confirm(state: AgentStateType, config: LangGraphRunnableConfig) {
  const pending = state.pending!;
  // Re-run from here on resume: nothing above the interrupt has an effect.
  const decision = interrupt<{ summary: string; tool: string }, "confirm" | "cancel">({
    summary: pending.summary,
    tool: pending.tool,
  });
  const { callTool } = deps(config);
  let result: ToolResult | typeof CANCELLED = CANCELLED;
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
    .addEdge("route", "act")
    .addConditionalEdges("act", (state) => state.pending ? "confirm" : END, ["confirm", END])
    .addEdge("confirm", "act")
    .compile({ checkpointer });
}
