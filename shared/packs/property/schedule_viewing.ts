/**
 * `schedule_viewing` (seed 000 F): books a viewing of a published listing on
 * one of its landlord's free slots, and answers the exact `address` and the
 * `contact` to meet. The address is read AFTER the booking, as the caller,
 * under row-level security: the booked viewing is what lets them read it
 * (20261129000100), not this code.
 *
 * No double booking: a slot is unique among booked viewings in the
 * database, so of two renters booking one slot at once exactly one wins; the
 * other gets `CONFLICT` with the nearest free slots
 * (`error.details.suggestions`). A time that is not a slot, or too soon, is
 * `VALIDATION_ERROR` on `when`, with suggestions too. The landlord is told
 * by the pack's sweep (`property_viewings_sweep`), which only the service may
 * run: a renter cannot message anyone directly.
 *
 * @module
 */
import { z } from "zod";
import { dateTime, e164Phone, id, text, ToolFailure } from "@shared/contract/mod.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { member } from "./member.ts";
import { checkSlot, freeSlots, type SlotOptions, type SlotRefusal } from "./viewing_slots.ts";
import { reminderAt } from "./viewing_reminder.ts";

const input = z.object({
  listing_id: id(),
  when: dateTime().describe("The viewing's start, one of the listing's free slots (+02:00)."),
  name: text({ min: 1, max: 120 }).describe("The renter's name, for the landlord."),
  phone: e164Phone().describe("The renter's phone, for the landlord."),
  notes: text({ max: 500 }).optional(),
});

/** The address and contact a booked viewing reveals. */
export const revealed = z.object({
  address: z.string().describe("The exact address, revealed by the booking."),
  contact: z.string().describe("Who to meet and their phone, e.g. 'Jeanne, +250788000201'."),
  contact_name: z.string(),
  contact_phone: z.string(),
});

const output = z.object({
  event_id: z.uuid().describe("The viewing's id."),
  listing_id: z.uuid(),
  title: z.string(),
  area: z.string().describe("Sector and cell."),
  price: z.int().describe("Monthly rent, whole RWF."),
  when: z.string().describe("The viewing's start, ISO."),
  until: z.string().describe("Its end, ISO."),
  booked_at: z.string().describe("When it was booked, ISO."),
}).extend(revealed.shape);

/** A booked viewing, as `schedule_viewing` answers it. */
export type BookedViewing = z.output<typeof output>;

/** How many days ahead free slots are offered. */
export const SLOT_DAYS = 14;

interface Listing {
  id: string;
  title: string;
  viewing_minutes: number;
  area: string;
  price: number;
}

/**
 * A published listing of the caller's org, its hours and booked slots: what
 * booking or moving a viewing checks a time against.
 *
 * @throws {ToolFailure} NOT_FOUND when the caller cannot see it published.
 */
export async function listingSlots(
  db: Queryable,
  listingId: string,
  orgId: string,
  now: Date,
): Promise<{ listing: Listing; slots: SlotOptions }> {
  const [listing] = await db.query<Listing>(
    `select id, title, viewing_minutes, price,
            sector || coalesce(', ' || cell, '') as area
     from public.property_listings
     where id = $1 and org_id = $2 and status = 'published'`,
    [listingId, orgId],
  );
  // A guessed id, another tenant's listing and one not published answer alike.
  if (!listing) throw new ToolFailure("NOT_FOUND", "No such listing");
  const hours = await db.query<{ weekday: number; opens: string; closes: string }>(
    `select weekday, to_char(opens, 'HH24:MI') as opens, to_char(closes, 'HH24:MI') as closes
     from public.property_viewing_hours where listing_id = $1`,
    [listingId],
  );
  const until = new Date(now.getTime() + (SLOT_DAYS + 1) * 86_400_000);
  const booked = await db.query<{ starts_at: Date | string }>(
    "select starts_at from private.property_booked_starts($1, $2, $3) as starts_at",
    [listingId, now.toISOString(), until.toISOString()],
  );
  return {
    listing,
    slots: {
      hours,
      minutes: listing.viewing_minutes,
      booked: booked.map((b) => new Date(b.starts_at).toISOString()),
      now,
    },
  };
}

