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
import { z } from "zod";
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { callWithConfirmation } from "@shared/registry/offline_steps.ts";
import { orderFlow, orderingMemory, venueNamed } from "@shared/capabilities/ordering/mod.ts";
import {
  type OfflineFlow,
  type OfflineStep,
  type OfflineToolCaller,
  type OfflineTurn,
  openWorkToMove,
} from "@shared/registry/pack.ts";
import { TABLE } from "./waiter_pending.ts";
import { callTyped, readResult } from "@shared/registry/tool_call.ts";
import { type FlowMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import { searchSupabaseShape } from "@shared/tools/search_supabase.ts";
import { reservationBook } from "./reservation_book.ts";
import { reservationCancel, reservationList, reservationMove } from "./reservation_manage.ts";
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
    rw: "✅ Ameza {size|y'umuntu #|y'abantu #} kuri {venue}, {when}. Kode yo kwemeza: {code}.",
    fr: "✅ Table pour {size} chez {venue}, {when}. Code de confirmation : {code}.",
  },
  slots: {
    en: "{msg}\nThe nearest free times:",
    rw: "{msg}\nIgihe cyegereye gihari:",
    fr: "{msg}\nLes créneaux libres les plus proches :",
  },
  myBookings: {
    en: "Your upcoming table bookings:\n{lines}",
    rw: "Ameza wabitse ari imbere:\n{lines}",
    fr: "Vos réservations à venir :\n{lines}",
  },
  bookingLine: {
    en: "• {venue}, {when}, {size|# person|# people}, code {code}: confirmed",
    rw: "• {venue}, {when}, {size|umuntu #|abantu #}, kode {code}: byemejwe",
    fr: "• {venue}, {when}, {size} pers., code {code} : confirmée",
  },
  noBookings: {
    en:
      "You have no upcoming table booking. To book one, say e.g. “book a table for 2 tomorrow at 7pm”.",
    rw:
      "Nta meza wabitse ari imbere. Kubika, andika urugero: “mbikire ameza y'abantu 2 ejo saa moya”.",
    fr:
      "Vous n'avez aucune réservation à venir. Pour réserver, écrivez p. ex. « une table pour 2 demain à 19h ».",
  },
  pickCancel: {
    en: "Which booking do you want to cancel? Tap it.",
    rw: "Ni ayahe meza wabitse ushaka guhagarika? Kanda.",
    fr: "Quelle réservation voulez-vous annuler ? Touchez-la.",
  },
  pickMove: {
    en: "Which booking do you want to move? Tap it.",
    rw: "Ni ayahe meza wabitse ushaka kwimura? Kanda.",
    fr: "Quelle réservation voulez-vous déplacer ? Touchez-la.",
  },
  moveWhen: {
    en: "To when should I move your table at {venue} ({when})? e.g. “tomorrow at 8pm”.",
    rw: "Ameza yawe kuri {venue} ({when}) nyimurire ryari? Urugero: “ejo saa mbiri z'ijoro”.",
    fr: "À quand déplacer votre table chez {venue} ({when}) ? ex. « demain à 20h ».",
  },
  cancelled: {
    en: "✅ Your table at {venue}, {when} (code {code}) is cancelled. {venue} has been told.",
    rw: "✅ Ameza yawe kuri {venue}, {when} (kode {code}) yahagaritswe. {venue} yabimenyeshejwe.",
    fr: "✅ Votre table chez {venue}, {when} (code {code}) est annulée. {venue} a été prévenu.",
  },
  moved: {
    en:
      "✅ Your table at {venue} is moved to {when}, for {size}. New confirmation code: {code}. {venue} has been told.",
    rw:
      "✅ Ameza yawe kuri {venue} yimuriwe {when}, abantu {size}. Kode nshya: {code}. {venue} yabimenyeshejwe.",
    fr:
      "✅ Votre table chez {venue} est déplacée au {when}, pour {size}. Nouveau code : {code}. {venue} a été prévenu.",
  },
  unchanged: {
    en: "OK, your booking stays as it was.",
    rw: "Ntacyo, ameza wabitse agumye uko yari ari.",
    fr: "D'accord, votre réservation reste inchangée.",
  },
  notChanged: {
    en: "Sorry, the booking was not changed: {msg}",
    rw: "Mutwihanganire, ameza wabitse ntiyahinduwe: {msg}",
    fr: "Désolé, la réservation n'a pas été modifiée : {msg}",
  },
  // Why the asked time cannot be booked (reservation_book's details.reason), said before the
  // nearest free times as buttons: the tool's own message is English and lists them again.
  refusedPast: {
    en: "That time has passed.",
    rw: "Icyo gihe cyarenze.",
    fr: "Cette heure est déjà passée.",
  },
  refusedMisaligned: {
    en: "Tables at {venue} are booked at set times.",
    rw: "Kuri {venue} ameza abikwa ku masaha yagenwe.",
    fr: "Chez {venue}, les tables se réservent à heures fixes.",
  },
  refusedClosed: {
    en: "{venue} is closed then.",
    rw: "{venue} iba ifunze icyo gihe.",
    fr: "{venue} est fermé à cette heure-là.",
  },
  refusedFull: {
    en: "{venue} is full then.",
    rw: "{venue} nta mwanya ifite icyo gihe.",
    fr: "{venue} est complet à cette heure-là.",
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

const venueRef = z.object({ id: z.string(), name: z.string() });

/** A table being booked: what the diner has said so far. */
const bookingSchema = z.object({
  when: z.string().optional(),
  size: z.number().optional(),
  venue: venueRef.optional(),
});

type Booking = z.output<typeof bookingSchema>;

/** A Kigali time as people read it: "Tue 24 Nov, 19:00", "Ku wa kabiri 24 Ugushyingo, 19:00". */
function kigaliTime(iso: string, lang: Language): string {
  return formatKigaliDate(iso, lang, { time: true });
}

const REFUSALS = {
  past: "refusedPast",
  misaligned: "refusedMisaligned",
  closed: "refusedClosed",
  full: "refusedFull",
} as const;

/** Why a time was refused, in the diner's language; the tool's message for another reason. */
function refusal(
  error: { msg: string; details?: Record<string, unknown> },
  booking: Booking,
  lang: Language,
): string {
  const reason = error.details?.reason;
  const key = typeof reason === "string" && Object.hasOwn(REFUSALS, reason)
    ? REFUSALS[reason as keyof typeof REFUSALS]
    : undefined;
  const venue = booking.venue?.name;
  return key && (venue || key === "refusedPast")
    ? say(key, lang, { venue: venue ?? "" })
    : error.msg;
}

async function book(
  turn: OfflineTurn,
  callTool: Parameters<OfflineFlow>[1],
  booking: Booking,
): Promise<OfflineStep> {
  const lang = turn.language;
  // A venue named in the message ("une table au Café Nyamirambo") is where, never asked again.
  const said = turn.input.choice ? undefined : turn.input.text;
  const named = !booking.venue && said ? await venueNamed(callTool, "restaurant", said) : null;
  if (named) booking = { ...booking, venue: { id: named.id, name: named.name } };
  const memory = { booking };
  if (!booking.venue) {
    const venues = await callTyped(callTool, searchSupabaseShape, {
      table: "businesses",
      columns: ["id", "name", "area"],
      filters: [{ column: "category", op: "eq", value: "restaurant" }],
      order: { column: "name", ascending: true },
      limit: 10,
    }, "book_venues");
    const rows = venues.ok ? venues.data.items : [];
    const what = booking.size ? ` (${booking.size})` : "";
    return {
      memory,
      replies: [{
        text: say("bookWhere", lang, { what }),
        rows: rows.map((row) => ({
          id: `book:${row.id}`,
          title: shortenTitle(String(row.name), TITLE_LIMITS.row),
          description: typeof row.area === "string" ? row.area : undefined,
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
  return booked(lang, booking, readResult(reservationBook, step.memory?.lastResult));
}

function booked(
  lang: Language,
  booking: Booking,
  result: ToolResult<z.output<typeof reservationBook.output>>,
): OfflineStep {
  const cleared = { lastResult: null, lastTool: undefined };
  if (result.ok) {
    const data = result.data;
    return {
      memory: { ...cleared, booking: null, table: data.confirmation_code },
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
        text: say("slots", lang, { msg: refusal(result.error, booking, lang) }),
        buttons: suggestions.map((iso) => ({
          id: `slot:${iso}`,
          title: formatKigaliDate(iso, lang, { time: true, compact: true }),
        })),
      }],
    };
  }
  return {
    memory: { ...cleared, booking },
    // The reason in the diner's language where it is a known one; the phrase adds its own stop.
    replies: [{
      text: say("notBooked", lang, {
        msg: refusal(result.error, booking, lang).replace(/[.\s]+$/, ""),
      }),
    }],
  };
}

// "my booking", "ma réservation", "ameza nari nabitse": the diner's own bookings, not a new one.
const MY_BOOKINGS =
  /\b(?:my|our|ma|mon|mes|nos|notre)\s+(?:\p{L}+\s+)?(?:reservations?|bookings?|r[ée]servations?|tables?)\b|\b(?:nari|twari)\s+(?:nabitse|twabitse)\b|\bameza\s+(?:yanjye|yacu|nabitse|twabitse)\b|\b(?:booked|r[ée]serv[ée]e?s?)\b.*\?/iu;
const CANCEL_WORDS = /\b(cancel\w*|annul\w*|hagarik\w*|kuraguza)\b/i;
const MOVE_WORDS =
  /\b(move|moving|reschedule|postpone|change|d[ée]plac\w*|d[ée]cal\w*|changer|modifier|report\w*|kwimura|\w*imur\w*|hindur\w*|guhindura)\b/i;
const ORDER_WORDS = /\b(orders?|commandes?|\w*tumij\w*|itegeko|ibyo natumye)\b/i;
// A day said in the message ("tomorrow", "samedi", "25/11"): else a move keeps the booking's day.
const DAY_WORDS =
  /\b(today|tonight|tomorrow|demain|aujourd'hui|ce soir|ejo|uyu munsi|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|ku wa \w+|kuwa \w+|ku cyumweru|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2})\b/i;

interface DinerBooking {
  confirmation_code: string;
  venue_name: string;
  when: string;
  size: number;
}

const manageSchema = z.object({
  action: z.enum(["cancel", "move"]),
  code: z.string().optional(),
  text: z.string().optional(),
});

type Manage = z.output<typeof manageSchema>;

/**
 * What Waiter AI keeps between turns (version 1): a booking or a change to
 * one under way, the shared ordering steps' own state (theirs to read), and
 * a confirmed call's result. A change that older conversations cannot be
 * read as bumps the version in {@link waiterFlowMemory}.
 */
const waiterMemory = z.object({
  booking: bookingSchema.nullish(),
  // The code of the table this conversation booked, asked about on leaving (waiter_pending.ts).
  table: z.string().nullish(),
  manage: manageSchema.nullish(),
  // The ordering steps' position, the router's place and a call kept for confirmation.
  ...orderingMemory,
});

type WaiterMemory = z.output<typeof waiterMemory>;

const MANAGE_TOOLS = new Set(["reservation_cancel", "reservation_move"]);

/** The new time a move asks for: the message's day and time, or its time on the booking's day. */
function moveTime(text: string, booking: DinerBooking, now: Date): string | undefined {
  const asked = parseBookingRequest(text, now);
  if (!asked.when) return undefined;
  if (DAY_WORDS.test(text)) return asked.when.toISOString();
  const KIGALI = 2 * 3600_000;
  const day = new Date(Date.parse(booking.when) + KIGALI).toISOString().slice(0, 10);
  const clock = new Date(asked.when.getTime() + KIGALI).toISOString().slice(11, 16);
  return new Date(`${day}T${clock}:00+02:00`).toISOString();
}

async function manage(
  turn: OfflineTurn,
  callTool: Parameters<OfflineFlow>[1],
  wanted: Manage | null,
): Promise<OfflineStep> {
  const lang = turn.language;
  const listed = await callTyped(callTool, reservationList, {}, "my_bookings");
  if (!listed.ok) {
    return { replies: [{ text: say("notChanged", lang, { msg: listed.error.msg }) }] };
  }
  const bookings = listed.data.bookings;
  if (!bookings.length) {
    return { memory: { manage: null }, replies: [{ text: say("noBookings", lang) }] };
  }
  const lines = bookings.map((b) =>
    say("bookingLine", lang, {
      venue: b.venue_name,
      when: kigaliTime(b.when, lang),
      size: b.size,
      code: b.confirmation_code,
    })
  ).join("\n");
  if (!wanted) {
    return { memory: { manage: null }, replies: [{ text: say("myBookings", lang, { lines }) }] };
  }
  const chosen = wanted.code
    ? bookings.find((b) => b.confirmation_code === wanted.code)
    : bookings.length === 1
    ? bookings[0]
    : bookings.find((b) => (wanted.text ?? "").toUpperCase().includes(b.confirmation_code));
  if (!chosen) {
    return {
      memory: { manage: wanted },
      replies: [{
        text: say(wanted.action === "cancel" ? "pickCancel" : "pickMove", lang),
        rows: bookings.map((b) => ({
          id: `res:${b.confirmation_code}`,
          title: shortenTitle(b.venue_name, TITLE_LIMITS.row),
          description: shortenTitle(
            `${kigaliTime(b.when, lang)} · ${b.confirmation_code}`,
            TITLE_LIMITS.description,
          ),
        })),
      }],
    };
  }
  const code = chosen.confirmation_code;
  if (wanted.action === "cancel") {
    const step = await callWithConfirmation(turn, callTool, {
      tool: "reservation_cancel",
      args: { confirmation_code: code, language: lang },
      step: "cancel_booking",
    });
    return step.pending
      ? { ...step, memory: { manage: null } }
      : changed(lang, readResult(reservationCancel, step.memory?.lastResult), "reservation_cancel");
  }
  const when = wanted.text ? moveTime(wanted.text, chosen, turn.now ?? new Date()) : undefined;
  if (!when) {
    return {
      memory: { manage: { action: "move", code } },
      replies: [{
        text: say("moveWhen", lang, {
          venue: chosen.venue_name,
          when: kigaliTime(chosen.when, lang),
        }),
      }],
    };
  }
  const asked = parseBookingRequest(wanted.text ?? "", turn.now ?? new Date());
  const step = await callWithConfirmation(turn, callTool, {
    tool: "reservation_move",
    args: {
      confirmation_code: code,
      when,
      ...(asked.size && asked.size !== chosen.size ? { size: asked.size } : {}),
      language: lang,
    },
    step: "move_booking",
  });
  return step.pending
    ? { ...step, memory: { manage: null } }
    : changed(lang, readResult(reservationMove, step.memory?.lastResult), "reservation_move");
}

/** How a cancel or a move went (straight away, or once the diner confirmed it). */
function changed(
  lang: Language,
  result: ToolResult<DinerBooking>,
  tool: string,
): OfflineStep {
  const memory = { lastResult: null, lastTool: undefined, manage: null };
  if (result.ok) {
    const data = result.data;
    const values = {
      venue: data.venue_name,
      when: kigaliTime(data.when, lang),
      size: data.size,
      code: data.confirmation_code,
    };
    return {
      memory,
      replies: [{ text: say(tool === "reservation_cancel" ? "cancelled" : "moved", lang, values) }],
    };
  }
  if (result.error.code === "CANCELLED") {
    return { memory, replies: [{ text: say("unchanged", lang) }] };
  }
  return { memory, replies: [{ text: say("notChanged", lang, { msg: result.error.msg }) }] };
}

// One offline step of Waiter AI, its memory read by its schema.
async function waiterStep(
  turn: TypedTurn<WaiterMemory>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const booking = turn.memory.booking ?? null;
  const choice = turn.input.choice ?? "";
  // "Move it" with the diner's one table open (the kernel's pick): when to move that table.
  const moving = openWorkToMove(turn.input);
  if (moving?.startsWith(TABLE)) {
    return await manage(turn, callTool, { action: "move", code: moving.slice(TABLE.length) });
  }
  if (turn.memory.lastResult && turn.memory.lastTool === "reservation_book" && booking) {
    return booked(turn.language, booking, readResult(reservationBook, turn.memory.lastResult));
  }
  const lastTool = turn.memory.lastTool;
  if (turn.memory.lastResult && typeof lastTool === "string" && MANAGE_TOOLS.has(lastTool)) {
    const tool = lastTool === reservationMove.name ? reservationMove : reservationCancel;
    return changed(turn.language, readResult(tool, turn.memory.lastResult), lastTool);
  }
  // The diner's own bookings: seen, moved or cancelled, never a new booking.
  const managing = turn.memory.manage ?? null;
  if (managing && choice.startsWith("res:")) {
    return await manage(turn, callTool, { ...managing, code: choice.slice(4) });
  }
  const said = turn.input.text ?? "";
  if (!choice && said) {
    const cancel = CANCEL_WORDS.test(said);
    const move = MOVE_WORDS.test(said);
    // "Move it" / "cancel it" with no booking or order under way (the router sent the person's
    // open table here, or a change to it was asked before): "it" is their booking.
    // An order named ("change my order", "annuler ma commande") is the ordering steps' instead.
    const arriving = !booking && !turn.memory.step && !ORDER_WORDS.test(said);
    if (
      MY_BOOKINGS.test(said) || ((cancel || move) && (BOOKING_WORDS.test(said) || arriving))
    ) {
      const action = cancel ? "cancel" : move ? "move" : null;
      return await manage(turn, callTool, action ? { action, text: said } : null);
    }
    if (
      managing?.action === "move" && managing.code &&
      parseBookingRequest(said, turn.now ?? new Date()).when
    ) {
      return await manage(turn, callTool, { ...managing, text: said });
    }
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
  const asked = text && !choice ? parseBookingRequest(text, turn.now ?? new Date()) : {};
  if (!choice && text && (BOOKING_WORDS.test(text) || (booking && (asked.when || asked.size)))) {
    const venue = turn.memory.step?.venue;
    return await book(turn, callTool, {
      venue: booking?.venue ?? venue,
      when: asked.when?.toISOString() ?? booking?.when,
      size: asked.size ?? booking?.size,
    });
  }
  const step = await ordering(turn, callTool);
  return booking ? { ...step, memory: { ...step.memory, booking: null } } : step;
}

const waiter = typedFlow({ version: 1, memory: waiterMemory, step: waiterStep });

/** One offline step of Waiter AI. */
export const waiterFlow: OfflineFlow = waiter.offlineFlow;

/** What Waiter AI's flow keeps between turns, typed and versioned. */
export const waiterFlowMemory: FlowMemory = waiter.memory;
