/**
 * What a rider's words say about a trip's two ends, in en, rw and fr: "from
 * Kimironko to Nyabugogo", "to Nyabugogo from Kimironko", "de Kimironko à
 * Nyabugogo", "kuva Kimironko kugera Nyabugogo", "invana i Kimironko
 * injyana i Nyabugogo", and the corrections "Oya, njya i Nyabugogo", "no,
 * to Remera", "pickup is Kacyiru". Pure: the words are split by the
 * markers that name an end; which place each end names is the gazetteer's
 * question (`place_lookup`), so a place the gazetteer does not know is still
 * read as the end its marker names.
 *
 * @module
 */
import { normalizePlaceText } from "./places.ts";

/** The ends a text names, as the rider wrote them (normalised). */
export interface TripText {
  /** The words after a pickup marker ("from", "kuva", "de", "pickup is"). */
  from?: string;
  /** The words after a destination marker ("to", "kugera", "à", "vers"). */
  to?: string;
  /**
   * Words before any marker, when the text has a destination marker and no
   * pickup marker ("Kacyiru to Kabeza"): the pickup if it is a known place.
   */
  lead?: string;
  /** The whole text's place words when it has no marker at all ("Nyabugogo"). */
  bare?: string;
}

type Role = "from" | "to" | "stop";

// Markers by the end they name, several words before one (the longest is tried first).
// "stop" ends the words of an end without naming one ("I need", "ndashaka").
const MARKERS: Record<Role, string[]> = {
  from: [
    // en
    "from",
    "pickup is",
    "pickup at",
    "pickup from",
    "pickup",
    "pick up is",
    "pick up at",
    "pick up from",
    "pick me up at",
    "pick me up from",
    "pick me up in",
    "picked up at",
    "picked up from",
    "collect me at",
    "collect me from",
    "i'm at",
    "im at",
    "i am at",
    "i'm in",
    "i am in",
    "starting at",
    "starting from",
    "leaving from",
    "departure",
    // fr
    "de",
    "du",
    "des",
    "depuis",
    "a partir de",
    "je suis a",
    "je suis au",
    "je suis en",
    "prise en charge a",
    "prise en charge au",
    "prise en charge",
    "venez me chercher a",
    "venez me chercher au",
    "venez me prendre a",
    "venez me prendre au",
    "depart de",
    "depart",
    "en partant de",
    // rw
    "kuva",
    "kuva i",
    "kuvira",
    "ivuye",
    "ivuye i",
    "ruva",
    "ruva i",
    "uvuye",
    "uvuye i",
    "mvuye",
    "mvuye i",
    "nvuye",
    "invana",
    "invana i",
    "imvana",
    "imvana i",
    "umvane",
    "umvane i",
    "ndi i",
    "umfate",
    "umfatire",
    "umfate i",
    "umfatire i",
    "aho umfata",
    "aho unfata",
    "mfata",
    "mfatira",
  ],
  to: [
    // en
    "to",
    "to the",
    "towards",
    "toward",
    "going to",
    "headed to",
    "heading to",
    "destination",
    "destination is",
    "drop me at",
    "drop me off at",
    "drop off at",
    "dropoff at",
    "drop at",
    "take me to",
    "until",
    // fr
    "a",
    "au",
    "aux",
    "vers",
    "pour",
    "pour aller a",
    "pour aller au",
    "jusqu'a",
    "jusqu'au",
    "jusque",
    "direction",
    "destination est",
    "deposez moi a",
    "deposez moi au",
    "emmenez moi a",
    "emmenez moi au",
    "amenez moi a",
    "amenez moi au",
    "je vais a",
    "je vais au",
    "je vais en",
    "aller a",
    "aller au",
    // rw
    "kugera",
    "kugera i",
    "kugeza",
    "kugeza i",
    "ujya",
    "ujya i",
    "ijya",
    "ijya i",
    "rujya",
    "rujya i",
    "njya",
    "njya i",
    "ngiye",
    "ngiye i",
    "kujya",
    "kujya i",
    "injyana",
    "injyana i",
    "ijyana",
    "ijyana i",
    "nyjyana",
    "ntwara",
    "ntwara i",
    "untware",
    "untware i",
    "ngana",
    "ngana i",
    "nerekeza",
    "nerekeza i",
    "aho njya",
    "aho ngiye",
  ],
  stop: [
    "i need",
    "i want",
    "i would like",
    "i'd like",
    "please",
    "pls",
    "plz",
    "now",
    "asap",
    "quickly",
    "je veux",
    "je voudrais",
    "j'ai besoin",
    "il me faut",
    "svp",
    "s'il vous plait",
    "stp",
    "maintenant",
    "vite",
    "ndashaka",
    "nshaka",
    "nkeneye",
    "ndakeneye",
    "mumpe",
    "mpa",
    "ubu",
    "nonaha",
    "vuba",
    "vuba vuba",
    "murakoze",
    "how much",
    "what is the price",
    "combien",
    "ni angahe",
    "angahe",
  ],
};

