/**
 * The staff desk: how a tenant's staff talk to its staff agents, from their
 * registered WhatsApp number or the Admin Inbox's assistant panel. It is a
 * conversation of its own, apart from the customers' graph: customers never
 * enter it (the channel decides who is staff, from data), and nothing a
 * customer writes is read here. The desk lists the staff agents the tenant
 * runs (every agent with audience "staff" and a flow; the desk names none),
 * enters the one picked, runs its flow (or, with a model, the model over the
 * agent's tools) and goes back to the menu on "menu" or "0".
 *
 * Channel-neutral: it takes the turn's input and its kept state and returns
 * replies and the next state, which the channel keeps.
 *
 * @module
 */
import { z } from "zod";
import type { ToolResult } from "@shared/contract/mod.ts";
import { fail } from "@shared/contract/mod.ts";
import { type Language, languageOf, phraseBook } from "@shared/contract/language.ts";
import { resumeMemory, stampVersion } from "@shared/registry/flow_memory.ts";
import type { AgentReply, OfflineStep, PendingCall, TurnInput } from "@shared/registry/pack.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { AgentRoster } from "./roster.ts";
// Types only: the desk also runs in functions that do not ship the model's client (the panel).
import type { ChatTurn, ModelUnavailableError } from "./model.ts";
import type { ModelTurn } from "./model_turn.ts";
import { decisionOf } from "./intents.ts";
// "menu", "0", "go back to the start", « retour au début », "subira ahabanza": the router's
// reading, so staff and customers go back by the same words.
import { asksForMenu } from "./route_decision.ts";
import { DiscoveryTurn, type ToolDiscovery } from "./tool_discovery.ts";

const say = phraseBook({
  menu: {
    en: "Staff desk. Which assistant do you need?",
    rw: "Ibiro by'abakozi. Ni uwuhe mufasha ukeneye?",
    fr: "Bureau du personnel. De quel assistant avez-vous besoin ?",
  },
  none: {
    en: "No staff assistant runs for your organisation yet.",
    rw: "Nta mufasha w'abakozi urakora mu kigo cyanyu.",
    fr: "Aucun assistant du personnel ne fonctionne encore pour votre organisation.",
  },
  button: { en: "Assistants", rw: "Abafasha", fr: "Assistants" },
  confirm: { en: "Please confirm:", rw: "Emeza:", fr: "Veuillez confirmer :" },
  yes: { en: "Confirm", rw: "Emeza", fr: "Confirmer" },
  no: { en: "Cancel", rw: "Reka", fr: "Annuler" },
  restarted: {
    en: "This assistant has been updated since your last message, so we start again.",
    rw: "Uyu mufasha yavuguruwe kuva ubutumwa bwawe buheruka, bityo turongera gutangira.",
    fr: "Cet assistant a été mis à jour depuis votre dernier message : nous reprenons.",
  },
  unfinished: {
    en: "Sorry, I could not finish that. Please try again.",
    rw: "Mutwihanganire, sinabirangije. Ongera ugerageze.",
    fr: "Désolé, je n'ai pas pu terminer. Veuillez réessayer.",
  },
});

/** What the desk keeps between turns (the channel stores it with the conversation). */
export const StaffDeskState = z.object({
  /** The staff agent the conversation is with; "" at the menu. */
  agent: z.string().default(""),
  /** The reply language. */
  language: z.enum(["en", "rw", "fr"]).optional(),
  /** The agent's flow memory. */
  memory: z.record(z.string(), z.unknown()).default({}),
  /** A call waiting for the staff member's confirmation. */
  pending: z.object({
    tool: z.string(),
    args: z.unknown(),
    key: z.string(),
    summary: z.string(),
    callId: z.string(),
  }).nullish(),
  /** The model's conversation with the agent (its last turns). */
  messages: z.array(z.object({
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.string(),
    tool_calls: z.array(z.object({ id: z.string(), name: z.string(), args: z.unknown() }))
      .optional(),
    tool_call_id: z.string().optional(),
  })).default([]),
});

