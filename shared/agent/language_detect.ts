/**
 * Per-message language detection for short WhatsApp texts (English,
 * Kinyarwanda, French) and explicit requests to change the reply language.
 * A naive Bayes model over character n-grams, trained from the same phrases
 * as the intent classifier, does the work: franc alone takes Kinyarwanda for
 * Luba-Lulua and needs longer texts than "ndashaka moto". Messages that carry
 * no language ("ok", "1", "🙏", "taxi") are `null`, so a sticky preference
 * decides.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import { type TrainOptions, trainTextClassifier } from "./intent_classifier.ts";
import type { IntentExamples } from "@shared/registry/intent_types.ts";
import { normalizeText, wordsOf } from "./text_features.ts";

/** Detects a message's language, or null when it carries none. */
export interface LanguageDetector {
  /** The language `text` is written in, or null when it does not say. */
  detect(text: string): Language | null;
}

/** Below this confidence the detector says null rather than guess. */
export const LANGUAGE_CONFIDENCE_THRESHOLD = 0.6;

// Words every language uses on WhatsApp: alone they say nothing about it.
const NEUTRAL = new Set([
  "ok",
  "oki",
  "okay",
  "k",
  "kk",
  "num",
  "phone",
  "menu",
  "taxi",
  "moto",
  "pizza",
  "momo",
  "rwf",
  "frw",
  "fanta",
  "primus",
  "lol",
  "hm",
  "hmm",
  "x",
  "urgent",
]);

// Words and short character n-grams carry a language (" nd", "ou ", "the");
// word pairs, stems and longer n-grams carry the topic, and would only
// make the detector slower to train.
function languageFeature(feature: string): boolean {
  return feature.startsWith("w:") || feature.length === 3;
}

/**
 * Trains the detector from the packs' phrases, each labelled with the
 * language it is filed under.
 */
export function trainLanguageDetector(
  examples: readonly IntentExamples[],
  options: Pick<TrainOptions, "featureCache"> = {},
): LanguageDetector {
  const model = trainTextClassifier(
    examples.flatMap(({ phrases }) =>
      (Object.entries(phrases) as Array<[Language, readonly string[]]>).flatMap((
        [language, list],
      ) => list.map((text) => ({ text, label: language })))
    ),
    { ...options, featureFilter: languageFeature },
  );
  return {
    detect(text: string): Language | null {
      const words = wordsOf(normalizeText(text));
      if (words.every((word) => NEUTRAL.has(word) || word.length < 2)) return null;
      const { agent, confidence } = model.classify(text);
      return agent !== null && confidence >= LANGUAGE_CONFIDENCE_THRESHOLD
        ? agent as Language
        : null;
    },
  };
}

const LANGUAGE_NAMES: Array<[Language, readonly string[]]> = [
  ["en", ["english", "anglais", "icyongereza", "cyongereza", "ingereza", "eng"]],
  ["fr", ["french", "francais", "franc", "igifaransa", "gifaransa", "fr"]],
  ["rw", ["kinyarwanda", "ikinyarwanda", "kinyarwada", "kinya", "rw"]],
];

const SHORT_CODES = new Set(["eng", "fr", "rw", "kinya", "franc"]);

// Words that make a language name a request ("reply in", "parle-moi en").
const REQUEST_WORDS = new Set([
  "reply",
  "answer",
  "speak",
  "talk",
  "write",
  "use",
  "in",
  "please",
  "pls",
  "plz",
  "switch",
  "change",
  "en",
  "parle",
  "parlez",
  "moi",
  "repondez",
  "reponds",
  "ecris",
  "ecrivez",
  "svp",
  "stp",
  "mu",
  "muri",
  "mvugishe",
  "mumvugishe",
  "nvugisha",
  "vuga",
  "muvuge",
  "nsubize",
  "munsubize",
  "andika",
  "mwandike",
  "ndashaka",
  "nshaka",
  "i",
  "want",
  "je",
  "veux",
  "prefere",
  "langue",
  "language",
  "ururimi",
]);

/**
 * The language a message explicitly asks replies in ("reply in French",
 * "parle-moi en anglais", "mvugishe mu Kinyarwanda", "english please"), or
 * null when it asks for none. A message must be mostly the request: "I
 * bought a French book" names a language but asks for nothing.
 */
export function requestedLanguage(text: string): Language | null {
  const words = wordsOf(normalizeText(text));
  if (words.length === 0 || words.length > 7) return null;
  for (const [language, names] of LANGUAGE_NAMES) {
    const named = words.findIndex((word) => names.includes(word));
    if (named === -1) continue;
    const rest = words.filter((_, i) => i !== named);
    // Short codes ("fr", "rw") are too common in other words to count unless alone.
    if (SHORT_CODES.has(words[named]) && rest.length > 0) continue;
    if (rest.every((word) => REQUEST_WORDS.has(word))) return language;
  }
  return null;
}
