/**
 * Whether a WhatsApp message asks to stop marketing messages: "STOP",
 * "HAGARIKA", "ARRÊT"/"ARRET" and their variants (case, accents,
 * punctuation, "stop please", "unsubscribe", "désabonner", "je veux me
 * désabonner", ...). The whole message must be the request: a keyword plus
 * a few polite words, nothing else, so "stop at Kimironko" stays a ride.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

// Keywords, spelt without accents, and the language each says, or null when
// several languages use it ("stop").
const KEYWORDS: Record<string, Language | null> = {
  stop: null,
  unsubscribe: "en",
  optout: "en",
  hagarika: "rw",
  hagarike: "rw",
  hagarikira: "rw",
  mpagarikira: "rw",
  arret: "fr",
  arrete: "fr",
  arreter: "fr",
  arretez: "fr",
  desabonner: "fr",
  desabonnement: "fr",
  desabonne: "fr",
  desinscrire: "fr",
};

// Keywords that also mean "cancel" or "stop" in other conversations (a buy & sell request, a
// driver going offline, the "cancel or keep?" question): an opt-out only for someone who has
// something to opt out of.
const EVERYDAY = new Set([
  "stop",
  "hagarika",
  "hagarike",
  "hagarikira",
  "mpagarikira",
  "arret",
  "arrete",
  "arreter",
  "arretez",
]);

// Words that may come with a keyword without changing what is asked, and the language they show.
const POLITE: Record<string, Language | null> = {
  please: "en",
  pls: "en",
  plz: "en",
  all: "en",
  now: "en",
  it: "en",
  me: null,
  i: "en",
  want: "en",
  to: "en",
  messages: "en",
  message: null,
  sending: "en",
  thanks: "en",
  thank: "en",
  you: "en",
  ok: null,
  nyamuneka: "rw",
  murakoze: "rw",
  ubutumwa: "rw",
  ndashaka: "rw",
  kubihagarika: "rw",
  svp: "fr",
  merci: "fr",
  je: "fr",
  veux: "fr",
  moi: "fr",
  tous: "fr",
  les: "fr",
  s: "fr",
  il: "fr",
  vous: "fr",
  plait: "fr",
  stp: "fr",
};

/** What {@link readOptOut} found: the request, and the language it was said in, when it shows. */
export interface OptOutRequest {
  /** The language the words show, or null ("STOP" alone): answer in the person's own. */
  language: Language | null;
  /**
   * True when the keyword also means "cancel" elsewhere ("STOP", "HAGARIKA", "ARRÊT"):
   * it opts out only someone whose opt-in is in effect. False for "unsubscribe", "désabonner".
   */
  everyday: boolean;
}

/**
 * Reads a message as an opt-out request.
 *
 * @param text What the person wrote.
 * @returns The request, or null when the message asks something else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readOptOut } from "./opt_out_words.ts";
 *
 * assert.deepEqual(readOptOut("ARRÊT !"), { language: "fr", everyday: true });
 * assert.deepEqual(readOptOut("Hagarika"), { language: "rw", everyday: true });
 * assert.deepEqual(readOptOut("unsubscribe please"), { language: "en", everyday: false });
 * assert.equal(readOptOut("stop at Kimironko"), null);
 * ```
 */
export function readOptOut(text: string): OptOutRequest | null {
  const words = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/\bopt[\s-]+out\b/g, "optout")
    .split(/[^a-z]+/).filter((word) => word.length > 0);
  if (words.length === 0 || words.length > 6) return null;
  let keyword: Language | null | undefined;
  let everyday = true;
  const shown = new Set<Language>();
  for (const word of words) {
    if (word in KEYWORDS) {
      if (!EVERYDAY.has(word)) everyday = false;
      keyword = keyword ?? KEYWORDS[word];
      const said = KEYWORDS[word];
      if (said) shown.add(said);
    } else if (word in POLITE) {
      const said = POLITE[word];
      if (said) shown.add(said);
    } else {
      return null;
    }
  }
  if (keyword === undefined) return null;
  if (keyword) return { language: keyword, everyday };
  return { language: shown.size === 1 ? [...shown][0] : null, everyday };
}
