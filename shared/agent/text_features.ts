/**
 * Turns a WhatsApp message into the features the routing models learn from:
 * a normalised form (case, accents, apostrophes, repeated letters, numbers)
 * and its words plus character n-grams, so typos and missing accents still
 * share most features with the phrase they miss.
 *
 * @module
 */

const PHONE = /\b(?:\+?250|0)?7[2389]\d{7}\b/g;
const NUMBER = /\d+(?:[.,]\d+)?k?/g;

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

/** Options for {@linkcode featuresOf}. */
export interface FeatureOptions {
  /** Shortest character n-gram. @default 3 */
  minGram?: number;
  /** Longest character n-gram. @default 5 */
  maxGram?: number;
}

/**
 * The distinct features of a normalised message: each word (`w:` prefix)
 * and every character n-gram of the message padded with spaces, so n-grams
 * across a word boundary ("ku ki") carry some word order.
 */
export function featuresOf(normalized: string, options: FeatureOptions = {}): string[] {
  const { minGram = 3, maxGram = 5 } = options;
  const features = new Set<string>();
  for (const word of wordsOf(normalized)) features.add(`w:${word}`);
  const padded = ` ${normalized} `;
  for (let n = minGram; n <= maxGram; n++) {
    for (let i = 0; i + n <= padded.length; i++) {
      const gram = padded.slice(i, i + n);
      if (gram.trim() !== "") features.add(gram);
    }
  }
  return [...features];
}
