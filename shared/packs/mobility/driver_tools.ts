/**
 * What drivers' WhatsApp messages do (called by the driver counterpart, as
 * the service, never by users or agents) and the offer sweep:
 *
 * - `driver_status`: a location share or "available"/"busy" updates the
 *   driver's position and availability (it lapses by itself after
 *   DRIVER_AVAILABLE_MINUTES); the driver is told until when.
 * - `ride_offer_respond`: Accept or Decline. The ride's row is locked first,
 *   so concurrent accepts queue and exactly one matches (the database's
 *   first-accept-wins trigger and unique index back this up); the winner
 *   gets the rider's contact, the rider the driver's, the others are told
 *   at once that it was taken.
 * - `ride_offers_sweep`: offers past their expiry drop out; a ride nobody
 *   accepted expires and the rider is offered what next. A paused ride's
 *   offers are kept as they are until it reopens (see `ride_hold`).
 *
 * @module
 */
import { formatMoney, formatMoneyRange } from "@shared/capabilities/format/mod.ts";
import { vehicleText } from "./vehicle_text.ts";
import { z } from "zod";
import { e164Phone, latitude, longitude, ToolFailure } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import {
  buttonsOut,
  MESSAGING,
  type MessagingPort,
  textOut,
} from "@shared/capabilities/messaging/mod.ts";
import { mobilitySettings } from "./settings.ts";
import { kigaliClock, say } from "./texts.ts";
import { languageFromLocale } from "@shared/contract/language.ts";

interface DriverRow {
  id: string;
  display_name: string;
  phone: string;
  vehicle_type: string;
  vehicle_desc: string | null;
  plate: string;
  locale: string | null;
}

async function driverByPhone(db: Queryable, orgId: string, phone: string): Promise<DriverRow> {
  const [driver] = await db.query<DriverRow>(
    `select d.id, d.display_name, d.phone, d.vehicle_type, d.vehicle_desc, d.plate, p.locale
     from public.drivers d left join public.profiles p on p.id = d.user_id
     where d.org_id = $1 and d.phone = $2 and d.is_active`,
    [orgId, phone],
  );
  if (!driver) throw new ToolFailure("NOT_FOUND", "No driver with this number");
  return driver;
}

/** The `driver_status` tool. */
export const driverStatus = defineTool({
  name: "driver_status",
  title: "A driver's availability",
  description: "A driver shares a location and/or says available or busy; availability lapses " +
    "by itself. Called by the WhatsApp webhook for registered drivers.",
  category: "mobility",
  input: z.strictObject({
    driver_phone: e164Phone(),
    status: z.enum(["available", "busy"]),
    lat: latitude().optional(),
    lng: longitude().optional(),
  }).refine((a) => (a.lat === undefined) === (a.lng === undefined), {
    message: "give both lat and lng, or neither",
    path: ["lng"],
  }),
  output: z.object({
    status: z.enum(["available", "busy", "needs_location"]),
    available_until: z.string().optional(),
  }),
  examples: [{
    input: { driver_phone: "+250788100101", status: "available", lat: -1.95, lng: 30.11 },
  }],
  sideEffects: "writes.driver",
  auth: "service",
  internal: true,
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const driver = await driverByPhone(ctx.db, ctx.org_id!, args.driver_phone);
    const minutes = args.status === "busy" ? 0 : mobilitySettings().driverAvailableMinutes;
    let until: Date | null = null;
    let needsLocation = false;
    if (args.lat !== undefined && args.lng !== undefined) {
      const [row] = await ctx.db.query<{ until: string | Date | null }>(
        "select private.driver_check_in($1, $2, $3, $4) as until",
        [driver.id, args.lat, args.lng, minutes],
      );
      until = row.until === null ? null : new Date(row.until);
    } else {
      const [row] = await ctx.db.query<{ has_location: boolean; available_until: string | null }>(
        "select * from private.driver_set_availability($1, $2)",
        [driver.id, minutes],
      );
      needsLocation = !row.has_location && minutes > 0;
      until = row.available_until === null ? null : new Date(row.available_until);
    }
    const language = languageFromLocale(driver.locale);
    const text = needsLocation
      ? say("needLocation", language)
      : minutes === 0
      ? say("busy", language)
      : say("available", language, { until: kigaliClock(until!) });
    await ctx.services.get(MESSAGING).send(ctx.db, {
      orgId: ctx.org_id!,
      to: toWaId(driver.phone),
      message: textOut(text),
      idempotencyKey: `driver-status:${ctx.idempotency_key}`,
    });
    if (needsLocation) return { status: "needs_location" as const };
    return minutes === 0
      ? { status: "busy" as const }
      : { status: "available" as const, available_until: until!.toISOString() };
  },
});

