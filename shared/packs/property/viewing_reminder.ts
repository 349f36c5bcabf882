/**
 * When a viewing's reminder is due. A renter who books for the day after
 * tomorrow hears of it the day before; one who books this morning for this
 * afternoon hears a couple of hours before; one who books for within the hour
 * has just read the confirmation and hears nothing more. Pure: the booking
 * time comes in, so the rule tests without a clock.
 *
 * @module
 */

/** How long before a viewing its reminder goes out, longest first. */
export const REMINDER_LEADS_HOURS = [24, 2] as const;

/** The least time between a booking (or move) and its reminder: less is a repeat, not a reminder. */
export const REMINDER_MIN_GAP_MINUTES = 60;

/** What {@link reminderAt} needs. */
export interface ReminderOptions {
  /** When the viewing starts. */
  startsAt: Date;
  /** When it was booked or last moved to `startsAt`. */
  timedAt: Date;
}

/**
 * The moment a viewing's reminder is due: the longest lead of
 * {@link REMINDER_LEADS_HOURS} that still falls at least
 * {@link REMINDER_MIN_GAP_MINUTES} after the booking, or `null` when none does.
 *
 * @example Booked on Monday 08:00 for Monday 11:00: reminded at 09:00.
 * ```ts
 * reminderAt({
 *   startsAt: new Date("2026-11-30T09:00:00Z"),
 *   timedAt: new Date("2026-11-30T06:00:00Z"),
 * }); // 2026-11-30T07:00:00.000Z
 * ```
 */
export function reminderAt(options: ReminderOptions): Date | null {
  const earliest = options.timedAt.getTime() + REMINDER_MIN_GAP_MINUTES * 60_000;
  for (const hours of REMINDER_LEADS_HOURS) {
    const due = options.startsAt.getTime() - hours * 3_600_000;
    if (due >= earliest) return new Date(due);
  }
  return null;
}
