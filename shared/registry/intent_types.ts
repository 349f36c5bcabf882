/**
 * The shape of a domain pack's intent data: the example phrases, in each of
 * our languages, that the intent classifier learns one agent from. Kernel
 * side, so packs import this type and the agent code never imports a pack's
 * internals to know the shape.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** The agents a customer may be routed to. Staff-only agents are absent on purpose. */
export const CUSTOMER_AGENTS = [
  "concierge_router",
  "waiter_ai",
  "mobility_orchestrator",
  "buy_and_sell",
  "pharmacy",
  "hardware",
  "shop",
  "insurance",
  "property",
  "legal_intake",
  "payments",
  "support_handoff",
] as const;

/** An agent a customer may be routed to. */
export type CustomerAgent = typeof CUSTOMER_AGENTS[number];

/** Agents only staff use; a customer's message never routes to them. */
export const STAFF_ONLY_AGENTS = [
  "marketing_sales",
  "sora_video",
  "locops",
  "analytics_risk",
] as const;

/** One agent's training phrases, by language. */
export interface IntentExamples {
  /** The agent these phrases ask for. */
  agent: CustomerAgent;
  /** Realistic first messages, in each language, that ask for `agent`. */
  phrases: Record<Language, readonly string[]>;
}
