/**
 * A listing's free viewing slots, and cancelling or moving a booked viewing
 * by either side: the renter, the host (landlord or agent) or the org's
 * staff. Who may touch a viewing is row-level security's answer (a viewing
 * the caller cannot see is NOT_FOUND). A move lands on a free slot or is refused like a booking
 * (the database's unique slot decides a race). The other side is told by
 * the pack's sweep (`property_viewings_sweep`).
 *
 * @module
 */
import { z } from "zod";
import { dateTime, id, int, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool, type ExecutionContext } from "@shared/registry/define_tool.ts";
import { listingSlots, SLOT_DAYS, slotRefusal } from "./schedule_viewing.ts";
import { member } from "./member.ts";
import { checkSlot, freeSlots } from "./viewing_slots.ts";
import { reminderAt } from "./viewing_reminder.ts";

/** The `property_viewing_slots` tool: a listing's free viewing times. */
export const propertyViewingSlots = defineTool({
  name: "property_viewing_slots",
  title: "Free viewing times",
  description: "The free viewing times (ISO, Kigali +02:00 hours) of a published rental " +
    "listing over the next two weeks, earliest first, to offer before schedule_viewing.",
  category: "property",
  input: z.object({ listing_id: id(), limit: int({ min: 1, max: 10 }).default(6) }),
  output: z.object({ listing_id: z.uuid(), title: z.string(), slots: z.array(z.string()) }),
  examples: [{ input: { listing_id: "70000000-0000-4000-8000-000000000001" } }],
  sideEffects: "none",
  auth: "user",
  async execute(args, ctx) {
    const { listing, slots } = await listingSlots(
      ctx.db,
      args.listing_id,
      member(ctx).orgId,
      ctx.services.now(),
    );
    return {
      listing_id: listing.id,
      title: listing.title,
      slots: freeSlots(slots, { limit: args.limit, days: SLOT_DAYS }),
    };
  },
});

// What names the home in the renter's language (texts.ts `listingName`): the landlord's title
// stays in the words they wrote it in.
const LISTING_FACTS = `l.bedrooms, l.sector || coalesce(', ' || l.cell, '') as area`;
const listingFacts = {
  bedrooms: z.int().describe("The home's bedrooms (0: a studio)."),
  area: z.string().describe("Its sector and cell: Kimironko, Bibare."),
};

interface Viewing {
  id: string;
  listing_id: string;
  title: string;
  bedrooms: number;
  area: string;
  name: string;
  renter_id: string;
  host_id: string;
  starts_at: Date | string;
  status: string;
}

/** A booked viewing the caller may change (RLS), locked for the change. */
async function lockViewing(ctx: ExecutionContext, viewingId: string): Promise<Viewing> {
  const [viewing] = await ctx.db.query<Viewing>(
    `select v.id, v.listing_id, l.title, ${LISTING_FACTS}, v.name, v.renter_id, v.host_id,
            v.starts_at, v.status
     from public.property_viewings v
     join public.property_listings l on l.id = v.listing_id
     where v.id = $1 and v.org_id = $2
     for update of v`,
    [viewingId, member(ctx).orgId],
  );
  if (!viewing) throw new ToolFailure("NOT_FOUND", "No such viewing");
  if (viewing.status !== "booked") {
    throw new ToolFailure("CONFLICT", "That viewing is already cancelled", {
      details: { status: viewing.status },
    });
  }
  return viewing;
}

/** Who the caller is to the viewing; the other side is told. */
function sideOf(viewing: Viewing, ctx: ExecutionContext): "renter" | "host" | "staff" {
  if (viewing.renter_id === ctx.user_id) return "renter";
  if (viewing.host_id === ctx.user_id) return "host";
  return "staff";
}

const changed = z.object({
  event_id: z.uuid(),
  listing_id: z.uuid(),
  title: z.string(),
  ...listingFacts,
  status: z.enum(["booked", "cancelled"]),
  when: z.string().describe("The viewing's start, ISO."),
});

/** The `viewing_cancel` tool. */
export const viewingCancel = defineTool({
  name: "viewing_cancel",
  title: "Cancel a viewing",
  description: "Cancel a booked property viewing, as its renter, its landlord or agent, or " +
    "staff; the other side is told. The renter's access to the address ends with it.",
  category: "property",
  input: z.object({ event_id: id().describe("The viewing's id (schedule_viewing's event_id).") }),
  output: changed,
  examples: [{ input: { event_id: "c1000000-0000-4000-8000-000000000001" } }],
  sideEffects: "writes.property_viewing",
  auth: "user",
  async execute(args, ctx) {
    const viewing = await lockViewing(ctx, args.event_id);
    const side = sideOf(viewing, ctx);
    await ctx.db.query(
      `update public.property_viewings set status = 'cancelled', cancelled_by = $2, changed_by = $2
       where id = $1`,
      [viewing.id, side],
    );
    return {
      event_id: viewing.id,
      listing_id: viewing.listing_id,
      title: viewing.title,
      bedrooms: viewing.bedrooms,
      area: viewing.area,
      status: "cancelled" as const,
      when: new Date(viewing.starts_at).toISOString(),
    };
  },
});