interface RideRow {
  id: string;
  status: string;
  rider_phone: string;
  rider_name: string | null;
  language: string;
  pickup_lat: number;
  pickup_lng: number;
  pickup_name: string | null;
  dest_name: string | null;
  estimate_rwf: number;
  estimate_min_rwf: number;
  estimate_max_rwf: number;
  matched_driver_id: string | null;
  /** The tenant's currency (`orgs.currency`), when it has one set. */
  currency: string | null;
}

/** Tells a rider nobody accepted, with what they can do next (once per ride). */
async function tellNobodyAccepted(
  db: Queryable,
  messaging: MessagingPort,
  orgId: string,
  ride: RideRow,
): Promise<void> {
  const language = languageFromLocale(ride.language);
  await messaging.send(db, {
    orgId,
    to: toWaId(ride.rider_phone),
    message: buttonsOut(say("nobodyAccepted", language), [
      { id: "trip:retry", title: say("retry", language) },
      { id: "trip:wider", title: say("wider", language) },
      { id: "trip:cab", title: say("takeCab", language) },
    ]),
    idempotencyKey: `ride-nobody:${ride.id}`,
  });
}

/** Tells a driver their offer was taken by another (same message whoever sends it). */
async function tellLost(
  db: Queryable,
  messaging: MessagingPort,
  orgId: string,
  offer: { id: string; phone: string; locale: string | null },
) {
  await messaging.send(db, {
    orgId,
    to: toWaId(offer.phone),
    message: textOut(say("lost", languageFromLocale(offer.locale))),
    idempotencyKey: `ride-lost:${offer.id}`,
  });
}

/** How long after an offer a driver's typed "yes" / "no" is still read as its (late) answer. */
export const LATE_ANSWER_MS = 24 * 3600_000;

const RIDE_SQL = `
  select r.id, r.status, p.phone as rider_phone, p.display_name as rider_name, r.language,
         r.pickup_lat, r.pickup_lng, r.pickup_name, r.dest_name, r.estimate_rwf,
         r.estimate_min_rwf, r.estimate_max_rwf, r.matched_driver_id, o.currency
  from public.ride_requests r join public.profiles p on p.id = r.rider_id
    join public.orgs o on o.id = r.org_id
  where r.id = $1 and r.org_id = $2`;

