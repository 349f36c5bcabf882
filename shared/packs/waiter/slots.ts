/**
 * Table reservations: whether a requested time is bookable at a venue (in
 * the future, a whole slot inside opening hours on the Kigali clock, seats
 * left) and otherwise the nearest free slots; and the short confirmation
 * codes diners quote. The database enforces the same rules when the booking
 * is written (trigger `reservations_book`), under concurrency; this module
 * answers before writing, and suggests.
 *
 * Kigali is UTC+2 all year (no daylight saving), so local time is computed
 * with a fixed offset. Slots start on multiples of their length on the
 * Kigali clock (12:00, 12:30 … for 30-minute slots).
 *
 * @module
 */
import { kigaliClock } from "@shared/contract/opening_hours.ts";

/** One opening period. */
export interface OpeningPeriod {
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** `HH:MM` Kigali time. */
  opens: string;
  /** `HH:MM` Kigali time, after opens; `24:00` is midnight. */
  closes: string;
}

/** Seats per slot and slot length. */
export interface VenueCapacity {
  /** Seats each slot can take. */
  seatsPerSlot: number;
  /** Slot length in minutes (divides 1440). */
  slotMinutes: number;
  /** Largest party one booking may be. */
  maxParty: number;
}

/** Seats already taken in one slot. */
export interface SlotUsage {
  /** The slot's start, ISO. */
  slotStart: string;
  /** Seats booked. */
  seatsTaken: number;
}

/** Why a requested time cannot be booked as asked. */
export type SlotRefusal = "past" | "misaligned" | "closed" | "full" | "party_too_large";

/** The answer for a requested time. */
export type SlotCheck =
  | { kind: "ok"; slotStart: string; slotEnd: string }
  | { kind: "unavailable"; reason: SlotRefusal; suggestions: string[] };

/** Options for {@link checkSlot}. */
export interface CheckSlotOptions {
  /** The venue's opening periods. */
  hours: readonly OpeningPeriod[];
  /** The venue's capacity. */
  capacity: VenueCapacity;
  /** Seats already taken per slot (slots not listed are empty). */
  usage: readonly SlotUsage[];
  /** The time asked for. */
  requested: Date;
  /** Diners. */
  partySize: number;
  /** The current time. */
  now: Date;
  /** How many alternatives to suggest. @default 3 */
  suggestions?: number;
  /** How far from the requested time to look for alternatives, in days. @default 7 */
  searchDays?: number;
}

const OFFSET_MS = 2 * 3600_000;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

