/**
 * What a person hears while their conversation is with staff: nobody waits
 * in silence. Until a staff member picks the ticket up, each message is
 * answered with their place in the queue and a wait estimate (and, first, what
 * the data answers: the places' opening hours); "menu" offers
 * to leave the queue (or stay), and leaving closes the ticket and gives the
 * conversation back to the assistant. Once staff hold the ticket, only
 * "menu" is answered: the rest is the conversation with staff.
 *
 * @module
 */
import { type Language, languageOf, phraseBook } from "@shared/contract/language.ts";
import { asksForMenu as routerAsksForMenu } from "@shared/agent/route_decision.ts";
import {
  namesPriceOrStock,
  priceAnswer,
  type PricedProduct,
  productsAsked,
} from "@shared/capabilities/ordering/price_answer.ts";
import {
  asksOpeningHours,
  hoursAnswer,
  kigaliClock,
  type OpeningRow,
} from "@shared/contract/opening_hours.ts";
import type { Database, Queryable } from "@shared/db/types.ts";
import { queueWaitSeconds } from "@shared/capabilities/staff_queue/mod.ts";
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { buttonsMessage, textMessage, type WhatsAppMessage } from "./mod.ts";

/** The button ids of the "leave the queue?" question. */
export const QUEUE_CHOICES = { leave: "queue:leave", stay: "queue:stay" } as const;

const say = phraseBook({
  waiting: {
    en:
      'A person from our team will answer here. You are number {position} in the queue (about {minutes} min). Send "menu" to leave the queue.',
    rw:
      'Umukozi wacu azagusubiza hano. Uri uwa {position} ku murongo (nk\'iminota {minutes}). Andika "menu" niba ushaka kuva ku murongo.',
    fr:
      "Une personne de notre équipe vous répondra ici. Vous êtes numéro {position} dans la file (environ {minutes} min). Envoyez « menu » pour quitter la file.",
  },
  withStaff: {
    en: "A person from our team is handling your request and will answer here.",
    rw: "Umukozi wacu ari gukurikirana ikibazo cyawe kandi azagusubiza hano.",
    fr: "Une personne de notre équipe s'occupe de votre demande et vous répondra ici.",
  },
  offerLeave: {
    en: "Do you want to leave the queue and go back to the menu?",
    rw: "Urashaka kuva ku murongo ugasubira ahabanza?",
    fr: "Voulez-vous quitter la file et revenir au menu ?",
  },
  leave: { en: "Leave the queue", rw: "Va ku murongo", fr: "Quitter la file" },
  stay: { en: "Stay in the queue", rw: "Guma ku murongo", fr: "Rester dans la file" },
  orderNoted: {
    en:
      'I added this order to your request, for the person who answers you to place it with you:\n{lines}\nOr send "menu" to leave the queue and order it yourself now.',
    rw:
      'Iri tumiza nariyongeye ku busabe bwawe, kugira ngo umukozi ugusubiza arigukorere:\n{lines}\nCyangwa andika "menu" uve ku murongo uritumize ubwawe ubu.',
    fr:
      "J'ai ajouté cette commande à votre demande, pour que la personne qui vous répond la passe avec vous :\n{lines}\nOu envoyez « menu » pour quitter la file et la passer vous-même maintenant.",
  },
  left: {
    en: "You have left the queue. Our team will not contact you about this request.",
    rw: "Wavuye ku murongo. Abakozi bacu ntibazakuvugisha kuri iki kibazo.",
    fr: "Vous avez quitté la file. Notre équipe ne vous contactera pas pour cette demande.",
  },
});

/**
 * Whether a message asks for the menu: the router's own reading ("menu", "0", "go back to the
 * start", « retour au début », "subira ahabanza"), so the queue and the assistant agree.
 */
export const asksForMenu: (text: string) => boolean = routerAsksForMenu;

/** What the person sent while handed off. */
export interface HandedOffTurn {
  orgId: string;
  conversationId: string;
  /** Their profile's language. */
  locale: Language;
  /** What they wrote (or the tapped button's title). */
  text: string;
  /** The tapped button's id. */
  choice?: string;
  /** The clock an opening-hours question is answered by. @default new Date() */
  now?: Date;
}

/** The answer: replies, and whether the conversation went back to the assistant. */
export interface HandedOffAnswer {
  replies: WhatsAppMessage[];
  /** The person left the queue: their next message (this one, as "menu") is the assistant's. */
  left: boolean;
}

