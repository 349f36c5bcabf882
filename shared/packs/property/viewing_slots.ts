/**
 * A listing's viewing slots: its landlord's weekly hours (Kigali time, no
 * daylight saving: UTC+2 all year) cut into viewings of the listing's length.
 * Pure: the clock and the booked times come in, so the rules test without a
 * database or today's date.
 *
 * @module
 */

/** One span of a weekday's viewing hours, `HH:MM` Kigali time; ISO weekday (1 = Monday). */
export interface ViewingHours {
  weekday: number;
  opens: string;
  closes: string;
}

/** What {@link freeSlots} and {@link checkSlot} need. */
export interface SlotOptions {
  /** The landlord's weekly hours. */
  hours: readonly ViewingHours[];
  /** The length of one viewing, minutes. */
  minutes: number;
  /** Starts (ISO) already booked. */
  booked: readonly string[];
  /** Now: a slot starts after it. */
  now: Date;
  /**
   * How much notice a viewing needs, minutes (the landlord has to get there).
   * @default 60
   */
  noticeMinutes?: number;
}

const KIGALI_OFFSET_MS = 2 * 3_600_000;
const DAY_MS = 86_400_000;

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
}

/** Every slot start (ISO) of the Kigali day holding `day`, in order, booked or not. */
function slotsOfDay(day: Date, options: SlotOptions): string[] {
  const kigali = new Date(day.getTime() + KIGALI_OFFSET_MS);
  const midnight = Date.UTC(kigali.getUTCFullYear(), kigali.getUTCMonth(), kigali.getUTCDate()) -
    KIGALI_OFFSET_MS;
  const weekday = kigali.getUTCDay() === 0 ? 7 : kigali.getUTCDay();
  const starts: number[] = [];
  for (const span of options.hours.filter((h) => h.weekday === weekday)) {
    const closes = minutesOf(span.closes);
    for (let m = minutesOf(span.opens); m + options.minutes <= closes; m += options.minutes) {
      starts.push(midnight + m * 60_000);
    }
  }
  return starts.sort((a, b) => a - b).map((t) => new Date(t).toISOString());
}

/**
 * The free slots from now on, earliest first: at most `limit`, within `days` days.
 *
 * @example Free slots
 * ```ts
 * import { freeSlots } from "./viewing_slots.ts";
 * const slots = freeSlots({
 *   hours: [{ weekday: 1, opens: "09:00", closes: "10:00" }],
 *   minutes: 30,
 *   booked: [],
 *   now: new Date("2026-11-29T12:00:00Z"), // a Sunday
 * }, { limit: 2 });
 * // ["2026-11-30T07:00:00.000Z", "2026-11-30T07:30:00.000Z"]
 * ```
 */
export function freeSlots(
  options: SlotOptions,
  range: { limit: number; days?: number; from?: Date },
): string[] {
  const earliest = options.now.getTime() + (options.noticeMinutes ?? 60) * 60_000;
  const start = Math.max(earliest, range.from?.getTime() ?? 0);
  const taken = new Set(options.booked.map((iso) => new Date(iso).toISOString()));
  const found: string[] = [];
  for (let d = 0; d <= (range.days ?? 14) && found.length < range.limit; d++) {
    for (const slot of slotsOfDay(new Date(start + d * DAY_MS), options)) {
      if (found.length >= range.limit) break;
      if (new Date(slot).getTime() >= start && !taken.has(slot) && !found.includes(slot)) {
        found.push(slot);
      }
    }
  }
  return found;
}

/** Why a time is not a free slot. */
export type SlotRefusal = "past" | "not_a_slot" | "taken";

/** Whether `when` is a free slot, or why not. */
export function checkSlot(when: Date, options: SlotOptions): SlotRefusal | null {
  if (when.getTime() < options.now.getTime() + (options.noticeMinutes ?? 60) * 60_000) {
    return "past";
  }
  const iso = when.toISOString();
  if (!slotsOfDay(when, options).includes(iso)) return "not_a_slot";
  if (options.booked.some((b) => new Date(b).toISOString() === iso)) return "taken";
  return null;
}