function minuteOf(hhmm: string): number {
  const match = /^([01][0-9]|2[0-4]):([0-5][0-9])$/.exec(hhmm);
  if (!match || (match[1] === "24" && match[2] !== "00")) {
    throw new RangeError(
      `Cannot read opening hours as times must be HH:MM: current value is ${JSON.stringify(hhmm)}`,
    );
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

function isOpen(hours: readonly OpeningPeriod[], start: Date, slotMinutes: number): boolean {
  const { weekday, minute } = kigaliClock(start);
  const end = minute + slotMinutes;
  return hours.some((period) =>
    period.weekday === weekday && minuteOf(period.opens) <= minute && end <= minuteOf(period.closes)
  );
}

function isAligned(at: Date, slotMinutes: number): boolean {
  return (at.getTime() + OFFSET_MS) % (slotMinutes * MINUTE) === 0;
}

/**
 * Checks a requested time and, when it cannot be booked, suggests the
 * nearest free slots (closest to the request first, earlier first on ties).
 *
 * @throws {RangeError} When the capacity or party size is not a positive integer
 *   or opening hours are malformed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSlot } from "./slots.ts";
 *
 * const hours = [{ weekday: 1, opens: "11:00", closes: "22:00" }];
 * const capacity = { seatsPerSlot: 10, slotMinutes: 30, maxParty: 8 };
 * const now = new Date("2026-11-23T06:00:00Z"); // Monday 08:00 in Kigali
 * const ok = checkSlot({ hours, capacity, usage: [], requested: new Date("2026-11-23T17:00:00Z"), partySize: 4, now });
 * assert.deepEqual(ok, { kind: "ok", slotStart: "2026-11-23T17:00:00.000Z", slotEnd: "2026-11-23T17:30:00.000Z" });
 * const full = checkSlot({
 *   hours, capacity, partySize: 4, now, requested: new Date("2026-11-23T17:00:00Z"),
 *   usage: [{ slotStart: "2026-11-23T17:00:00.000Z", seatsTaken: 8 }],
 * });
 * assert.deepEqual(full.kind === "unavailable" && full.suggestions.slice(0, 2), [
 *   "2026-11-23T16:30:00.000Z", "2026-11-23T17:30:00.000Z",
 * ]);
 * ```
 */
export function checkSlot(options: CheckSlotOptions): SlotCheck {
  const { hours, capacity, requested, partySize, now } = options;
  for (const [name, value] of Object.entries({ ...capacity, partySize })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `Cannot check the slot as ${name} must be a positive integer: current value is ${value}`,
      );
    }
  }
  if (1440 % capacity.slotMinutes !== 0) {
    throw new RangeError(
      `Cannot check the slot as slotMinutes must divide a day: current value is ${capacity.slotMinutes}`,
    );
  }
  const slotMs = capacity.slotMinutes * MINUTE;
  const taken = new Map(options.usage.map((u) => [Date.parse(u.slotStart), u.seatsTaken]));
  const fits = (start: Date) =>
    start.getTime() > now.getTime() && isOpen(hours, start, capacity.slotMinutes) &&
    (taken.get(start.getTime()) ?? 0) + partySize <= capacity.seatsPerSlot;

  let reason: SlotRefusal | null = null;
  if (partySize > capacity.maxParty || partySize > capacity.seatsPerSlot) {
    reason = "party_too_large";
  } else if (requested.getTime() <= now.getTime()) reason = "past";
  else if (!isAligned(requested, capacity.slotMinutes)) reason = "misaligned";
  else if (!isOpen(hours, requested, capacity.slotMinutes)) reason = "closed";
  else if (!fits(requested)) reason = "full";
  if (reason === null) {
    return {
      kind: "ok",
      slotStart: requested.toISOString(),
      slotEnd: new Date(requested.getTime() + slotMs).toISOString(),
    };
  }
  if (reason === "party_too_large") return { kind: "unavailable", reason, suggestions: [] };

  // Walk outwards from the aligned slot nearest the request, both ways at once.
  const want = options.suggestions ?? 3;
  const horizon = (options.searchDays ?? 7) * DAY;
  const local = requested.getTime() + OFFSET_MS;
  const nearest = Math.round(local / slotMs) * slotMs - OFFSET_MS;
  const found: string[] = [];
  for (let step = 0; found.length < want && step * slotMs <= horizon; step++) {
    const candidates = step === 0 ? [nearest] : [nearest - step * slotMs, nearest + step * slotMs];
    for (const t of candidates) {
      if (found.length < want && fits(new Date(t))) found.push(new Date(t).toISOString());
    }
  }
  return { kind: "unavailable", reason, suggestions: found };
}

/** The confirmation-code alphabet: no 0/O, 1/I/L, so codes survive being read aloud. */
export const CONFIRMATION_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * A random 6-character confirmation code from {@link CONFIRMATION_ALPHABET}
 * (31⁶ ≈ 887 million codes), without modulo bias.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confirmationCode } from "./slots.ts";
 *
 * assert.match(confirmationCode(), /^[2-9A-HJKMNP-Z]{6}$/);
 * ```
 */
export function confirmationCode(): string {
  const n = CONFIRMATION_ALPHABET.length;
  const limit = 256 - (256 % n);
  let code = "";
  while (code.length < 6) {
    for (const byte of crypto.getRandomValues(new Uint8Array(8))) {
      if (byte < limit && code.length < 6) code += CONFIRMATION_ALPHABET[byte % n];
    }
  }
  return code;
}