interface WaitingTicket {
  id: string;
  language: Language | null;
  status: "open" | "claimed";
  priority: string;
  position: number | null;
  median_handling_sec: number;
  staff_count: number;
}

async function waitingTicket(tx: Queryable, turn: HandedOffTurn): Promise<WaitingTicket | null> {
  const [ticket] = await tx.query<WaitingTicket>(
    `select t.id, t.language, t.status, t.priority, private.ticket_queue_position(t.id) as position,
            s.median_handling_sec, s.staff_count
     from public.staff_tickets t
     cross join lateral private.ticket_queue_stats(t.org_id, t.priority) s
     where t.org_id = $1 and t.convo_id = $2 and t.status <> 'resolved'
     order by t.created_at desc limit 1`,
    [turn.orgId, turn.conversationId],
  );
  return ticket ?? null;
}

function waitingText(ticket: WaitingTicket | null, language: Language): string {
  if (ticket?.status === "claimed") return say("withStaff", language);
  const position = ticket?.position ?? 1;
  // The rule the hand-off's first estimate used (notify_staff): the two never disagree.
  const wait = queueWaitSeconds({
    position,
    medianHandlingSec: ticket?.median_handling_sec,
    staffCount: ticket?.staff_count,
    priority: ticket?.priority ?? "medium",
  });
  const minutes = Math.max(1, Math.ceil(wait / 60));
  return say("waiting", language, { position, minutes });
}

/**
 * Answers a message from a person whose conversation is with staff; leaving
 * the queue resolves their open ticket and reopens the conversation.
 *
 * @param db The database (read and written as the service).
 * @param turn Who wrote what.
 * @returns The replies (none for a message to staff already handling it).
 */
export async function answerWhileHandedOff(
  db: Database,
  turn: HandedOffTurn,
): Promise<HandedOffAnswer> {
  return await db.asService(async (tx) => {
    const ticket = await waitingTicket(tx, turn);
    // The language of the hand-off, unless this message is in another: "menu" and a tapped
    // button say nothing about it.
    const spoken = ticket?.language ?? turn.locale;
    const language = turn.choice || asksForMenu(turn.text) ? spoken : languageOf(turn.text, spoken);
    if (turn.choice === QUEUE_CHOICES.leave) {
      await tx.query(
        `update public.staff_tickets set status = 'resolved', resolved_at = now()
         where org_id = $1 and convo_id = $2 and status <> 'resolved'`,
        [turn.orgId, turn.conversationId],
      );
      await tx.query(
        `update public.conversations set status = 'open', assigned_staff_id = null,
           updated_at = now()
         where id = $1 and status = 'handoff'`,
        [turn.conversationId],
      );
      return { replies: [textMessage(say("left", language))], left: true };
    }
    if (turn.choice === QUEUE_CHOICES.stay) {
      return { replies: [textMessage(waitingText(ticket, language))], left: false };
    }
    if (asksForMenu(turn.text)) {
      return {
        replies: [buttonsMessage({
          body: `${waitingText(ticket, language)}\n\n${say("offerLeave", language)}`,
          buttons: [
            { id: QUEUE_CHOICES.leave, title: say("leave", language) },
            { id: QUEUE_CHOICES.stay, title: say("stay", language) },
          ],
        })],
        left: false,
      };
    }
    // Staff are with them: what they write is for staff, who see it in the Inbox.
    if (ticket?.status === "claimed") return { replies: [], left: false };
    // What the data answers ("are you open on Sunday?") is answered now, with the place in the
    // queue kept: nobody waits for a person to read them the hours.
    // So is a price or stock question ("how much is a ream of A4?", « combien coûte … ? »,
    // "… ni angahe?"): the shop's own answer, from its stock.
    // A new order typed while waiting ("Turashaka impapuro A4 ipaki 50"): a person is already
    // coming, so it goes on their ticket, priced from stock, for them to place with the customer
    // (as a shop clerk takes the order of the customer waiting at the counter); the place in
    // the queue is kept, and the customer is told what was noted and that "menu" orders now.
    const ordered = !namesPriceOrStock(turn.text) && ticket !== null
      ? await orderNoted(tx, turn, ticket, language)
      : null;
    const answer = ordered ??
      (asksOpeningHours(turn.text)
        ? await openingHoursText(tx, turn, language)
        : namesPriceOrStock(turn.text)
        ? await priceText(tx, turn, language)
        : null);
    const waiting = waitingText(ticket, language);
    return { replies: [textMessage(answer ? `${answer}\n\n${waiting}` : waiting)], left: false };
  });
}

