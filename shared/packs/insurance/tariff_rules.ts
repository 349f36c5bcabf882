/**
 * An insurer's underwriting rules (columns of `public.insurance_tariffs`):
 * which vehicles, drivers, periods and declared values a tariff covers. A
 * request outside them is refused with the field it concerns and a reason a
 * customer can read, naming the insurer.
 *
 * @module
 */
import type { FieldIssue } from "@shared/contract/mod.ts";

/** The rules of one tariff version; null means no limit. */
export interface TariffRules {
  /** The insurer's name, for the reason. */
  insurer: string;
  /** Oldest vehicle year covered. */
  minVehicleYear: number | null;
  /** Oldest vehicle age covered, in years at the quote's date. */
  maxVehicleAgeYears: number | null;
  /** Youngest driver. */
  minDriverAge: number | null;
  /** Oldest driver. */
  maxDriverAge: number | null;
  /** Shortest period, days. */
  minDays: number;
  /** Longest period, days. */
  maxDays: number;
  /** Smallest declared value, RWF. */
  minDeclaredValue: number | null;
  /** Largest declared value, RWF. */
  maxDeclaredValue: number | null;
}

/** What the rules are checked against. */
export interface RiskInputs {
  /** Days of cover. */
  days: number;
  /** The vehicle's year of manufacture (motor). */
  vehicleYear?: number;
  /** The main driver's age (motor). */
  driverAge?: number;
  /** The declared value, RWF (comprehensive). */
  declaredValue?: number;
  /** The instant the quote is for: vehicle ages count from its year. */
  asOf: Date;
}

/**
 * The first rule `inputs` break, as a field issue, or null when the tariff
 * covers them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleBroken } from "./tariff_rules.ts";
 *
 * const rules = {
 *   insurer: "Radiant Insurance", minVehicleYear: 1995, maxVehicleAgeYears: 30,
 *   minDriverAge: 18, maxDriverAge: null, minDays: 30, maxDays: 366,
 *   minDeclaredValue: null, maxDeclaredValue: null,
 * };
 * const asOf = new Date("2026-11-23T00:00:00Z");
 * assert.equal(ruleBroken(rules, { days: 365, vehicleYear: 1950, asOf })?.path, "vehicle.year");
 * assert.equal(ruleBroken(rules, { days: 365, vehicleYear: 2015, driverAge: 30, asOf }), null);
 * ```
 */
export function ruleBroken(rules: TariffRules, inputs: RiskInputs): FieldIssue | null {
  const who = rules.insurer;
  if (inputs.days < rules.minDays || inputs.days > rules.maxDays) {
    return {
      path: "coverage_period_days",
      message:
        `${who} covers from ${rules.minDays} to ${rules.maxDays} days (asked: ${inputs.days})`,
    };
  }
  if (inputs.vehicleYear !== undefined) {
    const year = inputs.vehicleYear;
    const age = inputs.asOf.getUTCFullYear() - year;
    if (year > inputs.asOf.getUTCFullYear() + 1) {
      return { path: "vehicle.year", message: `a vehicle cannot be built in ${year} yet` };
    }
    if (rules.minVehicleYear !== null && year < rules.minVehicleYear) {
      return {
        path: "vehicle.year",
        message:
          `${who} insures vehicles built in ${rules.minVehicleYear} or later (this one: ${year})`,
      };
    }
    if (rules.maxVehicleAgeYears !== null && age > rules.maxVehicleAgeYears) {
      return {
        path: "vehicle.year",
        message:
          `${who} insures vehicles up to ${rules.maxVehicleAgeYears} years old (this one: ${age})`,
      };
    }
  }
  if (inputs.driverAge !== undefined) {
    if (rules.minDriverAge !== null && inputs.driverAge < rules.minDriverAge) {
      return {
        path: "driver.age",
        message:
          `the driver must be at least ${rules.minDriverAge} years old (given: ${inputs.driverAge})`,
      };
    }
    if (rules.maxDriverAge !== null && inputs.driverAge > rules.maxDriverAge) {
      return {
        path: "driver.age",
        message:
          `${who} covers drivers up to ${rules.maxDriverAge} years old (given: ${inputs.driverAge})`,
      };
    }
  }
  if (inputs.declaredValue !== undefined) {
    if (rules.minDeclaredValue !== null && inputs.declaredValue < rules.minDeclaredValue) {
      return {
        path: "declared_value",
        message: `${who} needs a declared value of at least ${rules.minDeclaredValue} RWF`,
      };
    }
    if (rules.maxDeclaredValue !== null && inputs.declaredValue > rules.maxDeclaredValue) {
      return {
        path: "declared_value",
        message: `${who} covers a declared value up to ${rules.maxDeclaredValue} RWF`,
      };
    }
  }
  return null;
}
