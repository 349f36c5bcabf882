/**
 * The learned safety signal beside the lexicon of safety.ts: a naive Bayes
 * model, trained at start, that tells a message describing harm
 * ({@linkcode HARM_PHRASES}) from the packs' ordinary requests, so a danger,
 * violence or theft told in words the lexicon never listed still reaches a
 * person ("the house girl left at night with our jewellery").
 *
 * A statistical score alone raises false alarms on ordinary messages that
 * sound like a story ("my phone died, I need a charger"), and a false alarm
 * hands a shopper to staff. So it flags only when the harm score is very
 * high AND a second, independent check agrees: the message carries a
 * harm-adjacent cue ({@linkcode HARM_CUES}: took, gone, blood, smoke,
 * yatwaye, fumée...) or the intent classifier is not confident of any
 * ordinary agent.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import type { IntentExamples } from "@shared/registry/intent_types.ts";
import type { IntentClassifier } from "./intent_classifier.ts";
import { HARM_PHRASES, NEAR_HARM_ORDINARY } from "./harm_phrases.ts";
import { withoutHarmIdioms } from "./safety.ts";
import {
  expandShorthands,
  featuresOf,
  forEachFeature,
  normalizeText,
  wordsOf,
} from "./text_features.ts";

/**
 * The harm score at or above which the signal may flag a message. Calibrated
 * on the tuning sets (harder dev, the fresh sets' dev halves, the first
 * messages): at 0.97 with {@linkcode ORDINARY_CONFIDENCE} 0.7 no ordinary
 * message is flagged and the signal alone finds 61 of the 99 fresh safety
 * messages (48 at 0.99 and 0.5); at 0.95 an ordinary one is ("the driver is
 * late, he is not answering"), so 0.97 keeps a margin.
 */
export const HARM_THRESHOLD = 0.97;

/**
 * Fewest words a message needs for the signal to judge it: a harm story takes
 * a sentence, and a short message ("were is my drivr") has too few features
 * for a score to mean anything; short cries for help are the lexicon's.
 */
export const MIN_WORDS = 5;

/** Intent confidence below which no ordinary agent is taken to explain the message. */
export const ORDINARY_CONFIDENCE = 0.7;

/**
 * English and French word starts (normalised: no accents, doubled letters single) that often
 * come with harm but not only with it: never enough alone, only a second
 * check on a very high harm score. Weapons are left out: knives, machetes
 * and guns are sold too ("a knife set for the kitchen"), and one carried
 * against a person is already the lexicon's.
 */
export const HARM_CUES: readonly string[] = [
  // English
  "took",
  "taken",
  "gone",
  "left with",
  "ran",
  "rode",
  "drove of",
  "vanish",
  "disap",
  "mising",
  "lost",
  "blod",
  "bled",
  "bleed",
  "bruis",
  "swolen",
  "smoke",
  "flame",
  "burn",
  "fire",
  "gas",
  "leak",
  "explo",
  "shot",
  "fight",
  "push",
  "grab",
  "snatch",
  "drag",
  "choke",
  "neck",
  "breath",
  "touch",
  "folow",
  "watching me",
  "watching us",
  "watching our",
  "staring",
  "waiting outside",
  "scream",
  "cry",
  "crying",
  "cried",
  "afraid",
  "scared",
  "hurt",
  "kick",
  "forced",
  "broke",
  "broken",
  "police",
  "regret",
  "disappear",
  "not moving",
  "lying",
  "crash",
  "knocked",
  "trapped",
  "drink",
  "dizzy",
  "pin",
  "pined",
  "pretend",
  "blocks",
  "blocked",
  "alone",
  "at night",
  // French
  "pris",
  "parti",
  "enfui",
  "disparu",
  "volatilis",
  "sang",
  "saign",
  "bleu",
  "gonfl",
  "fumee",
  "flam",
  "brul",
  "feu",
  "gaz",
  "fuit",
  "tire",
  "bat",
  "batu",
  "batent",
  "pous",
  "arach",
  "serre",
  "cou",
  "respir",
  "touch",
  "suit",
  "crie",
  "hurl",
  "pleur",
  "peur",
  "blesse",
  "force",
  // "cassé" normalises to English "case" ("the case is closed"): the fracture is the cue.
  "fracas",
  "coups",
  "regret",
  "bouge",
  "couche",
  "renvers",
  "coince",
  "verre",
  "tourne",
  "code",
  "passer pour",
  "bloque",
  "seule",
  "seul",
  "nuit",
];

