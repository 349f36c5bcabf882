/**
 * The ride flow's tools. `ride_request` prices the trip, asks the nearest
 * available drivers (Accept/Decline buttons, the pickup's area name and a
 * coarse distance, never the rider's position) and records the offers;
 * `ride_status` is the rider's view (the matched driver's name, vehicle,
 * plate and number; never a position).
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import { formatMoneyRange, type MoneyOptions } from "@shared/capabilities/format/mod.ts";
import { z } from "zod";
import { int, ToolFailure } from "@shared/contract/mod.ts";
import { languageFromLocale, LANGUAGES } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import { buttonsOut, MESSAGING, templateOut, textOut } from "@shared/capabilities/messaging/mod.ts";
import { placeNear } from "./places.ts";
import { mobilitySettings } from "./settings.ts";
import { coarseDistance, say } from "./texts.ts";
import { fareData, fareOutput, quoteTrip, tripPoint } from "./trip_estimate.ts";

/** The largest radius drivers are searched in, metres. */
export const MAX_RIDE_RADIUS_M = 20_000;

const requestOutput = z.object({
  ride_request_id: z.uuid(),
  drivers_asked: z.int().positive(),
  expires_at: z.string(),
  pickup_name: z.string(),
  dest_name: z.string(),
  fare: fareOutput,
});