// Words that are never a place on their own: what is left when these are dropped must name one.
const FILLER = new Set([
  // vehicles and rides
  "moto",
  "motos",
  "motari",
  "motard",
  "motorbike",
  "boda",
  "igare",
  "taxi",
  "cab",
  "car",
  "voiture",
  "imodoka",
  "vehicule",
  "ride",
  "lift",
  "trip",
  "course",
  "trajet",
  "urugendo",
  "bus",
  "bisi",
  "driver",
  "chauffeur",
  "umushoferi",
  // little words of the three languages
  "a",
  "an",
  "the",
  "i",
  "me",
  "my",
  "go",
  "get",
  "be",
  "get",
  "need",
  "want",
  "one",
  "un",
  "une",
  "le",
  "la",
  "les",
  "l'",
  "moi",
  "aller",
  "ku",
  "mu",
  "kwa",
  "na",
  "yo",
  "ya",
  "oya",
  "no",
  "non",
  "nope",
  "not",
  "actually",
  "sorry",
  "ahubwo",
  "plutot",
  "pardon",
  "ok",
  "okay",
  "yes",
  "yego",
  "oui",
  "is",
  "it's",
  "its",
  "est",
  "c'est",
  "ni",
  "there",
  "here",
  "hano",
  "ici",
  "then",
  "and",
  "et",
  "go",
  "please",
  "svp",
]);

const LOCATIVES = new Set(["ku", "mu"]);

type Marker = { words: string[]; role: Role };

// Longest first, so "pick me up at" wins over "pick", "je suis a" over "a".
const ALL_MARKERS: Marker[] = (Object.entries(MARKERS) as [Role, string[]][])
  .flatMap(([role, list]) => list.map((marker) => ({ words: marker.split(" "), role })))
  .sort((a, b) => b.words.length - a.words.length);

function markerAt(words: readonly string[], at: number): Marker | null {
  return ALL_MARKERS.find((marker) =>
    marker.words.every((word, offset) => words[at + offset] === word)
  ) ?? null;
}

// The place words of a span: elisions dropped ("l'aeroport" → "aeroport"), filler trimmed from
// both ends (a filler word inside a name stays: "kigali convention centre"). Empty: no place.
function placeWords(words: readonly string[]): string {
  const clean = words.map((word) => word.replace(/^(l|d|qu|jusqu)'/, "")).filter(Boolean);
  let start = 0;
  let end = clean.length;
  // "ku"/"mu" before a place stay: they belong to aliases ("mu mujyi", "ku kibuga cy'indege").
  while (
    start < end && FILLER.has(clean[start]) &&
    !(LOCATIVES.has(clean[start]) && start + 1 < end && !FILLER.has(clean[start + 1]))
  ) start++;
  while (end > start && FILLER.has(clean[end - 1])) end--;
  return clean.slice(start, end).join(" ");
}

/**
 * The ends a rider's text names. A later marker of the same end wins ("to
 * Remera… no, to Kacyiru"); a text without markers is `bare`.
 *
 * @example Both orders, three languages
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTripText } from "./trip_text.ts";
 *
 * assert.deepEqual(parseTripText("I need a moto from Kimironko to Nyabugogo"), {
 *   from: "kimironko",
 *   to: "nyabugogo",
 * });
 * assert.deepEqual(parseTripText("to Nyabugogo from Kimironko"), {
 *   from: "kimironko",
 *   to: "nyabugogo",
 * });
 * assert.deepEqual(parseTripText("kuva Kimironko kugera Nyabugogo"), {
 *   from: "kimironko",
 *   to: "nyabugogo",
 * });
 * assert.deepEqual(parseTripText("Oya, njya i Nyabugogo"), { to: "nyabugogo" });
 * assert.deepEqual(parseTripText("Nyabugogo"), { bare: "nyabugogo" });
 * ```
 */
export function parseTripText(text: string): TripText {
  const words = normalizePlaceText(text).split(" ").filter(Boolean);
  const spans: Array<{ role: Role | "lead"; words: string[] }> = [{ role: "lead", words: [] }];
  let marked = false;
  for (let at = 0; at < words.length;) {
    const marker = markerAt(words, at);
    if (marker) {
      spans.push({ role: marker.role, words: [] });
      if (marker.role !== "stop") marked = true;
      at += marker.words.length;
    } else {
      spans.at(-1)!.words.push(words[at]);
      at++;
    }
  }
  if (!marked) {
    const bare = placeWords(spans.flatMap((span) => span.words));
    return bare ? { bare } : {};
  }
  const result: TripText = {};
  for (const span of spans) {
    if (span.role === "stop") continue;
    const place = placeWords(span.words);
    if (!place) continue;
    if (span.role === "lead") result.lead = place;
    else result[span.role] = place;
  }
  // Words before the markers are the pickup only in "X to Y"; with a pickup marker they are not.
  if (result.from !== undefined || result.to === undefined) delete result.lead;
  return result;
}