/**
 * Kinyarwanda cues, matched anywhere in a word (normalised): the language puts
 * subject, tense and object before the stem and endings after it, so
 * "ryabyimbye" (it swelled, of an eye) and "kunshikuza" (to snatch from me)
 * carry their stems ("byimb", "shikuz") inside.
 */
export const HARM_CUE_STEMS_RW: readonly string[] = [
  "yatwaye",
  "batwara",
  "batwaye",
  "ajyana",
  "yagiye",
  "yabuze",
  "yaburiwe",
  "ntiyatashye",
  "bitakiriho",
  "amaraso",
  "umwotsi",
  "umuriro",
  "gaze",
  "barwan",
  "yansunik",
  "bansunik",
  "banyambuy",
  "yanshikuj",
  "ijosi",
  "umwuka",
  "nkoraho",
  "unkoraho",
  "inkoraho",
  "ataka",
  "arira",
  "ubwoba",
  "atinya",
  "ibisebe",
  "inguma",
  "yabyimb",
  "bamenye",
  "yamenetse",
  "imigeri",
  "polisi",
  "nzabyicuza",
  "ubuzima",
  "atanyeganyega",
  "uryamye",
  "yagonze",
  "impanuka",
  "ikinyobwa",
  "nzunguye",
  "ibanga",
  "wiyita",
  "yamfungiye",
  "jyenyine",
  "nijoro",
  "hijimye",
  "iravuza",
  "umunuko",
  "byimb",
  "shikuz",
  "shikuj",
  "aryamye",
  "komerek",
  "nyeganyeg",
];

// A cue of one word is a word start ("disap" for "disappeared"); a cue of several words ends
// on a whole word, so "left with" is not "left without"; a cue of three letters or fewer is a
// whole word, so the neck ("cou") is no "cousin" and "ran" no "random".
const CUE_KEYS = [
  ...HARM_CUES.map((cue) => {
    const key = normalizeText(cue);
    return key.includes(" ") || key.length <= 3 ? ` ${key} ` : ` ${key}`;
  }),
  ...HARM_CUE_STEMS_RW.map(normalizeText),
];

// A request to buy or price a thing, on the padded normalised text.
const PURCHASE =
  / (?:where can i buy|i want to buy|seling|i sel|for sale|je vends|a vendre|ndagurisha|do you (?:have|sel)|how much (?:is|are|for)|nagura|ngure|ndashaka kugura|mufite|murayifite|murabifite|igura angahe|ni angahe|vous avez|vous vendez|combien (?:coute|pour)|je cherche a acheter|ou acheter)\b/;

/** A trained harm signal. */
export interface HarmSignal {
  /** How much the message reads like a harm described rather than a request, in [0, 1]. */
  score(text: string): number;
  /**
   * Whether the message describes harm by this signal: a score of at least
   * {@linkcode HARM_THRESHOLD}, at least {@linkcode MIN_WORDS} words, and either a
   * harm cue or no confident ordinary agent.
   *
   * @param text The message as the user wrote it.
   * @param intent The intent classifier that routes ordinary messages (the second check).
   */
  flags(text: string, intent?: IntentClassifier): boolean;
}

/** Options for {@linkcode trainHarmSignal}. */
export interface HarmSignalOptions {
  /** Messages describing harm, per language. @default HARM_PHRASES */
  harm?: Record<Language, readonly string[]>;
  /** Extra ordinary messages (the filler phrases), per language. @default none */
  ordinary?: Partial<Record<Language, readonly string[]>>;
  /**
   * Features by text, shared with the language detector (same features), so
   * the packs' phrases are read once at start.
   */
  featureCache?: Map<string, string[]>;
}

/**
 * Trains the harm signal at start: the harm phrases against every agent's
 * phrases, the near-harm ordinary complaints ({@linkcode NEAR_HARM_ORDINARY})
 * and the filler, over the intent classifier's features.
 *
 * @example
 * ```ts
 * import { trainHarmSignal } from "@shared/agent/harm_signal.ts";
 * import { PACK_INTENTS } from "@shared/platform/platform.ts";
 * const harm = trainHarmSignal(PACK_INTENTS);
 * harm.flags("the house girl left at night with our jewellery"); // true
 * harm.flags("a knife set for the kitchen"); // false
 * ```
 */
