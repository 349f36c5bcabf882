/**
 * Words in English, Kinyarwanda and French that matter whatever the agent:
 * a sensitive topic, a confirmation or a cancellation. Which
 * agent a message names is the packs' business (`PackAgent.asks`).
 *
 * @module
 */

import { saysYes } from "@shared/contract/yes_answer.ts";

// Topics a machine should not handle: straight to a person, urgently.
const SENSITIVE =
  /\b(suicide|kill myself|abuse|assault|violence|rape|harass|emergency|urgent help|fraud|scam|stolen|police|ihohoterwa|gufatwa ku ngufu|ubujura|urgence|arnaque|agression)\b/i;

/** Whether a message raises a sensitive topic. */
export function isSensitive(text: string): boolean {
  return SENSITIVE.test(text);
}

// A number picks an option of the question's buttons like at every menu: 1 Confirm, 2 Cancel.
const CONFIRM_NUMBER = /^1[\s!.]*$/;
const CANCEL = /^(cancel|no|stop|oya|reka|non|annuler|❌|2)[\s!.]*$/i;

/** Whether a message (or tapped button) confirms, cancels, or neither. */
export function decisionOf(text: string, buttonId?: string): "confirm" | "cancel" | null {
  if (buttonId === "agent_confirm") return "confirm";
  if (buttonId === "agent_cancel") return "cancel";
  if (saysYes(text) || CONFIRM_NUMBER.test(text.trim())) return "confirm";
  if (CANCEL.test(text.trim())) return "cancel";
  return null;
}