/** The `ride_offer_respond` tool. */
export const rideOfferRespond = defineTool({
  name: "ride_offer_respond",
  title: "A driver answers a ride offer",
  description: "A driver accepts or declines a ride offer (their latest open one when no offer " +
    "id is given). The first accept is matched; the others are told at once. An accept while " +
    "the rider holds the ride is not matched (held): the offer is kept and the driver told it " +
    "is on hold. Called by the WhatsApp webhook.",
  category: "mobility",
  input: z.strictObject({
    driver_phone: e164Phone(),
    offer_id: z.uuid().optional(),
    action: z.enum(["accept", "decline"]),
  }),
  output: z.object({
    outcome: z.enum(["matched", "taken", "expired", "declined", "held"]),
    ride_request_id: z.uuid(),
  }),
  examples: [{ input: { driver_phone: "+250788100101", action: "accept" } }],
  sideEffects: "writes.ride",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const messaging = ctx.services.get(MESSAGING);
    const driver = await driverByPhone(ctx.db, orgId, args.driver_phone);
    const language = languageFromLocale(driver.locale);
    const [found] = await ctx.db.query<{ id: string; request_id: string }>(
      // A typed "yego" answers the open offer; with none open, the last one of the day, so a
      // driver answering late hears the ride has gone rather than nothing.
      `select id, request_id from public.ride_offers
       where org_id = $1 and driver_id = $2 and ($3::uuid is null or id = $3)
         and ($3::uuid is not null or status = 'pending' or sent_at > $4::timestamptz)
       order by status = 'pending' desc, sent_at desc limit 1`,
      [
        orgId,
        driver.id,
        args.offer_id ?? null,
        new Date(ctx.services.now().getTime() - LATE_ANSWER_MS).toISOString(),
      ],
    );
    if (!found) throw new ToolFailure("NOT_FOUND", "No open ride offer for this driver");
    // Concurrent answers to one ride queue here: whoever holds the lock decides, the next
    // one sees the ride already matched.
    const [ride] = await ctx.db.query<RideRow>(`${RIDE_SQL} for update of r`, [
      found.request_id,
      orgId,
    ]);
    // A paused ride's offers ran out their time only up to the pause.
    const [offer] = await ctx.db.query<{ status: string; expired: boolean }>(
      `select o.status, o.expires_at <= coalesce(r.paused_at, now()) as expired
       from public.ride_offers o join public.ride_requests r on r.id = o.request_id
       where o.id = $1`,
      [found.id],
    );
    const tellDriver = (text: string, key: string) =>
      messaging.send(ctx.db, {
        orgId,
        to: toWaId(driver.phone),
        message: textOut(text),
        idempotencyKey: key,
      });
    const result = (outcome: "matched" | "taken" | "expired" | "declined" | "held") => ({
      outcome,
      ride_request_id: ride.id,
    });
    if (offer.status === "lost" || (offer.status === "pending" && ride.status === "matched")) {
      await tellLost(ctx.db, messaging, orgId, {
        id: found.id,
        phone: driver.phone,
        locale: driver.locale,
      });
      return result("taken");
    }
    if (offer.status === "accepted") return result("matched");
    // Held while its rider is with staff: the offer is kept (the database refuses the accept),
    // and the driver hears it is on hold and that they will be told when it reopens.
    if (
      offer.status === "pending" && !offer.expired && ride.status === "paused" &&
      args.action === "accept"
    ) {
      await tellDriver(
        say("rideOnHold", language),
        `ride-on-hold:${found.id}:${ctx.idempotency_key ?? ""}`,
      );
      return result("held");
    }
    if (
      offer.status !== "pending" || offer.expired ||
      (ride.status !== "open" && ride.status !== "paused")
    ) {
      if (offer.status === "declined") return result("declined");
      await tellDriver(say("offerExpired", language), `ride-expired-offer:${found.id}`);
      return result("expired");
    }
    if (args.action === "decline") {
      await ctx.db.query("update public.ride_offers set status = 'declined' where id = $1", [
        found.id,
      ]);
      await tellDriver(say("declined", language), `ride-declined:${found.id}`);
      const [left] = await ctx.db.query<{ n: number }>(
        "select count(*)::int as n from public.ride_offers where request_id = $1 and status = 'pending'",
        [ride.id],
      );
      // A paused ride waits for its rider (with staff) even with nobody left to accept: once
      // reopened, the sweep tells them nobody accepted.
      if (left.n === 0 && ride.status === "open") {
        await ctx.db.query("update public.ride_requests set status = 'expired' where id = $1", [
          ride.id,
        ]);
        await tellNobodyAccepted(ctx.db, messaging, orgId, ride);
      }
      return result("declined");
    }
    await ctx.db.query("update public.ride_offers set status = 'accepted' where id = $1", [
      found.id,
    ]);
    // The trigger marked the other open offers lost: tell those drivers now.
    const losers = await ctx.db.query<{ id: string; phone: string; locale: string | null }>(
      `select o.id, d.phone, p.locale from public.ride_offers o
       join public.drivers d on d.id = o.driver_id
       left join public.profiles p on p.id = d.user_id
       where o.request_id = $1 and o.status = 'lost'`,
      [ride.id],
    );
    for (const loser of losers) await tellLost(ctx.db, messaging, orgId, loser);
    await tellDriver(
      say("won", language, {
        rider: ride.rider_name ?? "the rider",
        phone: ride.rider_phone,
        wa: toWaId(ride.rider_phone),
        pickup: ride.pickup_name ?? "",
        map: `https://maps.google.com/?q=${ride.pickup_lat.toFixed(5)},${
          ride.pickup_lng.toFixed(5)
        }`,
        dest: ride.dest_name ?? "",
        price: formatMoneyRange(
          { min: ride.estimate_min_rwf, max: ride.estimate_max_rwf },
          language,
          { currency: ride.currency ?? undefined },
        ),
      }),
      `ride-won:${found.id}`,
    );
    const riderLanguage = languageFromLocale(ride.language);
    await messaging.send(ctx.db, {
      orgId,
      to: toWaId(ride.rider_phone),
      message: buttonsOut(
        say("matched", riderLanguage, {
          driver: driver.display_name,
          vehicle: driver.vehicle_desc
            ? vehicleText(driver.vehicle_desc, riderLanguage)
            : driver.vehicle_type,
          plate: driver.plate,
          phone: driver.phone,
          wa: toWaId(driver.phone),
          amount: formatMoney(ride.estimate_rwf, riderLanguage, {
            currency: ride.currency ?? undefined,
          }),
        }),
        [
          { id: "trip:pay", title: say("payMomo", riderLanguage) },
          { id: "trip:cash", title: say("payCash", riderLanguage) },
        ],
      ),
      idempotencyKey: `ride-matched:${ride.id}`,
    });
    return result("matched");
  },
});

