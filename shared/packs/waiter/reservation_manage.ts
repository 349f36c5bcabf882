/**
 * A diner's own table bookings: `reservation_list` shows the upcoming ones
 * (venue, time, party, code, status), `reservation_cancel` cancels one and
 * `reservation_move` books another time at the same venue and cancels the
 * old one (the database refuses changing a slot in place, and the new slot
 * is checked like any booking). Both tell the venue on WhatsApp through
 * `private.notify_reservation_change`, the path `private.notify_reservation`
 * takes for a new booking, and both need the diner's confirmation.
 *
 * Whose bookings: RLS shows a diner the bookings they made and staff their
 * org's; the list is always the caller's own.
 *
 * @module
 */
import { z } from "zod";
import { dateTime, int, text, ToolFailure } from "@shared/contract/mod.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { type Language, LANGUAGES, phraseBook } from "@shared/contract/language.ts";
import { defineTool, type ExecutionContext } from "@shared/registry/define_tool.ts";
import { bookTable } from "./reservation_book.ts";

const code = text({ min: 6, max: 6 }).transform((value) => value.toUpperCase())
  .refine((value) => /^[2-9A-HJKMNP-Z]{6}$/.test(value), "must be a 6-character booking code")
  .describe("The booking's confirmation code, e.g. K7Q2MX.");

const booking = z.object({
  reservation_id: z.uuid(),
  confirmation_code: z.string(),
  venue_id: z.uuid(),
  venue_name: z.string(),
  when: z.string().describe("The slot's start, ISO."),
  size: z.int(),
  status: z.enum(["confirmed", "cancelled"]),
});

type Booking = z.output<typeof booking>;

const language = z.enum(LANGUAGES).optional().describe(
  "The diner's language, for the confirmation's read-back.",
);

const SUMMARIES = {
  cancel: {
    en: "Cancel table booking {code}?",
    rw: "Guhagarika ameza wabitse {code}?",
    fr: "Annuler la réservation {code} ?",
  },
  move: {
    en: "Move table booking {code} to {when} (Kigali time){size}?",
    rw: "Kwimura ameza wabitse {code} ukayashyira {when} (isaha y'i Kigali){size}?",
    fr: "Déplacer la réservation {code} au {when} (heure de Kigali){size} ?",
  },
  size: { en: " for {n}", rw: " y'abantu {n}", fr: " pour {n}" },
} satisfies Record<string, Record<Language, string>>;

const summary = phraseBook(SUMMARIES);

const BOOKING_COLUMNS = `
  r.id as reservation_id, r.confirmation_code, r.business_id as venue_id, b.name as venue_name,
  to_jsonb(r.slot_start) #>> '{}' as when, r.party_size as size, r.status,
  r.name, r.phone`;

async function ownBooking(
  ctx: ExecutionContext,
  confirmationCode: string,
): Promise<Booking & { name: string; phone: string }> {
  // RLS: the diner's own bookings, or any of the org's for its staff.
  const [row] = await ctx.db.query<Booking & { name: string; phone: string }>(
    `select ${BOOKING_COLUMNS}
     from public.reservations r join public.businesses b on b.id = r.business_id
     where r.org_id = $1 and r.confirmation_code = $2`,
    [ctx.org_id, confirmationCode],
  );
  if (!row) throw new ToolFailure("NOT_FOUND", `No booking ${confirmationCode}`);
  if (row.status === "cancelled") {
    throw new ToolFailure("CONFLICT", `Booking ${confirmationCode} is already cancelled`);
  }
  return { ...row, when: new Date(row.when).toISOString() };
}

function shown({ name: _name, phone: _phone, ...rest }: Booking & { name: string; phone: string }) {
  return rest;
}

