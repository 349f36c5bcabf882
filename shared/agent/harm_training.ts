/**
 * Training the learned safety signal (harm_signal.ts): its corpus as two
 * classes, the training itself, and the digest the shipped weights are
 * checked against. Only `deno task gen:harm`, `deno task eval:harm` and tests
 * import it, so the corpus stays out of the functions' bundles: the router
 * loads the weights.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import { HARM_CORPUS } from "./harm_corpus.ts";
import { HARM_PHRASES, NEAR_HARM_ORDINARY } from "./harm_phrases.ts";
import {
  HARM_GRAMS,
  HARM_LABEL,
  HARM_THRESHOLD,
  harmFeatures,
  type HarmSignal,
  harmSignalOf,
  ORDINARY_LABEL,
} from "./harm_signal.ts";
import {
  type LabelledSample,
  type TextModel,
  type TextModelOptions,
  trainTextModel,
} from "./text_model.ts";

/** Options for {@linkcode trainHarmSignal}. */
export interface HarmSignalOptions {
  /** Score at or above which a message is flagged. @default HARM_THRESHOLD */
  threshold?: number;
  /**
   * Messages describing harm, per language.
   * @default DEFAULT_HARM
   */
  harm?: Partial<Record<Language, readonly string[]>>;
  /**
   * Ordinary messages, per language.
   * @default DEFAULT_ORDINARY
   */
  ordinary?: Partial<Record<Language, readonly string[]>>;
  /** The learner's settings (text_model.ts). @default HARM_LEARNER */
  learner?: Omit<TextModelOptions, "featurize">;
}

/** The learner's settings, chosen by cross-validation on the corpus (`deno task eval:harm`). */
export const HARM_LEARNER: Omit<TextModelOptions, "featurize"> = { buckets: 2 ** 16 };

/** The harm class of the default training: the harm phrases and the corpus's harm. */
export const DEFAULT_HARM: Record<Language, readonly string[]> = {
  en: [...HARM_PHRASES.en, ...HARM_CORPUS.en.harm],
  rw: [...HARM_PHRASES.rw, ...HARM_CORPUS.rw.harm],
  fr: [...HARM_PHRASES.fr, ...HARM_CORPUS.fr.harm],
};

/**
 * The ordinary class of the default training: near-harm complaints and the
 * corpus's ordinary and plain messages.
 */
export const DEFAULT_ORDINARY: Record<Language, readonly string[]> = {
  en: [...NEAR_HARM_ORDINARY.en, ...HARM_CORPUS.en.ordinary, ...HARM_CORPUS.en.plain],
  rw: [...NEAR_HARM_ORDINARY.rw, ...HARM_CORPUS.rw.ordinary, ...HARM_CORPUS.rw.plain],
  fr: [...NEAR_HARM_ORDINARY.fr, ...HARM_CORPUS.fr.ordinary, ...HARM_CORPUS.fr.plain],
};

/** The labelled samples the signal learns from: each harm and ordinary message. */
export function harmSamples(
  harm: Partial<Record<Language, readonly string[]>> = DEFAULT_HARM,
  ordinary: Partial<Record<Language, readonly string[]>> = DEFAULT_ORDINARY,
): LabelledSample[] {
  return [
    ...Object.values(harm).flatMap((list) =>
      (list ?? []).map((text) => ({ text, label: HARM_LABEL }))
    ),
    ...Object.values(ordinary).flatMap((list) =>
      (list ?? []).map((text) => ({ text, label: ORDINARY_LABEL }))
    ),
  ];
}

/**
 * Trains a harm signal on its own corpus only (the shared learner,
 * text_model.ts): the harm phrases and the harm corpus against the near-harm
 * complaints and the corpus's ordinary messages. It reads no agent's phrases,
 * so retraining the router (new phrases for any agent) leaves every harm
 * verdict as it was. Training takes seconds: the router loads the shipped
 * weights instead ({@linkcode loadHarmSignal}); this is for cross-validation
 * and `deno task gen:harm`.
 *
 * @example
 * ```ts
 * import { trainHarmSignal } from "@shared/agent/harm_training.ts";
 * const harm = trainHarmSignal({
 *   harm: { en: ["he hit me with a stick", "they took my bag and ran"] },
 *   ordinary: { en: ["a stick of butter", "a bag of rice"] },
 * });
 * harm.score("he hit me and ran") > harm.score("a bag of butter"); // true
 * ```
 */
export function trainHarmSignal(options: HarmSignalOptions = {}): HarmSignal & {
  model: TextModel;
} {
  const { harm = DEFAULT_HARM, ordinary = DEFAULT_ORDINARY, learner = HARM_LEARNER } = options;
  const model = trainTextModel(harmSamples(harm, ordinary), {
    ...learner,
    featurize: harmFeatures,
  });
  return { ...harmSignalOf(model, options.threshold), model };
}

/**
 * A digest of everything the shipped weights depend on: each training
 * sample's label and text, the features of every 20th (so a change to the
 * lexicon's concepts or to text_features.ts shows, at a twentieth of the cost
 * of reading them all), the learner's settings and the threshold. The
 * weights' test compares it with the one harm_model.ts was written from.
 */
export async function harmTrainingDigest(): Promise<string> {
  const lines = harmSamples().map(({ text, label }, at) =>
    at % 20 === 0 ? `${label}\t${text}\t${harmFeatures(text).join(" ")}` : `${label}\t${text}`
  );
  lines.push(JSON.stringify([HARM_LEARNER, HARM_GRAMS]), String(HARM_THRESHOLD));
  const bytes = new TextEncoder().encode(lines.join("\n"));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