/** The `ride_offers_sweep` tool. */
export const rideOffersSweep = defineTool({
  name: "ride_offers_sweep",
  title: "Expire unanswered ride offers",
  description: "Marks ride offers past their expiry as expired and rides nobody accepted as " +
    "expired, telling each rider what they can do next. Run by the WhatsApp worker's sweep.",
  category: "mobility",
  input: z.strictObject({}),
  output: z.object({ offers_expired: z.int(), rides_expired: z.int() }),
  examples: [{ input: {} }],
  sideEffects: "writes.ride",
  auth: "service",
  internal: true,
  latencyBudgetMs: 500,
  async execute(_args, ctx) {
    const orgId = ctx.org_id!;
    const offers = await ctx.db.query<{ id: string }>(
      // A paused ride's offers are kept, their time stopped, until it reopens or is cancelled.
      `update public.ride_offers o set status = 'expired'
       where o.org_id = $1 and o.status = 'pending' and o.expires_at <= now()
         and not exists (
           select 1 from public.ride_requests r where r.id = o.request_id and r.status = 'paused')
       returning o.id`,
      [orgId],
    );
    const rides = await ctx.db.query<{ id: string }>(
      `update public.ride_requests r set status = 'expired'
       where r.org_id = $1 and r.status = 'open'
         and (r.expires_at <= now() or not exists (
           select 1 from public.ride_offers o where o.request_id = r.id and o.status = 'pending'))
       returning r.id`,
      [orgId],
    );
    for (const { id } of rides) {
      const [ride] = await ctx.db.query<RideRow>(RIDE_SQL, [id, orgId]);
      await tellNobodyAccepted(ctx.db, ctx.services.get(MESSAGING), orgId, ride);
    }
    return { offers_expired: offers.length, rides_expired: rides.length };
  },
});
