/**
 * How numbers, amounts and dates are written to people, one way per
 * language, so a reply never mixes "26 000" and "26,000": English and
 * Kinyarwanda group thousands with commas ("26,000 RWF"), French with a
 * space ("26 000 RWF"). Kinyarwanda days and months come from our own table
 * (ICU has none, and would print English).
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

const GROUP_SEPARATOR: Record<Language, string> = { en: ",", rw: ",", fr: " " };

/**
 * A whole number with its thousands grouped the language's way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatNumber } from "@shared/capabilities/format/mod.ts";
 * assert.equal(formatNumber(26000, "en"), "26,000");
 * assert.equal(formatNumber(26000, "fr"), "26 000");
 * ```
 */
export function formatNumber(value: number, language: Language): string {
  const rounded = Math.round(value);
  const digits = String(Math.abs(rounded)).replace(
    /\B(?=(\d{3})+(?!\d))/g,
    GROUP_SEPARATOR[language],
  );
  return rounded < 0 ? `-${digits}` : digits;
}

/**
 * An amount in Rwandan francs, as people write it: `26,000 RWF` (en, rw),
 * `26 000 RWF` (fr).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRwf } from "@shared/capabilities/format/mod.ts";
 * assert.equal(formatRwf(3950, "rw"), "3,950 RWF");
 * ```
 */
export function formatRwf(amount: number, language: Language): string {
  return `${formatNumber(amount, language)} RWF`;
}

const KIGALI_OFFSET_MS = 2 * 3600_000; // UTC+2 all year, no summer time.

const WEEKDAYS: Record<Language, readonly string[]> = {
  en: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
  fr: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
  rw: [
    "Ku cyumweru",
    "Ku wa mbere",
    "Ku wa kabiri",
    "Ku wa gatatu",
    "Ku wa kane",
    "Ku wa gatanu",
    "Ku wa gatandatu",
  ],
};

/**
 * Kinyarwanda's month names, January first. ICU has none for rw, so replies and documents both
 * read them from here.
 */
export const KINYARWANDA_MONTHS: readonly string[] = [
  "Mutarama",
  "Gashyantare",
  "Werurwe",
  "Mata",
  "Gicurasi",
  "Kamena",
  "Nyakanga",
  "Kanama",
  "Nzeri",
  "Ukwakira",
  "Ugushyingo",
  "Ukuboza",
];

const MONTHS: Record<Language, readonly string[]> = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  fr: [
    "janv.",
    "févr.",
    "mars",
    "avr.",
    "mai",
    "juin",
    "juil.",
    "août",
    "sept.",
    "oct.",
    "nov.",
    "déc.",
  ],
  rw: KINYARWANDA_MONTHS,
};

/** Options for {@linkcode formatKigaliDate}. */
export interface KigaliDateOptions {
  /** Whether to add the time of day (`19:00`). @default false */
  time?: boolean;
  /**
   * Fit a button's 20 characters: Kinyarwanda's day and month names are long,
   * so its day is written `25/11` ("25/11, 19:00"); en and fr are short already.
   * @default false
   */
  compact?: boolean;
}

/**
 * A moment as a day on the Kigali calendar, in the language: "Wed 25 Nov",
 * "mer. 25 nov.", "Ku wa gatatu 25 Ugushyingo"; with `time`, followed by
 * ", 19:00".
 *
 * @throws {RangeError} when `at` is not a valid date.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
 * assert.equal(
 *   formatKigaliDate("2026-11-25T17:00:00Z", "rw", { time: true }),
 *   "Ku wa gatatu 25 Ugushyingo, 19:00",
 * );
 * ```
 */
export function formatKigaliDate(
  at: string | Date,
  language: Language,
  options: KigaliDateOptions = {},
): string {
  const ms = typeof at === "string" ? Date.parse(at) : at.getTime();
  if (!Number.isFinite(ms)) {
    throw new RangeError(`Cannot format a date as it is not one: current value is ${String(at)}`);
  }
  const local = new Date(ms + KIGALI_OFFSET_MS);
  const day = options.compact && language === "rw"
    ? `${String(local.getUTCDate()).padStart(2, "0")}/${
      String(local.getUTCMonth() + 1).padStart(2, "0")
    }`
    : `${WEEKDAYS[language][local.getUTCDay()]} ${local.getUTCDate()} ${
      MONTHS[language][local.getUTCMonth()]
    }`;
  if (!options.time) return day;
  return `${day}, ${formatKigaliTime(new Date(ms))}`;
}

/**
 * The time of day on the Kigali clock, `19:00`: 24-hour digits read the same
 * in en, rw and fr, so the time alone (a code's expiry, a driver's shift)
 * needs no language.
 *
 * @throws {RangeError} when `at` is not a valid date.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatKigaliTime } from "@shared/capabilities/format/mod.ts";
 * assert.equal(formatKigaliTime("2026-11-25T17:05:00Z"), "19:05");
 * ```
 */
export function formatKigaliTime(at: string | Date): string {
  const ms = typeof at === "string" ? Date.parse(at) : at.getTime();
  if (!Number.isFinite(ms)) {
    throw new RangeError(`Cannot format a time as it is not one: current value is ${String(at)}`);
  }
  const local = new Date(ms + KIGALI_OFFSET_MS);
  return `${String(local.getUTCHours()).padStart(2, "0")}:${
    String(local.getUTCMinutes()).padStart(2, "0")
  }`;
}