/** The desk's kept state. */
export type StaffDeskState = z.output<typeof StaffDeskState>;

/** Calls a tool as the staff member, attributed to a staff agent. */
export type StaffToolCaller = (
  agentId: string,
  tool: string,
  args: unknown,
  options: { key: string; confirmation?: string },
) => Promise<ToolResult>;

/** One turn at the desk. */
export interface StaffDeskTurn {
  /** This turn's message. */
  input: TurnInput;
  /** What the desk kept (anything else reads as a new conversation at the menu). */
  state: unknown;
  /** The staff member's language when the conversation has none yet. */
  locale: Language;
  /** The tenant's roster (its staff menu and staff agents). */
  roster: Pick<AgentRoster, "staffMenu" | "staffAgent">;
  /** Calls a tool as the staff member. */
  callTool: StaffToolCaller;
  /** The language a message is written in, or null when it does not say. @default markers only */
  detect?(text: string): Language | null;
  /** The platform's clock at this turn, as flows see it. */
  now?: Date;
  /** The tenant's brand and currency, as flows see them. */
  brand?: string;
  currency?: string;
  /** The model for this turn, or null: the agent's flow answers. @default null */
  model?: Pick<ModelTurn, "complete"> | null;
  /** A staff agent's tools, for the model. */
  toolsFor?(agentId: string): AnyTool[];
  /**
   * How a staff agent's model discovers its tools, as the customers' agents
   * do (see {@link DiscoveryTurn}). @default every agent is given all its tools
   */
  discovery?(agentId: string): ToolDiscovery | null;
  /** The agent's description, for the model's instructions. */
  describe?(agentId: string): { name: string; description: string } | undefined;
  /** Whether an error thrown by the model is its being unavailable (the flow then answers). */
  isModelFailure?(error: unknown): error is ModelUnavailableError;
  /** Told when the model could not answer (the flow answered instead). */
  onModelFailure?(error: ModelUnavailableError, agentId: string): void;
}

/** What a turn at the desk produced. */
export interface StaffDeskOutcome {
  /** What to answer. */
  replies: AgentReply[];
  /** The desk's next state. */
  state: StaffDeskState & { audience: "staff" };
}

/** The staff menu, in `language`. */
export function staffMenuReply(
  roster: Pick<AgentRoster, "staffMenu">,
  language: Language,
): AgentReply {
  if (!roster.staffMenu.length) return { text: say("none", language) };
  return {
    text: say("menu", language),
    rows: roster.staffMenu.map((entry) => ({
      id: `staff:${entry.id}`,
      title: entry.title[language],
    })),
    list: { button: say("button", language), section: say("button", language) },
  };
}

/**
 * Answers one staff turn.
 *
 * A tap on `staff:<id>` enters that agent when it is one of the tenant's
 * staff agents; "menu" or "0" goes back to the menu; a menu number picks
 * its row; anything else is the current agent's (or, at the menu, the menu
 * again).
 */