export function trainHarmSignal(
  examples: readonly IntentExamples[],
  options: HarmSignalOptions = {},
): HarmSignal {
  const { harm = HARM_PHRASES, ordinary = {}, featureCache } = options;
  const ordinaryTexts = [
    ...examples.flatMap(({ phrases }) => Object.values(phrases).flat()),
    ...Object.values(NEAR_HARM_ORDINARY).flat(),
    ...Object.values(ordinary).flatMap((list) => list ?? []),
  ];
  const score = trainTwoClassBayes(Object.values(harm).flat(), ordinaryTexts, featureCache);
  return {
    score,
    flags(text, intent) {
      // Read as the lexicon reads it: an idiom, a product against a harm or paperwork about a
      // past theft loses its harm words ("the price is killing me" reads "the price"), so the
      // two detectors disarm the same ordinary frames.
      const read = withoutHarmIdioms(expandShorthands(normalizeText(text)));
      const words = wordsOf(read);
      if (words.length < MIN_WORDS || score(read) < HARM_THRESHOLD) return false;
      const padded = ` ${words.join(" ")} `;
      // Asking to buy, sell or price a thing ("which syrup should I buy", "selling our TV") is a
      // shopper's message however its story sounds; harm told with a purchase in it is the
      // lexicon's, which reads each clause.
      if (PURCHASE.test(padded)) return false;
      if (CUE_KEYS.some((key) => padded.includes(key))) return true;
      return intent !== undefined && intent.classify(text).confidence < ORDINARY_CONFIDENCE;
    },
  };
}

// Naive Bayes over feature presence for two classes, the same odds as the intent
// classifier's (wink's one-vs-rest log2 odds, additive smoothing 0.5, divided by
// sqrt(features) * 2 before the softmax), counted directly: with the packs' phrases'
// features already read by the language detector, training costs one map update per
// feature instead of a second wink model, its JSON export and compilation.
function trainTwoClassBayes(
  harm: readonly string[],
  ordinary: readonly string[],
  featureCache?: Map<string, string[]>,
): (text: string) => number {
  const alpha = 0.5;
  const temperature = 2;
  const counts = new Map<string, [number, number]>();
  const totals = [0, 0];
  const learn = (texts: readonly string[], label: 0 | 1) => {
    for (const text of texts) {
      let features = featureCache?.get(text);
      if (features === undefined) {
        features = featuresOf(normalizeText(text));
        featureCache?.set(text, features);
      }
      for (const feature of features) {
        let pair = counts.get(feature);
        if (pair === undefined) counts.set(feature, pair = [0, 0]);
        pair[label]++;
      }
      totals[label] += features.length;
    }
  };
  learn(harm, 0);
  learn(ordinary, 1);
  const size = counts.size;
  const prior = Math.log2(harm.length) - Math.log2(ordinary.length);
  const harmDenominator = Math.log2(totals[0] + size * alpha);
  const ordinaryDenominator = Math.log2(totals[1] + size * alpha);
  // The harm class's log2 odds per feature; the ordinary class's are their negation.
  const weights = new Map<string, number>();
  for (const [feature, [inHarm, inOrdinary]] of counts) {
    weights.set(
      feature,
      Math.log2(inHarm + alpha) - harmDenominator - Math.log2(inOrdinary + alpha) +
        ordinaryDenominator,
    );
  }
  let odds = 0;
  let known = 0;
  let featureCount = 0;
  const add = (feature: string) => {
    featureCount++;
    const weight = weights.get(feature);
    if (weight === undefined) return;
    known++;
    odds += weight;
  };
  return (text: string) => {
    odds = prior;
    known = 0;
    featureCount = 0;
    forEachFeature(normalizeText(text), add);
    if (known === 0) return 0;
    // Two classes with opposite odds: the softmax of (odds, -odds) is a logistic.
    return 1 / (1 + Math.exp(-2 * odds / (Math.sqrt(featureCount) * temperature)));
  };
}
