/**
 * The mobility pack's settings, read from the environment once:
 * `DRIVER_AVAILABLE_MINUTES` (how long a driver's "available" lasts, default
 * 60), `RIDE_OFFER_MINUTES` (how long drivers have to accept an offer,
 * default 2) and `RIDE_OFFER_DRIVERS` (how many of the nearest drivers are
 * asked, default 3). A value that is not a whole number in range stops the
 * start with the variable's name, never silently falls back.
 *
 * @module
 */

/** The pack's settings. */
export interface MobilitySettings {
  /** Minutes a driver stays available after checking in, 1–720. */
  driverAvailableMinutes: number;
  /** Minutes drivers have to accept a ride offer, 1–30. */
  rideOfferMinutes: number;
  /** How many of the nearest available drivers a ride is offered to, 1–10. */
  rideOfferDrivers: number;
}

const RANGES = {
  DRIVER_AVAILABLE_MINUTES: { min: 1, max: 720, fallback: 60 },
  RIDE_OFFER_MINUTES: { min: 1, max: 30, fallback: 2 },
  RIDE_OFFER_DRIVERS: { min: 1, max: 10, fallback: 3 },
} as const;

/**
 * Reads the settings from `get` (the environment by default).
 *
 * @throws {RangeError} when a variable is set but not a whole number in its range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readMobilitySettings } from "./settings.ts";
 *
 * const settings = readMobilitySettings((name) => name === "RIDE_OFFER_DRIVERS" ? "5" : undefined);
 * assert.deepEqual(settings, { driverAvailableMinutes: 60, rideOfferMinutes: 2, rideOfferDrivers: 5 });
 * ```
 */
export function readMobilitySettings(
  get: (name: string) => string | undefined = (name) => Deno.env.get(name),
): MobilitySettings {
  const read = (name: keyof typeof RANGES) => {
    const { min, max, fallback } = RANGES[name];
    const raw = get(name)?.trim();
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!/^[0-9]+$/.test(raw) || value < min || value > max) {
      throw new RangeError(
        `Cannot read ${name} as it must be a whole number from ${min} to ${max}: current value is ${
          JSON.stringify(raw)
        }`,
      );
    }
    return value;
  };
  return {
    driverAvailableMinutes: read("DRIVER_AVAILABLE_MINUTES"),
    rideOfferMinutes: read("RIDE_OFFER_MINUTES"),
    rideOfferDrivers: read("RIDE_OFFER_DRIVERS"),
  };
}

let cached: MobilitySettings | undefined;

/** The settings of this process (read on first use). */
export function mobilitySettings(): MobilitySettings {
  cached ??= readMobilitySettings();
  return cached;
}
