/**
 * The shape of a domain pack's intent data: the example phrases, in each of
 * our languages, that the intent classifier learns one agent from. Kernel
 * side, so packs import this type and the agent code never imports a pack's
 * internals to know the shape.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** One agent's training phrases, by language. */
export interface IntentExamples {
  /** The customer agent these phrases ask for (a pack's agent id). */
  agent: string;
  /** Realistic first messages, in each language, that ask for `agent`. */
  phrases: Record<Language, readonly string[]>;
}

/**
 * The label the router learns customers' requests for staff-only work under (a promotional
 * video, a broadcast to every customer, a sales report): no agent's id, so it is never routed
 * to; the router tells the person that the team does it and offers a person.
 */
export const STAFF_WORK_LABEL = "staff_work";
