import assert from "node:assert/strict";
import {
  hashFeature,
  type LabelledSample,
  loadTextModel,
  type SerializedTextModel,
  trainTextModel,
} from "./text_model.ts";

// Three small topics in two languages; "need"/"ndashaka" are said in every topic, so only a
// model that weighs features against each other learns they say nothing.
const SAMPLES: LabelledSample[] = [
  ...[
    "i need a moto to town",
    "need a taxi to the airport",
    "moto please",
    "ndashaka moto",
    "ndashaka tagisi ijya mu mujyi",
    "a cab to Remera",
  ].map((text) => ({ text, label: "ride" })),
  ...[
    "i need cement",
    "need nails and iron sheets",
    "price of cement bags",
    "ndashaka sima",
    "amabati n'imisumari",
    "paint and cement",
  ].map((text) => ({ text, label: "hardware" })),
  ...[
    "i need medicine for a cough",
    "need paracetamol",
    "pharmacy open now",
    "ndashaka imiti",
    "umuti w'inkorora",
    "medicine for my child",
  ].map((text) => ({ text, label: "medicine" })),
];

Deno.test("trainTextModel tells apart texts it never saw by their topic words", () => {
  const model = trainTextModel(SAMPLES);
  assert.deepEqual(model.predict("moto to Kimironko").label, "ride");
  assert.deepEqual(model.predict("ndashaka sima nyinshi").label, "hardware");
  assert.deepEqual(model.predict("cough medicine").label, "medicine");
  // A word all topics share decides nothing: the topic word does.
  assert.deepEqual(model.predict("i need paint").label, "hardware");
});

Deno.test("predictions are probabilities over every label, most likely first", () => {
  const model = trainTextModel(SAMPLES);
  const prediction = model.predict("moto");
  assert.deepEqual(prediction.probabilities.length, 3);
  const sum = prediction.probabilities.reduce((total, entry) => total + entry.probability, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9);
  assert.deepEqual(prediction.probabilities[0].label, prediction.label);
  assert.ok(prediction.probability > prediction.probabilities[1].probability);
  assert.ok(prediction.known > 0);
});

Deno.test("a text sharing no feature with the training texts is unknown and near-even", () => {
  const model = trainTextModel(SAMPLES);
  const prediction = model.predict("zzqx");
  assert.deepEqual(prediction.known, 0);
  assert.ok(prediction.probability < 0.5);
});

Deno.test("a serialized model loads back and predicts like the trained one", () => {
  const model = trainTextModel(SAMPLES);
  const serialized: SerializedTextModel = JSON.parse(JSON.stringify(model.serialize()));
  assert.deepEqual(serialized.version, 1);
  const loaded = loadTextModel(serialized);
  assert.deepEqual(loaded.labels, model.labels);
  for (const text of ["moto to Kimironko", "ndashaka sima", "cough medicine", "i need paint"]) {
    const a = model.predict(text);
    const b = loaded.predict(text);
    assert.deepEqual(b.label, a.label);
    assert.ok(
      Math.abs(a.probability - b.probability) < 0.05,
      `${text}: ${a.probability} vs ${b.probability}`,
    );
  }
  // Re-serializing a loaded model keeps it.
  assert.deepEqual(loaded.serialize({ pruneBelow: 0 }).labels, serialized.labels);
});

Deno.test("version 2 writes the kept buckets as gaps: smaller, and loads to the same model", () => {
  // Buckets far apart (gaps of several LEB128 bytes) as well as neighbours.
  const model = trainTextModel(SAMPLES, { buckets: 2 ** 22 });
  const one = model.serialize({ pruneBelow: 0 });
  const two: SerializedTextModel = JSON.parse(
    JSON.stringify(model.serialize({ pruneBelow: 0, version: 2 })),
  );
  assert.deepEqual(two.version, 2);
  assert.deepEqual(two.weights, one.weights);
  const a = loadTextModel(one);
  const b = loadTextModel(two);
  assert.deepEqual(b.serialize({ pruneBelow: 0 }).rows, a.serialize({ pruneBelow: 0 }).rows);
  for (const text of ["moto to Kimironko", "ndashaka sima", "cough medicine", "zzqx"]) {
    assert.deepEqual(b.predict(text), a.predict(text));
  }
  const dense = trainTextModel(SAMPLES, { buckets: 2 ** 8 });
  assert.ok(
    dense.serialize({ pruneBelow: 0, version: 2 }).rows.length <
      dense.serialize({ pruneBelow: 0 }).rows.length / 2,
  );
});

Deno.test("a version-2 model whose rows end inside a gap is refused", () => {
  const serialized = trainTextModel(SAMPLES).serialize({ version: 2 });
  assert.throws(
    () => loadTextModel({ ...serialized, rows: btoa(String.fromCharCode(0x85)) }),
    /end inside a gap/,
  );
});

Deno.test("pruning drops the weak rows and keeps the file smaller", () => {
  const model = trainTextModel(SAMPLES);
  const all = model.serialize({ pruneBelow: 0 });
  const pruned = model.serialize({ pruneBelow: 0.2 });
  assert.ok(pruned.weights.length < all.weights.length);
});

Deno.test("training is deterministic for a seed", () => {
  const a = trainTextModel(SAMPLES, { seed: 7 }).serialize();
  const b = trainTextModel(SAMPLES, { seed: 7 }).serialize();
  assert.deepEqual(a, b);
});

Deno.test("a custom featurizer is used for training and prediction", () => {
  const firstWord = (text: string) => [text.split(" ")[0]];
  const model = trainTextModel(SAMPLES, { featurize: firstWord });
  assert.deepEqual(model.predict("moto cement medicine").label, "ride");
  const loaded = loadTextModel(model.serialize(), { featurize: firstWord });
  assert.deepEqual(loaded.predict("moto cement medicine").label, "ride");
});

Deno.test("one label, or a foreign format, is refused with a clear error", () => {
  assert.throws(
    () => trainTextModel([{ text: "a", label: "x" }, { text: "b", label: "x" }]),
    /needs two labels/,
  );
  assert.throws(
    () => loadTextModel({ version: 3 } as unknown as SerializedTextModel),
    /version must be 1 or 2/,
  );
});

Deno.test("hashFeature is stable (shipped weights depend on it)", () => {
  assert.deepEqual(hashFeature(""), 0x811c9dc5);
  assert.deepEqual(hashFeature("a"), 0xe40c292c);
});
