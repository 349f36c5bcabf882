/**
 * Support Handoff's flow, with or without a model: a ticket for staff
 * (urgent, and by SMS too, for a sensitive topic), then the user is told a
 * person will answer and the conversation returns to the front desk.
 *
 * @module
 */
import { phraseBook } from "@shared/contract/language.ts";
import type { OfflineFlow } from "@shared/registry/pack.ts";

/** What the hand-off says. */
export const HANDOFF_TEXTS = {
  handedOff: {
    en: "I have asked a person from our team to help you. They will answer here.",
    rw: "Nasabye umukozi wacu kugufasha. Azagusubiza hano.",
    fr: "J'ai demandé à une personne de notre équipe de vous aider. Elle répondra ici.",
  },
  handoffFailed: {
    en: "Sorry, something went wrong. Please try again.",
    rw: "Mutwihanganire, habaye ikibazo. Ongera ugerageze.",
    fr: "Désolé, un problème est survenu. Veuillez réessayer.",
  },
} as const;

const say = phraseBook(HANDOFF_TEXTS);

/** Raises the ticket and answers the user. */
export const handoffFlow: OfflineFlow = async (turn, callTool) => {
  const sensitive = turn.escalation === "sensitive";
  const failing = turn.escalation === "failing";
  const result = await callTool("notify_staff", {
    // Sensitive topics are urgent: they reach Slack and SMS as well as the inbox.
    channel: sensitive ? "sms" : "inbox",
    payload: {
      reason: sensitive
        ? "sensitive topic"
        : failing
        ? "the assistant kept failing"
        : "asked for a person",
      summary: turn.input.text.slice(0, 2000) || "(no text)",
      priority: sensitive ? "urgent" : failing ? "high" : "medium",
    },
  }, "handoff");
  return {
    replies: [{ text: say(result.ok ? "handedOff" : "handoffFailed", turn.language) }],
    handoff: result.ok,
    done: true,
  };
};