/** The `viewing_move` tool. */
export const viewingMove = defineTool({
  name: "viewing_move",
  title: "Move a viewing",
  description: "Move a booked property viewing to another free slot of its listing, as its " +
    "renter, its landlord or agent, or staff; the other side is told. A taken or wrong time " +
    "lists free ones in error.details.suggestions.",
  category: "property",
  input: z.object({
    event_id: id().describe("The viewing's id."),
    when: dateTime().describe("The new start, one of the listing's free slots."),
  }),
  output: changed,
  examples: [{
    input: { event_id: "c1000000-0000-4000-8000-000000000001", when: "2026-12-02T11:00:00+02:00" },
  }],
  sideEffects: "writes.property_viewing",
  auth: "user",
  async execute(args, ctx) {
    const viewing = await lockViewing(ctx, args.event_id);
    const when = new Date(args.when);
    const { listing, slots } = await listingSlots(
      ctx.db,
      viewing.listing_id,
      member(ctx).orgId,
      ctx.services.now(),
    );
    const refused = checkSlot(when, slots);
    if (refused) throw slotRefusal(refused, when, slots);
    const until = new Date(when.getTime() + listing.viewing_minutes * 60_000);
    // A concurrent booking of the new slot wins or loses at the unique index; a
    // loser's update would raise 23505 (CONFLICT) and leave the viewing where it was.
    await ctx.db.query(
      `update public.property_viewings
       set starts_at = $2, ends_at = $3, reminded_at = null, confirmation_sent_at = null,
           changed_by = $4, remind_at = $5
       where id = $1`,
      [
        viewing.id,
        when.toISOString(),
        until.toISOString(),
        sideOf(viewing, ctx),
        reminderAt({ startsAt: when, timedAt: ctx.services.now() })?.toISOString() ?? null,
      ],
    );
    return {
      event_id: viewing.id,
      listing_id: viewing.listing_id,
      title: viewing.title,
      bedrooms: viewing.bedrooms,
      area: viewing.area,
      status: "booked" as const,
      when: when.toISOString(),
    };
  },
});

/** The `property_viewings` tool: viewings the caller may see, soonest first. */
export const propertyViewings = defineTool({
  name: "property_viewings",
  title: "Viewings",
  description: "Booked (and, on request, cancelled) property viewings the caller may see: a " +
    "renter their own, a landlord or agent those of their listings, staff their org's; " +
    "optionally of one listing. Soonest first, from now on.",
  category: "property",
  input: z.object({
    listing_id: id().optional(),
    include_cancelled: z.boolean().default(false),
    mine: z.boolean().default(false).describe(
      "Only the viewings the caller booked as a renter, not those of their listings.",
    ),
    limit: int({ min: 1, max: 100 }).default(20),
  }),
  output: z.object({
    viewings: z.array(z.object({
      event_id: z.uuid(),
      listing_id: z.uuid(),
      title: z.string(),
      ...listingFacts,
      when: z.string(),
      status: z.enum(["booked", "cancelled"]),
      name: z.string(),
      phone: z.string(),
    })),
  }),
  examples: [{ input: { listing_id: "70000000-0000-4000-8000-000000000001" } }],
  sideEffects: "none",
  auth: "user",
  async execute(args, ctx) {
    const rows = await ctx.db.query<{
      id: string;
      listing_id: string;
      title: string;
      bedrooms: number;
      area: string;
      starts_at: Date | string;
      status: "booked" | "cancelled";
      name: string;
      phone: string;
    }>(
      `select v.id, v.listing_id, l.title, ${LISTING_FACTS}, v.starts_at, v.status, v.name, v.phone
       from public.property_viewings v
       join public.property_listings l on l.id = v.listing_id
       where v.org_id = $1 and ($2::uuid is null or v.listing_id = $2)
         and ($3 or v.status = 'booked') and v.starts_at >= $4
         and (not $6 or v.renter_id = (select auth.uid()))
       order by v.starts_at, v.id limit $5`,
      [
        member(ctx).orgId,
        args.listing_id ?? null,
        args.include_cancelled,
        ctx.services.now().toISOString(),
        args.limit,
        args.mine,
      ],
    );
    return {
      viewings: rows.map((row) => ({
        event_id: row.id,
        listing_id: row.listing_id,
        title: row.title,
        bedrooms: row.bedrooms,
        area: row.area,
        when: new Date(row.starts_at).toISOString(),
        status: row.status,
        name: row.name,
        phone: row.phone,
      })),
    };
  },
});