export async function staffDeskTurn(turn: StaffDeskTurn): Promise<StaffDeskOutcome> {
  const parsed = StaffDeskState.safeParse(turn.state ?? {});
  const kept: StaffDeskState = parsed.success ? parsed.data : StaffDeskState.parse({});
  const input = turn.input;
  const sticky = kept.language ?? turn.locale;
  // The member's words set the language (a trained detector when given), else it stays. A tap
  // carries our own title ("weekend_offer — rw · offer"), none of the member's words.
  const language = input.text && !input.choice
    ? turn.detect?.(input.text) ?? languageOf(input.text, sticky)
    : sticky;
  const done = (state: Partial<StaffDeskState>, replies: AgentReply[]): StaffDeskOutcome => ({
    replies,
    state: { ...kept, ...state, language, audience: "staff" },
  });
  const atMenu = (): StaffDeskOutcome =>
    done({ agent: "", memory: {}, pending: null, messages: [] }, [
      staffMenuReply(turn.roster, language),
    ]);

  // A call waiting for confirmation: the answer settles it, then the agent goes on.
  if (kept.pending && kept.agent) {
    const decision = decisionOf(input.text, input.choice);
    const result = decision === "confirm"
      ? await confirmed(turn, kept.agent, kept.pending)
      : fail("CANCELLED");
    const memory = { ...kept.memory, lastResult: result, lastTool: kept.pending.tool };
    const messages = [...kept.messages, {
      role: "tool" as const,
      content: JSON.stringify(result),
      tool_call_id: kept.pending.callId,
    }];
    const resumed = { ...kept, memory, messages, pending: null };
    // Anything but an answer cancels the call, then is handled as itself.
    if (decision) return await runAgent(turn, resumed, language, { ...input, text: "" });
    return await staffDeskTurn({ ...turn, state: { ...resumed, memory: { ...kept.memory } } });
  }
  const tapped = input.choice?.startsWith("staff:") ? input.choice.slice(6) : null;
  if (tapped !== null) {
    if (!turn.roster.staffAgent(tapped)) return atMenu();
    return await runAgent(
      turn,
      { ...kept, agent: tapped, memory: {}, pending: null, messages: [] },
      language,
      { wamid: input.wamid, text: "", choice: `agent:${tapped}` },
    );
  }
  if (input.text && asksForMenu(input.text)) return atMenu();
  if (!kept.agent || !turn.roster.staffAgent(kept.agent)) {
    // At the menu: a number picks its row.
    const number = /^\s*(\d{1,2})\s*$/.exec(input.text)?.[1];
    const entry = number ? turn.roster.staffMenu[Number(number) - 1] : undefined;
    if (entry) {
      return await runAgent(
        turn,
        { ...kept, agent: entry.id, memory: {}, pending: null, messages: [] },
        language,
        { wamid: input.wamid, text: "", choice: `agent:${entry.id}` },
      );
    }
    return atMenu();
  }
  return await runAgent(turn, kept, language, input);
}

// A fresh token for the kept call (same arguments, same key), then the call itself.
async function confirmed(turn: StaffDeskTurn, agent: string, pending: PendingCall) {
  const asked = await turn.callTool(agent, pending.tool, pending.args, { key: pending.key });
  const token = !asked.ok ? asked.error.confirmation?.token : undefined;
  return token
    ? await turn.callTool(agent, pending.tool, pending.args, {
      key: pending.key,
      confirmation: token,
    })
    : asked;
}

// Runs the agent for this turn: the model over its tools when there is one, else its flow.
async function runAgent(
  turn: StaffDeskTurn,
  state: StaffDeskState,
  language: Language,
  input: TurnInput,
): Promise<StaffDeskOutcome> {
  const agent = turn.roster.staffAgent(state.agent)!;
  // The model answers words, and continues after a call it asked to be confirmed.
  const forModel = turn.model && (input.text || state.messages.at(-1)?.role === "tool");
  let step;
  try {
    step = forModel
      ? await modelStep(turn, state, language, input)
      : await flowStep(turn, state, language, input);
  } catch (error) {
    // The model failing is never silence: the agent's flow answers this turn.
    if (!turn.isModelFailure?.(error)) throw error;
    turn.onModelFailure?.(error, agent.id);
    step = await flowStep(turn, state, language, input);
  }
  const memory = { ...state.memory, ...step.memory };
  if (step.pending) {
    return {
      replies: [
        ...step.replies ?? [],
        {
          text: `${say("confirm", language)} ${step.pending.summary}`,
          buttons: [
            { id: "agent_confirm", title: say("yes", language) },
            { id: "agent_cancel", title: say("no", language) },
          ],
        },
      ],
      state: {
        ...state,
        agent: agent.id,
        memory,
        pending: step.pending,
        messages: step.messages ?? state.messages,
        language,
        audience: "staff",
      },
    };
  }
  // The agent's conversation is over: back at the menu next time.
  return {
    replies: step.replies ?? [],
    state: {
      ...state,
      agent: step.done ? "" : agent.id,
      memory: step.done ? {} : memory,
      pending: null,
      messages: step.done ? [] : (step.messages ?? state.messages).slice(-20),
      language,
      audience: "staff",
    },
  };
}

