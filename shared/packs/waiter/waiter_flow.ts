/**
 * Waiter AI offline: restaurants and cafés near you or by name, the menu
 * with prices, several items with quantities, the read-back, the order
 * number, MoMo payment and status (the shared ordering steps); and table
 * reservations ("book a table for 4 tomorrow at 7pm") through
 * `reservation_book`, with the nearest free slots as buttons when the time
 * cannot be booked.
 *
 * @module
 */
import { shortenTitle, TITLE_LIMITS } from "@shared/channels/whatsapp/titles.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { formatKigaliDate } from "@shared/contract/format.ts";
import { callWithConfirmation } from "@shared/registry/offline_steps.ts";
import { orderFlow } from "@shared/registry/order_steps.ts";
import type { OfflineFlow, OfflineStep, OfflineTurn } from "@shared/registry/pack.ts";
import { parseBookingRequest } from "./booking_request.ts";

/** What Waiter AI says offline. */
export const WAITER_TEXTS = {
  venues: {
    en:
      "Where would you like to order from? Type a number, tap a place, or share your location for the nearest.",
    rw:
      "Urashaka gutumiza he? Andika nimero, kanda ahantu, cyangwa wohereze aho uri tukwereke ahakwegereye.",
    fr:
      "Où voulez-vous commander ? Tapez un numéro, touchez un lieu, ou partagez votre position pour les plus proches.",
  },
  noVenues: {
    en: "I found no restaurant or café right now. Type “menu” for the main menu.",
    rw: "Nta resitora cyangwa kafe mbonye ubu. Andika “menu” usubire ahabanza.",
    fr:
      "Je n'ai trouvé aucun restaurant ni café pour l'instant. Écrivez « menu » pour le menu principal.",
  },
  bookWhere: {
    en: "Where would you like to book{what}? Tap a place.",
    rw: "Urashaka kubika ameza{what} he? Kanda ahantu.",
    fr: "Où voulez-vous réserver{what} ? Touchez un lieu.",
  },
  bookWhen: {
    en: "For when, and how many people? e.g. “tomorrow at 7pm for 4”.",
    rw: "Ni ryari, kandi ni abantu bangahe? Urugero: “ejo saa moya z'ijoro abantu 4”.",
    fr: "Pour quand, et combien de personnes ? ex. « demain à 19h pour 4 ».",
  },
  booked: {
    en: "✅ Table for {size} at {venue}, {when}. Confirmation code: {code}.",
    rw: "✅ Ameza y'abantu {size} kuri {venue}, {when}. Kode yo kwemeza: {code}.",
    fr: "✅ Table pour {size} chez {venue}, {when}. Code de confirmation : {code}.",
  },
  slots: {
    en: "{msg}\nThe nearest free times:",
    rw: "{msg}\nIgihe cyegereye gihari:",
    fr: "{msg}\nLes créneaux libres les plus proches :",
  },
  notBooked: {
    en: "Sorry, the table was not booked: {msg}. Try another time, or type “menu”.",
    rw: "Mutwihanganire, ameza ntiyabitswe: {msg}. Gerageza ikindi gihe, cyangwa wandike “menu”.",
    fr:
      "Désolé, la table n'a pas été réservée : {msg}. Essayez une autre heure, ou écrivez « menu ».",
  },
} as const;

const say = phraseBook(WAITER_TEXTS);

const BOOKING_WORDS =
  /\b(book|booking|reserve|reservation|table for|r[ée]serv\w*|une table|mbikire|mumbikire|kubika ameza|ameza)\b/i;

const ordering = orderFlow({
  category: "restaurant",
  texts: { askVenue: WAITER_TEXTS.venues, noVenues: WAITER_TEXTS.noVenues },
});

interface Booking {
  when?: string;
  size?: number;
  venue?: { id: string; name: string };
}

/** A Kigali time as people read it: "Tue 24 Nov, 19:00", "Ku wa kabiri 24 Ugushyingo, 19:00". */
function kigaliTime(iso: string, lang: Language): string {
  return formatKigaliDate(iso, lang, { time: true });
}

