/**
 * The open work a person chose to keep when they left a flow ("cancel or
 * keep?" answered "keep"), remembered in the conversation's memory so that
 * leaving that flow again, in this visit or a later one, does not ask about
 * the same thing again. Work is named by its stable reference (`OpenWork.id`:
 * a charge ref, a booking code, a request id) and, when the agent gives one,
 * its `revision`: a kept booking that was moved since is asked about again,
 * and so is any work never kept.
 *
 * @module
 */
import type { OpenWork } from "@shared/registry/pack.ts";

/** The memory key holding the kept work, per agent: `{ [agent]: { [id]: revision } }`. */
export const KEPT_WORK = "keptWork";

// Enough for any real person's bookings; the oldest kept go first past it, so the memory
// (checkpointed every turn) stays small.
const LIMIT = 20;

type Kept = Record<string, Record<string, string>>;

function keptOf(memory: Record<string, unknown>): Kept {
  const value = memory[KEPT_WORK];
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Kept : {};
}

function revisionOf(work: OpenWork): string {
  return work.revision ?? "";
}

/** The ids of the work `agent`'s user chose to keep, for `PendingContext.kept`. */
export function keptIds(memory: Record<string, unknown>, agent: string): ReadonlySet<string> {
  const mine = keptOf(memory)[agent];
  return new Set(typeof mine === "object" && mine !== null ? Object.keys(mine) : []);
}

/** Whether `work` is what the user chose to keep on leaving `agent`, unchanged since. */
export function isKept(memory: Record<string, unknown>, agent: string, work: OpenWork): boolean {
  const mine = keptOf(memory)[agent];
  if (typeof mine !== "object" || mine === null || !Object.hasOwn(mine, work.id)) return false;
  return mine[work.id] === revisionOf(work);
}

/**
 * The memory update that remembers `work` as kept by `agent`'s user (merged
 * into the conversation's memory by its reducer).
 */
export function keepWork(
  memory: Record<string, unknown>,
  agent: string,
  work: OpenWork,
): Record<string, unknown> {
  const all = keptOf(memory);
  const mine = typeof all[agent] === "object" && all[agent] !== null ? all[agent] : {};
  // Re-kept work moves to the end: the oldest kept are the first forgotten.
  const entries = Object.entries(mine).filter(([id]) => id !== work.id);
  entries.push([work.id, revisionOf(work)]);
  return { [KEPT_WORK]: { ...all, [agent]: Object.fromEntries(entries.slice(-LIMIT)) } };
}