// How many places an hours answer lists (a WhatsApp message, not a directory), as the front desk.
const HOURS_PLACES = 5;

// The org's places with hours on record, answered for the day asked (or the week); null when
// the org keeps no hours.
async function openingHoursText(
  tx: Queryable,
  turn: HandedOffTurn,
  language: Language,
): Promise<string | null> {
  const rows = await tx.query<{ name: string; weekday: number; opens: string; closes: string }>(
    `select b.name, h.weekday, h.opens::text as opens, h.closes::text as closes
     from public.venue_hours h
     join public.businesses b on b.id = h.business_id and b.org_id = h.org_id
     where h.org_id = $1
     order by b.name, h.weekday, h.opens`,
    [turn.orgId],
  );
  const places = new Map<string, { name: string; hours: OpeningRow[] }>();
  for (const row of rows) {
    const place = places.get(row.name) ?? { name: row.name, hours: [] };
    place.hours.push({ weekday: Number(row.weekday), opens: row.opens, closes: row.closes });
    places.set(row.name, place);
  }
  if (places.size === 0) return null;
  const { weekday, minute } = kigaliClock(turn.now ?? new Date());
  return hoursAnswer({
    places: [...places.values()].slice(0, HOURS_PLACES),
    language,
    now: { weekday, minutes: minute },
    text: turn.text,
  });
}

// A quantity typed with the items ("ipaki 50", "20 reams"), not a phone number or an amount.
const QUANTITY = /(?<![\p{L}\p{N}.,:])(\d{1,4})(?![\p{N}]|[.,:]\d)/u;

// The order a message names (products of the org's stock with a quantity), added to the waiting
// ticket's summary for staff and said back priced; null when it names no product or no quantity.
async function orderNoted(
  tx: Queryable,
  turn: HandedOffTurn,
  ticket: WaitingTicket,
  language: Language,
): Promise<string | null> {
  const qty = QUANTITY.exec(turn.text);
  if (!qty) return null;
  const products = await orgProducts(tx, turn);
  const [product] = productsAsked(turn.text, products, 1);
  if (!product) return null;
  const count = Number(qty[1]);
  const money = (amount: number, lang: Language) =>
    formatMoney(amount, lang, product.currency ? { currency: product.currency } : {});
  const line = (lang: Language) =>
    `${count} × ${product.names?.[lang] ?? product.name} (${product.venue}) — ${
      money(count * product.price, lang)
    }`;
  // Staff read it on the ticket in the words of the stock, with the customer's own words.
  await tx.query(
    `update public.staff_tickets
     set summary = left(summary || E'\n' || $2, 2000), updated_at = now()
     where id = $1`,
    [ticket.id, `Order asked while waiting: ${line("en")} («${turn.text.slice(0, 200)}»)`],
  );
  return say("orderNoted", language, { lines: line(language) });
}

// The org's products the question names, priced as the shop prices them; null when it names
// none (the question then waits for a person, as before).
async function priceText(
  tx: Queryable,
  turn: HandedOffTurn,
  language: Language,
): Promise<string | null> {
  const products = await orgProducts(tx, turn);
  const asked = productsAsked(turn.text, products);
  if (asked.length === 0) return null;
  return asked.map((product) =>
    priceAnswer(product, { language, ...(product.currency ? { currency: product.currency } : {}) })
  ).join("\n");
}

// The org's active places' products, priced as they sell them, with the org's currency.
async function orgProducts(
  tx: Queryable,
  turn: HandedOffTurn,
): Promise<Array<PricedProduct & { currency: string | null }>> {
  const rows = await tx.query<{
    name: string;
    names: Record<string, string>;
    price: number | string;
    unit: string | null;
    in_stock: boolean;
    venue: string;
    currency: string | null;
  }>(
    `select p.name, p.names, p.price, p.unit, p.is_available and p.qty > 0 as in_stock,
            b.name as venue, o.currency
     from public.products p
     join public.businesses b on b.id = p.business_id and b.org_id = p.org_id and b.is_active
     join public.orgs o on o.id = p.org_id
     where p.org_id = $1`,
    [turn.orgId],
  );
  return rows.map((row) => ({
    name: row.name,
    names: row.names,
    price: Number(row.price),
    unit: row.unit,
    inStock: row.in_stock,
    venue: row.venue,
    currency: row.currency,
  }));
}
