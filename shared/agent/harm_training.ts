/**
 * Training the learned safety signal (harm_signal.ts): its corpus
 * (shared/agent/harm_corpus/*.txt) as two classes, the training itself, and the digest the shipped weights are
 * checked against. Only `deno task gen:harm`, `deno task eval:harm` and tests
 * import it, so the corpus stays out of the functions' bundles: the router
 * loads the weights.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import { type CorpusFile, loadCorpusFiles } from "./corpus_files.ts";
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

/** Messages per language. */
export type MessagesByLanguage = Partial<Record<Language, readonly string[]>>;

/** The two classes the signal learns. */
export interface HarmTraining {
  /** Messages describing harm, per language. */
  harm: MessagesByLanguage;
  /** Ordinary messages, per language. */
  ordinary: MessagesByLanguage;
}

/** Options for {@linkcode trainHarmSignal}. */
export interface HarmSignalOptions extends HarmTraining {
  /** Score at or above which a message is flagged. @default HARM_THRESHOLD */
  threshold?: number;
  /** The learner's settings (text_model.ts). @default HARM_LEARNER */
  learner?: Omit<TextModelOptions, "featurize">;
}

/**
 * The learner's settings, chosen by cross-validation on the corpus (`deno task eval:harm`) with
 * the dev sets as a second check. L2 shrinkage of 5e-3 (the learner's default is 1e-6) keeps a
 * weight from growing on one word a few harm lines share ("tonight", "my wife"): on 1,179 dangers
 * and 2,399 ordinary messages, 1e-6 finds 1,049 with 108 false alarms, 1e-3 1,069 with 114, 5e-3
 * 1,063 with 108, 1e-2 1,050 with 99; at 5e-3 the dev sets find every danger (884/884, one more)
 * with 7 false alarms in 2,184 instead of 9.
 */
export const HARM_LEARNER: Omit<TextModelOptions, "featurize"> = { buckets: 2 ** 16, l2: 5e-3 };

/**
 * The harm corpus's files: `shared/agent/harm_corpus/<kind>.<lang>.txt`, each
 * naming its class in a `# class: harm` or `# class: ordinary` line (read by
 * the one corpus reader, corpus_files.ts, as the routing corpus is).
 */
export function loadHarmCorpusFiles(): Promise<CorpusFile[]> {
  return loadCorpusFiles({
    dir: "shared/agent/harm_corpus",
    name: /^[a-z_]+\.([a-z]{2})\.txt$/,
    key: "class",
  });
}

/** The default training: every harm corpus file's messages, by class and language. */
export async function loadHarmTraining(): Promise<HarmTraining> {
  return harmTrainingOf(await loadHarmCorpusFiles());
}

/**
 * Corpus files' messages by class and language.
 *
 * @throws {TypeError} when a file names a class other than harm or ordinary.
 */
export function harmTrainingOf(files: readonly CorpusFile[]): HarmTraining {
  const harm: Record<string, string[]> = {};
  const ordinary: Record<string, string[]> = {};
  for (const file of files) {
    if (file.label !== HARM_LABEL && file.label !== ORDINARY_LABEL) {
      throw new TypeError(
        `Cannot read ${file.path} as its class must be ${HARM_LABEL} or ${ORDINARY_LABEL}`,
      );
    }
    const into = file.label === HARM_LABEL ? harm : ordinary;
    (into[file.language] ??= []).push(...file.messages);
  }
  return { harm, ordinary };
}

/** The labelled samples the signal learns from: each harm and ordinary message. */
export function harmSamples({ harm, ordinary }: HarmTraining): LabelledSample[] {
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
 * text_model.ts): harm messages against ordinary ones, the harm corpus's
 * ({@linkcode loadHarmTraining}) by default. It reads no agent's phrases,
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
export function trainHarmSignal(options: HarmSignalOptions): HarmSignal & {
  model: TextModel;
} {
  const { harm, ordinary, learner = HARM_LEARNER } = options;
  const model = trainTextModel(harmSamples({ harm, ordinary }), {
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
  const lines = harmSamples(await loadHarmTraining()).map(({ text, label }, at) =>
    at % 20 === 0 ? `${label}\t${text}\t${harmFeatures(text).join(" ")}` : `${label}\t${text}`
  );
  lines.push(JSON.stringify([HARM_LEARNER, HARM_GRAMS]), String(HARM_THRESHOLD));
  const bytes = new TextEncoder().encode(lines.join("\n"));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
