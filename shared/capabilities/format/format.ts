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

/** The currency amounts are written in when the tenant has none set (`orgs.currency`). */
export const DEFAULT_CURRENCY = "RWF";

/** Options for {@linkcode formatMoney} and {@linkcode formatMoneyRange}. */
export interface MoneyOptions {
  /**
   * The ISO 4217 code written after the amount: the tenant's currency
   * (`OfflineTurn.currency`, `orgs.currency`), or the amount's own.
   * @default {DEFAULT_CURRENCY} (also when undefined: a tenant without one set)
   */
  currency?: string;
}

function currencyOf(options: MoneyOptions): string {
  const currency = options.currency ?? DEFAULT_CURRENCY;
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new TypeError(
      `Cannot format an amount as its currency must be an ISO 4217 code like "RWF": current value is ${currency}`,
    );
  }
  return currency;
}

/**
 * An amount as people write it, the currency's code after the whole number
 * grouped the language's way: `26,000 RWF` (en, rw), `26 000 RWF` (fr).
 *
 * @throws {TypeError} when the currency is not an ISO 4217 code.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMoney } from "@shared/capabilities/format/mod.ts";
 * assert.equal(formatMoney(26000, "fr", { currency: "KES" }), "26 000 KES");
 * assert.equal(formatMoney(3950, "rw"), "3,950 RWF");
 * ```
 */
export function formatMoney(
  amount: number,
  language: Language,
  options: MoneyOptions = {},
): string {
  return `${formatNumber(amount, language)} ${currencyOf(options)}`;
}

/** The ends of a range of amounts, both included (a fare's window). */
export interface AmountRange {
  /** The least. */
  min: number;
  /** The most: never below `min`. */
  max: number;
}

/**
 * The numbers of a range, grouped the language's way and joined by an en
 * dash: `1,500–2,000` (en, rw), `1 500–2 000` (fr). For a template whose
 * approved body writes the currency itself; elsewhere {@linkcode formatMoneyRange}.
 *
 * @throws {RangeError} when `min` is above `max`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatNumberRange } from "@shared/capabilities/format/mod.ts";
 * assert.equal(formatNumberRange({ min: 1500, max: 2000 }, "fr"), "1 500–2 000");
 * ```
 */
export function formatNumberRange(range: AmountRange, language: Language): string {
  if (range.min > range.max) {
    throw new RangeError(
      `Cannot format a range as its min is above its max: current value is ${range.min}–${range.max}`,
    );
  }
  return `${formatNumber(range.min, language)}–${formatNumber(range.max, language)}`;
}

/**
 * A range of amounts as people write it, one way per language, the currency
 * once at the end: `1,500–2,000 RWF` (en, rw), `1 500–2 000 RWF` (fr).
 *
 * @throws {RangeError} when `min` is above `max`.
 * @throws {TypeError} when the currency is not an ISO 4217 code.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMoneyRange } from "@shared/capabilities/format/mod.ts";
 * assert.equal(formatMoneyRange({ min: 1500, max: 2000 }, "en"), "1,500–2,000 RWF");
 * assert.equal(
 *   formatMoneyRange({ min: 1500, max: 2000 }, "fr", { currency: "KES" }),
 *   "1 500–2 000 KES",
 * );
 * ```
 */
export function formatMoneyRange(
  range: AmountRange,
  language: Language,
  options: MoneyOptions = {},
): string {
  return `${formatNumberRange(range, language)} ${currencyOf(options)}`;
}

/**
 * An amount in the default currency (Rwandan francs): `26,000 RWF` (en, rw),
 * `26 000 RWF` (fr). A flow that knows its tenant's currency writes
 * {@linkcode formatMoney} with it instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRwf } from "@shared/capabilities/format/mod.ts";
 * assert.equal(formatRwf(3950, "rw"), "3,950 RWF");
 * ```
 */
export function formatRwf(amount: number, language: Language): string {
  return formatMoney(amount, language);
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

/** French month abbreviations as the Académie writes them, January first (`janv.`, `févr.`). */
export const FRENCH_SHORT_MONTHS: readonly string[] = [
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
];

const MONTHS: Record<Language, readonly string[]> = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  fr: FRENCH_SHORT_MONTHS,
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
