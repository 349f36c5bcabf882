/**
 * The offline intent classifier: a naive Bayes model over words and
 * character n-grams (wink-naive-bayes-text-classifier), trained at start from
 * the packs' example phrases. It says which customer agent a message asks
 * for, how sure it is, and the ranking of every agent.
 *
 * @module
 */
import naiveBayes from "wink-naive-bayes-text-classifier";
import type { Language } from "@shared/contract/language.ts";
import type { IntentExamples } from "@shared/registry/intent_types.ts";
import {
  type FeatureOptions,
  featuresOf,
  forEachFeature,
  nameGazetteer,
  normalizeText,
} from "./text_features.ts";
import type { TextModel } from "./text_model.ts";

/**
 * The confidence below which the router asks a clarifying question instead
 * of guessing. Chosen by 5-fold cross-validation over the packs' training
 * phrases and filler phrases only, never the held-out sets (run
 * `deno run -A scripts/tune_routing.ts`; `cross_validate_test.ts` fails
 * when the phrases change enough to move it): it routes the most
 * cross-validated phrases right, filler counted right when clarified.
 */
export const CONFIDENCE_THRESHOLD = 0.24;

/** One agent's share of the classifier's belief. */
export interface RankedIntent {
  /** The agent id. */
  agent: string;
  /** Probability-like confidence in [0, 1]. */
  confidence: number;
}

/** What the classifier makes of one message. */
export interface Classification {
  /**
   * The most likely agent, or null when the message shares no feature with
   * any phrase or reads most like the phrases that ask for nothing.
   */
  agent: string | null;
  /** The confidence of `agent` in [0, 1] (0 when `agent` is null). */
  confidence: number;
  /** The share of belief that the message asks for nothing ("ok", "hmm"), in [0, 1]. */
  unclear: number;
  /** Every agent, most likely first; with `unclear` the confidences sum to 1. */
  ranking: RankedIntent[];
}

/** A trained intent classifier. */
export interface IntentClassifier {
  /** Classifies one message. */
  classify(text: string): Classification;
}

/** Options for {@linkcode trainIntentClassifier}. */
export interface TrainOptions {
  /**
   * Softmax temperature per feature: the model's log-odds grow with the
   * number of features, so they are divided by `sqrt(features) *
   * temperature` before the softmax; 2 makes the confidence track how often
   * the top agent is right under cross-validation. @default 2
   */
  temperature?: number;
  /** Additive smoothing of the feature counts, in (0, 1]. @default 0.5 */
  smoothingFactor?: number;
  /** Which character n-grams to use (see {@linkcode FeatureOptions}). */
  features?: FeatureOptions;
  /**
   * Features by text, filled and reused across models trained at start from
   * the same phrases with the same `features` options (the intent
   * classifier and the language detector), so each phrase is read once.
   */
  featureCache?: Map<string, string[]>;
  /** Which of a text's features this model uses (all when absent). */
  featureFilter?: (feature: string) => boolean;
}

interface WinkClassifier {
  defineConfig(config: { considerOnlyPresence: boolean; smoothingFactor: number }): boolean;
  learn(input: string[], label: string): boolean;
  consolidate(): boolean;
  exportJSON(): string;
}

// What wink-naive-bayes-text-classifier learned: its config, samples per
// label, feature counts per label, features per label, and the vocabulary.
type WinkLearning = [
  { smoothingFactor: number },
  Record<string, number>,
  Record<string, Record<string, number>>,
  Record<string, number>,
  string[],
];

/** A text and the label it teaches. */
export interface LabelledText {
  /** A message as a user would write it. */
  text: string;
  /** What the message means (an agent id, a language, ...). */
  label: string;
}

/** The label of the training phrases that ask for nothing ("ok", "hmm", "merci"). */
export const UNCLEAR_LABEL = "unclear";

