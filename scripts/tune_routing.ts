/**
 * Cross-validates the intent classifier on the packs' training phrases only
 * (5 folds) and prints accuracy per language, the clarify rate on filler
 * phrases, and the confidence threshold that routes the most phrases right:
 * where `CONFIDENCE_THRESHOLD` in shared/agent/intent_classifier.ts comes
 * from. The held-out sets are not read.
 *
 * Run: `deno run -A scripts/tune_routing.ts [--temperature 2] [--smoothing 0.5] [--max-gram 5]`
 *
 * @module
 */
import { CONFIDENCE_THRESHOLD } from "@shared/agent/intent_classifier.ts";
import { PACK_INTENTS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
import {
  accuracyAt,
  bestThreshold,
  crossValidate,
  routeAt,
} from "../testing/routing_eval/cross_validate.ts";

const arg = (name: string) => {
  const at = Deno.args.indexOf(name);
  return at === -1 ? undefined : Number(Deno.args[at + 1]);
};
const results = crossValidate(PACK_INTENTS, UNCLEAR_PHRASES, {
  train: {
    temperature: arg("--temperature"),
    smoothingFactor: arg("--smoothing"),
    features: { minGram: arg("--min-gram"), maxGram: arg("--max-gram") },
  },
});
const threshold = bestThreshold(results);
const pct = (value: number) => `${(100 * value).toFixed(1)}%`;
console.log(`Cross-validated phrases: ${results.length}`);
console.log(`Best threshold: ${threshold} (${pct(accuracyAt(results, threshold))} right)`);
console.log(
  `Current CONFIDENCE_THRESHOLD ${CONFIDENCE_THRESHOLD}: ${
    pct(accuracyAt(results, CONFIDENCE_THRESHOLD))
  } right`,
);
for (const t of [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) {
  console.log(`  at ${t.toFixed(2)}: ${pct(accuracyAt(results, t))}`);
}
for (const language of ["en", "rw", "fr"]) {
  const rows = results.filter((row) => row.language === language);
  console.log(`  ${language}: ${pct(accuracyAt(rows, threshold))}`);
}
const agents = [...new Set(results.map((row) => row.expect))];
for (const agent of agents) {
  const rows = results.filter((row) => row.expect === agent);
  const clarified = rows.filter((row) => routeAt(row, threshold) === "clarify").length;
  console.log(
    `  ${agent.padEnd(22)} ${
      pct(accuracyAt(rows, threshold))
    } (clarified ${clarified}/${rows.length})`,
  );
}
