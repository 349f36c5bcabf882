/**
 * How long a person waits for staff: one rule, for the estimate given when a ticket is raised
 * (`notify_staff`) and for the one repeated while they wait in the queue, so the two never
 * disagree. The people ahead are served a staff member at a time, each taking the org's usual
 * handling time for the ticket's priority: `handling × ⌈place in the queue ÷ staff⌉`. The place
 * counts waiting conversations ahead (one per conversation, more urgent first, then older),
 * and the usual handling time is the median, over the last week, of how long the org's tickets
 * of that priority waited for staff (a default per priority until there is a week of history).
 * So the estimate moves only when someone ahead is served or leaves, or staff join.
 *
 * @module
 */

/** Handling time assumed per priority until the org has a week of history, in seconds. */
export const DEFAULT_HANDLING_SEC: Readonly<Record<string, number>> = {
  urgent: 5 * 60,
  high: 15 * 60,
  medium: 60 * 60,
  low: 4 * 60 * 60,
};

/** What the estimate is made from (`private.ticket_queue_position`, `ticket_queue_stats`). */
export interface QueueWaitInput {
  /** The ticket's place in the queue (1 = next); null or absent: next. */
  position?: number | null;
  /** The org's median handling time for this priority; 0 or absent without history. */
  medianHandlingSec?: number | null;
  /** How many staff serve the queue; at least one is assumed. */
  staffCount?: number | null;
  /** The ticket's priority. */
  priority: string;
}

/**
 * The wait before staff answer the ticket, in seconds.
 *
 * @example
 * ```ts
 * import { queueWaitSeconds } from "@shared/capabilities/staff_queue/mod.ts";
 * queueWaitSeconds({ position: 3, staffCount: 2, priority: "medium" }); // 7200: two waves of an hour
 * ```
 */
export function queueWaitSeconds(input: QueueWaitInput): number {
  const handling = input.medianHandlingSec ||
    (DEFAULT_HANDLING_SEC[input.priority] ?? DEFAULT_HANDLING_SEC.medium);
  const waves = Math.ceil(Math.max(1, input.position ?? 1) / Math.max(1, input.staffCount ?? 1));
  return handling * waves;
}
