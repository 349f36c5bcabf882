import assert from "node:assert/strict";
import { CONFIDENCE_THRESHOLD } from "@shared/agent/intent_classifier.ts";
import { PACK_INTENTS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
import { accuracyAt, bestThreshold, crossValidate, routeAt } from "./cross_validate.ts";

Deno.test("CONFIDENCE_THRESHOLD is the one cross-validation over the training phrases picks", () => {
  const results = crossValidate(PACK_INTENTS, UNCLEAR_PHRASES);
  const best = bestThreshold(results);
  // Re-derive with `deno run -A scripts/tune_routing.ts` when the phrases change.
  assert.ok(
    accuracyAt(results, CONFIDENCE_THRESHOLD) >= accuracyAt(results, best) - 0.005,
    `cross-validation now prefers ${best}`,
  );
});

Deno.test("a fold result below the threshold, or with no agent, is a clarifying question", () => {
  const result = {
    expect: "pharmacy",
    language: "en" as const,
    agent: "pharmacy",
    confidence: 0.3,
  };
  assert.deepStrictEqual(routeAt(result, 0.2), "pharmacy");
  assert.deepStrictEqual(routeAt(result, 0.4), "clarify");
  assert.deepStrictEqual(routeAt({ ...result, agent: null }, 0), "clarify");
  assert.deepStrictEqual(accuracyAt([result], 0.4), 0);
  assert.deepStrictEqual(bestThreshold([result]), 0.15);
});
