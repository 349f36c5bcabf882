/**
 * `trip_price_estimate` (the tool catalog's mobility section): the price window and ETA of a trip from
 * the tariff in effect at `when` (tariffs are versioned by effective dates in
 * `public.tariffs`), computed by `fare.ts`. Every figure names the tariff row
 * (id, version, vehicle type) and the time-of-day band that produced it.
 * A place may be given by name from the gazetteer instead of coordinates.
 *
 * @module
 */
import { z } from "zod";
import { dateTime, int, latitude, longitude, text, ToolFailure } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import {
  estimateTrip,
  type FareEstimate,
  type Tariff,
  VEHICLE_SEATS,
  type VehicleType,
} from "./fare.ts";
import { type NamedPoint, placeNamed, samePlace } from "./places.ts";

/** A trip end: coordinates (a shared location), a known place's name, or both. */
export const tripPoint = z.strictObject({
  lat: latitude().optional(),
  lng: longitude().optional(),
  name: text({ min: 1, max: 200 }).optional().describe("A known place, e.g. 'Nyabugogo'."),
}).refine((p) => (p.lat === undefined) === (p.lng === undefined), {
  message: "give both lat and lng, or neither",
  path: ["lng"],
}).refine((p) => p.lat !== undefined || p.name !== undefined, {
  message: "give coordinates (a shared location) or a known place's name",
  path: ["name"],
});

/** A trip end as given. */
export type TripPointInput = z.output<typeof tripPoint>;

/**
 * The coordinates of a trip end: as given, or the gazetteer's for its name.
 *
 * @throws {ToolFailure} VALIDATION_ERROR at `<path>.name` for an unknown place.
 */
export async function resolvePoint(
  db: Queryable,
  point: TripPointInput,
  path: string,
): Promise<NamedPoint> {
  if (point.lat !== undefined && point.lng !== undefined) {
    return { lat: point.lat, lng: point.lng, ...(point.name ? { name: point.name } : {}) };
  }
  const place = await placeNamed(db, point.name!);
  if (!place) {
    throw new ToolFailure(
      "VALIDATION_ERROR",
      `I do not know the place "${point.name}": please share your location instead`,
      { fields: [{ path: `${path}.name`, message: "unknown place: share a location instead" }] },
    );
  }
  return { lat: place.lat, lng: place.lng, name: place.name };
}

interface TariffRow {
  id: string;
  vehicle_type: VehicleType;
  version: number;
  base_fare: number;
  per_km: number;
  per_minute: number;
  minimum_fare: number;
  night_surcharge_pct: number;
  night_from: string;
  night_to: string;
  peak_surcharge_pct: number;
  peak_windows: [string, string][];
  speed_kmh: number;
  peak_speed_kmh: number;
  night_speed_kmh: number;
  window_pct: number;
  effective_from: string | Date;
  effective_to: string | Date | null;
}

const iso = (value: string | Date) => new Date(value).toISOString();

/** The tariff of a vehicle type in effect at `at` in the caller's org, or null. */
export async function tariffInEffect(
  db: Queryable,
  orgId: string,
  vehicleType: VehicleType,
  at: Date,
): Promise<Tariff | null> {
  const [row] = await db.query<TariffRow>(
    `select id, vehicle_type, version, base_fare, per_km, per_minute, minimum_fare,
            night_surcharge_pct, night_from::text as night_from, night_to::text as night_to,
            peak_surcharge_pct, peak_windows, speed_kmh, peak_speed_kmh, night_speed_kmh,
            window_pct, effective_from, effective_to
     from public.tariffs
     where org_id = $1 and vehicle_type = $2 and effective_from <= $3
       and (effective_to is null or $3 < effective_to)
     order by effective_from desc limit 1`,
    [orgId, vehicleType, at.toISOString()],
  );
  if (!row) return null;
  return {
    id: row.id,
    vehicleType: row.vehicle_type,
    version: row.version,
    baseFare: row.base_fare,
    perKm: row.per_km,
    perMinute: row.per_minute,
    minimumFare: row.minimum_fare,
    nightSurchargePct: row.night_surcharge_pct,
    nightFrom: row.night_from.slice(0, 5),
    nightTo: row.night_to.slice(0, 5),
    peakSurchargePct: row.peak_surcharge_pct,
    peakWindows: row.peak_windows.map(([from, to]) => [from, to] as const),
    speedKmh: row.speed_kmh,
    peakSpeedKmh: row.peak_speed_kmh,
    nightSpeedKmh: row.night_speed_kmh,
    windowPct: row.window_pct,
    effectiveFrom: iso(row.effective_from),
    effectiveTo: row.effective_to === null ? null : iso(row.effective_to),
  };
}

/** Options for {@link quoteTrip}. */
export interface QuoteTripOptions {
  /** The caller's org. */
  orgId: string;
  /** Pickup, as given. */
  origin: TripPointInput;
  /** Destination, as given. */
  dest: TripPointInput;
  /** When the trip starts. */
  at: Date;
  /** Riders. */
  pax: number;
  /** The vehicle; by default a moto for one rider, a cab for more. */
  vehicleType?: VehicleType;
}

/** A quote with the points it priced. */
export interface TripQuote {
  /** The fare. */
  fare: FareEstimate;
  /** The pickup's coordinates (and name). */
  origin: NamedPoint;
  /** The destination's coordinates (and name). */
  dest: NamedPoint;
}

