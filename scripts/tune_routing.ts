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
import { cliOrExit, numberOption, parseCli } from "./_cli.ts";

const USAGE =
  "Usage: deno run -A scripts/tune_routing.ts [--temperature 2] [--smoothing 0.5] [--min-gram 1] [--max-gram 5]";
// One parser for every script: a misspelt option is an error, not a run with the defaults.
const train = cliOrExit({ name: "tune_routing", usage: USAGE }, () => {
  const { values } = parseCli(Deno.args, {
    options: {
      temperature: { type: "string" },
      smoothing: { type: "string" },
      "min-gram": { type: "string" },
      "max-gram": { type: "string" },
    },
  });
  return {
    temperature: numberOption(values.temperature, "temperature"),
    smoothingFactor: numberOption(values.smoothing, "smoothing"),
    features: {
      minGram: numberOption(values["min-gram"], "min-gram"),
      maxGram: numberOption(values["max-gram"], "max-gram"),
    },
  };
});
const results = crossValidate(PACK_INTENTS, UNCLEAR_PHRASES, { train });
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
