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
import { type IntentClassifier, trainTextClassifier } from "./intent_classifier.ts";
import { HARM_PHRASES, NEAR_HARM_ORDINARY } from "./harm_phrases.ts";
import { normalizeText, wordsOf } from "./text_features.ts";

/** The harm score at or above which the signal may flag a message. */
export const HARM_THRESHOLD = 0.99;

/**
 * Fewest words a message needs for the signal to judge it: a harm story takes
 * a sentence, and a short message ("were is my drivr") has too few features
 * for a score to mean anything; short cries for help are the lexicon's.
 */
export const MIN_WORDS = 5;

/** Intent confidence below which no ordinary agent is taken to explain the message. */
export const ORDINARY_CONFIDENCE = 0.5;

const HARM = "harm";
const ORDINARY = "ordinary";

/**
 * Word starts (normalised: no accents, doubled letters single) that often
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
  "casse",
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
  // Kinyarwanda
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
];

const CUE_KEYS = HARM_CUES.map((cue) => ` ${normalizeText(cue)}`);

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
  const { harm = HARM_PHRASES, ordinary = {} } = options;
  const model = trainTextClassifier([
    ...Object.values(harm).flatMap((list) => list.map((text) => ({ text, label: HARM }))),
    ...examples.flatMap(({ phrases }) =>
      Object.values(phrases).flatMap((list) => list.map((text) => ({ text, label: ORDINARY })))
    ),
    ...Object.values(NEAR_HARM_ORDINARY).flatMap((list) =>
      list.map((text) => ({ text, label: ORDINARY }))
    ),
    ...Object.values(ordinary).flatMap((list) =>
      (list ?? []).map((text) => ({ text, label: ORDINARY }))
    ),
  ]);
  const score = (text: string) => {
    const { ranking } = model.classify(text);
    return ranking.find((rank) => rank.agent === HARM)?.confidence ?? 0;
  };
  return {
    score,
    flags(text, intent) {
      const words = wordsOf(normalizeText(text));
      if (words.length < MIN_WORDS || score(text) < HARM_THRESHOLD) return false;
      const padded = ` ${words.join(" ")}`;
      if (CUE_KEYS.some((key) => padded.includes(key))) return true;
      return intent !== undefined && intent.classify(text).confidence < ORDINARY_CONFIDENCE;
    },
  };
}