/**
 * Prices a trip from the tariff in effect: the figures `trip_price_estimate`
 * returns and `ride_request` stores.
 *
 * @throws {ToolFailure} VALIDATION_ERROR for an unknown place, two ends at one
 *   place (at `dest`), more riders than the vehicle takes (naming the cab), or
 *   no tariff at that time.
 */
export async function quoteTrip(db: Queryable, options: QuoteTripOptions): Promise<TripQuote> {
  const vehicleType = options.vehicleType ?? (options.pax > 1 ? "cab" : "moto");
  const seats = VEHICLE_SEATS[vehicleType];
  if (options.pax > seats) {
    const bigger = (Object.entries(VEHICLE_SEATS) as [VehicleType, number][])
      .find(([, n]) => n >= options.pax)?.[0];
    throw new ToolFailure(
      "VALIDATION_ERROR",
      `A ${vehicleType} takes ${seats} rider${seats === 1 ? "" : "s"}` +
        (bigger ? `: choose a ${bigger} for ${options.pax}` : ""),
      {
        fields: [{ path: "pax", message: `at most ${seats} for a ${vehicleType}` }],
        ...(bigger ? { details: { suggested_vehicle_type: bigger } } : {}),
      },
    );
  }
  const origin = await resolvePoint(db, options.origin, "origin");
  const dest = await resolvePoint(db, options.dest, "dest");
  if (samePlace(origin, dest)) {
    throw new ToolFailure(
      "VALIDATION_ERROR",
      `The pickup and the destination are the same place (${
        dest.name ?? origin.name ?? "one point"
      }): ask the rider which one is wrong`,
      { fields: [{ path: "dest", message: "the same place as the origin" }] },
    );
  }
  const tariff = await tariffInEffect(db, options.orgId, vehicleType, options.at);
  if (!tariff) {
    throw new ToolFailure("VALIDATION_ERROR", `There is no ${vehicleType} tariff for that time`, {
      fields: [{ path: "when", message: `no ${vehicleType} tariff in effect then` }],
    });
  }
  try {
    return { fare: estimateTrip({ tariff, origin, dest, at: options.at }), origin, dest };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new ToolFailure("VALIDATION_ERROR", "That trip is too long to price (over 500 km)", {
      fields: [{ path: "dest", message: "too far from the origin" }],
    });
  }
}

const pointOut = z.object({ lat: z.number(), lng: z.number(), name: z.string().optional() });

/** The estimate's shape (shared with ride_request). */
export const fareOutput = z.object({
  estimate: z.int().nonnegative(),
  currency: z.literal("RWF"),
  window: z.object({ min: z.int().nonnegative(), max: z.int().nonnegative() }),
  eta_minutes: z.int().positive(),
  distance_km: z.number().nonnegative(),
  band: z.enum(["night", "peak", "normal"]),
  surcharge_pct: z.int().nonnegative(),
  minimum_applied: z.boolean(),
  tariff: z.object({ id: z.uuid(), version: z.int(), vehicle_type: z.enum(["moto", "cab"]) }),
});

/** The contract's snake_case view of a fare. */
export function fareData(fare: FareEstimate): z.output<typeof fareOutput> {
  return {
    estimate: fare.estimate,
    currency: fare.currency,
    window: fare.window,
    eta_minutes: fare.etaMinutes,
    distance_km: fare.distanceKm,
    band: fare.band,
    surcharge_pct: fare.surchargePct,
    minimum_applied: fare.minimumApplied,
    tariff: {
      id: fare.tariff.id,
      version: fare.tariff.version,
      vehicle_type: fare.tariff.vehicleType,
    },
  };
}

/** The `trip_price_estimate` tool. */
export const tripPriceEstimate = defineTool({
  name: "trip_price_estimate",
  title: "Estimate a trip's price",
  description: "Estimate the fare (with a min/max window) and the driving time of a moto or cab " +
    "trip from the tariff in effect at `when` (Kigali time bands: night, peak, normal). " +
    "Places may be named ('Nyabugogo', 'Kimironko market', 'airport') instead of coordinates.",
  category: "mobility",
  input: z.strictObject({
    origin: tripPoint,
    dest: tripPoint,
    when: dateTime().optional().describe("Trip start, ISO 8601 with offset; now by default."),
    pax: int({ min: 1, max: 8 }).default(1),
    vehicle_type: z.enum(["moto", "cab"]).optional()
      .describe("moto takes 1 rider, cab 4; by default moto for 1, cab for more"),
  }),
  output: fareOutput.extend({ origin: pointOut, dest: pointOut }),
  examples: [{
    description: "A moto from Remera to Nyabugogo at noon",
    input: {
      origin: { lat: -1.9557, lng: 30.1123 },
      dest: { name: "Nyabugogo" },
      when: "2026-11-23T12:00:00+02:00",
      pax: 1,
      vehicle_type: "moto",
    },
  }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 150,
  async execute(args, ctx) {
    const quote = await quoteTrip(ctx.db, {
      orgId: ctx.org_id!,
      origin: args.origin,
      dest: args.dest,
      at: args.when ? new Date(args.when) : ctx.services.now(),
      pax: args.pax,
      vehicleType: args.vehicle_type,
    });
    return { ...fareData(quote.fare), origin: quote.origin, dest: quote.dest };
  },
});
