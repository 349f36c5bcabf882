/**
 * Quiet hours: the part of each day, in the org's time zone, when no
 * campaign goes out (default 21:00–08:00 Africa/Kigali). A send due inside
 * them moves to the next allowed time, the end of the quiet hours.
 *
 * @module
 */

/** An org's quiet hours: local `HH:MM` bounds in an IANA time zone. */
export interface QuietHours {
  /** When they start, `HH:MM` (inclusive). */
  start: string;
  /** When they end, `HH:MM` (the first allowed minute). Before `start`: they span midnight. */
  end: string;
  /** The IANA time zone the bounds are read in, e.g. `Africa/Kigali`. */
  timeZone: string;
}

/** Quiet hours of an org without its own: 21:00–08:00 in Kigali. */
export const DEFAULT_QUIET_HOURS: QuietHours = {
  start: "21:00",
  end: "08:00",
  timeZone: "Africa/Kigali",
};

const HHMM = /^([01][0-9]|2[0-3]):([0-5][0-9])(:00)?$/;
const DAY_MS = 86_400_000;

function minutesOf(value: string, name: string): number {
  const match = HHMM.exec(value);
  if (!match) {
    throw new RangeError(
      `Cannot read quiet hours as ${name} is not HH:MM: current value is ${value}`,
    );
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

// How far the zone's wall clock is ahead of UTC at `at`, in ms.
function offsetMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The first time at or after `at` outside the quiet hours: `at` itself when
 * it is allowed, else the end of the quiet hours it falls in.
 *
 * @param at When the send was asked for.
 * @param hours The org's quiet hours.
 * @returns When the send may go.
 * @throws {RangeError} When a bound is not `HH:MM` or the time zone is unknown.
 *
 * @example A campaign at 22:00 in Kigali goes out at 08:00 the next day
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_QUIET_HOURS, nextAllowedTime } from "./quiet_hours.ts";
 *
 * const at = nextAllowedTime(new Date("2026-12-01T22:00:00+02:00"), DEFAULT_QUIET_HOURS);
 * assert.equal(at.toISOString(), "2026-12-02T06:00:00.000Z");
 * ```
 */
export function nextAllowedTime(at: Date, hours: QuietHours): Date {
  const start = minutesOf(hours.start, "start");
  const end = minutesOf(hours.end, "end");
  let offset: number;
  try {
    offset = offsetMs(at, hours.timeZone);
  } catch {
    throw new RangeError(
      `Cannot read quiet hours as the time zone is unknown: current value is ${hours.timeZone}`,
    );
  }
  if (start === end) return at;
  const local = at.getTime() + offset;
  const midnight = Math.floor(local / DAY_MS) * DAY_MS;
  const minute = Math.floor((local - midnight) / 60_000);
  const quiet = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!quiet) return at;
  const endLocal = midnight + end * 60_000 + (minute >= end ? DAY_MS : 0);
  // The zone's offset at the end of the quiet hours (a daylight-saving change in between).
  const guess = new Date(endLocal - offset);
  return new Date(endLocal - offsetMs(guess, hours.timeZone));
}