/** The `ride_request` tool. */
export const rideRequest = defineTool({
  name: "ride_request",
  title: "Ask drivers for a ride",
  description: "Price a ride and ask the nearest available drivers of that vehicle type on " +
    "WhatsApp (they see the pickup's area and a coarse distance, not the rider's position). " +
    "The first to accept is matched; follow with ride_status. NOT_FOUND when no driver is free.",
  category: "mobility",
  input: z.strictObject({
    vehicle_type: z.enum(["moto", "cab"]),
    pax: int({ min: 1, max: 8 }).default(1),
    pickup: tripPoint,
    dest: tripPoint,
    radius_m: int({ min: 500, max: MAX_RIDE_RADIUS_M }).default(5000)
      .describe("How far away drivers may be, metres."),
    language: z.enum(LANGUAGES).default("en").describe("The rider's language."),
  }),
  output: requestOutput,
  examples: [{
    input: {
      vehicle_type: "moto",
      pickup: { lat: -1.9557, lng: 30.1123 },
      dest: { name: "Nyabugogo" },
      language: "rw",
    },
  }],
  sideEffects: "writes.message",
  // Offers are written for drivers and messages sent to them: across parties, scoped below to
  // the caller as rider, in the caller's org.
  auth: "service",
  openWorld: true,
  latencyBudgetMs: 600,
  // Each request messages the nearby drivers: a rider asks a few times, not a driver flood.
  rateLimit: { perUser: { limit: 10, windowSec: 600 } },
  async execute(args, ctx) {
    if (!ctx.user_id) {
      throw new ToolFailure("AUTH_ERROR", "A ride is requested by a signed-in rider");
    }
    const settings = mobilitySettings();
    const now = ctx.services.now();
    const quote = await quoteTrip(ctx.db, {
      orgId: ctx.org_id!,
      origin: args.pickup,
      dest: args.dest,
      at: now,
      pax: args.pax,
      vehicleType: args.vehicle_type,
    });
    const drivers = await ctx.db.query<
      { driver_id: string; distance_m: number; phone: string; locale: string | null }
    >(
      `select n.driver_id, n.distance_m, d.phone, p.locale
       from private.drivers_near($1, $2, $3, $4, $5, $6) n
       join public.drivers d on d.id = n.driver_id
       left join public.profiles p on p.id = d.user_id
       where d.user_id is distinct from $7
       order by n.distance_m, n.driver_id`,
      [
        ctx.org_id,
        quote.origin.lat,
        quote.origin.lng,
        args.radius_m,
        args.vehicle_type,
        settings.rideOfferDrivers,
        ctx.user_id,
      ],
    );
    if (drivers.length === 0) {
      throw new ToolFailure(
        "NOT_FOUND",
        `No ${args.vehicle_type} driver is free within ${args.radius_m / 1000} km right now`,
        { details: { radius_m: args.radius_m } },
      );
    }
    const pickupName = quote.origin.name ??
      await placeNear(ctx.db, quote.origin.lat, quote.origin.lng) ?? "your area";
    const destName = quote.dest.name ??
      await placeNear(ctx.db, quote.dest.lat, quote.dest.lng) ?? "a shared location";
    const expiresAt = new Date(now.getTime() + settings.rideOfferMinutes * 60_000);
    const fare = quote.fare;
    const [ride] = await ctx.db.query<{ id: string }>(
      `insert into public.ride_requests
         (org_id, rider_id, vehicle_type, pax, pickup_lat, pickup_lng, pickup_name, dest_lat,
          dest_lng, dest_name, tariff_id, estimate_rwf, estimate_min_rwf, estimate_max_rwf,
          expires_at, trace_id, language)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       returning id`,
      [
        ctx.org_id,
        ctx.user_id,
        args.vehicle_type,
        args.pax,
        quote.origin.lat,
        quote.origin.lng,
        pickupName,
        quote.dest.lat,
        quote.dest.lng,
        destName,
        fare.tariff.id,
        fare.estimate,
        fare.window.min,
        fare.window.max,
        expiresAt.toISOString(),
        ctx.trace_id,
        args.language,
      ],
    );
    // Drivers read the price in the tenant's currency.
    const money = await tenantMoney(ctx.db, ctx.org_id);
    for (const driver of drivers) {
      const [offer] = await ctx.db.query<{ id: string }>(
        `insert into public.ride_offers (org_id, request_id, driver_id, expires_at)
         values ($1, $2, $3, $4) returning id`,
        [ctx.org_id, ride.id, driver.driver_id, expiresAt.toISOString()],
      );
      const language = languageFromLocale(driver.locale);
      const facts = {
        pickup: pickupName,
        distance: coarseDistance(driver.distance_m),
        dest: destName,
        price: formatMoneyRange(fare.window, language, money),
        minutes: settings.rideOfferMinutes,
      };
      const buttons = [
        { id: `ride:${offer.id}:accept`, title: say("accept", language) },
        { id: `ride:${offer.id}:decline`, title: say("decline", language) },
      ];
      await ctx.services.get(MESSAGING).send(ctx.db, {
        orgId: ctx.org_id!,
        to: toWaId(driver.phone),
        message: buttonsOut(say("offer", language, facts), buttons),
        // A driver made available by staff, or whose last message is a day old, is outside
        // the 24-hour window: the approved ride_offer template asks the same, and its quick
        // replies answer like the buttons (docs/whatsapp_templates.md).
        fallback: templateOut({
          name: "ride_offer",
          language,
          // The price window carries the tenant's currency: the approved body names none.
          parameters: [facts.pickup, facts.distance, facts.dest, facts.price],
          choiceIds: buttons.map((button) => button.id),
        }),
        idempotencyKey: `ride-offer:${offer.id}`,
      });
    }
    return {
      ride_request_id: ride.id,
      drivers_asked: drivers.length,
      expires_at: expiresAt.toISOString(),
      pickup_name: pickupName,
      dest_name: destName,
      fare: fareData(fare),
    };
  },
});

const statusOutput = z.object({
  ride_request_id: z.uuid(),
  status: z.enum(["open", "paused", "matched", "completed", "cancelled", "expired"]),
  payment_status: z.enum(["unpaid", "pending", "settled", "failed", "expired"]),
  vehicle_type: z.enum(["moto", "cab"]),
  pickup_name: z.string().optional(),
  dest_name: z.string().optional(),
  estimate: z.int().nonnegative().optional(),
  window: z.object({ min: z.int(), max: z.int() }).optional(),
  expires_at: z.string(),
  rider_phone: z.string().optional().describe("The caller's own number, when they are the rider."),
  driver: z.object({
    name: z.string(),
    vehicle_type: z.string(),
    vehicle: z.string().optional(),
    plate: z.string(),
    phone: z.string(),
    whatsapp_link: z.string(),
  }).optional(),
});