/** The `reservation_list` tool. */
export const reservationList = defineTool({
  name: "reservation_list",
  title: "List my table bookings",
  description: "The user's own upcoming table bookings (venue, time, party size, confirmation " +
    "code), soonest first: to answer 'is my booking confirmed?' and to pick one to move or cancel.",
  category: "commerce",
  input: z.object({
    include_cancelled: z.boolean().optional().describe(
      "Also list cancelled bookings (default false).",
    ),
  }),
  output: z.object({ bookings: z.array(booking) }),
  examples: [{ input: {} }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 200,
  async execute(args, ctx) {
    const rows = await ctx.db.query<Booking>(
      `select ${BOOKING_COLUMNS}
       from public.reservations r join public.businesses b on b.id = r.business_id
       where r.org_id = $1 and r.customer_id = (select auth.uid()) and r.slot_end > $2
         and ($3 or r.status = 'confirmed')
       order by r.slot_start limit 10`,
      [ctx.org_id, ctx.services.now().toISOString(), args.include_cancelled ?? false],
    );
    return {
      bookings: rows.map((row) => shown({ name: "", phone: "", ...row, when: iso(row.when) })),
    };
  },
});

function iso(value: string): string {
  return new Date(value).toISOString();
}

/** The `reservation_cancel` tool. */
export const reservationCancel = defineTool({
  name: "reservation_cancel",
  title: "Cancel a table booking",
  description: "Cancel one of the user's table bookings by its confirmation code (from " +
    "reservation_list); the venue is told. Needs the user's confirmation.",
  category: "commerce",
  input: z.object({ confirmation_code: code, language }),
  output: booking,
  examples: [{ input: { confirmation_code: "K7Q2MX" } }],
  sideEffects: "writes.reservation",
  auth: "user",
  confirmRequired: true,
  openWorld: true,
  latencyBudgetMs: 300,
  confirmSummary: (args) =>
    summary("cancel", args.language ?? "en", { code: args.confirmation_code }),
  async execute(args, ctx) {
    const row = await ownBooking(ctx, args.confirmation_code);
    await ctx.db.query(
      "update public.reservations set status = 'cancelled' where id = $1 and org_id = $2",
      [row.reservation_id, ctx.org_id],
    );
    await ctx.db.query("select private.notify_reservation_change($1)", [row.reservation_id]);
    return shown({ ...row, status: "cancelled" });
  },
});

/** The `reservation_move` tool. */
export const reservationMove = defineTool({
  name: "reservation_move",
  title: "Move a table booking",
  description: "Move one of the user's table bookings (by confirmation code) to another time, " +
    "optionally another party size, at the same venue: the new time is booked (a new code) and " +
    "the old one cancelled; the venue is told. When the venue is closed or full then, the error " +
    "lists the nearest free times (error.details.suggestions). Needs the user's confirmation.",
  category: "commerce",
  input: z.object({
    confirmation_code: code,
    when: dateTime().describe("The new time, with its offset (Kigali is +02:00)."),
    size: int({ min: 1, max: 1000 }).optional().describe("A new party size; default the same."),
    language,
  }),
  output: booking.extend({ moved_from: z.string().describe("The old booking's code.") }),
  examples: [{ input: { confirmation_code: "K7Q2MX", when: "2026-11-28T20:00:00+02:00" } }],
  sideEffects: "writes.reservation",
  auth: "user",
  confirmRequired: true,
  openWorld: true,
  latencyBudgetMs: 500,
  confirmSummary: (args) => {
    const lang = args.language ?? "en";
    return summary("move", lang, {
      code: args.confirmation_code,
      when: formatKigaliDate(args.when, lang, { time: true }),
      size: args.size ? summary("size", lang, { n: args.size }) : "",
    });
  },
  async execute(args, ctx) {
    const old = await ownBooking(ctx, args.confirmation_code);
    const size = args.size ?? old.size;
    if (Date.parse(args.when) === Date.parse(old.when) && size === old.size) {
      throw new ToolFailure("VALIDATION_ERROR", "The booking is already at that time", {
        fields: [{ path: "when", message: "must differ from the booking's current time" }],
      });
    }
    const booked = await bookTable({
      venue_id: old.venue_id,
      when: args.when,
      size,
      name: old.name,
      phone: old.phone,
    }, ctx);
    await ctx.db.query(
      "update public.reservations set status = 'cancelled' where id = $1 and org_id = $2",
      [old.reservation_id, ctx.org_id],
    );
    await ctx.db.query("select private.notify_reservation_change($1, $2)", [
      old.reservation_id,
      booked.reservation_id,
    ]);
    return {
      reservation_id: booked.reservation_id,
      confirmation_code: booked.confirmation_code,
      venue_id: old.venue_id,
      venue_name: booked.venue_name,
      when: booked.when,
      size: booked.size,
      status: "confirmed" as const,
      moved_from: old.confirmation_code,
    };
  },
});