/**
 * Trains a naive Bayes classifier over words and character n-grams from
 * labelled texts; the intent classifier and the language detector are both
 * one. wink-naive-bayes-text-classifier learns the counts; they are then
 * compiled once into one vector of log-odds per feature (wink's own
 * one-vs-rest odds, which are a sum over the message's features), so
 * classifying a message is one map lookup and a few additions per feature
 * instead of re-deriving every likelihood for every label on every call.
 * A label named {@linkcode UNCLEAR_LABEL} is the "asks for nothing" class:
 * it never appears in the ranking, and when it wins the agent is null.
 *
 * @throws {RangeError} when fewer than two labels have texts.
 */
export function trainTextClassifier(
  samples: Iterable<LabelledText>,
  options: TrainOptions = {},
): IntentClassifier {
  const {
    temperature = 2,
    smoothingFactor = 0.5,
    features = {},
    featureCache,
    featureFilter,
  } = options;
  const model = (naiveBayes as unknown as () => WinkClassifier)();
  // Presence, not counts: a phrase that repeats a word is no stronger for it.
  model.defineConfig({ considerOnlyPresence: true, smoothingFactor });
  const labels = new Set<string>();
  for (const { text, label } of samples) {
    let textFeatures = featureCache?.get(text);
    if (textFeatures === undefined) {
      textFeatures = featuresOf(normalizeText(text), features);
      featureCache?.set(text, textFeatures);
    }
    model.learn(
      featureFilter === undefined ? textFeatures : textFeatures.filter(featureFilter),
      label,
    );
    labels.add(label);
  }
  if (labels.size < 2) {
    throw new RangeError(
      `Cannot train a text classifier as it needs two labels: current value is ${labels.size}`,
    );
  }
  model.consolidate();
  const compiled = compile(JSON.parse(model.exportJSON()) as WinkLearning);
  const { labelIds, prior, weights, index } = compiled;
  const labelCount = labelIds.length;
  const unclearAt = labelIds.indexOf(UNCLEAR_LABEL);
  const agents = labelIds.filter((label) => label !== UNCLEAR_LABEL);
  // Reused between calls: classifying allocates only the result.
  const odds = new Float64Array(labelCount);
  let known = 0;
  let featureCount = 0;
  const addFeature = (feature: string) => {
    if (featureFilter !== undefined && !featureFilter(feature)) return;
    featureCount++;
    const at = index.get(feature);
    if (at === undefined) return;
    known++;
    const base = at * labelCount;
    for (let l = 0; l < labelCount; l++) odds[l] += weights[base + l];
  };

  return {
    classify(text: string): Classification {
      odds.set(prior);
      known = 0;
      featureCount = 0;
      forEachFeature(normalizeText(text), addFeature, features);
      if (known === 0) {
        const even = 1 / agents.length;
        return {
          agent: null,
          confidence: 0,
          unclear: 0,
          ranking: agents.map((agent) => ({ agent, confidence: even })),
        };
      }
      const scale = Math.sqrt(featureCount) * temperature;
      let top = -Infinity;
      for (let l = 0; l < labelCount; l++) top = Math.max(top, odds[l]);
      let total = 0;
      for (let l = 0; l < labelCount; l++) {
        odds[l] = Math.exp((odds[l] - top) / scale);
        total += odds[l];
      }
      const ranking: RankedIntent[] = [];
      for (let l = 0; l < labelCount; l++) {
        if (l !== unclearAt) ranking.push({ agent: labelIds[l], confidence: odds[l] / total });
      }
      ranking.sort((a, b) => b.confidence - a.confidence);
      const unclear = unclearAt === -1 ? 0 : odds[unclearAt] / total;
      const best = ranking[0];
      return unclear >= best.confidence
        ? { agent: null, confidence: 0, unclear, ranking }
        : { agent: best.agent, confidence: best.confidence, unclear, ranking };
    },
  };
}

