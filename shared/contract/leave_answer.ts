/**
 * Typed answers to "cancel it, or keep it?" (asked when a person leaves a
 * flow with work open, or is handed to staff with it), in en/rw/fr, besides
 * the buttons and their numbers. Read the same way offline and with a model:
 * the kernel answers the question before any agent sees the message, so a
 * typed "oya" never reaches the pickup parser.
 *
 * @module
 */

// Words that only make the answer polite, or confirm it ("yes, cancel").
const FILLER = new Set([
  "please",
  "pls",
  "plz",
  "ok",
  "okay",
  "yes",
  "just",
  "stp",
  "svp",
  "s'il",
  "vous",
  "te",
  "plait",
  "oui",
  "merci",
  "d'accord",
  "yego",
  "murakoze",
  "nyamuneka",
  "ndakwinginze",
  "ni",
  "byiza",
]);

const CANCEL = new Set([
  "1",
  "cancel",
  "cancel it",
  "cancel that",
  "cancel the ride",
  "cancel the order",
  "cancel the request",
  "cancel my ride",
  "cancel my order",
  "stop it",
  "hagarika",
  "bihagarike",
  "ubihagarike",
  "hagarika urugendo",
  "hagarika byose",
  "reka",
  "bireke",
  "annuler",
  "annule",
  "annulez",
  "annule la",
  "annule le",
  "annulez la",
  "annulez le",
  "l'annuler",
]);

const KEEP = new Set([
  "2",
  "keep",
  "keep it",
  "keep that",
  "keep the ride",
  "keep the order",
  "keep my ride",
  "keep my order",
  "don't cancel",
  "do not cancel",
  "no",
  "bigumane",
  "ubigumane",
  "gumana",
  "bigume",
  "komeza",
  "oya",
  "oya ntuhagarike",
  "ntuhagarike",
  "garder",
  "garde",
  "gardez",
  "garde la",
  "garde le",
  "gardez la",
  "gardez le",
  "le garder",
  "la garder",
  "non",
  "ne pas annuler",
  "n'annule pas",
  "n'annulez pas",
]);

const NO = new Set(["no", "oya", "non"]);

/**
 * What a typed message answers to "cancel or keep?", or null when it answers
 * neither (then it is a message of its own).
 *
 * @param text What the person wrote.
 * @returns "cancel", "keep" or null.
 */
export function typedLeaveAnswer(text: string): "cancel" | "keep" | null {
  const words = text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[’‘`]/g, "'").replace(/[^\p{L}\p{N}' ]+/gu, " ").split(/\s+/)
    .filter((word) => word && !FILLER.has(word));
  // "yes" or "oui" alone confirm nothing: the question has two answers.
  if (words.length === 0) return null;
  const said = words.join(" ");
  if (CANCEL.has(said)) return "cancel";
  if (KEEP.has(said)) return "keep";
  // "no, keep it", "oya, ubigumane", "non, n'annule pas": the "no" refuses the cancelling.
  const rest = words.slice(1).join(" ");
  if (words.length > 1 && NO.has(words[0]) && KEEP.has(rest)) return "keep";
  return null;
}
