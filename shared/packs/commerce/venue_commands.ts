/**
 * What a venue's staff send to move an order on WhatsApp: a tapped button
 * (`order:A-1042:ready`, also a template's quick-reply payload) or a typed
 * command in any of our languages ("READY A-1042", "A-1042 prête",
 * "byiteguye A-1042").
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import type { OrderStatus } from "@shared/capabilities/order_states/mod.ts";

/** A venue's command: which order, which status, and the language its word was in. */
export interface VenueCommand {
  /** The order's number, upper case (`A-1042`). */
  orderNo: string;
  /** The status asked for. */
  status: Exclude<OrderStatus, "pending">;
  /** The language of the typed word, when it tells (a button tap does not). */
  language?: Language;
}

type Move = VenueCommand["status"];

// Typed words, accents and case removed. Words shared by two languages map to English.
const WORDS: Record<string, [Move, Language]> = {
  confirm: ["confirmed", "en"],
  confirmed: ["confirmed", "en"],
  accept: ["confirmed", "en"],
  prepare: ["preparing", "en"],
  preparing: ["preparing", "en"],
  ready: ["ready", "en"],
  deliver: ["delivered", "en"],
  delivered: ["delivered", "en"],
  cancel: ["cancelled", "en"],
  cancelled: ["cancelled", "en"],
  canceled: ["cancelled", "en"],
  emeza: ["confirmed", "rw"],
  tegura: ["preparing", "rw"],
  "turimo gutegura": ["preparing", "rw"],
  byiteguye: ["ready", "rw"],
  yiteguye: ["ready", "rw"],
  byagejejwe: ["delivered", "rw"],
  yagejejwe: ["delivered", "rw"],
  hagarika: ["cancelled", "rw"],
  confirmer: ["confirmed", "fr"],
  confirmee: ["confirmed", "fr"],
  preparation: ["preparing", "fr"],
  "en preparation": ["preparing", "fr"],
  pret: ["ready", "fr"],
  prete: ["ready", "fr"],
  livrer: ["delivered", "fr"],
  livree: ["delivered", "fr"],
  annuler: ["cancelled", "fr"],
  annulee: ["cancelled", "fr"],
};

const BUTTON = /^order:([A-Z]{1,3}-[0-9]{1,12}):(confirmed|preparing|ready|delivered|cancelled)$/;
const NUMBER = "([A-Za-z]{1,3}-[0-9]{1,12})";
const WORD = "([\\p{L} ]{2,20}?)";
const WORD_FIRST = new RegExp(`^${WORD}\\s+${NUMBER}$`, "u");
const NUMBER_FIRST = new RegExp(`^${NUMBER}\\s+${WORD}$`, "u");

function plain(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** The button id a venue taps to move `orderNo` to `status`. */
export function venueButtonId(orderNo: string, status: Move): string {
  return `order:${orderNo}:${status}`;
}

/**
 * Reads a venue's command from a tapped button id or typed text, or null
 * when the message is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseVenueCommand } from "./venue_commands.ts";
 *
 * assert.deepEqual(parseVenueCommand({ text: "READY a-1042" }), { orderNo: "A-1042", status: "ready", language: "en" });
 * assert.deepEqual(parseVenueCommand({ text: "Ready", choice: "order:A-1042:ready" }), { orderNo: "A-1042", status: "ready" });
 * assert.equal(parseVenueCommand({ text: "is A-1042 ready?" }), null);
 * ```
 */
export function parseVenueCommand(
  message: { text?: string; choice?: string },
): VenueCommand | null {
  if (message.choice) {
    const tapped = BUTTON.exec(message.choice);
    return tapped ? { orderNo: tapped[1], status: tapped[2] as Move } : null;
  }
  const typed = (message.text ?? "").trim().replace(/[.!]+$/, "");
  if (typed.length > 40) return null;
  const first = WORD_FIRST.exec(typed);
  const last = first ? null : NUMBER_FIRST.exec(typed);
  const [word, orderNo] = first ? [first[1], first[2]] : last ? [last[2], last[1]] : [null, null];
  if (!word || !orderNo) return null;
  const known = WORDS[plain(word)];
  return known ? { orderNo: orderNo.toUpperCase(), status: known[0], language: known[1] } : null;
}