// Wink's odds for a label are, in log2, the label's prior odds plus, for
// each known feature, log P(f | label) - log P(f | other labels), with
// additive smoothing. Precomputing that difference per feature and label
// makes scoring a sum.
function compile([config, samples, count, words, vocabulary]: WinkLearning) {
  const labelIds = Object.keys(samples);
  const labelCount = labelIds.length;
  const alpha = config.smoothingFactor;
  const size = vocabulary.length;
  const totalSamples = labelIds.reduce((sum, label) => sum + samples[label], 0);
  const totalWords = labelIds.reduce((sum, label) => sum + (words[label] ?? 0), 0);
  const prior = new Float64Array(labelCount);
  const inDenominator = new Float64Array(labelCount);
  const outDenominator = new Float64Array(labelCount);
  labelIds.forEach((label, l) => {
    prior[l] = Math.log2(samples[label]) - Math.log2(totalSamples - samples[label]);
    inDenominator[l] = Math.log2((words[label] ?? 0) + size * alpha);
    outDenominator[l] = Math.log2(totalWords - (words[label] ?? 0) + size * alpha);
  });
  // Counts are small integers: their smoothed logs come from a table, and a
  // feature's weight for a label it never occurred in needs only its total.
  const logTable: number[] = [];
  const logOf = (n: number) => logTable[n] ??= Math.log2(n + alpha);
  const totals = new Map<string, number>();
  const counts = labelIds.map((label) => count[label] ?? {});
  for (const perLabel of counts) {
    for (const feature in perLabel) {
      totals.set(feature, (totals.get(feature) ?? 0) + perLabel[feature]);
    }
  }
  const index = new Map<string, number>();
  const weights = new Float64Array(size * labelCount);
  vocabulary.forEach((feature, f) => {
    index.set(feature, f);
    const outside = logOf(totals.get(feature) ?? 0);
    for (let l = 0; l < labelCount; l++) {
      weights[f * labelCount + l] = logOf(0) - inDenominator[l] - outside + outDenominator[l];
    }
  });
  counts.forEach((perLabel, l) => {
    for (const feature in perLabel) {
      const inLabel = perLabel[feature];
      const total = totals.get(feature) ?? 0;
      weights[index.get(feature)! * labelCount + l] = logOf(inLabel) - inDenominator[l] -
        logOf(total - inLabel) + outDenominator[l];
    }
  });
  return { labelIds, prior, weights, index };
}

/** Phrases, in each language, that ask for no service ("ok", "hmm", "murakoze", "merci"). */
export type UnclearPhrases = Record<Language, readonly string[]>;

/** Options for {@linkcode trainIntentClassifier}. */
export interface IntentTrainOptions extends TrainOptions {
  /**
   * Filler messages taught as the {@linkcode UNCLEAR_LABEL} class, so "ok"
   * or "thanks" gets a clarifying question rather than the nearest agent.
   */
  unclear?: UnclearPhrases;
  /**
   * Names that say where or which, never what (the packs' places, vehicle
   * makes): taken out of every phrase and message before the topic is read,
   * so "cement at Nyabugogo" is about cement, not the rides that name
   * Nyabugogo. @default []
   */
  neutralNames?: readonly string[];
  /**
   * A linear model (text_model.ts) trained on the topic text ({@linkcode intentTopic}) of a
   * broad corpus: when given, its per-label probabilities are blended with naive Bayes's by
   * `modelShare`. Naive Bayes over ~50 phrases per agent lets the words every agent's
   * phrases share vote; the linear model, having seen thousands of wordings, weighs them to
   * nothing and keeps the words that say what is asked for. Its labels need not be these
   * examples' agents: it speaks only for the ones they share (renormalised), and an agent it never
   * learnt is read by naive Bayes alone.
   */
  model?: TextModel;
  /** The linear model's share of the blended belief, in [0, 1]. @default 1 */
  modelShare?: number;
}

/**
 * Courtesies that ask for nothing by themselves: read as neutral, like place
 * names, so "remboursez moi svp" is about a refund and not the rides whose
 * phrases happen to say "svp" most, and "yes pls" is as unclear as "yes".
 */
