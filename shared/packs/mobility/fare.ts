/**
 * Trip prices and ETAs from a tariff row (table `public.tariffs`): base fare,
 * per km, per minute, a minimum, and a night or peak surcharge by Kigali
 * local time (UTC+2 all year). Every figure returned names the tariff id and
 * version that produced it, so a quote can be traced to its row.
 *
 * Order of operations: fare = base + per_km × km + per_minute × minutes; the
 * minimum applies to that fare; the band's surcharge applies on top; the
 * result is rounded up to 50 RWF. The window is ± the tariff's window_pct
 * around the estimate, never below the minimum.
 *
 * @module
 */

/** A coordinate in degrees. */
export interface LatLng {
  /** Latitude, -90…90. */
  lat: number;
  /** Longitude, -180…180. */
  lng: number;
}

/** The vehicle types tariffs exist for. */
export type VehicleType = "moto" | "cab";

/** Riders a vehicle takes. */
export const VEHICLE_SEATS: Readonly<Record<VehicleType, number>> = { moto: 1, cab: 4 };

/** One tariff version, as stored (camel-cased). */
export interface Tariff {
  /** Row id. */
  id: string;
  /** Vehicle type. */
  vehicleType: VehicleType;
  /** Version number within the vehicle type. */
  version: number;
  /** Whole RWF. */
  baseFare: number;
  /** Whole RWF per km. */
  perKm: number;
  /** Whole RWF per minute. */
  perMinute: number;
  /** Whole RWF. */
  minimumFare: number;
  /** Percent added at night. */
  nightSurchargePct: number;
  /** Night start, `HH:MM` Kigali time. */
  nightFrom: string;
  /** Night end, `HH:MM` Kigali time (may be before nightFrom: crosses midnight). */
  nightTo: string;
  /** Percent added in peak windows. */
  peakSurchargePct: number;
  /** Peak windows, `[["07:00","09:00"], …]` Kigali time, start inclusive. */
  peakWindows: readonly (readonly [string, string])[];
  /** Average speed off-peak, km/h. */
  speedKmh: number;
  /** Average speed in peak windows, km/h. */
  peakSpeedKmh: number;
  /** Average speed at night, km/h. */
  nightSpeedKmh: number;
  /** The window around the estimate, percent. */
  windowPct: number;
  /** When it takes effect (ISO). */
  effectiveFrom: string;
  /** When it stops (ISO), null while current. */
  effectiveTo: string | null;
}

/** The time-of-day band a trip starts in. */
export type TimeBand = "night" | "peak" | "normal";

/** A price quote. */
export interface FareEstimate {
  /** Whole RWF. */
  estimate: number;
  /** Always "RWF". */
  currency: "RWF";
  /** Range the final price is expected in. */
  window: { min: number; max: number };
  /** Minutes of driving from distance and the band's speed. */
  etaMinutes: number;
  /** Road kilometres the fare used. */
  distanceKm: number;
  /** The band, and the percent it added. */
  band: TimeBand;
  /** Surcharge percent applied. */
  surchargePct: number;
  /** Whether the minimum fare decided the price. */
  minimumApplied: boolean;
  /** The tariff row behind every figure. */
  tariff: { id: string; version: number; vehicleType: VehicleType };
}

const EARTH_RADIUS_M = 6_371_008.8;
/** Kigali's roads wind over hills: road distance over straight-line distance. */
export const ROAD_FACTOR = 1.3;
const KIGALI_OFFSET_MIN = 120;

/**
 * Great-circle distance in metres.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { haversine } from "./fare.ts";
 *
 * // Kimironko market to Kigali Convention Centre, about 3.5 km as the crow flies.
 * const m = haversine({ lat: -1.9494, lng: 30.1256 }, { lat: -1.9536, lng: 30.0939 });
 * assert.ok(m > 3_400 && m < 3_700);
 * ```
 */
