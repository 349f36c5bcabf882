/**
 * One learner for every text the platform classifies offline: a multinomial
 * logistic regression over hashed features (words, word pairs, Kinyarwanda
 * stems and roots, character n-grams by default), trained by averaged
 * stochastic gradient descent. Unlike naive Bayes it weighs features
 * against each other, so a word every class shares ("need", "ndashaka",
 * "besoin") learns a weight near zero instead of voting for whichever class
 * says it most, and a large varied corpus sharpens it instead of flooding
 * it. It predicts a probability per label, and serializes to a compact
 * versioned object (pruned, 8-bit weights) that can be shipped and loaded
 * without training at start.
 *
 * Names no agent, pack or label: the caller brings the labelled texts.
 *
 * @module
 */
import { featuresOf, normalizeText } from "./text_features.ts";
import { decodeBase64 as fromBase64, encodeBase64 as toBase64 } from "@shared/runtime/base64.ts";

/** A text and the label it teaches. */
export interface LabelledSample {
  /** The text as a user would write it. */
  text: string;
  /** What the text means. */
  label: string;
}

/** One label's share of the model's belief. */
export interface LabelProbability {
  /** The label. */
  label: string;
  /** Its probability in [0, 1]; a prediction's probabilities sum to 1. */
  probability: number;
}

/** What the model makes of one text. */
export interface TextPrediction {
  /** The most likely label. */
  label: string;
  /** Its probability. */
  probability: number;
  /** Every label, most likely first. */
  probabilities: LabelProbability[];
  /** How many of the text's features the model has a weight for (0: it knows none). */
  known: number;
}

/** A text's features, as strings; each distinct one counts once. */
export type Featurizer = (text: string) => Iterable<string>;

/** Options for {@linkcode trainTextModel}. */
export interface TextModelOptions {
  /**
   * A text's features. @default the normalised text's words, word pairs,
   * Kinyarwanda stems and roots and character 3–5-grams (text_features.ts)
   */
  featurize?: Featurizer;
  /** Hash buckets (a power of two keeps the hash uniform). @default 2 ** 18 */
  buckets?: number;
  /** Passes over the samples. @default 30 */
  epochs?: number;
  /** The first pass's step; it decays as 1 / (1 + decay × epoch). @default 1 */
  learningRate?: number;
  /** How fast the step decays over the passes (0: constant; the average over every step smooths it). @default 0 */
  decay?: number;
  /** L2 shrinkage per step, applied lazily to the weights a sample touches. @default 1e-6 */
  l2?: number;
  /** Seed of the sample order, so a retrain gives the same weights. @default 1 */
  seed?: number;
}

/** Options for {@linkcode TextModel.serialize}. */
export interface SerializeOptions {
  /**
   * Rows (hash buckets) whose largest weight is below this are dropped: they
   * barely move any label, and dropping them keeps the shipped file small.
   * @default 0.02
   */
  pruneBelow?: number;
  /**
   * The format: 1 writes each kept bucket as 4 bytes, 2 as the gap from the
   * one before in 1 to 5 bytes (LEB128): most gaps between kept buckets are
   * below 128, so a model keeping most of its buckets ships about half the
   * characters. {@linkcode loadTextModel} reads both. @default 1
   */
  version?: 1 | 2;
}

/** A trained model, as {@linkcode TextModel.serialize} writes it (JSON-safe). */
export interface SerializedTextModel {
  /** Format version (see {@linkcode SerializeOptions.version}); {@linkcode loadTextModel} refuses others. */
  version: 1 | 2;
  /** The labels, in weight-column order. */
  labels: string[];
  /** Hash buckets the features were hashed into. */
  buckets: number;
  /** Per-label bias. */
  bias: number[];
  /** Weight = stored byte × scale. */
  scale: number;
  /**
   * The kept buckets, ascending, base64 of little-endian uint32s (version 1)
   * or of each one's gap from the one before as an unsigned LEB128 (version 2).
   */
  rows: string;
  /** Their weights, row by row (labels per row), base64 of int8s. */
  weights: string;
}

/** A trained text classifier. */
export interface TextModel {
  /** The labels it tells apart. */
  readonly labels: readonly string[];
  /** Every label's probability for `text`. */
  predict(text: string): TextPrediction;
  /** The model as a compact JSON-safe object (see {@linkcode SerializeOptions}). */
  serialize(options?: SerializeOptions): SerializedTextModel;
}

/** The default features: those of text_features.ts over the normalised text. */
export const defaultFeaturize: Featurizer = (text) => featuresOf(normalizeText(text));