export const COURTESY_WORDS: readonly string[] = [
  "please",
  "pls",
  "plz",
  "plse",
  "pliz",
  "kindly",
  "svp",
  "stp",
  "s'il vous plait",
  "s'il vous plaît",
  "s'il te plait",
  "s'il te plaît",
  "nkwinginze",
  "ndakwinginze",
  "ndabinginze",
  "mbabarira",
];

/**
 * Verbs of buying and of asking after an order, which every selling agent's customers use ("ndashaka kugura panadol",
 * "kugura sima", "acheter du riz"): read as neutral, like courtesies, so the thing bought
 * says which agent sells it instead of the buy & sell agent whose phrases say "buy" most.
 */
export const PURCHASE_WORDS: readonly string[] = [
  "kugura",
  "ngura",
  "ndagura",
  "tugura",
  "buy",
  "buying",
  "acheter",
  // French conjugates it ("j'achete un canape", "on achete"); "achat" is the noun.
  "achete",
  "achetes",
  "achetons",
  "achetez",
  // Asking after an order ("sima natumije ntiragera", "imiti natumije ntiragera", "the food I
  // ordered"): every seller's customers ask it, the thing ordered says whose order it is.
  "natumije",
  "twatumije",
  "watumije",
  "ntiragera",
  "ntibiragera",
  "ntibiraza",
  "ntiraza",
  "ntirahagera",
  "ordered",
];

/**
 * Kinyarwanda's "big" with a noun's class prefix and no initial vowel ("umuhanda munini", "inkono
 * nini", "amatafari manini"): it says how big, not what, so it is read as neutral like courtesies.
 * Read as a word, its letters are the pharmacy's "ibinini" (pills): "ku muhanda munini" went to
 * the pharmacy. "kinini" and "binini" stay words: they also mean a pill and pills when the
 * initial vowel drops after a determiner ("iki kinini", "ibihe binini").
 */
export const SIZE_WORDS: readonly string[] = [
  "nini",
  "munini",
  "banini",
  "minini",
  "rinini",
  "manini",
  "zinini",
  "runini",
  "kanini",
  "tunini",
  "bunini",
  "kunini",
  "hanini",
];

/**
 * Trains the intent classifier from every agent's phrases in every language
 * (and the filler phrases, when given, as the unclear class).
 *
 * @throws {RangeError} when fewer than two agents have phrases.
 * @example Classify a first message
 * ```ts
 * import { trainIntentClassifier } from "@shared/agent/intent_classifier.ts";
 * import { PACK_INTENTS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
 * const classifier = trainIntentClassifier(PACK_INTENTS, { unclear: UNCLEAR_PHRASES });
 * classifier.classify("I need a taxi to Kimironko").agent; // "mobility_orchestrator"
 * classifier.classify("ok thanks").agent; // null
 * ```
 */
export function trainIntentClassifier(
  examples: readonly IntentExamples[],
  options: IntentTrainOptions = {},
): IntentClassifier {
  const { unclear, neutralNames = [], model, modelShare = 1, ...rest } = options;
  const topicOf = intentTopic(neutralNames);
  const train = { ...rest, featureCache: undefined };
  const samples = [
    ...examples.flatMap(({ agent, phrases }) =>
      Object.values(phrases).flatMap((list) =>
        list.map((text) => ({ text: topicOf(text), label: agent }))
      )
    ),
    ...Object.values(unclear ?? {}).flatMap((list) =>
      list.map((text) => ({ text: topicOf(text), label: UNCLEAR_LABEL }))
    ),
  ];
  const classifier = trainTextClassifier(samples, train);
  if (model === undefined || modelShare === 0) {
    return { classify: (text: string) => classifier.classify(topicOf(text)) };
  }
  const labels = new Set(samples.map((sample) => sample.label));
  const modelLabels = new Set(model.labels);
  // The model speaks only for the labels this classifier routes between and it learnt: an
  // agent of a pack it never saw is naive Bayes's alone, and one it learnt but this pack list
  // lacks is never chosen.
  const served = new Set([...labels].filter((label) => modelLabels.has(label)));
  const unseen = [...labels].some((label) => !served.has(label));
  const whole = served.size === modelLabels.size;
  return {
    classify(text: string): Classification {
      const topic = topicOf(text);
      const read = model.predict(topic);
      if (read.known === 0 && modelShare === 1 && !unseen) return classifier.classify(topic);
      const bayes = modelShare === 1 && !unseen ? null : classifier.classify(topic);
      return blend({ probabilities: read.probabilities, bayes, served, whole, modelShare });
    },
  };
}

