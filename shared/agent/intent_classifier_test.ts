import assert from "node:assert/strict";
import naiveBayes from "wink-naive-bayes-text-classifier";
import { PACK_INTENTS, PACKS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
import {
  CONFIDENCE_THRESHOLD,
  COURTESY_WORDS,
  intentTopic,
  PURCHASE_WORDS,
  SIZE_WORDS,
  trainIntentClassifier,
} from "./intent_classifier.ts";
import { customerAgents, packStaffWork, staffAgents } from "@shared/registry/pack.ts";
import { STAFF_WORK_LABEL } from "@shared/registry/intent_types.ts";
import { featuresOf, nameGazetteer, normalizeText } from "./text_features.ts";

const classifier = trainIntentClassifier(PACK_INTENTS);
const withUnclear = trainIntentClassifier(PACK_INTENTS, { unclear: UNCLEAR_PHRASES });

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
  assert.deepStrictEqual(new Set(ranking.map((r) => r.agent)), new Set(customerAgents(PACKS)));
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

Deno.test("Kinyarwanda's 'big' names no topic: a main road is not the pharmacy's pills", () => {
  const read = intentTopic();
  assert.equal(read("ku muhanda munini"), "ku muhanda");
  assert.equal(read("inkono nini"), "inkono");
  assert.equal(read("amatafari manini"), "amatafari");
  // Pills keep their word, with or without the initial vowel.
  assert.equal(read("ibinini bya malariya"), "ibinini bya malariya");
  assert.equal(read("iki kinini"), "iki kinini");
  assert.notEqual(classifier.classify("nagiye ku muhanda munini").agent, "pharmacy");
  assert.equal(classifier.classify("ibinini bya malariya").agent, "pharmacy");
});

Deno.test("training needs phrases for two agents", () => {
  assert.throws(() => trainIntentClassifier([PACK_INTENTS[0]]), RangeError);
});

Deno.test("the compiled scores rank agents exactly as wink's own computeOdds does", () => {
  // deno-lint-ignore no-explicit-any
  const wink = (naiveBayes as any)();
  wink.defineConfig({ considerOnlyPresence: true, smoothingFactor: 0.5 });
  // The classifier reads a text without its courtesies and purchase verbs; wink is given the same text.
  const courtesies = nameGazetteer([...COURTESY_WORDS, ...PURCHASE_WORDS, ...SIZE_WORDS]);
  const topic = (text: string) => featuresOf(courtesies.strip(normalizeText(text)));
  for (const { agent, phrases } of PACK_INTENTS) {
    for (const text of Object.values(phrases).flat()) wink.learn(topic(text), agent);
  }
  wink.consolidate();
  for (
    const text of [
      "I need a taxi to Kimironko",
      "nkeneye imiti y'inkorora",
      "je veux assurer ma voiture",
      "sima n'amabati",
      "avocat pour un litige",
      "ok",
    ]
  ) {
    const expected = (wink.computeOdds(topic(text)) as Array<[string, number]>)
      .map(([label]) => label);
    assert.deepStrictEqual(classifier.classify(text).ranking.map((r) => r.agent), expected, text);
  }
});

Deno.test("avocat: a lawyer for a dispute goes to legal, avocados by the kilo to shopping", () => {
  assert.deepStrictEqual(
    withUnclear.classify("je cherche un avocat pour un litige foncier").agent,
    "legal_intake",
  );
  assert.ok(
    ["shop", "buy_and_sell"].includes(withUnclear.classify("avocats 2kg").agent ?? ""),
    String(withUnclear.classify("avocats 2kg").agent),
  );
});

Deno.test("filler messages ask for nothing: no agent, and the unclear share leads", () => {
  for (const text of ["ok thanks", "sawa murakoze", "d'accord merci", "hmmm"]) {
    const result = withUnclear.classify(text);
    assert.deepStrictEqual(result.agent, null, text);
    assert.ok(result.unclear > result.ranking[0].confidence, text);
  }
  const taxi = withUnclear.classify("I need a taxi to Kimironko");
  assert.deepStrictEqual(taxi.agent, "mobility_orchestrator");
  const total = taxi.unclear + taxi.ranking.reduce((sum, r) => sum + r.confidence, 0);
  assert.ok(Math.abs(total - 1) < 1e-9);
  assert.ok(!taxi.ranking.some((r) => r.agent === "unclear"));
});

Deno.test("requests for staff-only tools never get a staff agent: they are learnt as staff work", () => {
  const staffAware = trainIntentClassifier([...PACK_INTENTS, ...packStaffWork(PACKS)], {
    unclear: UNCLEAR_PHRASES,
  });
  const result = staffAware.classify("launch an ad campaign for my company's new product");
  assert.equal(result.agent, STAFF_WORK_LABEL);
  const staff = new Set(staffAgents(PACKS));
  assert.ok(!result.ranking.some((entry) => staff.has(entry.agent)));
});

Deno.test("a courtesy changes neither the agent nor the confidence", () => {
  for (
    const [plain, polite] of [
      ["remboursez moi", "remboursez moi svp"],
      ["I need a taxi to Kimironko", "I need a taxi to Kimironko please"],
      ["nkeneye imiti y'inkorora", "nkeneye imiti y'inkorora nkwinginze"],
      ["yes", "yes pls"],
    ]
  ) {
    assert.deepStrictEqual(withUnclear.classify(polite), withUnclear.classify(plain), polite);
  }
});

Deno.test("a verb of buying names no agent: the thing bought does", () => {
  const cases: Array<[string, string]> = [
    ["ndashaka kugura ibuprofen", "pharmacy"],
    ["nshaka kugura imifuka 10 ya sima", "hardware"],
    ["I want to buy cement and nails", "hardware"],
    ["acheter du paracétamol pour mon fils", "pharmacy"],
    ["ndashaka kugura telefone yakoreshejwe", "buy_and_sell"],
  ];
  for (const [text, agent] of cases) assert.equal(withUnclear.classify(text).agent, agent, text);
});

Deno.test("asking after an order names no agent: the thing ordered does", () => {
  // The words of asking alone share no feature with any phrase.
  assert.equal(withUnclear.classify("natumije ntiragera").agent, null);
  const cases: Array<[string, string]> = [
    ["amatafari natumije ejo ntaragera", "hardware"],
    ["panadol natumije ntiraza", "pharmacy"],
    ["brochette twatumije ntibiragera", "waiter_ai"],
  ];
  for (const [text, agent] of cases) assert.equal(withUnclear.classify(text).agent, agent, text);
});
