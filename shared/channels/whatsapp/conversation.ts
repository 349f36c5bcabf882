/**
 * The seam between the WhatsApp channel and whatever answers the user (the
 * LangGraph agent, which runs the packs' agents). A handler gets one turn
 * and returns the replies and the conversation's next state; the channel
 * commits both with the message's processing, atomically.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import type { WhatsAppMessage } from "./mod.ts";
import type { InboundMessage } from "./inbound.ts";
import type { WhatsAppUser } from "./whatsapp_user.ts";

/** How a turn's tool call is attributed and keyed. */
export interface ToolCallOptions {
  /** Names the call within the turn; the key is derived from the wamid and it. */
  step?: string;
  /** An explicit idempotency key instead (e.g. kept across a confirmation). */
  key?: string;
  /**
   * The agent making the call (its allowlist applies). A call without one is
   * refused: the channel serves every tenant's agents and names none.
   */
  agentId?: string;
  /** A confirmation token from an earlier CONFIRMATION_REQUIRED answer. */
  confirmation?: string;
  /**
   * The caller answers a transient failure (timeout, outage) itself: it is returned, not
   * thrown to retry the message. @default false
   */
  answersFailure?: boolean;
}

/** One inbound message to answer. */
export interface ConversationTurn {
  /** The message. */
  message: InboundMessage;
  /** Who sent it. */
  user: WhatsAppUser;
  /** The org that owns the business number. */
  orgId: string;
  /** The reply language a router already chose for this message (else the handler detects it). */
  language?: Language;
  /**
   * Calls a tool as this user, attributed to the conversation. `step` names
   * the call within the turn; with the wamid it forms the idempotency key, so
   * re-processing the message replays instead of repeating.
   */
  callTool(tool: string, args: unknown, options?: ToolCallOptions): Promise<ToolResult>;
  /**
   * Tells the user now, before the turn ends, that slow work is under way
   * ("Reading your document…"). Sent once per message and text, however
   * often the message is processed; the turn's replies follow it.
   */
  progress?(text: string): Promise<void>;
}

/** What a turn produced. */
export interface TurnOutcome {
  /** Messages to send the user, in order. */
  replies: WhatsAppMessage[];
  /** The conversation's next state. */
  state: Record<string, unknown>;
  /** Hand the conversation to staff: handlers stay silent until staff release it. */
  handoff?: boolean;
  /**
   * The agent the conversation entered this turn (a route or a menu pick), if
   * it entered one: the channel records its `funnel_started` with the turn,
   * once per message.
   */
  entered?: string;
}

/** Answers turns. */
export type ConversationHandler = (turn: ConversationTurn) => Promise<TurnOutcome>;