export function haversine(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Minutes since midnight on the Kigali clock. */
export function kigaliMinuteOfDay(at: Date): number {
  const minutes = Math.floor(at.getTime() / 60_000) + KIGALI_OFFSET_MIN;
  return ((minutes % 1440) + 1440) % 1440;
}

function minuteOf(hhmm: string): number {
  const match = /^([01][0-9]|2[0-4]):([0-5][0-9])(?::[0-5][0-9])?$/.exec(hhmm);
  if (!match) {
    throw new RangeError(
      `Cannot read the time as it must be HH:MM: current value is ${JSON.stringify(hhmm)}`,
    );
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

function inWindow(minute: number, from: string, to: string): boolean {
  const start = minuteOf(from), end = minuteOf(to);
  return start <= end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** The band a trip starting at `at` falls in: night first, then peak. */
export function timeBand(tariff: Tariff, at: Date): TimeBand {
  const minute = kigaliMinuteOfDay(at);
  if (inWindow(minute, tariff.nightFrom, tariff.nightTo)) return "night";
  if (tariff.peakWindows.some(([from, to]) => inWindow(minute, from, to))) return "peak";
  return "normal";
}

/**
 * The version of a vehicle type's tariff in effect at `at`, or null.
 *
 * @param tariffs Candidate rows (any vehicle types, any versions).
 */
export function tariffAt(
  tariffs: readonly Tariff[],
  vehicleType: VehicleType,
  at: Date,
): Tariff | null {
  const t = at.getTime();
  let best: Tariff | null = null;
  for (const tariff of tariffs) {
    if (tariff.vehicleType !== vehicleType) continue;
    const from = Date.parse(tariff.effectiveFrom);
    const to = tariff.effectiveTo === null ? Infinity : Date.parse(tariff.effectiveTo);
    if (from <= t && t < to && (!best || from > Date.parse(best.effectiveFrom))) best = tariff;
  }
  return best;
}

/** Options for {@link estimateFare}. */
export interface EstimateFareOptions {
  /** The tariff version to price with. */
  tariff: Tariff;
  /** Road distance in metres. */
  distanceM: number;
  /** When the trip starts. */
  at: Date;
}

function roundUpTo50(value: number): number {
  return Math.ceil(value / 50) * 50;
}

/**
 * Prices a trip of `distanceM` road metres starting at `at`.
 *
 * @throws {RangeError} When the distance is negative, not finite or over 500 km,
 *   or `at` is not a valid date.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateFare, type Tariff } from "./fare.ts";
 *
 * const moto: Tariff = {
 *   id: "t-moto-2", vehicleType: "moto", version: 2, baseFare: 400, perKm: 250, perMinute: 20,
 *   minimumFare: 600, nightSurchargePct: 30, nightFrom: "22:00", nightTo: "05:00",
 *   peakSurchargePct: 15, peakWindows: [["07:00", "09:00"], ["17:00", "19:30"]],
 *   speedKmh: 30, peakSpeedKmh: 18, nightSpeedKmh: 38, windowPct: 15,
 *   effectiveFrom: "2026-11-01T00:00:00Z", effectiveTo: null,
 * };
 * // 6 km at 12:00 Kigali time (10:00 UTC): 400 + 1500 + 12 min × 20 = 2140 → 2150.
 * const quote = estimateFare({ tariff: moto, distanceM: 6000, at: new Date("2026-11-23T10:00:00Z") });
 * assert.equal(quote.estimate, 2150);
 * assert.equal(quote.etaMinutes, 12);
 * assert.deepEqual(quote.tariff, { id: "t-moto-2", version: 2, vehicleType: "moto" });
 * ```
 */
export function estimateFare(options: EstimateFareOptions): FareEstimate {
  const { tariff, distanceM, at } = options;
  if (!Number.isFinite(distanceM) || distanceM < 0 || distanceM > 500_000) {
    throw new RangeError(
      `Cannot price the trip as distanceM must be 0 to 500000: current value is ${distanceM}`,
    );
  }
  if (Number.isNaN(at.getTime())) {
    throw new RangeError("Cannot price the trip as the start time is invalid");
  }
  const band = timeBand(tariff, at);
  const speed = band === "night"
    ? tariff.nightSpeedKmh
    : band === "peak"
    ? tariff.peakSpeedKmh
    : tariff.speedKmh;
  const surchargePct = band === "night"
    ? tariff.nightSurchargePct
    : band === "peak"
    ? tariff.peakSurchargePct
    : 0;
  const km = distanceM / 1000;
  const minutes = (km / speed) * 60;
  const metered = tariff.baseFare + tariff.perKm * km + tariff.perMinute * minutes;
  const minimumApplied = metered < tariff.minimumFare;
  const beforeSurcharge = Math.max(metered, tariff.minimumFare);
  const estimate = roundUpTo50(beforeSurcharge * (1 + surchargePct / 100));
  const spread = tariff.windowPct / 100;
  return {
    estimate,
    currency: "RWF",
    window: {
      min: Math.max(tariff.minimumFare, roundUpTo50(estimate * (1 - spread))),
      max: roundUpTo50(estimate * (1 + spread)),
    },
    etaMinutes: Math.max(1, Math.ceil(minutes)),
    distanceKm: Math.round(km * 10) / 10,
    band,
    surchargePct,
    minimumApplied,
    tariff: { id: tariff.id, version: tariff.version, vehicleType: tariff.vehicleType },
  };
}

/** Options for {@link estimateTrip}. */
export interface EstimateTripOptions {
  /** The tariff version to price with. */
  tariff: Tariff;
  /** Pickup. */
  origin: LatLng;
  /** Destination. */
  dest: LatLng;
  /** When the trip starts. */
  at: Date;
}

/** Prices a trip between two points: the straight line × {@link ROAD_FACTOR}. */
export function estimateTrip(options: EstimateTripOptions): FareEstimate {
  const distanceM = haversine(options.origin, options.dest) * ROAD_FACTOR;
  return estimateFare({ tariff: options.tariff, distanceM, at: options.at });
}
