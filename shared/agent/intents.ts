/**
 * Keyword intents in English, Kinyarwanda and French: which agent a message
 * is for, and whether it confirms or cancels. The deterministic mode routes
 * with these alone; the model mode uses them first and asks the model only
 * when they say nothing.
 *
 * @module
 */
import { asksForPerson } from "@shared/contract/language.ts";

const TOPICS: Array<[agent: string, pattern: RegExp]> = [
  ["waiter_ai", /\b(menu|food|eat|restaurant|order food|ifunguro|kurya|resto|manger|carte)\b/i],
  ["pharmacy", /\b(pharmacy|pharmacie|farumasi|medicine|médicament|medicament|imiti|umuti)\b/i],
  [
    "buy_and_sell",
    /\b(buy|sell|looking for|i need|find me|gura|kugura|nshaka|ndashaka|acheter|cherche|vendre)\b/i,
  ],
];

const GREETING =
  /^(hi|hello|hey|help|start|muraho|mwaramutse|mwiriwe|bonjour|salut|aide)[\s!.,?]*$/i;

// Topics a machine should not handle: straight to a person, urgently.
const SENSITIVE =
  /\b(suicide|kill myself|abuse|assault|violence|rape|harass|emergency|urgent help|fraud|scam|stolen|police|ihohoterwa|gufatwa ku ngufu|ubujura|urgence|arnaque|agression)\b/i;

/** Whether a message raises a sensitive topic. */
export function isSensitive(text: string): boolean {
  return SENSITIVE.test(text);
}

/** Whether a message is only a greeting. */
export function isGreeting(text: string): boolean {
  return GREETING.test(text.trim());
}

/** The agent a message is about, or null when it names no topic. */
export function topicOf(text: string): string | null {
  if (asksForPerson(text)) return "support_handoff";
  for (const [agent, pattern] of TOPICS) if (pattern.test(text)) return agent;
  return null;
}

const CONFIRM = /^(confirm|yes|ok|okay|yego|ego|ee|oui|d'accord|✅|👍)[\s!.]*$/i;
const CANCEL = /^(cancel|no|stop|oya|reka|non|annuler|❌)[\s!.]*$/i;

/** Whether a message (or tapped button) confirms, cancels, or neither. */
export function decisionOf(text: string, buttonId?: string): "confirm" | "cancel" | null {
  if (buttonId === "agent_confirm") return "confirm";
  if (buttonId === "agent_cancel") return "cancel";
  if (CONFIRM.test(text.trim())) return "confirm";
  if (CANCEL.test(text.trim())) return "cancel";
  return null;
}
