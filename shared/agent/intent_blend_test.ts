import assert from "node:assert/strict";
import type { IntentExamples } from "@shared/registry/intent_types.ts";
import { intentTopic, trainIntentClassifier } from "./intent_classifier.ts";
import { trainTextModel } from "./text_model.ts";

// Curated phrases where "need" is said only by one agent's customers: naive Bayes learns it as
// that agent's word. A broader corpus, where every agent's customers say "need", teaches the
// linear model that it says nothing and the thing asked for decides.
const EXAMPLES: IntentExamples[] = [
  {
    agent: "ride",
    phrases: { en: ["i need a moto", "need a taxi", "i need a ride now"], rw: [], fr: [] },
  },
  {
    agent: "store",
    phrases: { en: ["cement bags", "iron sheets price", "nails"], rw: [], fr: [] },
  },
];
const CORPUS = [
  ...["i need a moto", "need a taxi to town", "a cab please", "moto now"].map((text) => ({
    text,
    label: "ride",
  })),
  ...["i need cement", "need nails", "i need iron sheets", "cement price"].map((text) => ({
    text,
    label: "store",
  })),
];

Deno.test("a linear model blended in outweighs a word naive Bayes learnt from too few phrases", () => {
  const topicOf = intentTopic();
  const model = trainTextModel(CORPUS.map(({ text, label }) => ({ text: topicOf(text), label })));
  const bayes = trainIntentClassifier(EXAMPLES);
  const linear = trainIntentClassifier(EXAMPLES, { model, modelShare: 1 });
  const blend = trainIntentClassifier(EXAMPLES, { model, modelShare: 0.5 });
  const none = trainIntentClassifier(EXAMPLES, { model, modelShare: 0 });
  const text = "i need nails";
  assert.equal(bayes.classify(text).agent, "ride");
  assert.equal(linear.classify(text).agent, "store");
  assert.equal(blend.classify(text).agent, "store");
  // A share of 0 is naive Bayes alone.
  assert.deepEqual(none.classify(text), bayes.classify(text));
  // The blend's beliefs still sum to 1 with the unclear share.
  const read = blend.classify(text);
  const sum = read.ranking.reduce((total, { confidence }) => total + confidence, read.unclear);
  assert.ok(Math.abs(sum - 1) < 1e-9, `${sum}`);
});

Deno.test("the blend keeps the model to the labels the classifier routes between", () => {
  const topicOf = intentTopic();
  // The model learnt "ride", "store" and "bakery"; the classifier routes between "ride",
  // "store" and "library", which the model never learnt.
  const model = trainTextModel([
    ...CORPUS.map(({ text, label }) => ({ text: topicOf(text), label })),
    ...["bread please", "i need bread", "cake and bread"].map((text) => ({
      text,
      label: "bakery",
    })),
  ]);
  const examples: IntentExamples[] = [
    ...EXAMPLES,
    { agent: "library", phrases: { en: ["borrow a book", "a novel to read"], rw: [], fr: [] } },
  ];
  const blend = trainIntentClassifier(examples, { model, modelShare: 0.5 });
  const bayes = trainIntentClassifier(examples);
  for (const text of ["i need bread", "i need nails", "borrow a novel"]) {
    const read = blend.classify(text);
    assert.ok(read.ranking.every(({ agent }) => agent !== "bakery"), text);
    assert.deepEqual(read.ranking.map(({ agent }) => agent).sort(), ["library", "ride", "store"]);
    const sum = read.ranking.reduce((total, { confidence }) => total + confidence, read.unclear);
    assert.ok(Math.abs(sum - 1) < 1e-9, `${text}: ${sum}`);
    // The agent the model never learnt keeps naive Bayes's whole belief.
    const library = (c: typeof read) => c.ranking.find(({ agent }) => agent === "library")!;
    assert.ok(Math.abs(library(read).confidence - library(bayes.classify(text)).confidence) < 1e-9);
  }
  assert.equal(blend.classify("borrow a novel").agent, "library");
  assert.equal(blend.classify("i need nails").agent, "store");
});