/** The `ride_status` tool. */
export const rideStatus = defineTool({
  name: "ride_status",
  title: "A ride's status",
  description: "The status of one of the user's rides: waiting for drivers, matched (with the " +
    "driver's name, vehicle, plate and contact), expired or cancelled, and its payment status. " +
    "Without ride_request_id: the user's latest ride still waiting for drivers (NOT_FOUND if none).",
  category: "mobility",
  input: z.strictObject({
    ride_request_id: z.uuid().optional()
      .describe("The ride; by default the caller's latest ride still waiting for drivers."),
  }),
  output: statusOutput,
  examples: [{ input: { ride_request_id: "f2000000-0000-4000-8000-000000000001" } }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 150,
  async execute(args, ctx) {
    const [ride] = await ctx.db.query<{
      id: string;
      status: z.output<typeof statusOutput>["status"];
      payment_status: z.output<typeof statusOutput>["payment_status"];
      vehicle_type: "moto" | "cab";
      pickup_name: string | null;
      dest_name: string | null;
      estimate_rwf: number | null;
      estimate_min_rwf: number | null;
      estimate_max_rwf: number | null;
      expires_at: string | Date;
      rider_phone: string | null;
    }>(
      `select id, status, payment_status, vehicle_type, pickup_name, dest_name, estimate_rwf,
              estimate_min_rwf, estimate_max_rwf, expires_at,
              (select p.phone from public.profiles p
               where p.id = r.rider_id and p.id = $3) as rider_phone
       from public.ride_requests r
       where org_id = $2
         and ($1::uuid is not null and id = $1
           or $1::uuid is null and rider_id = $3 and status = 'open' and expires_at > now())
       order by created_at desc, id limit 1`,
      [args.ride_request_id ?? null, ctx.org_id, ctx.user_id ?? null],
    );
    if (!ride) throw new ToolFailure("NOT_FOUND", "No such ride");
    const [driver] = await ctx.db.query<{
      display_name: string;
      vehicle_type: string;
      vehicle_desc: string | null;
      plate: string;
      phone: string;
    }>("select * from private.ride_driver_contact($1)", [ride.id]);
    return {
      ride_request_id: ride.id,
      status: ride.status,
      payment_status: ride.payment_status,
      vehicle_type: ride.vehicle_type,
      ...(ride.pickup_name ? { pickup_name: ride.pickup_name } : {}),
      ...(ride.dest_name ? { dest_name: ride.dest_name } : {}),
      ...(ride.estimate_rwf !== null ? { estimate: ride.estimate_rwf } : {}),
      ...(ride.estimate_min_rwf !== null && ride.estimate_max_rwf !== null
        ? { window: { min: ride.estimate_min_rwf, max: ride.estimate_max_rwf } }
        : {}),
      expires_at: new Date(ride.expires_at).toISOString(),
      ...(ride.rider_phone ? { rider_phone: ride.rider_phone } : {}),
      ...(driver
        ? {
          driver: {
            name: driver.display_name,
            vehicle_type: driver.vehicle_type,
            ...(driver.vehicle_desc ? { vehicle: driver.vehicle_desc } : {}),
            plate: driver.plate,
            phone: driver.phone,
            whatsapp_link: `https://wa.me/${toWaId(driver.phone)}`,
          },
        }
        : {}),
    };
  },
});

/** The `ride_cancel` tool. */
export const rideCancel = defineTool({
  name: "ride_cancel",
  title: "Cancel a ride",
  description: "Cancel one of the user's rides that is waiting for drivers or matched: its open " +
    "offers are withdrawn and every driver who was asked (or the matched driver) is told on " +
    "WhatsApp. Cancelling a cancelled ride changes nothing. CONFLICT once it is completed or " +
    "expired.",
  category: "mobility",
  input: z.strictObject({ ride_request_id: z.uuid() }),
  output: z.object({
    ride_request_id: z.uuid(),
    status: z.literal("cancelled"),
    drivers_told: z.int().nonnegative(),
  }),
  examples: [{ input: { ride_request_id: "f2000000-0000-4000-8000-000000000001" } }],
  sideEffects: "writes.message",
  // Drivers' offers are withdrawn and drivers messaged: across parties, scoped below to the
  // caller's own ride in the caller's org.
  auth: "service",
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    if (!ctx.user_id) {
      throw new ToolFailure("AUTH_ERROR", "A ride is cancelled by its signed-in rider");
    }
    const [ride] = await ctx.db.query<{ status: string; matched_driver_id: string | null }>(
      `select status, matched_driver_id from public.ride_requests
       where id = $1 and org_id = $2 and rider_id = $3 for update`,
      [args.ride_request_id, ctx.org_id, ctx.user_id],
    );
    if (!ride) {
      throw new ToolFailure("NOT_FOUND", "No such ride of yours", {
        fields: [{ path: "ride_request_id", message: "not one of your rides" }],
      });
    }
    const done = { ride_request_id: args.ride_request_id, status: "cancelled" as const };
    if (ride.status === "cancelled") return { ...done, drivers_told: 0 };
    if (ride.status !== "open" && ride.status !== "paused" && ride.status !== "matched") {
      throw new ToolFailure("CONFLICT", `The ride is already ${ride.status}`, {
        fields: [{ path: "ride_request_id", message: `already ${ride.status}` }],
      });
    }
    // The ride is cancelled before its offers are withdrawn: a paused ride's offers are kept
    // (the database refuses to expire them) until it is no longer paused.
    await ctx.db.query("update public.ride_requests set status = 'cancelled' where id = $1", [
      args.ride_request_id,
    ]);
    // Withdrawn offers expire: a driver's late "accept" then finds it gone.
    const told = await ctx.db.query<{ id: string; phone: string; locale: string | null }>(
      `with withdrawn as (
         update public.ride_offers set status = 'expired'
         where request_id = $1 and status = 'pending' returning id, driver_id)
       select w.id, d.phone, p.locale
       from withdrawn w join public.drivers d on d.id = w.driver_id
       left join public.profiles p on p.id = d.user_id
       union all
       select o.id, d.phone, p.locale
       from public.ride_offers o join public.drivers d on d.id = o.driver_id
       left join public.profiles p on p.id = d.user_id
       where o.request_id = $1 and o.status = 'accepted' and d.id = $2
       order by 1`,
      [args.ride_request_id, ride.matched_driver_id],
    );
    for (const offer of told) {
      await ctx.services.get(MESSAGING).send(ctx.db, {
        orgId: ctx.org_id!,
        to: toWaId(offer.phone),
        message: textOut(say("rideCancelled", languageFromLocale(offer.locale))),
        idempotencyKey: `ride-cancelled:${offer.id}`,
      });
    }
    return { ...done, drivers_told: told.length };
  },
});