/** FNV-1a, 32 bits: a feature's bucket is its hash modulo the bucket count. */
export function hashFeature(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// A sample's distinct buckets.
function bucketsOf(text: string, featurize: Featurizer, buckets: number): Uint32Array {
  const seen = new Set<number>();
  for (const feature of featurize(text)) seen.add(hashFeature(feature) % buckets);
  return Uint32Array.from(seen);
}

// Deterministic shuffle (mulberry32), so a retrain reproduces its weights.
function shuffle(order: number[], seed: number): void {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
}

/**
 * Trains a multinomial logistic regression on labelled texts. Features are
 * present or absent, scaled by 1 / sqrt(count) so a long message is no
 * surer than a short one; the weights returned are the average over every
 * step (averaged SGD), which generalises better than the last step's.
 *
 * @throws {RangeError} when fewer than two labels have samples.
 * @example
 * ```ts
 * import { trainTextModel } from "@shared/agent/text_model.ts";
 * const model = trainTextModel([
 *   { text: "a moto to town", label: "ride" },
 *   { text: "cement and nails", label: "hardware" },
 * ]);
 * model.predict("moto please").label; // "ride"
 * ```
 */
export function trainTextModel(
  samples: Iterable<LabelledSample>,
  options: TextModelOptions = {},
): TextModel {
  const {
    featurize = defaultFeaturize,
    buckets = 2 ** 18,
    epochs = 30,
    learningRate = 1,
    decay = 0,
    l2 = 1e-6,
    seed = 1,
  } = options;
  const labelIndex = new Map<string, number>();
  const rows: Uint32Array[] = [];
  const targets: number[] = [];
  for (const { text, label } of samples) {
    if (!labelIndex.has(label)) labelIndex.set(label, labelIndex.size);
    rows.push(bucketsOf(text, featurize, buckets));
    targets.push(labelIndex.get(label)!);
  }
  const labels = [...labelIndex.keys()];
  if (labels.length < 2) {
    throw new RangeError(
      `Cannot train a text model as it needs two labels: current value is ${labels.length}`,
    );
  }
  const L = labels.length;
  const weights = new Float32Array(buckets * L);
  const bias = new Float64Array(L);
  // Averaged SGD by the "lazy sum" trick: `total` accumulates step × update,
  // so the average is weights - total / steps, without touching every weight
  // on every step.
  const total = new Float32Array(buckets * L);
  const biasTotal = new Float64Array(L);
  const scores = new Float64Array(L);
  const order = rows.map((_, i) => i);
  let step = 1;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, seed + epoch);
    const rate = learningRate / (1 + decay * epoch);
    for (const i of order) {
      const row = rows[i];
      if (row.length === 0) continue;
      const x = 1 / Math.sqrt(row.length);
      scores.set(bias);
      for (const b of row) {
        const base = b * L;
        for (let l = 0; l < L; l++) scores[l] += weights[base + l] * x;
      }
      softmaxInPlace(scores);
      scores[targets[i]] -= 1; // gradient of the log loss per label score
      for (let l = 0; l < L; l++) {
        const g = rate * scores[l];
        bias[l] -= g;
        biasTotal[l] -= step * g;
      }
      const shrink = 1 - rate * l2;
      for (const b of row) {
        const base = b * L;
        for (let l = 0; l < L; l++) {
          const g = rate * scores[l] * x;
          const before = weights[base + l];
          const after = before * shrink - g;
          weights[base + l] = after;
          total[base + l] += step * (after - before);
        }
      }
      step++;
    }
  }
  for (let k = 0; k < weights.length; k++) weights[k] -= total[k] / step;
  for (let l = 0; l < L; l++) bias[l] -= biasTotal[l] / step;
  return modelOf(labels, buckets, Array.from(bias), denseLookup(weights, L), featurize, () => {
    const kept: number[] = [];
    for (let b = 0; b < buckets; b++) {
      for (let l = 0; l < L; l++) {
        if (weights[b * L + l] !== 0) {
          kept.push(b);
          break;
        }
      }
    }
    return { kept, row: (b: number) => weights.subarray(b * L, b * L + L) };
  });
}

type Lookup = (bucket: number) => ArrayLike<number> | undefined;

// A bucket no training sample touched has all-zero weights: it is unknown, as in a loaded model.
function denseLookup(weights: Float32Array, labelCount: number): Lookup {
  return (b) => {
    const row = weights.subarray(b * labelCount, b * labelCount + labelCount);
    return row.some((w) => w !== 0) ? row : undefined;
  };
}

function softmaxInPlace(scores: Float64Array): void {
  let top = -Infinity;
  for (const s of scores) top = Math.max(top, s);
  let sum = 0;
  for (let l = 0; l < scores.length; l++) {
    scores[l] = Math.exp(scores[l] - top);
    sum += scores[l];
  }
  for (let l = 0; l < scores.length; l++) scores[l] /= sum;
}

