/**
 * The contract of a domain pack (`shared/packs/<domain>/mod.ts`): the one
 * place a domain lives. A pack declares its tools, its agents with their
 * example phrases, the offline flow each agent follows without a model, the
 * tables its reads may touch, its user-facing texts in en/rw/fr and the
 * services it needs. The composition root (`shared/platform/`) reads the
 * pack list and wires them; the kernel names no pack, no vendor and no
 * channel.
 *
 * @module
 */
import type { Language, Phrases } from "@shared/contract/language.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import type { IntentExamples } from "./intent_types.ts";
import type { AnyTool } from "./registry.ts";

/** This turn's message, as an agent sees it. */
export interface TurnInput {
  /** The inbound message id: tool idempotency keys derive from it. */
  wamid: string;
  /** What the user wrote (or the tapped button's title). */
  text: string;
  /** The tapped button or list row, if any. */
  choice?: string;
  /** A shared location. */
  location?: { latitude: number; longitude: number };
}

/** A reply, channel-neutral: text with optional buttons or list rows. */
export interface AgentReply {
  text: string;
  buttons?: Array<{ id: string; title: string }>;
  rows?: Array<{ id: string; title: string; description?: string }>;
}

/** A tool call waiting for the user's confirmation. */
export interface PendingCall {
  tool: string;
  args: unknown;
  key: string;
  summary: string;
  callId: string;
}

/** What an offline flow sees of the conversation. */
export interface OfflineTurn {
  /** The agent the conversation is with. */
  agent: string;
  /** The user's language. */
  language: Language;
  /** This turn's message. */
  input: TurnInput;
  /** The flow's memory, kept between turns. */
  memory: Record<string, unknown>;
}

/** What one offline step changes. */
export interface OfflineStep {
  /** What to answer. */
  replies?: AgentReply[];
  /** A call that needs the user's confirmation first. */
  pending?: PendingCall;
  /** Merged into the flow's memory. */
  memory?: Record<string, unknown>;
}

/**
 * An agent's deterministic conversation, used when no model is configured
 * (or the model failed this turn): same tools, same allowlists.
 */
export type OfflineFlow = (
  turn: OfflineTurn,
  callTool: (tool: string, args: unknown, step: string) => Promise<ToolResult>,
) => Promise<OfflineStep>;

/** Column types `search_supabase` knows how to compare. */
export type ColumnType = "text" | "uuid" | "number" | "boolean" | "timestamptz" | "text[]";

/** Tables a pack's reads may touch: table → readable column → type. RLS still decides rows. */
export type PackTables = Record<string, Record<string, ColumnType>>;

/**
 * A service a pack needs, declared by key so the kernel never names it: the
 * pack exports the key, the composition root provides the implementation.
 */
export interface ServiceKey<T> {
  /** Unique name, `<pack>.<service>`. */
  readonly id: string;
  /** Carries the type only. */
  readonly __type?: T;
}

/** Declares a service key. */
export function serviceKey<T>(id: string): ServiceKey<T> {
  return { id };
}

/** One agent of a pack. */
export interface PackAgent<Conversation = never> {
  /** The agent id, as in `config/agent_configs.yaml`. */
  id: string;
  /** Example first messages in en/rw/fr the router learns from. */
  intents?: IntentExamples;
  /** Its entry in the front desk's menu, in every language. */
  menuTitle?: Record<Language, string>;
  /** Its deterministic conversation. */
  offlineFlow?: OfflineFlow;
  /**
   * A channel-level flow that takes whole turns when offline (the buy & sell
   * concierge); typed by the channel that runs it.
   */
  conversation?: Conversation;
}

/** A domain pack. */
export interface Pack<Conversation = never> {
  /** snake_case id, the folder's name. */
  id: string;
  /** Its tools, registered globally at start. */
  tools: readonly AnyTool[];
  /** Its agents. */
  agents: readonly PackAgent<Conversation>[];
  /** Tables its reads (search_supabase) may touch. */
  tables: PackTables;
  /** Its user-facing texts, every phrase in en, rw and fr. */
  texts: Phrases;
  /** The services its tools need. */
  services: readonly ServiceKey<unknown>[];
}

/** Provided services, by key id. */
export type ServiceMap = ReadonlyMap<string, unknown>;
