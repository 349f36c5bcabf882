/**
 * Reads a table request in English, Kinyarwanda or French ("book a table for
 * 4 tomorrow at 7pm", "mbikire ameza y'abantu 4 ejo saa moya z'ijoro",
 * "une table pour 2 samedi à 19h30") into a time on the Kigali clock and a
 * party size. Kigali is UTC+2 all year. Kinyarwanda counts hours from 06:00
 * (saa moya = 7 o'clock, saa sita = noon); "z'ijoro" / "z'umugoroba" put
 * them in the evening.
 *
 * @module
 */
import { weekdayNamed } from "@shared/contract/opening_hours.ts";

/** What a message asked for; each part absent when not said. */
export interface BookingRequest {
  /** The time, when a day or an hour was said (a day alone is not enough). */
  when?: Date;
  /** Diners. */
  size?: number;
}

const OFFSET_MS = 2 * 3600_000;
const DAY_MS = 86_400_000;

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  sept: 7,
  huit: 8,
  neuf: 9,
  dix: 10,
  umwe: 1,
  babiri: 2,
  batatu: 3,
  bane: 4,
  batanu: 5,
  batandatu: 6,
  barindwi: 7,
  umunani: 8,
  icyenda: 9,
  icumi: 10,
};

// Kinyarwanda hours, counted from 06:00.
const RW_HOURS: Array<[string, number]> = [
  ["kumi n'imwe", 11],
  ["kumi n'ebyiri", 12],
  ["kumi", 10],
  ["moya", 1],
  ["mbiri", 2],
  ["ebyiri", 2],
  ["tatu", 3],
  ["ine", 4],
  ["tanu", 5],
  ["sita", 6],
  ["saba", 7],
  ["munani", 8],
  ["cyenda", 9],
];

