/**
 * Support Handoff's flow, with or without a model: a ticket for staff
 * (urgent, and by SMS too, for a sensitive topic), then the user is told a
 * person will answer, where they are in the queue, how to leave it, and, for
 * a sensitive topic, the tenant's emergency numbers. The conversation then
 * returns to the front desk. A complaint made mid-flow (`turn.aside`) raises
 * its ticket and is acknowledged; the person keeps their flow.
 *
 * @module
 */
import { z } from "zod";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { type FlowMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import type { OfflineFlow, OfflineStep, OfflineToolCaller } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { complaintReason } from "./complaint.ts";
import { followsUpPurchase } from "@shared/contract/follow_up.ts";
import { notifyStaff } from "./notify_staff.ts";

/** What the hand-off says. */
export const HANDOFF_TEXTS = {
  handedOff: {
    en: "I have asked a person from our team to help you. They will answer here.",
    rw: "Nasabye umukozi wacu kugufasha. Azagusubiza hano.",
    fr: "J'ai demandé à une personne de notre équipe de vous aider. Elle répondra ici.",
  },
  queue: {
    en:
      'You are number {position} in the queue (about {minutes} min). Send "menu" to leave the queue.',
    rw:
      'Uri uwa {position} ku murongo (nk\'iminota {minutes}). Andika "menu" niba ushaka kuva ku murongo.',
    fr:
      "Vous êtes numéro {position} dans la file (environ {minutes} min). Envoyez « menu » pour quitter la file.",
  },
  emergency: {
    en: "If you are in danger now, call {numbers}.",
    rw: "Niba uri mu kaga ubu, hamagara {numbers}.",
    fr: "Si vous êtes en danger maintenant, appelez {numbers}.",
  },
  police: { en: "the police", rw: "Polisi", fr: "la police" },
  ambulance: { en: "an ambulance", rw: "imbangukiragutabara", fr: "une ambulance" },
  fire: { en: "the fire brigade", rw: "abazimya inkongi", fr: "les pompiers" },
  // A complaint made mid-flow: the person keeps their flow, and a person writes to them.
  noted: {
    en:
      "Thank you for telling us. I have passed your complaint to our team; a person will write to you here.",
    rw: "Murakoze kutubwira. Ikirego cyawe nagishyikirije abakozi bacu; umuntu azakwandikira hano.",
    fr:
      "Merci de nous l'avoir dit. J'ai transmis votre réclamation à notre équipe ; une personne vous écrira ici.",
  },
  handoffFailed: {
    en: "Sorry, something went wrong. Please try again.",
    rw: "Mutwihanganire, habaye ikibazo. Ongera ugerageze.",
    fr: "Désolé, un problème est survenu. Veuillez réessayer.",
  },
} as const;

const say = phraseBook(HANDOFF_TEXTS);

/**
 * What staff read first on a ticket (its summary), in the staff's language;
 * `{agent}` is the agent's display name in that language.
 */
export const HANDOFF_STAFF_TEXTS = {
  askedWhileWith: {
    en: "Asked for a person while with {agent}",
    rw: "Yasabye kuvugana n'umuntu ari kuri {agent}",
    fr: "A demandé à parler à quelqu'un depuis {agent}",
  },
  asked: {
    en: "Asked for a person",
    rw: "Yasabye kuvugana n'umuntu",
    fr: "A demandé à parler à quelqu'un",
  },
  failedWith: {
    en: "The assistant could not help ({agent}). Last message: {text}",
    rw: "Umufasha ntiyashoboye gufasha ({agent}). Ubutumwa bwa nyuma: {text}",
    fr: "L'assistant n'a pas pu aider ({agent}). Dernier message : {text}",
  },
  failed: {
    en: "The assistant could not help. Last message: {text}",
    rw: "Umufasha ntiyashoboye gufasha. Ubutumwa bwa nyuma: {text}",
    fr: "L'assistant n'a pas pu aider. Dernier message : {text}",
  },
  reported: { en: "Reported: {text}", rw: "Yamenyesheje: {text}", fr: "Signalé : {text}" },
  noText: { en: "(no text)", rw: "(nta nyandiko)", fr: "(sans texte)" },
} as const;

const tell = phraseBook(HANDOFF_STAFF_TEXTS);

type Service = "police" | "ambulance" | "fire";
const SERVICES = new Set<string>(["police", "ambulance", "fire"]);

/** "the police 112, an ambulance 912" in the person's language; unknown services by name. */
function emergencyLine(numbers: { service: string; number: string }[], language: Language) {
  const named = numbers.map(({ service, number }) =>
    `${SERVICES.has(service) ? say(service as Service, language) : service} ${number}`
  );
  return say("emergency", language, { numbers: named.join(", ") });
}

/** Whole minutes of an ISO 8601 duration such as `PT1H5M`. */
function minutesOf(duration: string): number {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?$/.exec(duration);
  return match ? Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0) : 0;
}