// The agent's flow, its memory read by its declared schema (or restarted, the member told).
async function flowStep(
  turn: StaffDeskTurn,
  state: StaffDeskState,
  language: Language,
  input: TurnInput,
): Promise<OfflineStep & { messages?: StaffDeskState["messages"] }> {
  const agent = turn.roster.staffAgent(state.agent)!;
  let memory = state.memory;
  let notice: AgentReply[] = [];
  let stamp: Record<string, unknown> = {};
  if (agent.memory) {
    stamp = stampVersion(memory, agent.id, agent.memory.version);
    const resume = resumeMemory(agent.memory, agent.id, memory);
    if (resume.kind === "migrated") memory = resume.memory;
    if (resume.kind === "restart") {
      memory = {};
      input = { wamid: input.wamid, text: "", choice: `agent:${agent.id}` };
      notice = [{ text: say("restarted", language) }];
    }
  }
  const early: AgentReply[] = [];
  const step = await agent.offlineFlow!(
    {
      agent: agent.id,
      language,
      input,
      memory,
      menu: [],
      ...(turn.now ? { now: turn.now } : {}),
      ...(turn.brand ? { brand: turn.brand } : {}),
      ...(turn.currency ? { currency: turn.currency } : {}),
      progress: (text) => Promise.resolve(void early.push({ text })),
    },
    (tool, args, name) => turn.callTool(agent.id, tool, args, { key: `${input.wamid}:${name}` }),
  );
  return {
    ...step,
    replies: [...notice, ...early, ...step.replies ?? []],
    memory: { ...stamp, ...(notice.length ? {} : memory), ...step.memory },
  };
}

const MAX_STEPS = 4;

// The model over the agent's tools, as the staff member; its tool results are the tools' own.
async function modelStep(
  turn: StaffDeskTurn,
  state: StaffDeskState,
  language: Language,
  input: TurnInput,
): Promise<OfflineStep & { messages: StaffDeskState["messages"] }> {
  const agentId = state.agent;
  const binding = new DiscoveryTurn(
    turn.toolsFor?.(agentId) ?? [],
    turn.discovery?.(agentId) ?? null,
  );
  const who = turn.describe?.(agentId);
  const system: ChatTurn = {
    role: "system",
    content: `You are ${turn.brand ? `${turn.brand}'s ` : "the "}${who?.name ?? agentId}, ` +
      `an assistant for the organisation's staff. ${who?.description ?? ""} ` +
      `Reply briefly in the staff member's language (${language}). Use tools to look things up; ` +
      "answer with names, never ids.",
  };
  const turns: ChatTurn[] = input.text ? [{ role: "user", content: input.text }] : [];
  // Discovery's search and fetch come before the agent's own steps.
  const maxSteps = binding.maxSteps(MAX_STEPS);
  for (let step = 0; step < maxSteps; step++) {
    const reply = await turn.model!.complete({
      messages: [system, ...state.messages as ChatTurn[], ...turns],
      tools: binding.offered(),
    }, language);
    if (!reply.tool_calls.length) {
      turns.push({ role: "assistant", content: reply.content });
      return { replies: [{ text: reply.content }], messages: [...state.messages, ...turns] };
    }
    turns.push({ role: "assistant", content: reply.content, tool_calls: reply.tool_calls });
    for (const call of reply.tool_calls) {
      const key = `${input.wamid}:${step}:${call.name}`;
      // A tool whose schema was not fetched this turn is refused before it runs.
      const result = binding.refusal(call.name) ??
        await turn.callTool(agentId, call.name, call.args, { key });
      if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
        return {
          pending: {
            tool: call.name,
            args: call.args,
            key,
            summary: result.error.confirmation?.summary ?? result.error.msg,
            callId: call.id,
          },
          messages: [...state.messages, ...turns],
        };
      }
      binding.observe(call.name, result);
      turns.push({ role: "tool", content: JSON.stringify(result), tool_call_id: call.id });
    }
  }
  return {
    replies: [{ text: say("unfinished", language) }],
    messages: [...state.messages, ...turns],
  };
}