/** The refusal of a time that is not a free slot, naming the nearest free ones. */
export function slotRefusal(reason: SlotRefusal, when: Date, slots: SlotOptions): ToolFailure {
  const suggestions = freeSlots(slots, {
    limit: 3,
    days: SLOT_DAYS,
    from: new Date(when.getTime() - 3 * 3_600_000),
  });
  const fallback = suggestions.length ? suggestions : freeSlots(slots, { limit: 3 });
  const free = fallback.length
    ? ` Free: ${fallback.map((s) => formatKigaliDate(s, "en", { time: true })).join("; ")}.`
    : " No free slot in the next two weeks.";
  const details = { reason, suggestions: fallback };
  if (reason === "taken") {
    return new ToolFailure("CONFLICT", `That slot is already booked.${free}`, { details });
  }
  return new ToolFailure(
    "VALIDATION_ERROR",
    reason === "past"
      ? `A viewing needs an hour's notice.${free}`
      : `The landlord shows the home at set times.${free}`,
    {
      fields: [{
        path: "when",
        message: reason === "past" ? "must be at least an hour ahead" : "must be a viewing slot",
      }],
      details,
    },
  );
}

/** The address and contact of a listing, read as the caller: RLS decides. */
export async function readAddress(
  db: Queryable,
  listingId: string,
): Promise<z.output<typeof revealed> | null> {
  const [row] = await db.query<{ address: string; contact_name: string; contact_phone: string }>(
    `select address, contact_name, contact_phone
     from public.property_listing_addresses where listing_id = $1`,
    [listingId],
  );
  if (!row) return null;
  return { ...row, contact: `${row.contact_name}, ${row.contact_phone}` };
}

/** The `schedule_viewing` tool. */
export const scheduleViewing = defineTool({
  name: "schedule_viewing",
  title: "Book a viewing",
  description: "Book a viewing of a rental listing at one of its landlord's free slots " +
    "(the error of a taken or wrong time lists free ones in error.details.suggestions). " +
    "Answers the exact address and the contact to meet, which nothing else reveals.",
  category: "property",
  input,
  output,
  examples: [{
    input: {
      listing_id: "70000000-0000-4000-8000-000000000001",
      when: "2026-12-01T10:00:00+02:00",
      name: "Aline",
      phone: "+250788000001",
    },
  }],
  sideEffects: "writes.property_viewing",
  auth: "user",
  latencyBudgetMs: 500,
  async execute(args, ctx) {
    const { orgId, userId } = member(ctx);
    const now = ctx.services.now();
    const when = new Date(args.when);
    const { listing, slots } = await listingSlots(ctx.db, args.listing_id, orgId, now);
    const refused = checkSlot(when, slots);
    if (refused) throw slotRefusal(refused, when, slots);
    const until = new Date(when.getTime() + listing.viewing_minutes * 60_000);
    // The partial unique indexes decide a race: the loser inserts nothing.
    const [booked] = await ctx.db.query<{ id: string }>(
      `insert into public.property_viewings
         (org_id, listing_id, renter_id, name, phone, notes, starts_at, ends_at, remind_at,
          trace_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict do nothing
       returning id`,
      [
        orgId,
        args.listing_id,
        userId,
        args.name,
        args.phone,
        args.notes ?? null,
        when.toISOString(),
        until.toISOString(),
        reminderAt({ startsAt: when, timedAt: now })?.toISOString() ?? null,
        ctx.trace_id,
      ],
    );
    if (!booked) {
      throw slotRefusal("taken", when, { ...slots, booked: [...slots.booked, when.toISOString()] });
    }
    const address = await readAddress(ctx.db, args.listing_id);
    if (!address) throw new Error(`listing ${args.listing_id} has no address row`);
    return {
      event_id: booked.id,
      listing_id: listing.id,
      title: listing.title,
      area: listing.area,
      price: listing.price,
      when: when.toISOString(),
      until: until.toISOString(),
      booked_at: now.toISOString(),
      ...address,
    };
  },
});