/**
 * What the hand-off reads of the conversation's memory (version 1): the
 * agent the person was with, set by the graph when it hands them over, for
 * the ticket. It keeps nothing itself: each hand-off is one turn.
 */
const handoffMemory = z.object({ handedFrom: z.string().nullish() });

/** Raises the ticket and answers the user. */
async function handoffStep(
  turn: TypedTurn<z.output<typeof handoffMemory>>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const sensitive = turn.escalation === "sensitive";
  const failing = turn.escalation === "failing";
  const from = turn.memory.handedFrom ?? undefined;
  const text = turn.input.text.trim();
  // What staff read first, in their language: the person's words, unless they only tapped
  // "Talk to a person"; then where they were (the tool adds their earlier messages either way).
  // The agent by its display name, menu or not: staff do not read agent ids.
  const staff = turn.staffLanguage ?? "en";
  const agent = from ? turn.agentName?.(from, staff) ?? from : undefined;
  const said = text || tell("noText", staff);
  const need = sensitive
    ? tell("reported", staff, { text: said })
    : failing
    ? agent
      ? tell("failedWith", staff, { agent, text: said })
      : tell("failed", staff, { text: said })
    : turn.input.choice || !text
    ? agent ? tell("askedWhileWith", staff, { agent }) : tell("asked", staff)
    : text;
  // What happened, as the flow knows it: a complaint says what about, though the person
  // reached a person by it (the router sends complaints here) rather than by asking.
  const reason = sensitive
    ? "sensitive topic"
    : failing
    ? "the assistant kept failing"
    : (!turn.input.choice && (complaintReason(text) ||
      (followsUpPurchase(text) && "follow-up of a purchase"))) || "asked for a person";
  const result = await callTyped(callTool, notifyStaff, {
    // Sensitive topics are urgent: they reach Slack and SMS as well as the inbox.
    channel: sensitive ? "sms" : "inbox",
    payload: {
      reason,
      summary: need.slice(0, 2000),
      priority: sensitive ? "urgent" : failing ? "high" : "medium",
      ...(from ? { agent_id: from } : {}),
      language: turn.language,
    },
  }, "handoff");
  if (!result.ok) {
    return { replies: [{ text: say("handoffFailed", turn.language) }], handoff: false, done: true };
  }
  if (turn.aside) {
    return { replies: [{ text: say("noted", turn.language) }], handoff: false, done: true };
  }
  const ticket = result.data;
  const lines = [say("handedOff", turn.language)];
  if (ticket.queue_position) {
    lines.push(say("queue", turn.language, {
      position: ticket.queue_position,
      minutes: Math.max(1, minutesOf(ticket.estimated_response_time)),
    }));
  }
  if (sensitive && ticket.emergency_numbers?.length) {
    lines.push(emergencyLine(ticket.emergency_numbers, turn.language));
  }
  return { replies: [{ text: lines.join("\n\n") }], handoff: true, done: true };
}

const handoff = typedFlow({ version: 1, memory: handoffMemory, step: handoffStep });

/** Raises the ticket and answers the user. */
export const handoffFlow: OfflineFlow = handoff.offlineFlow;

/** What the hand-off's flow reads between turns, typed and versioned. */
export const handoffFlowMemory: FlowMemory = handoff.memory;
