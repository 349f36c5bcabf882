/**
 * Turns a WhatsApp message into the features the routing models learn from:
 * a normalised form (case, accents, apostrophes, repeated letters, numbers)
 * and its words, word pairs, Kinyarwanda stems and character n-grams, so
 * typos, missing accents and a different verb or noun-class prefix still
 * share most features with the phrase they miss.
 *
 * @module
 */

// The normal form is the kernel's (request_phrase.ts reads it too); the models learn from it.
import { normalizeText, wordsOf } from "@shared/contract/normalize_text.ts";
import { expandShorthands, shorthandAt } from "@shared/contract/sms_shorthands.ts";
export { expandShorthands, normalizeText, wordsOf };

// Kinyarwanda puts the subject, tense and object (verbs) or the noun class
// (nouns) in front of the stem: "ndashaka", "nshaka", "turashaka" and
// "mushaka" share "shaka"; "umuti" and "imiti" share "ti" (too short to
// keep), "ubwishingizi" and "kwishingira" share "ishingi...". Longest first;
// a stem keeps at least four letters, so English and French words are
// rarely touched and, when they are, only gain one extra feature.
const RW_PREFIXES = [
  "ndaba",
  "ndagu",
  "ndaku",
  "tura",
  "mura",
  "bara",
  "nda",
  "ndi",
  "ara",
  "ura",
  "ira",
  "twa",
  "mwa",
  "nka",
  "umu",
  "aba",
  "imi",
  "iki",
  "ibi",
  "ama",
  "uru",
  "ubu",
  "ubw",
  "aka",
  "utu",
  "uku",
  "icy",
  "iby",
  // Class 7 before a voiceless consonant ("igikoni", "igikapu"), class 5 ("iryinyo"),
  // class 12/15 variants ("agati", "uguhaha").
  "igi",
  "iri",
  "aga",
  "ugu",
  "ku",
  "gu",
  "kw",
  "gw",
  "ba",
  "mu",
  "tu",
  "na",
  "in",
  "im",
  "n",
  "m",
];
const VOWELS = new Set(["a", "e", "i", "o", "u"]);

/**
 * The stem of a Kinyarwanda word with its subject/tense or noun-class prefix
 * removed ("ndashaka" → "shaka", "gukodesha" → "kodesha", "inkorora" →
 * "korora"), or null when no prefix leaves a stem of four letters or more.
 */
export function kinyarwandaStem(word: string): string | null {
  for (const prefix of RW_PREFIXES) {
    if (!word.startsWith(prefix)) continue;
    const stem = word.slice(prefix.length);
    if (stem.length < 4) continue;
    // A lone "n"/"m" is a prefix only before a consonant ("nshaka", "mbwira"), not "name".
    if (prefix.length === 1 && VOWELS.has(stem[0])) continue;
    return stem;
  }
  return null;
}

// Kinyarwanda endings (tense, aspect, voice, applicative, noun-class vowel), longest
// first: "nishyuye", "kwishyura" and "ubwishyu" all end on the root "ishy", "yibwe" and
// "kwiba" on "ib", "ankubise" and "gukubita" on "kubi".
const RW_SUFFIXES = [
  "ishijwe",
  "ishije",
  "ishwa",
  "iwe",
  "irwa",
  "iye",
  "uye",
  "ure",
  "ura",
  "ira",
  "ire",
  "ise",
  "ita",
  // The past habitual ("nashakaga", "twifuzaga", "nabazaga": I was wanting, asking) meets the
  // present ("ndashaka", "kwifuza", "kubaza").
  "aga",
  "ye",
  "we",
  "wa",
  "ze",
  "se",
  "ta",
  "a",
  "e",
  "u",
  "o",
];
// A subject prefix before a vowel-initial verb ("n-ishyuye", "y-injiye", "tw-ishyura").
const RW_SUBJECT_BEFORE_VOWEL = /^(?:tw|mw|bw|n|y|w)(?=[aeiou])/;

/**
 * The root of a Kinyarwanda word: its prefix stem (see {@linkcode kinyarwandaStem}) or the
 * word without a subject before a vowel-initial verb, then without its ending, so the
 * forms of one verb or noun meet ("nishyuye", "kwishyura", "ubwishyu" → "ishy"). Null when
 * the word shows no Kinyarwanda prefix or the root would be shorter than three letters.
 */
export function kinyarwandaRoot(word: string): string | null {
  const stem = kinyarwandaStem(word) ??
    (RW_SUBJECT_BEFORE_VOWEL.test(word) ? word.replace(RW_SUBJECT_BEFORE_VOWEL, "") : null);
  if (stem === null) return null;
  for (const suffix of RW_SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= 3) {
      return stem.slice(0, -suffix.length);
    }
  }
  return stem;
}

/** Options for {@linkcode featuresOf}. */
export interface FeatureOptions {
  /** Shortest character n-gram. @default 3 */
  minGram?: number;
  /** Longest character n-gram. @default 5 */
  maxGram?: number;
}