/** A pending offer of a held or reopened ride, with its driver. */
interface KeptOffer {
  id: string;
  phone: string;
  locale: string | null;
  minutes: number;
  pickup_name: string | null;
  dest_name: string | null;
  estimate_min_rwf: number | null;
  estimate_max_rwf: number | null;
  distance_m: number | null;
}

/** The `ride_hold` tool. */
export const rideHold = defineTool({
  name: "ride_hold",
  title: "Hold or reopen a waiting ride",
  description: "Pause one of the user's rides that is waiting for drivers (hold: true), so no " +
    "driver can accept it while the rider is with staff, or reopen a paused one (hold: false). " +
    "The drivers asked keep their offers: they are told it is on hold, and when it reopens that " +
    "it is open again with the time their offer had left. Holding a paused ride, or reopening " +
    "an open one, changes nothing. CONFLICT once it is matched, completed, cancelled or expired.",
  category: "mobility",
  input: z.strictObject({ ride_request_id: z.uuid(), hold: z.boolean() }),
  output: z.object({
    ride_request_id: z.uuid(),
    status: z.enum(["open", "paused"]),
    drivers_told: z.int().nonnegative(),
  }),
  examples: [{ input: { ride_request_id: "f2000000-0000-4000-8000-000000000001", hold: true } }],
  sideEffects: "writes.message",
  // The drivers asked are read and messaged: across parties, scoped below to the caller's own
  // ride in the caller's org. The status guard allows only open <-> paused here.
  auth: "service",
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    if (!ctx.user_id) {
      throw new ToolFailure("AUTH_ERROR", "A ride is held by its signed-in rider");
    }
    const [ride] = await ctx.db.query<{ status: string; paused_at: string | Date | null }>(
      `select status, paused_at from public.ride_requests
       where id = $1 and org_id = $2 and rider_id = $3 for update`,
      [args.ride_request_id, ctx.org_id, ctx.user_id],
    );
    if (!ride) {
      throw new ToolFailure("NOT_FOUND", "No such ride of yours", {
        fields: [{ path: "ride_request_id", message: "not one of your rides" }],
      });
    }
    const want: "open" | "paused" = args.hold ? "paused" : "open";
    const done = { ride_request_id: args.ride_request_id, status: want };
    if (ride.status === want) return { ...done, drivers_told: 0 };
    if (ride.status !== "open" && ride.status !== "paused") {
      throw new ToolFailure("CONFLICT", `The ride is already ${ride.status}`, {
        fields: [{ path: "ride_request_id", message: `already ${ride.status}` }],
      });
    }
    // The pause this call starts or ends names the drivers' messages, so a second pause of the
    // same ride tells them again. The database keeps the clock (paused_at, and on reopening
    // every pending offer's expiry moved by the time it was paused).
    const [changed] = await ctx.db.query<{ paused_at: string | Date | null }>(
      "update public.ride_requests set status = $2 where id = $1 returning paused_at",
      [args.ride_request_id, want],
    );
    const pause = new Date(changed.paused_at ?? ride.paused_at!).toISOString();
    // Offers still pending and not yet run out (a paused offer's time stopped at the pause).
    const offers = await ctx.db.query<KeptOffer>(
      `select o.id, d.phone, p.locale,
              greatest(1, round(extract(epoch from (o.expires_at - coalesce(r.paused_at, now()))) / 60))::int
                as minutes,
              r.pickup_name, r.dest_name, r.estimate_min_rwf, r.estimate_max_rwf,
              x.distance_m
       from public.ride_offers o
       join public.ride_requests r on r.id = o.request_id
       join public.drivers d on d.id = o.driver_id
       left join public.profiles p on p.id = d.user_id
       left join private.ride_offer_distances($1) x on x.offer_id = o.id
       where o.request_id = $1 and o.status = 'pending'
         and o.expires_at > coalesce(r.paused_at, now())
       order by o.id`,
      [args.ride_request_id],
    );
    const messaging = ctx.services.get(MESSAGING);
    // Drivers read the price in the tenant's currency, as in the offer itself.
    const money = await tenantMoney(ctx.db, ctx.org_id);
    for (const offer of offers) {
      const language = languageFromLocale(offer.locale);
      const window = { min: offer.estimate_min_rwf ?? 0, max: offer.estimate_max_rwf ?? 0 };
      const facts = {
        pickup: offer.pickup_name ?? "",
        distance: offer.distance_m === null ? "?" : coarseDistance(offer.distance_m),
        dest: offer.dest_name ?? "",
        price: formatMoneyRange(window, language, money),
        minutes: offer.minutes,
      };
      if (want === "paused") {
        await messaging.send(ctx.db, {
          orgId: ctx.org_id!,
          to: toWaId(offer.phone),
          message: textOut(say("rideHeld", language, facts)),
          idempotencyKey: `ride-held:${offer.id}:${pause}`,
        });
        continue;
      }
      // The offer's own buttons answer again; outside the 24-hour window the approved
      // ride_offer template asks the same with the same replies.
      const buttons = [
        { id: `ride:${offer.id}:accept`, title: say("accept", language) },
        { id: `ride:${offer.id}:decline`, title: say("decline", language) },
      ];
      await messaging.send(ctx.db, {
        orgId: ctx.org_id!,
        to: toWaId(offer.phone),
        message: buttonsOut(say("rideReopened", language, facts), buttons),
        fallback: templateOut({
          name: "ride_offer",
          language,
          parameters: [facts.pickup, facts.distance, facts.dest, facts.price],
          choiceIds: buttons.map((button) => button.id),
        }),
        idempotencyKey: `ride-reopened:${offer.id}:${pause}`,
      });
    }
    return { ...done, drivers_told: offers.length };
  },
});

/** How the tenant's amounts are written: its currency, or the default when it has none set. */
async function tenantMoney(db: Queryable, orgId: string | null): Promise<MoneyOptions> {
  const [org] = await db.query<{ currency: string | null }>(
    "select currency from public.orgs where id = $1",
    [orgId],
  );
  return { currency: org?.currency ?? undefined };
}
