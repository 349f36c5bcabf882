/**
 * The offline intent classifier: a naive Bayes model over words and
 * character n-grams (wink-naive-bayes-text-classifier), trained at start from
 * the packs' example phrases. It says which customer agent a message asks
 * for, how sure it is, and the ranking of every agent.
 *
 * @module
 */
import naiveBayes from "wink-naive-bayes-text-classifier";
import type { IntentExamples } from "./intent_types.ts";
import { featuresOf, normalizeText } from "./text_features.ts";

/**
 * The confidence below which the router asks a clarifying question instead
 * of guessing. Chosen by cross-validation over the packs' phrases (see
 * `intent_classifier_test.ts`): above it the top agent is right far more
 * often than not; below it, more often wrong than right.
 */
export const CONFIDENCE_THRESHOLD = 0.35;

/** One agent's share of the classifier's belief. */
export interface RankedIntent {
  /** The agent id. */
  agent: string;
  /** Probability-like confidence in [0, 1]; the ranking's values sum to 1. */
  confidence: number;
}

/** What the classifier makes of one message. */
export interface Classification {
  /** The most likely agent, or null when the message shares no feature with any phrase. */
  agent: string | null;
  /** The confidence of `agent` in [0, 1] (0 when `agent` is null). */
  confidence: number;
  /** Every agent, most likely first. */
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
}

interface WinkClassifier {
  defineConfig(config: { considerOnlyPresence: boolean; smoothingFactor: number }): boolean;
  definePrepTasks(tasks: Array<(input: unknown) => unknown>): number;
  learn(input: string[], label: string): boolean;
  consolidate(): boolean;
  computeOdds(input: string[]): Array<[string, number]>;
}

/** A text and the label it teaches. */
export interface LabelledText {
  /** A message as a user would write it. */
  text: string;
  /** What the message means (an agent id, a language, ...). */
  label: string;
}

/**
 * Trains a naive Bayes classifier over words and character n-grams from
 * labelled texts; the intent classifier and the language detector are both
 * one.
 *
 * @throws {RangeError} when fewer than two labels have texts.
 */
export function trainTextClassifier(
  samples: Iterable<LabelledText>,
  options: TrainOptions = {},
): IntentClassifier {
  const { temperature = 2 } = options;
  const model = (naiveBayes as unknown as () => WinkClassifier)();
  // Presence, not counts: a phrase that repeats a word is no stronger for it.
  model.defineConfig({ considerOnlyPresence: true, smoothingFactor: 0.5 });
  const labels = new Set<string>();
  for (const { text, label } of samples) {
    model.learn(featuresOf(normalizeText(text)), label);
    labels.add(label);
  }
  if (labels.size < 2) {
    throw new RangeError(
      `Cannot train a text classifier as it needs two labels: current value is ${labels.size}`,
    );
  }
  model.consolidate();
  const labelIds = [...labels];

  return {
    classify(text: string): Classification {
      const features = featuresOf(normalizeText(text));
      const odds = features.length === 0 ? [] : model.computeOdds(features);
      if (odds.length === 0 || odds[0][0] === "unknown") {
        const even = 1 / labelIds.length;
        return {
          agent: null,
          confidence: 0,
          ranking: labelIds.map((agent) => ({ agent, confidence: even })),
        };
      }
      const scale = Math.sqrt(features.length) * temperature;
      const top = odds[0][1] / scale;
      const weights = odds.map(([, value]) => Math.exp(value / scale - top));
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      const ranking = odds.map(([agent], i) => ({ agent, confidence: weights[i] / total }));
      return { agent: ranking[0].agent, confidence: ranking[0].confidence, ranking };
    },
  };
}

/**
 * Trains the intent classifier from every agent's phrases in every language.
 *
 * @throws {RangeError} when fewer than two agents have phrases.
 * @example Classify a first message
 * ```ts
 * import { trainIntentClassifier } from "@shared/agent/intent_classifier.ts";
 * import { PACK_INTENTS } from "@shared/packs/intents.ts";
 * const classifier = trainIntentClassifier(PACK_INTENTS);
 * classifier.classify("I need a taxi to Kimironko").agent; // "mobility_orchestrator"
 * ```
 */
export function trainIntentClassifier(
  examples: readonly IntentExamples[],
  options: TrainOptions = {},
): IntentClassifier {
  return trainTextClassifier(
    examples.flatMap(({ agent, phrases }) =>
      Object.values(phrases).flatMap((list) => list.map((text) => ({ text, label: agent })))
    ),
    options,
  );
}