async function book(
  turn: OfflineTurn,
  callTool: Parameters<OfflineFlow>[1],
  booking: Booking,
): Promise<OfflineStep> {
  const lang = turn.language;
  const memory = { booking };
  if (!booking.venue) {
    const venues = await callTool("search_supabase", {
      table: "businesses",
      columns: ["id", "name", "area"],
      filters: [{ column: "category", op: "eq", value: "restaurant" }],
      order: { column: "name", ascending: true },
      limit: 10,
    }, "book_venues");
    const rows = venues.ok ? (venues.data as { items: Array<Record<string, string>> }).items : [];
    const what = booking.size ? ` (${booking.size})` : "";
    return {
      memory,
      replies: [{
        text: say("bookWhere", lang, { what }),
        rows: rows.map((row) => ({
          id: `book:${row.id}`,
          title: shortenTitle(row.name, TITLE_LIMITS.row),
          description: row.area ?? undefined,
        })),
      }],
    };
  }
  if (!booking.when || !booking.size) return { memory, replies: [{ text: say("bookWhen", lang) }] };
  const step = await callWithConfirmation(turn, callTool, {
    tool: "reservation_book",
    args: {
      venue_id: booking.venue.id,
      when: booking.when,
      size: booking.size,
      name: (turn.input.name ?? "WhatsApp guest").slice(0, 80),
      phone: turn.input.phone,
    },
    step: "book",
  });
  if (step.pending) return { ...step, memory };
  return booked(lang, booking, step.memory?.lastResult as ToolResult);
}

function booked(lang: Language, booking: Booking, result: ToolResult): OfflineStep {
  const cleared = { lastResult: null, lastTool: undefined };
  if (result.ok) {
    const data = result.data as { confirmation_code: string; when?: string; venue_name?: string };
    return {
      memory: { ...cleared, booking: null },
      replies: [{
        text: say("booked", lang, {
          size: booking.size ?? "",
          venue: data.venue_name ?? booking.venue?.name ?? "",
          when: kigaliTime(data.when ?? booking.when!, lang),
          code: data.confirmation_code,
        }),
      }],
    };
  }
  const suggestions = Array.isArray(result.error.details?.suggestions)
    ? (result.error.details.suggestions as unknown[]).filter((s): s is string =>
      typeof s === "string" && !Number.isNaN(Date.parse(s))
    ).slice(0, 3)
    : [];
  if (suggestions.length) {
    return {
      memory: { ...cleared, booking },
      replies: [{
        text: say("slots", lang, { msg: result.error.msg }),
        buttons: suggestions.map((iso) => ({
          id: `slot:${iso}`,
          title: formatKigaliDate(iso, lang, { time: true, compact: true }),
        })),
      }],
    };
  }
  return {
    memory: { ...cleared, booking },
    replies: [{ text: say("notBooked", lang, { msg: result.error.msg }) }],
  };
}

/** One offline step of Waiter AI. */
export const waiterFlow: OfflineFlow = async (turn, callTool) => {
  const booking = (turn.memory.booking ?? null) as Booking | null;
  const choice = turn.input.choice ?? "";
  if (turn.memory.lastResult && turn.memory.lastTool === "reservation_book" && booking) {
    return booked(turn.language, booking, turn.memory.lastResult as ToolResult);
  }
  if (booking && choice.startsWith("book:")) {
    return await book(turn, callTool, {
      ...booking,
      venue: { id: choice.slice(5), name: turn.input.text },
    });
  }
  if (booking && choice.startsWith("slot:")) {
    return await book(turn, callTool, { ...booking, when: choice.slice(5) });
  }
  const text = turn.input.text;
  const asked = text && !choice ? parseBookingRequest(text, new Date()) : {};
  if (!choice && text && (BOOKING_WORDS.test(text) || (booking && (asked.when || asked.size)))) {
    const venue = (turn.memory.step as { venue?: { id: string; name: string } } | null)?.venue;
    return await book(turn, callTool, {
      venue: booking?.venue ?? venue,
      when: asked.when?.toISOString() ?? booking?.when,
      size: asked.size ?? booking?.size,
    });
  }
  const step = await ordering(turn, callTool);
  return booking ? { ...step, memory: { ...step.memory, booking: null } } : step;
};
