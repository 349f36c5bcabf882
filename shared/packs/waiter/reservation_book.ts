/**
 * `reservation_book` (the tool catalog's commerce section): books a table at a venue. The time must be
 * in the future, start on one of the venue's slots and fit inside its
 * opening hours (Kigali time); otherwise the answer suggests the nearest free
 * slots (`error.details.suggestions`, ISO times, also named in the message).
 * Seats per slot are taken by the database's booking trigger, which
 * serialises concurrent bookings of one slot, so a slot is never overbooked.
 * The venue is told on WhatsApp; so is the diner when staff book for them (a
 * diner booking in their own conversation is answered there by the agent).
 *
 * @module
 */
import { z } from "zod";
import { dateTime, e164Phone, id, int, text, ToolFailure } from "@shared/contract/mod.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { defineTool, type ExecutionContext } from "@shared/registry/define_tool.ts";
import { checkSlot, type OpeningPeriod, type SlotRefusal, type SlotUsage } from "./slots.ts";

const input = z.object({
  venue_id: id(),
  when: dateTime().describe("When the table is wanted, with its offset (Kigali is +02:00)."),
  size: int({ min: 1, max: 1000 }).describe("How many people."),
  name: text({ min: 1, max: 120 }).describe("The name the table is booked under."),
  phone: e164Phone().describe("The diner's phone, for the venue."),
});

const output = z.object({
  reservation_id: z.uuid(),
  confirmation_code: z.string().describe("Six characters the diner quotes at the venue."),
  when: z.string().describe("The slot's start, ISO."),
  until: z.string().describe("The slot's end, ISO."),
  venue_name: z.string(),
  size: z.int(),
});

interface Venue {
  name: string;
  seats_per_slot: number | null;
  slot_minutes: number | null;
  max_party: number | null;
}

const DAY_MS = 86_400_000;
/** How far from the asked time free slots are looked for. */
const SEARCH_DAYS = 7;

// The refusal is the tool's message to the caller (a model reads it in English);
// the flow words the suggestions for the person in their language itself.
function kigaliTime(iso: string): string {
  return formatKigaliDate(iso, "en", { time: true });
}

function refusal(
  reason: SlotRefusal,
  venue: Venue,
  suggestions: string[],
): ToolFailure {
  const free = suggestions.length
    ? ` Free: ${suggestions.map(kigaliTime).join("; ")} (Kigali time).`
    : " No free slot in the next days.";
  const details = { reason, suggestions };
  switch (reason) {
    case "party_too_large": {
      const most = Math.min(venue.max_party!, venue.seats_per_slot!);
      return new ToolFailure(
        "VALIDATION_ERROR",
        `${venue.name} takes at most ${most} people per table`,
        {
          fields: [{ path: "size", message: `must be at most ${most}` }],
          details,
        },
      );
    }
    case "past":
      return new ToolFailure("VALIDATION_ERROR", `That time has passed.${free}`, {
        fields: [{ path: "when", message: "must be in the future" }],
        details,
      });
    case "misaligned":
      return new ToolFailure(
        "VALIDATION_ERROR",
        `Tables at ${venue.name} start every ${venue.slot_minutes} minutes.${free}`,
        {
          fields: [{
            path: "when",
            message: `must start on a ${venue.slot_minutes}-minute slot`,
          }],
          details,
        },
      );
    case "closed":
      return new ToolFailure("CONFLICT", `${venue.name} is closed then.${free}`, { details });
    case "full":
      return new ToolFailure("CONFLICT", `${venue.name} is full then.${free}`, { details });
  }
}

/** The `reservation_book` tool. */
export const reservationBook = defineTool({
  name: "reservation_book",
  title: "Book a table",
  description: "Book a table at a restaurant or café for a time and party size. When the venue " +
    "is closed or full then, the error lists the nearest free times (error.details.suggestions) " +
    "to offer the diner.",
  category: "commerce",
  input,
  output,
  examples: [{
    input: {
      venue_id: "c0000000-0000-4000-8000-000000000010",
      when: "2026-11-28T19:00:00+02:00",
      size: 4,
      name: "Aline",
      phone: "+250788000001",
    },
  }],
  sideEffects: "writes.reservation",
  auth: "user",
  openWorld: true,
  latencyBudgetMs: 500,
  async execute(args, ctx) {
    const booked = await bookTable(args, ctx);
    await ctx.db.query("select private.notify_reservation($1)", [booked.reservation_id]);
    return booked;
  },
});