// "z'umugoroba" is also typed without its apostrophe ("z umugoroba", "nimugoroba").
const EVENING =
  /\b(tonight|evening|pm|soir|ce soir|nijoro|n'ijoro|z'ijoro|ijoro|mugoroba|umugoroba|nimugoroba|z'umugoroba)\b/;

function sizeOf(text: string): number | undefined {
  const numberish = "(\\d{1,3}|[a-z]+)";
  const patterns = [
    new RegExp(`\\b(?:for|pour|of)\\s+${numberish}\\b(?!\\s*(?:h|pm|am|:))`),
    new RegExp(`\\b${numberish}\\s+(?:people|persons|guests|pax|personnes|couverts)\\b`),
    new RegExp(`\\b(?:abantu|y'abantu|ab'antu)\\s+${numberish}\\b`),
    new RegExp(`\\btable\\s+(?:of|de)\\s+${numberish}\\b`),
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const value = /^\d+$/.test(match[1]) ? Number(match[1]) : NUMBER_WORDS[match[1]];
    if (value && value > 0 && value <= 200) return value;
  }
  return undefined;
}

function timeOf(text: string): { hour: number; minute: number } | undefined {
  const evening = EVENING.test(text);
  // Kinyarwanda: "saa moya", "saa 1", "saa 1:30", "saa moya n'igice".
  const rw = /\bsaa\s+([a-z' ]+?|\d{1,2})(?:[:h.](\d{2}))?(?=\s|$|[,.!?])/.exec(text);
  if (rw) {
    const spoken = rw[1].trim();
    // The hour's words as said after "saa" ("kumi n'ebyiri" is two words); Kinyarwanda has no
    // "l": typed for "r" ("saa mbili", "kumi n'ebyili") it is the same hour.
    const said = text.slice(rw.index).replace(/^saa\s+/, "").replace(/l/g, "r");
    let hour = /^\d+$/.test(spoken)
      ? Number(spoken)
      : RW_HOURS.find(([word]) => said.startsWith(word))?.[1];
    if (hour !== undefined && hour >= 0 && hour <= 23) {
      const minute = rw[2] ? Number(rw[2]) : /n'igice/.test(text) ? 30 : 0;
      // "saa 19:00" is already the 24-hour clock.
      if (hour <= 12) hour = evening ? (hour + 18) % 24 : (hour + 6) % 24;
      if (minute < 60) return { hour, minute };
    }
  }
  if (/\b(noon|midday|midi)\b/.test(text)) return { hour: 12, minute: 0 };
  const clock = /\b(\d{1,2})(?:\s*[:h.]\s*(\d{2}))?\s*(am|pm|h)?\b/g;
  for (const match of text.matchAll(clock)) {
    const [, h, m, suffix] = match;
    const at = match.index ?? 0;
    // A party size or a date is no time ("for 4", "25/11").
    const before = text.slice(Math.max(0, at - 8), at);
    if (!m && !suffix && !/\b(at|a|à|vers|around)\s*$/.test(before)) continue;
    if (/[/-]\s*$/.test(before) || /^[/-]/.test(text.slice(at + match[0].length))) continue;
    let hour = Number(h);
    const minute = m ? Number(m) : 0;
    if (hour > 23 || minute > 59) continue;
    if (suffix === "pm" && hour < 12) hour += 12;
    else if (suffix === "am" && hour === 12) hour = 0;
    else if ((!suffix || suffix === "h") && !h.startsWith("0")) {
      // "at 7" for a meal is the evening; "19h" and "07:00" are already 24-hour.
      if (hour >= 1 && hour <= 11 && suffix !== "h" && (evening || hour <= 6)) hour += 12;
      else if (hour >= 1 && hour <= 11 && suffix === "h" && evening) hour += 12;
    }
    return { hour, minute };
  }
  return undefined;
}

function dayOffsetOf(text: string, todayWeekday: number): number | "date" | undefined {
  if (/\b(after tomorrow|apres-demain|apres demain|ejobundi)\b/.test(text)) return 2;
  if (/\b(tomorrow|demain|ejo)\b/.test(text)) return 1;
  if (
    /\b(today|tonight|this evening|aujourd'hui|ce soir|uyu munsi|uyu mugoroba|iri joro)\b/.test(
      text,
    )
  ) {
    return 0;
  }
  const weekday = weekdayNamed(text);
  return weekday === null ? undefined : (weekday - todayWeekday + 7) % 7;
}

/**
 * Reads a booking request relative to `now`. A time without a day is today
 * (tomorrow once that time has passed); a day without a time gives no `when`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBookingRequest } from "./booking_request.ts";
 *
 * const now = new Date("2026-11-23T08:00:00Z"); // Monday 10:00 in Kigali
 * const asked = parseBookingRequest("book a table for 4 tomorrow at 7pm", now);
 * assert.deepEqual(asked, { when: new Date("2026-11-24T17:00:00Z"), size: 4 });
 * ```
 */
export function parseBookingRequest(message: string, now: Date): BookingRequest {
  const text = message.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[’`]/g, "'").replace(/\s+/g, " ");
  const local = new Date(now.getTime() + OFFSET_MS);
  const todayWeekday = ((local.getUTCDay() + 6) % 7) + 1;
  const size = sizeOf(text);
  const time = timeOf(text);
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  const dm = /\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?\b/.exec(text);
  let dayStart: number | undefined;
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  if (iso) dayStart = Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  else if (dm && time) {
    const year = dm[3] ? Number(dm[3].length === 2 ? `20${dm[3]}` : dm[3]) : local.getUTCFullYear();
    dayStart = Date.UTC(year, Number(dm[2]) - 1, Number(dm[1]));
    if (!dm[3] && dayStart < midnight) {
      dayStart = Date.UTC(year + 1, Number(dm[2]) - 1, Number(dm[1]));
    }
  } else {
    const offset = dayOffsetOf(text, todayWeekday);
    if (typeof offset === "number") dayStart = midnight + offset * DAY_MS;
  }
  const result: BookingRequest = {};
  if (time) {
    let at = (dayStart ?? midnight) + (time.hour * 60 + time.minute) * 60_000 - OFFSET_MS;
    if (dayStart === undefined && at <= now.getTime()) at += DAY_MS;
    result.when = new Date(at);
  }
  if (size !== undefined) result.size = size;
  return result;
}
