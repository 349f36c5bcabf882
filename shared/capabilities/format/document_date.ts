/**
 * Dates as each language writes them in full on a document (a receipt, a
 * certificate): "23 November 2026", "23 novembre 2026", "23 Ugushyingo 2026".
 * Dates are Kigali's calendar day (UTC+2, no DST). Amounts on documents use
 * the one money format of every reply (`formatRwf`), so a receipt reads like
 * the chat.
 *
 * @module
 */
import { KINYARWANDA_MONTHS } from "./format.ts";
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
 * import { formatLongDate } from "@shared/capabilities/format/mod.ts";
 *
 * assert.equal(formatLongDate("2026-11-23", "fr"), "23 novembre 2026");
 * assert.equal(formatLongDate("2026-11-22T23:30:00Z", "rw"), "23 Ugushyingo 2026");
 * ```
 */
export function formatLongDate(value: string, language: Language): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T00:00:00Z`)
    : new Date(new Date(value).getTime() + KIGALI_OFFSET_MS);
  return `${day.getUTCDate()} ${MONTHS[language][day.getUTCMonth()]} ${day.getUTCFullYear()}`;
}

/** The instant a date or date-time names (a date is midnight in Kigali). */
export function instantOf(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(new Date(`${value}T00:00:00Z`).getTime() - KIGALI_OFFSET_MS)
    : new Date(value);
}