function modelOf(
  labels: readonly string[],
  buckets: number,
  bias: readonly number[],
  lookup: Lookup,
  featurize: Featurizer,
  rowsOf: () => { kept: number[]; row: (b: number) => ArrayLike<number> },
): TextModel {
  const L = labels.length;
  const scores = new Float64Array(L);
  return {
    labels,
    predict(text: string): TextPrediction {
      const row = bucketsOf(text, featurize, buckets);
      scores.set(bias);
      let known = 0;
      const x = row.length === 0 ? 0 : 1 / Math.sqrt(row.length);
      for (const b of row) {
        const weights = lookup(b);
        if (weights === undefined) continue;
        known++;
        for (let l = 0; l < L; l++) scores[l] += weights[l] * x;
      }
      softmaxInPlace(scores);
      const probabilities = labels.map((label, l) => ({ label, probability: scores[l] }))
        .sort((a, b) => b.probability - a.probability);
      return { ...probabilities[0], probabilities, known };
    },
    serialize({ pruneBelow = 0.02, version = 1 }: SerializeOptions = {}): SerializedTextModel {
      const { kept, row } = rowsOf();
      const chosen: number[] = [];
      let largest = 0;
      for (const b of kept) {
        const weights = row(b);
        let top = 0;
        for (let l = 0; l < L; l++) top = Math.max(top, Math.abs(weights[l]));
        if (top >= pruneBelow) {
          chosen.push(b);
          largest = Math.max(largest, top);
        }
      }
      const scale = largest === 0 ? 1 : largest / 127;
      const bytes = new Int8Array(chosen.length * L);
      chosen.forEach((b, r) => {
        const weights = row(b);
        for (let l = 0; l < L; l++) bytes[r * L + l] = Math.round(weights[l] / scale);
      });
      return {
        version,
        labels: [...labels],
        buckets,
        bias: [...bias],
        scale,
        rows: toBase64(
          version === 1 ? new Uint8Array(Uint32Array.from(chosen).buffer) : gapsOf(chosen),
        ),
        weights: toBase64(new Uint8Array(bytes.buffer)),
      };
    },
  };
}

/**
 * A model from what {@linkcode TextModel.serialize} wrote; `featurize` must
 * be the one it was trained with.
 *
 * @throws {TypeError} when the object is not a version-1 or version-2 model.
 */
export function loadTextModel(
  serialized: SerializedTextModel,
  options: { featurize?: Featurizer } = {},
): TextModel {
  if (serialized?.version !== 1 && serialized?.version !== 2) {
    throw new TypeError(
      `Cannot load the text model as its version must be 1 or 2: current value is ${serialized?.version}`,
    );
  }
  const { labels, buckets, bias, scale } = serialized;
  const L = labels.length;
  const rowBytes = fromBase64(serialized.rows);
  const rows = serialized.version === 1
    ? new Uint32Array(rowBytes.buffer, rowBytes.byteOffset, rowBytes.byteLength / 4)
    : bucketsFromGaps(rowBytes);
  const raw = fromBase64(serialized.weights);
  const bytes = new Int8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  if (bytes.length !== rows.length * L) {
    throw new TypeError(
      `Cannot load the text model as its weights must be ${
        rows.length * L
      } bytes: current value is ${bytes.length}`,
    );
  }
  const weights = new Float32Array(bytes.length);
  for (let k = 0; k < bytes.length; k++) weights[k] = bytes[k] * scale;
  const at = new Map<number, number>();
  rows.forEach((b, r) => at.set(b, r));
  const lookup: Lookup = (b) => {
    const r = at.get(b);
    return r === undefined ? undefined : weights.subarray(r * L, r * L + L);
  };
  return modelOf(
    labels,
    buckets,
    bias,
    lookup,
    options.featurize ?? defaultFeaturize,
    () => ({ kept: [...rows], row: (b: number) => lookup(b)! }),
  );
}

// Ascending buckets as each one's gap from the one before (the first's from 0), unsigned LEB128.
function gapsOf(buckets: readonly number[]): Uint8Array {
  const bytes: number[] = [];
  let last = 0;
  for (const bucket of buckets) {
    let gap = bucket - last;
    last = bucket;
    while (gap >= 0x80) {
      bytes.push((gap & 0x7f) | 0x80);
      gap >>>= 7;
    }
    bytes.push(gap);
  }
  return Uint8Array.from(bytes);
}

function bucketsFromGaps(bytes: Uint8Array): Uint32Array {
  const buckets: number[] = [];
  let last = 0;
  let gap = 0;
  let shift = 0;
  for (const byte of bytes) {
    gap += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte & 0x80) continue;
    last += gap;
    buckets.push(last);
    gap = 0;
    shift = 0;
  }
  if (shift !== 0) throw new TypeError("Cannot load the text model as its rows end inside a gap");
  return Uint32Array.from(buckets);
}
