/**
 * A message that only closes a conversation, in en/rw/fr: goodbye or "that's all", thanked
 * or not ("thanks a lot, bye", « ok merci c'est tout », "murakoze cyane, murabeho"). It asks for
 * nothing: the router gives it to the front desk, which says goodbye instead of asking which
 * service is wanted. The router and the front desk read it with this one predicate.
 *
 * @module
 */
import { normalizeText, wordsOf } from "./normalize_text.ts";

// Words that take leave. All the lists are normalised below as messages are ("good" reads
// "god", "all" "al").
const LEAVE_WORDS = new Set([
  "bye",
  "goodbye",
  "cheers",
  "revoir",
  "ciao",
  "tchao",
  "bientot",
  "murabeho",
  "urabeho",
  "mwirirwe",
  "muramuke",
  "ramukanya",
].map(normalizeText));

// Thanks close a conversation only with a leave taken or "that's all": a lone "thanks",
// « merci », "murakoze" may answer something said elsewhere, and is asked what is needed.
const THANKS_WORDS = new Set([
  "thanks",
  "thank",
  "thx",
  "tnx",
  "thanx",
  "merci",
  "mrc",
  "murakoze",
  "urakoze",
  "mrkz",
  "asante",
].map(normalizeText));

// Several words that close together, though each alone may ask for something ("that's all",
// « c'est tout », "ni ibyo gusa", "see you", « à plus », "have a nice day").
const CLOSING_PHRASES = [
  "that s all",
  "thats all",
  "that is all",
  "see you",
  "see ya",
  "take care",
  "have a nice day",
  "have a good day",
  "good night",
  "c est tout",
  "cest tout",
  "ce sera tout",
  "a plus",
  "a la prochaine",
  "bonne journee",
  "bonne soiree",
  "bonne nuit",
  "ni ibyo gusa",
  "ni ibyo",
  "nibyo gusa",
  "ni byo gusa",
  "tuzongera",
  "tuzavugana",
  "ijoro ryiza",
  "umunsi mwiza",
].map(normalizeText);

// Words a closing comes with: how much, to whom, for when, "ok".
const COMPANIONS = new Set([
  "ok",
  "oki",
  "okay",
  "okey",
  "sawa",
  "yes",
  "oui",
  "yego",
  "a",
  "lot",
  "so",
  "much",
  "very",
  "you",
  "u",
  "all",
  "for",
  "today",
  "now",
  "again",
  "great",
  "good",
  "fine",
  "au",
  "beaucoup",
  "bien",
  "tres",
  "pour",
  "aujourd",
  "hui",
  "vous",
  "encore",
  "bon",
  "bonne",
  "cyane",
  "neza",
  "byiza",
  "ni",
  "uyu",
  "munsi",
  "nanone",
  "mwese",
  "sana",
].map(normalizeText));

/**
 * Whether the message only takes leave or says it wants nothing more, thanks or not: at least
 * one word or phrase that does, and nothing else but thanks and the words closings come with.
 *
 * @example
 * ```ts
 * import { isClosing } from "@shared/contract/closing_message.ts";
 * isClosing("ok merci, c'est tout"); // true
 * isClosing("thanks, and a moto to Remera"); // false
 * ```
 */
export function isClosing(text: string): boolean {
  let padded = ` ${normalizeText(text)} `;
  let closed = false;
  for (const phrase of CLOSING_PHRASES) {
    if (padded.includes(` ${phrase} `)) {
      closed = true;
      padded = padded.replaceAll(` ${phrase} `, " ");
    }
  }
  const rest = wordsOf(padded.trim());
  return (closed || rest.some((word) => LEAVE_WORDS.has(word))) &&
    rest.every((word) => LEAVE_WORDS.has(word) || THANKS_WORDS.has(word) || COMPANIONS.has(word));
}