// The blended belief. A multinomial logistic kept to the labels it `served` is the same model
// over those classes once renormalised; it splits naive Bayes's share of those labels among
// them, and naive Bayes keeps the rest (the agents the model never learnt). When the model
// learnt every label, that share is 1 and the blend is `share × model + (1 − share) × bayes`.
function blend({ probabilities, bayes, served, whole, modelShare }: {
  probabilities: readonly { label: string; probability: number }[];
  bayes: Classification | null;
  served: ReadonlySet<string>;
  /** Whether the model learnt nothing else (its probabilities already sum to 1 over `served`). */
  whole: boolean;
  modelShare: number;
}): Classification {
  const bayesBelief = new Map<string, number>();
  if (bayes !== null) {
    for (const { agent, confidence } of bayes.ranking) bayesBelief.set(agent, confidence);
    bayesBelief.set(UNCLEAR_LABEL, bayes.unclear);
  }
  let modelMass = whole ? 1 : 0;
  for (const { label, probability } of whole ? [] : probabilities) {
    if (served.has(label)) modelMass += probability;
  }
  let bayesServed = 0;
  for (const [label, confidence] of bayesBelief) {
    if (served.has(label)) bayesServed += confidence;
  }
  // Without naive Bayes (the model alone, over labels it all learnt), the model has it all.
  const servedShare = bayes === null ? 1 : bayesServed;
  const belief = new Map<string, number>();
  for (const { label, probability } of probabilities) {
    if (!served.has(label) || modelMass === 0) continue;
    belief.set(label, modelShare * servedShare * probability / modelMass);
  }
  for (const [label, confidence] of bayesBelief) {
    const own = served.has(label) && modelMass > 0 ? 0 : modelShare * confidence;
    belief.set(label, (belief.get(label) ?? 0) + own + (1 - modelShare) * confidence);
  }
  const unclearShare = belief.get(UNCLEAR_LABEL) ?? 0;
  belief.delete(UNCLEAR_LABEL);
  const ranking = [...belief].map(([agent, confidence]) => ({ agent, confidence }))
    .sort((a, b) => b.confidence - a.confidence);
  const best = ranking[0];
  return best === undefined || unclearShare >= best.confidence
    ? { agent: null, confidence: 0, unclear: unclearShare, ranking }
    : { agent: best.agent, confidence: best.confidence, unclear: unclearShare, ranking };
}

/**
 * What the intent classifier reads of a message: its normal form without the names that
 * say where or which (`neutralNames`), courtesies, verbs of buying and Kinyarwanda's "big"
 * ({@linkcode SIZE_WORDS}). A model trained for
 * the classifier (`IntentTrainOptions.model`) learns from this form too.
 */
export function intentTopic(neutralNames: readonly string[] = []): (text: string) => string {
  const names = nameGazetteer([
    ...neutralNames,
    ...COURTESY_WORDS,
    ...PURCHASE_WORDS,
    ...SIZE_WORDS,
  ]);
  // Names and courtesies taken out, a phrase is another text: its features are not the
  // cached ones (the language detector's, which keep them as evidence of a language).
  return (text: string) => names.strip(normalizeText(text));
}
