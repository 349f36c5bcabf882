/**
 * Dates and amounts as each language writes them on a document: "23 November
 * 2026", "23 novembre 2026", "23 Ugushyingo 2026"; "97,080 RWF" (en, rw) and
 * "97 080 RWF" (fr). Dates are Kigali's calendar day (UTC+2, no DST).
 *
 * @module
 */
import { formatRwf as formatChatRwf, KINYARWANDA_MONTHS } from "@shared/contract/format.ts";
import type { Language } from "@shared/contract/language.ts";

const MONTHS: Record<Language, readonly string[]> = {
  en: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
  fr: [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
  ],
  rw: KINYARWANDA_MONTHS,
};

const KIGALI_OFFSET_MS = 2 * 3600_000;

/**
 * A calendar date (`2026-11-23`) or an instant (shown as its Kigali day).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDate } from "./format.ts";
 *
 * assert.equal(formatDate("2026-11-23", "fr"), "23 novembre 2026");
 * assert.equal(formatDate("2026-11-22T23:30:00Z", "rw"), "23 Ugushyingo 2026");
 * ```
 */
export function formatDate(value: string, language: Language): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T00:00:00Z`)
    : new Date(new Date(value).getTime() + KIGALI_OFFSET_MS);
  return `${day.getUTCDate()} ${MONTHS[language][day.getUTCMonth()]} ${day.getUTCFullYear()}`;
}

/**
 * Whole RWF with thousands grouped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRwf } from "./format.ts";
 *
 * assert.equal(formatRwf(97080, "en"), "97,080 RWF");
 * assert.equal(formatRwf(97080, "fr"), "97 080 RWF");
 * ```
 */
export function formatRwf(amount: number, language: Language): string {
  // The one amount format of every reply, so a receipt reads like the chat.
  return formatChatRwf(amount, language);
}

/** The instant a date or date-time names (a date is midnight in Kigali). */
export function instantOf(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(new Date(`${value}T00:00:00Z`).getTime() - KIGALI_OFFSET_MS)
    : new Date(value);
}
