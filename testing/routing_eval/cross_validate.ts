/**
 * K-fold cross-validation of the intent classifier over the packs' own
 * training phrases (never the held-out sets): each phrase is classified by
 * a model trained without its fold. The confidence threshold and model
 * options are chosen from these figures, so the held-out sets stay a fair
 * test.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import {
  type IntentTrainOptions,
  trainIntentClassifier,
  type UnclearPhrases,
} from "@shared/agent/intent_classifier.ts";
import type { IntentExamples } from "@shared/registry/intent_types.ts";

/** What one held-out training phrase got. */
export interface FoldResult {
  /** Its agent, or `clarify` for a filler phrase. */
  expect: string;
  language: Language;
  /** The classifier's agent (null: unclear or unknown). */
  agent: string | null;
  confidence: number;
}

/** Options for {@linkcode crossValidate}. */
export interface CrossValidateOptions {
  /** Number of folds. @default 5 */
  folds?: number;
  /** How to train each fold's model. */
  train?: Omit<IntentTrainOptions, "unclear">;
}

/** Classifies every training phrase with a model that never saw it. */
export function crossValidate(
  examples: readonly IntentExamples[],
  unclear: UnclearPhrases,
  options: CrossValidateOptions = {},
): FoldResult[] {
  const { folds = 5, train = {} } = options;
  // The packs' lists run roughly parallel across languages (a phrase and its
  // translations at the same place): offset each language so a phrase's
  // translations mostly fall in other folds, as a user's wording is new but
  // the thing asked for is usually known.
  const offset = { en: 0, rw: 1, fr: 2 };
  const inFold = (i: number, fold: number, language: Language) =>
    (i + offset[language]) % folds === fold;
  const results: FoldResult[] = [];
  for (let fold = 0; fold < folds; fold++) {
    const pick = (list: readonly string[], held: boolean, language: Language) =>
      list.filter((_, i) => inFold(i, fold, language) === held);
    const byLanguage = (phrases: Record<Language, readonly string[]>, held: boolean) => ({
      en: pick(phrases.en, held, "en"),
      rw: pick(phrases.rw, held, "rw"),
      fr: pick(phrases.fr, held, "fr"),
    });
    const classifier = trainIntentClassifier(
      examples.map(({ agent, phrases }) => ({ agent, phrases: byLanguage(phrases, false) })),
      { ...train, unclear: byLanguage(unclear, false) },
    );
    const sets: Array<[string, Record<Language, readonly string[]>]> = [
      ...examples.map(({ agent, phrases }): [string, Record<Language, readonly string[]>] => [
        agent,
        byLanguage(phrases, true),
      ]),
      ["clarify", byLanguage(unclear, true)],
    ];
    for (const [expect, phrases] of sets) {
      for (const language of ["en", "rw", "fr"] as const) {
        for (const text of phrases[language]) {
          const { agent, confidence } = classifier.classify(text);
          results.push({ expect, language, agent, confidence });
        }
      }
    }
  }
  return results;
}

/** The route a fold result gets at `threshold`: its agent, or `clarify`. */
export function routeAt(result: FoldResult, threshold: number): string {
  return result.agent === null || result.confidence < threshold ? "clarify" : result.agent;
}

/** The share of fold results routed right at `threshold`. */
export function accuracyAt(results: readonly FoldResult[], threshold: number): number {
  const right = results.filter((result) => routeAt(result, threshold) === result.expect).length;
  return results.length === 0 ? 0 : right / results.length;
}

/**
 * The threshold, on a 0.01 grid, that routes the most cross-validated
 * phrases right; of equally good ones, the middle of the best run, so a
 * small change in the data does not swing it to an edge.
 */
export function bestThreshold(results: readonly FoldResult[]): number {
  const grid = Array.from({ length: 100 }, (_, i) => i / 100);
  const scores = grid.map((threshold) => accuracyAt(results, threshold));
  const best = Math.max(...scores);
  const top = grid.filter((_, i) => scores[i] >= best - 1e-9);
  return top[Math.floor((top.length - 1) / 2)];
}
