/**
 * A WhatsApp message's normal form, as the router's models and the phrase
 * readers (request_phrase.ts) compare words: case, accents, punctuation,
 * repeated letters and numbers folded, so "Murahoooo", "cofee" and "Payé
 * 5,000" meet "muraho", "coffee" and "paye num".
 *
 * @module
 */

const PHONE = /\b(?:\+?250|0)?7[2389]\d{7}\b/g;
const NUMBER = /\d+(?:[.,]\d+)?k?/g;
// French SMS writes "quelqu'un" with the digit one ("qq1", "qlq1", "kelk1"): read before digits
// become `num`, which would leave "qq num".
const SOMEONE_WITH_ONE = /\b(?:qq|qlq|qlqu|kelk|kelq|klk)1\b/g;

/**
 * A message's normalised form: lower case, no accents, apostrophes and
 * punctuation as spaces, phone numbers as `phone`, other numbers as `num`,
 * runs of a repeated letter as one ("murahoooo" and "cofee" meet "muraho"
 * and "coffee").
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(PHONE, " phone ")
    .replace(SOMEONE_WITH_ONE, " quelqu un ")
    .replace(NUMBER, " num ")
    .replace(/[^\p{L}\s]/gu, " ")
    .replace(/(\p{L})\1+/gu, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** The words of a normalised message. */
export function wordsOf(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}
