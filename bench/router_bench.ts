/**
 * What the offline router costs, each beside a baseline in the same run
 * (deno bench prints the ratio): classifying one message vs normalising it,
 * and training at start vs normalising every training phrase. Goals: at most
 * 1 ms per message, at most 200 ms to train.
 *
 * Run: `deno task bench`
 *
 * @module
 */
import { trainIntentClassifier } from "@shared/agent/intent_classifier.ts";
import { decideRoute, trainRouteContext } from "@shared/agent/route_decision.ts";
import { createRouter } from "@shared/agent/router.ts";
import { normalizeText } from "@shared/agent/text_features.ts";
import { PACK_INTENTS, PACKS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";

const message = "oya, ahubwo nshaka moto injyana i Kimironko vuba cyane";
const phrases = PACK_INTENTS.flatMap(({ phrases }) => Object.values(phrases).flat());
const agents = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES }).agents;
const training = { examples: PACK_INTENTS, unclear: UNCLEAR_PHRASES, agents };
const context = trainRouteContext(training);
const state = { agent: "waiter_ai", atMenu: false, menuOptions: [], langPref: "rw" as const };

Deno.bench("normalise one message", { group: "message", baseline: true }, () => {
  normalizeText(message);
});
Deno.bench("classify one message", { group: "message" }, () => {
  context.classifier.classify(message);
});
Deno.bench("route one message (classify + language + markers)", { group: "message" }, () => {
  decideRoute(message, state, context);
});

Deno.bench("normalise every training phrase", { group: "train", baseline: true }, () => {
  for (const phrase of phrases) normalizeText(phrase);
});
Deno.bench("train the intent classifier", { group: "train" }, () => {
  trainIntentClassifier(PACK_INTENTS, { unclear: UNCLEAR_PHRASES });
});
Deno.bench("train classifier and language detector (start)", { group: "train" }, () => {
  trainRouteContext(training);
});