/**
 * Calls `emit` once for each distinct feature of a normalised message (SMS
 * shorthands read as the words they stand for): each
 * word (`w:`), each pair of neighbouring words (`b:`), each Kinyarwanda stem
 * (`s:`) and every character n-gram of each word padded with spaces (" avo",
 * "cat "), so the start and end of a word weigh more than its middle. A
 * callback rather than an array keeps classifying free of big allocations.
 */
export function forEachFeature(
  normalized: string,
  emit: (feature: string) => void,
  options: FeatureOptions = {},
): void {
  const { minGram = 3, maxGram = 5 } = options;
  const seen = new Set<string>();
  const add = (feature: string) => {
    if (seen.has(feature)) return;
    seen.add(feature);
    emit(feature);
  };
  const written = wordsOf(normalized);
  const words = written.flatMap((word, at) => {
    const full = shorthandAt(written, at);
    return full === undefined ? [word] : full.split(" ");
  });
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    add(`w:${word}`);
    if (w > 0) add(`b:${words[w - 1]}_${word}`);
    const stem = kinyarwandaStem(word);
    if (stem !== null) add(`s:${stem}`);
    const root = kinyarwandaRoot(word);
    if (root !== null) add(`r:${root}`);
    // An object marker between the prefix and the verb ("ku-zi-gurisha", "nda-bi-gurisha",
    // "ku-yi-kodesha": to sell them, I sell them, to rent it) hides the verb's stem; the verb
    // without it meets its plain forms ("kugurisha", "gukodesha").
    const bare = stem === null ? null : withoutObjectMarker(stem);
    if (bare !== null) {
      add(`s:${bare}`);
      const bareRoot = kinyarwandaRoot(`ku${bare}`);
      if (bareRoot !== null) add(`r:${bareRoot}`);
    }
    const padded = ` ${word} `;
    for (let n = minGram; n <= maxGram; n++) {
      for (let i = 0; i + n <= padded.length; i++) add(padded.slice(i, i + n));
    }
  }
}

// Kinyarwanda object markers (them, it, him, us, you...) before a consonant-led verb of five
// letters or more; a shorter rest is too often a noun's own syllables.
const RW_OBJECT_MARKER =
  /^(?:zi|yi|bi|ki|ri|ba|bu|ru|tu|ka|wu|mu)(?=[bcdfghjklmnprstvwyz][a-z]{4,}$)/;

function withoutObjectMarker(stem: string): string | null {
  return RW_OBJECT_MARKER.test(stem) ? stem.replace(RW_OBJECT_MARKER, "") : null;
}

/** The distinct features of a normalised message (see {@linkcode forEachFeature}). */
export function featuresOf(normalized: string, options: FeatureOptions = {}): string[] {
  const features: string[] = [];
  forEachFeature(normalized, (feature) => features.push(feature), options);
  return features;
}

/** Known names (places, vehicle makes) found in, or taken out of, a normalised message. */
export interface NameGazetteer {
  /** The normalised message without the names, spaces collapsed. */
  strip(normalized: string): string;
  /** The longest name the normalised message holds, as it was given, or null. */
  find(normalized: string): string | null;
  /** The normalised message with each name replaced by the word `by`, spaces collapsed. */
  replace(normalized: string, by: string): string;
}

/**
 * A gazetteer of whole-word names: "kimironko market" is found before
 * "kimironko" can leave "market" behind.
 *
 * @example
 * ```ts
 * import { nameGazetteer, normalizeText } from "@shared/agent/text_features.ts";
 * const places = nameGazetteer(["Kimironko", "Kimironko market"]);
 * places.strip(normalizeText("cement near Kimironko market")); // "cement near"
 * places.find(normalizeText("cement near Kimironko market")); // "Kimironko market"
 * ```
 */
export function nameGazetteer(names: readonly string[]): NameGazetteer {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const key = normalizeText(name);
    if (key !== "" && !byKey.has(key)) byKey.set(key, name);
  }
  // Longest first, so a longer name wins over the shorter one inside it.
  const keys = [...byKey.keys()].sort((a, b) => b.length - a.length);
  return {
    strip(normalized: string): string {
      if (keys.length === 0) return normalized;
      let padded = ` ${normalized} `;
      for (const key of keys) {
        if (padded.includes(` ${key} `)) padded = padded.replaceAll(` ${key} `, " ");
      }
      return padded.trim().replace(/\s+/g, " ");
    },
    find(normalized: string): string | null {
      const padded = ` ${normalized} `;
      const key = keys.find((key) => padded.includes(` ${key} `));
      return key === undefined ? null : byKey.get(key)!;
    },
    replace(normalized: string, by: string): string {
      let padded = ` ${normalized} `;
      for (const key of keys) {
        // Twice: two names side by side share the space between them.
        if (padded.includes(` ${key} `)) {
          padded = padded.replaceAll(` ${key} `, `  ${by}  `).replaceAll(` ${key} `, `  ${by}  `);
        }
      }
      return padded.trim().replace(/\s+/g, " ");
    },
  };
}
