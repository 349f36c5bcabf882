/**
 * Locops' flow: the local operations team's questions answered from the
 * tenant's own rows through `search_supabase`, as the staff member (RLS
 * decides what they see): open orders per venue, drivers online, charges
 * still waiting to be paid, tickets waiting for staff. Answers name venues
 * and drivers, never ids. A tapped option or the question's words pick the
 * answer; anything else shows the options.
 *
 * @module
 */
import { z } from "zod";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import type { AgentReply, OfflineStep, OfflineToolCaller } from "@shared/registry/pack.ts";
import { searchSupabaseShape } from "@shared/tools/search_supabase.ts";

/** What Locops says, in en/rw/fr. */
export const LOCOPS_TEXTS = {
  locopsAsk: {
    en: "Locops here. What do you want to check?",
    rw: "Locops hano. Urashaka kureba iki?",
    fr: "Locops ici. Que voulez-vous vérifier ?",
  },
  locopsOrders: { en: "Open orders", rw: "Ibyatumijwe bifunguye", fr: "Commandes ouvertes" },
  locopsDrivers: {
    en: "Drivers online",
    rw: "Abashoferi bari ku murongo",
    fr: "Chauffeurs en ligne",
  },
  locopsCharges: { en: "Unpaid charges", rw: "Ubwishyu butarishyurwa", fr: "Paiements en attente" },
  locopsTickets: { en: "Tickets waiting", rw: "Amatike ategereje", fr: "Tickets en attente" },
  locopsOrdersHead: {
    en: "Open orders per venue ({count}):",
    rw: "Ibyatumijwe bifunguye kuri buri hantu ({count}):",
    fr: "Commandes ouvertes par établissement ({count}) :",
  },
  locopsOrdersNone: {
    en: "No open orders right now.",
    rw: "Nta byatumijwe bifunguye ubu.",
    fr: "Aucune commande ouverte pour le moment.",
  },
  locopsDriversHead: {
    en: "Drivers online ({count}):",
    rw: "Abashoferi bari ku murongo ({count}):",
    fr: "Chauffeurs en ligne ({count}) :",
  },
  locopsDriversNone: {
    en: "No driver is online right now.",
    rw: "Nta mushoferi uri ku murongo ubu.",
    fr: "Aucun chauffeur n'est en ligne pour le moment.",
  },
  locopsChargesHead: {
    en: "Charges waiting to be paid ({count}, {total}):",
    rw: "Ubwishyu butarishyurwa ({count}, {total}):",
    fr: "Paiements en attente ({count}, {total}) :",
  },
  locopsChargesNone: {
    en: "No charge is waiting to be paid.",
    rw: "Nta bwishyu butegereje kwishyurwa.",
    fr: "Aucun paiement n'est en attente.",
  },
  locopsTicketsHead: {
    en: "Tickets waiting for staff ({count}):",
    rw: "Amatike ategereje abakozi ({count}):",
    fr: "Tickets en attente du personnel ({count}) :",
  },
  locopsTicketsNone: {
    en: "No ticket is waiting.",
    rw: "Nta tike itegereje.",
    fr: "Aucun ticket en attente.",
  },
  locopsUnknownVenue: { en: "a venue", rw: "ahantu", fr: "un établissement" },
  locopsFailed: {
    en: "Sorry, I could not read that just now. Please try again.",
    rw: "Mutwihanganire, sinashoboye kubisoma ubu. Ongera ugerageze.",
    fr: "Désolé, je n'ai pas pu le lire pour l'instant. Veuillez réessayer.",
  },
  locopsMore: { en: "Anything else?", rw: "Hari ikindi?", fr: "Autre chose ?" },
} as const;

const say = phraseBook(LOCOPS_TEXTS);

/** The questions Locops answers. */
export const LOCOPS_TOPICS = ["orders", "drivers", "charges", "tickets"] as const;

/** A question Locops answers. */
export type LocopsTopic = typeof LOCOPS_TOPICS[number];

// The words of each question, in en/rw/fr; charges before tickets ("waiting charges").
const TOPIC_WORDS: ReadonlyArray<[LocopsTopic, RegExp]> = [
  [
    "charges",
    /\b(unpaid|charges?|payments?|paiements?|impay\w*|\w*shyu\w*|\w*ishyur\w*)\b/i,
  ],
  ["drivers", /\b(drivers?|chauffeurs?|\w*shoferi|\w*motari|motos?)\b/i],
  ["orders", /\b(orders?|commandes?|\w*tumij\w*|\w*tumiz\w*)\b/i],
  ["tickets", /\b(tickets?|\w*tike|queue|file)\b/i],
];

/** The question a staff member's words ask, or null. */
export function locopsTopicOf(text: string): LocopsTopic | null {
  return TOPIC_WORDS.find(([, words]) => words.test(text))?.[0] ?? null;
}

// Orders still in someone's hands: not delivered, not cancelled.
const OPEN_ORDER_STATES = ["pending", "confirmed", "preparing", "ready"];

const memory = z.object({
  /** The last question answered. */
  topic: z.enum(LOCOPS_TOPICS).optional(),
});

function options(language: Language): AgentReply["rows"] {
  return [
    { id: "locops:orders", title: say("locopsOrders", language) },
    { id: "locops:drivers", title: say("locopsDrivers", language) },
    { id: "locops:charges", title: say("locopsCharges", language) },
    { id: "locops:tickets", title: say("locopsTickets", language) },
  ];
}

