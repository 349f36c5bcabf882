import assert from "node:assert/strict";
import { PACK_INTENTS } from "@shared/packs/intents.ts";
import { CONFIDENCE_THRESHOLD, trainIntentClassifier } from "./intent_classifier.ts";
import { CUSTOMER_AGENTS } from "./intent_types.ts";

const classifier = trainIntentClassifier(PACK_INTENTS);

Deno.test("the issue's first messages reach the right agent in en, rw and fr", () => {
  assert.deepStrictEqual(
    classifier.classify("I need a taxi to Kimironko").agent,
    "mobility_orchestrator",
  );
  assert.deepStrictEqual(classifier.classify("ndashaka inzu yo gukodesha").agent, "property");
  assert.deepStrictEqual(classifier.classify("je veux assurer ma voiture").agent, "insurance");
});

Deno.test("typos, repeated letters and missing accents do not change the agent", () => {
  assert.deepStrictEqual(
    classifier.classify("NDASHAKAAA MOTOOO i kimironko").agent,
    "mobility_orchestrator",
  );
  assert.deepStrictEqual(classifier.classify("médicament pour la fièvre").agent, "pharmacy");
  assert.deepStrictEqual(classifier.classify("medicament pour la fievre").agent, "pharmacy");
});

Deno.test("the ranking covers every customer agent, sums to 1 and never names a staff agent", () => {
  const { agent, confidence, ranking } = classifier.classify("schedule a broadcast campaign");
  assert.deepStrictEqual(new Set(ranking.map((r) => r.agent)), new Set(CUSTOMER_AGENTS));
  assert.deepStrictEqual(ranking[0].agent, agent);
  assert.deepStrictEqual(ranking[0].confidence, confidence);
  assert.ok(Math.abs(ranking.reduce((sum, r) => sum + r.confidence, 0) - 1) < 1e-9);
});

Deno.test("a message sharing nothing with the phrases has no agent and zero confidence", () => {
  const result = classifier.classify("🙏🙏");
  assert.deepStrictEqual(result.agent, null);
  assert.deepStrictEqual(result.confidence, 0);
  assert.ok(result.confidence < CONFIDENCE_THRESHOLD);
});

Deno.test("training needs phrases for two agents", () => {
  assert.throws(() => trainIntentClassifier([PACK_INTENTS[0]]), RangeError);
});