/** What a booking asks for: `reservation_book`'s input. */
export type TableRequest = z.output<typeof input>;

/** A booked table: `reservation_book`'s output. */
export type BookedTable = z.output<typeof output>;

/**
 * Books a table as the caller (RLS), or throws the refusal naming the
 * nearest free slots. The venue is not told here: a new booking tells it
 * through `private.notify_reservation`, a moved one through
 * `private.notify_reservation_change`, one message each.
 */
export async function bookTable(args: TableRequest, ctx: ExecutionContext): Promise<BookedTable> {
  const [venue] = await ctx.db.query<Venue>(
    `select b.name, c.seats_per_slot, c.slot_minutes, c.max_party
     from public.businesses b
     left join public.venue_capacity c on c.business_id = b.id
     where b.id = $1 and b.org_id = $2 and b.is_active`,
    [args.venue_id, ctx.org_id],
  );
  if (!venue) throw new ToolFailure("NOT_FOUND", "No such venue");
  if (venue.seats_per_slot === null) {
    throw new ToolFailure("VALIDATION_ERROR", `${venue.name} does not take table bookings`, {
      fields: [{ path: "venue_id", message: "takes no table bookings" }],
    });
  }
  const now = ctx.services.now();
  const requested = new Date(args.when);
  const hours = await ctx.db.query<OpeningPeriod>(
    `select weekday, to_char(opens, 'HH24:MI') as opens,
            case when closes = '24:00' then '24:00' else to_char(closes, 'HH24:MI') end as closes
     from public.venue_hours where business_id = $1`,
    [args.venue_id],
  );
  const from = new Date(
    Math.max(now.getTime(), requested.getTime() - (SEARCH_DAYS + 1) * DAY_MS),
  );
  const to = new Date(Math.max(now.getTime(), requested.getTime()) + (SEARCH_DAYS + 1) * DAY_MS);
  const usage = (await ctx.db.query<{ slot_start: Date | string; seats_taken: number }>(
    "select slot_start, seats_taken from private.venue_slot_usage($1, $2, $3)",
    [args.venue_id, from.toISOString(), to.toISOString()],
  )).map((row): SlotUsage => ({
    slotStart: new Date(row.slot_start).toISOString(),
    seatsTaken: row.seats_taken,
  }));
  const capacity = {
    seatsPerSlot: venue.seats_per_slot,
    slotMinutes: venue.slot_minutes!,
    maxParty: venue.max_party!,
  };
  const slot = { hours, capacity, requested, partySize: args.size, now, searchDays: SEARCH_DAYS };
  const check = checkSlot({ ...slot, usage });
  if (check.kind === "unavailable") throw refusal(check.reason, venue, check.suggestions);

  // A concurrent booking may take the last seats first: the database refuses
  // this one then (P0409), and the other free slots are offered instead.
  let booked: { id: string; confirmation_code: string; slot_start: Date; slot_end: Date };
  try {
    [booked] = await ctx.db.query(
      `insert into public.reservations
         (org_id, business_id, customer_id, name, phone, party_size, slot_start, slot_end,
          confirmation_code, trace_id)
       values ($1, $2, $3, $4, $5, $6, $7, $7, null, $8)
       returning id, confirmation_code, slot_start, slot_end`,
      [
        ctx.org_id,
        args.venue_id,
        ctx.user_id,
        args.name,
        args.phone,
        args.size,
        check.slotStart,
        ctx.trace_id,
      ],
    );
  } catch (error) {
    if ((error as { code?: unknown }).code !== "P0409") throw error;
    const taken = usage.filter((u) => u.slotStart !== check.slotStart);
    taken.push({ slotStart: check.slotStart, seatsTaken: capacity.seatsPerSlot });
    const retry = checkSlot({ ...slot, usage: taken });
    throw refusal("full", venue, retry.kind === "unavailable" ? retry.suggestions : []);
  }
  return {
    reservation_id: booked.id,
    confirmation_code: booked.confirmation_code,
    when: new Date(booked.slot_start).toISOString(),
    until: new Date(booked.slot_end).toISOString(),
    venue_name: venue.name,
    size: args.size,
  };
}