type Turn = TypedTurn<z.output<typeof memory>>;

async function openOrders(turn: Turn, callTool: OfflineToolCaller): Promise<string> {
  const { language } = turn;
  const orders = await callTyped(callTool, searchSupabaseShape, {
    table: "orders",
    columns: ["business_id", "status"],
    filters: [{ column: "status", op: "in", value: OPEN_ORDER_STATES }],
    limit: 100,
  }, "locops_orders");
  if (!orders.ok) return say("locopsFailed", language);
  if (!orders.data.items.length) return say("locopsOrdersNone", language);
  const perVenue = new Map<string, number>();
  for (const order of orders.data.items) {
    const venue = String(order.business_id);
    perVenue.set(venue, (perVenue.get(venue) ?? 0) + 1);
  }
  const venues = await callTyped(callTool, searchSupabaseShape, {
    table: "businesses",
    columns: ["id", "name"],
    filters: [{ column: "id", op: "in", value: [...perVenue.keys()].slice(0, 50) }],
    limit: 50,
  }, "locops_venues");
  const names = new Map(
    (venues.ok ? venues.data.items : []).map((venue) => [String(venue.id), String(venue.name)]),
  );
  const lines = [...perVenue.entries()]
    .map(([id, count]) => ({ name: names.get(id) ?? say("locopsUnknownVenue", language), count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    .map(({ name, count }) => `• ${name}: ${count}`);
  return [say("locopsOrdersHead", language, { count: String(orders.data.items.length) }), ...lines]
    .join("\n");
}

async function driversOnline(turn: Turn, callTool: OfflineToolCaller): Promise<string> {
  const { language } = turn;
  const now = (turn.now ?? new Date()).toISOString();
  const drivers = await callTyped(callTool, searchSupabaseShape, {
    table: "drivers",
    columns: ["display_name", "vehicle_type", "available_until"],
    filters: [
      { column: "is_active", op: "eq", value: true },
      { column: "available_until", op: "gt", value: now },
    ],
    order: { column: "display_name", ascending: true },
    limit: 50,
  }, "locops_drivers");
  if (!drivers.ok) return say("locopsFailed", language);
  if (!drivers.data.items.length) return say("locopsDriversNone", language);
  return [
    say("locopsDriversHead", language, { count: String(drivers.data.items.length) }),
    ...drivers.data.items.map((driver) => `• ${driver.display_name} (${driver.vehicle_type})`),
  ].join("\n");
}

async function waitingCharges(turn: Turn, callTool: OfflineToolCaller): Promise<string> {
  const { language } = turn;
  const now = (turn.now ?? new Date()).toISOString();
  const charges = await callTyped(callTool, searchSupabaseShape, {
    table: "payments",
    columns: ["amount", "currency", "memo", "expires_at"],
    filters: [
      { column: "status", op: "eq", value: "pending" },
      { column: "expires_at", op: "gt", value: now },
    ],
    order: { column: "expires_at", ascending: true },
    limit: 50,
  }, "locops_charges");
  if (!charges.ok) return say("locopsFailed", language);
  const items = charges.data.items;
  if (!items.length) return say("locopsChargesNone", language);
  const currency = turn.currency ?? String(items[0].currency);
  const total = items.reduce((sum, charge) => sum + Number(charge.amount), 0);
  return [
    say("locopsChargesHead", language, {
      count: String(items.length),
      total: formatMoney(total, language, { currency }),
    }),
    ...items.map((charge) =>
      `• ${formatMoney(Number(charge.amount), language, { currency: String(charge.currency) })}` +
      (charge.memo ? ` — ${charge.memo}` : "")
    ),
  ].join("\n");
}

async function waitingTickets(turn: Turn, callTool: OfflineToolCaller): Promise<string> {
  const { language } = turn;
  const tickets = await callTyped(callTool, searchSupabaseShape, {
    table: "staff_tickets",
    columns: ["reason", "priority", "created_at"],
    filters: [{ column: "status", op: "eq", value: "open" }],
    order: { column: "created_at", ascending: true },
    limit: 50,
  }, "locops_tickets");
  if (!tickets.ok) return say("locopsFailed", language);
  if (!tickets.data.items.length) return say("locopsTicketsNone", language);
  return [
    say("locopsTicketsHead", language, { count: String(tickets.data.items.length) }),
    ...tickets.data.items.map((ticket) => `• [${ticket.priority}] ${ticket.reason}`),
  ].join("\n");
}

const ANSWERS: Record<LocopsTopic, (turn: Turn, callTool: OfflineToolCaller) => Promise<string>> = {
  orders: openOrders,
  drivers: driversOnline,
  charges: waitingCharges,
  tickets: waitingTickets,
};

async function step(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const choice = turn.input.choice ?? "";
  const tapped = choice.startsWith("locops:") ? choice.slice(7) : null;
  const topic = LOCOPS_TOPICS.find((candidate) => candidate === tapped) ??
    locopsTopicOf(turn.input.text);
  if (!topic) {
    return { replies: [{ text: say("locopsAsk", turn.language), rows: options(turn.language) }] };
  }
  const answer = await ANSWERS[topic](turn, callTool);
  return {
    replies: [{ text: answer }, {
      text: say("locopsMore", turn.language),
      rows: options(turn.language),
    }],
    memory: { topic },
  };
}

/** Locops' typed flow and memory. */
export const LOCOPS_FLOW = typedFlow({ version: 1, memory, step });
