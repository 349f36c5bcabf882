/**
 * The limits on what a reply's button or list shows, and the one way every
 * builder keeps within them: cut at a word boundary with an ellipsis, never
 * mid-word ("Kimironko Brochettes & G" becomes "Kimironko Brochettes…").
 * The limits are the strictest channel's, WhatsApp's (button title 20
 * characters, list row and section title 24, row description 72): packs and
 * the kernel word replies for any channel, so this lives in the contract.
 *
 * @module
 */

/** WhatsApp's length limits, in characters. */
export const TITLE_LIMITS = {
  /** A reply button's title. */
  button: 20,
  /** A list row's title. */
  row: 24,
  /** A list section's title. */
  section: 24,
  /** A list row's description. */
  description: 72,
} as const;

/**
 * `text` within `max` characters: whole as it is when it fits, else cut at
 * the last word boundary that leaves room for "…" (a single word too long
 * for any boundary is cut with the ellipsis).
 *
 * @throws {RangeError} when `max` is below 2.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortenTitle } from "@shared/contract/titles.ts";
 * assert.equal(shortenTitle("Kimironko Brochettes & Grill", 24), "Kimironko Brochettes…");
 * assert.equal(shortenTitle("Remera", 24), "Remera");
 * ```
 */
export function shortenTitle(text: string, max: number): string {
  if (!Number.isInteger(max) || max < 2) {
    throw new RangeError(`Cannot shorten a title as max is below 2: current value is ${max}`);
  }
  const whole = text.trim().replace(/\s+/g, " ");
  const chars = [...whole];
  if (chars.length <= max) return whole;
  const room = chars.slice(0, max - 1).join("");
  const boundary = room.lastIndexOf(" ");
  // A boundary in the first third would leave too little to recognise.
  const cut = boundary >= Math.floor(max / 3) ? room.slice(0, boundary) : room;
  return `${cut.replace(/[\s,;:.&·—–-]+$/u, "")}…`;
}
