import assert from "node:assert/strict";
import { createRouter } from "@shared/agent/router.ts";
import { decideRoute } from "@shared/agent/route_decision.ts";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";
import { EXAMPLE_PACK } from "@testing/example_pack/mod.ts";
import { LIBRARY_INTENTS } from "@testing/example_pack/intents.ts";
import { platformRouter } from "./router.ts";

const NEW = { agent: null, atMenu: false, menuOptions: [], langPref: null };

// Messages the routing corpus teaches and the curated phrases do not: naive Bayes alone
// misroutes each (asserted below), so only the shipped model routes them right.
const CORPUS_ONLY = [
  { text: "i would like a pizza", agent: "waiter_ai" },
  { text: "je cherche des vitamines", agent: "pharmacy" },
  { text: "hari amapironi?", agent: "hardware" },
];

Deno.test("a pack list other than the default one still routes with the shipped model", () => {
  const subset = PACKS.filter((pack) => pack.id !== "property");
  const router = platformRouter(subset);
  const bayesOnly = createRouter({ packs: subset, unclear: UNCLEAR_PHRASES });
  for (const { text, agent } of CORPUS_ONLY) {
    assert.notEqual(bayesOnly.classifier.classify(text).agent, agent, text);
    assert.equal(router.classifier.classify(text).agent, agent, text);
  }
});

Deno.test("the pack list's identity does not matter: a copy routes as the default list", () => {
  const original = platformRouter(PACKS);
  const copy = platformRouter([...PACKS]);
  for (const text of [...CORPUS_ONLY.map((c) => c.text), "I need a taxi to Kimironko", "ok"]) {
    assert.deepEqual(copy.classifier.classify(text), original.classifier.classify(text), text);
  }
});

Deno.test("a removed pack's agent is never chosen, though the model learnt it", () => {
  const router = platformRouter(PACKS.filter((pack) => pack.id !== "pharmacy"));
  const pharmacyPhrases = PACKS.flatMap((pack) => pack.agents)
    .find((agent) => agent.id === "pharmacy")!.intents!.phrases;
  for (const text of Object.values(pharmacyPhrases).flat()) {
    const read = router.classifier.classify(text);
    assert.notEqual(read.agent, "pharmacy", text);
    assert.ok(read.ranking.every((entry) => entry.agent !== "pharmacy"), text);
    const sum = read.ranking.reduce((total, entry) => total + entry.confidence, read.unclear);
    assert.ok(Math.abs(sum - 1) < 1e-9, `${text}: beliefs sum to ${sum}`);
    const decided = decideRoute(text, NEW, router);
    assert.ok(decided.kind !== "route" || decided.agent !== "pharmacy", text);
  }
});

Deno.test("a pack the model never learnt is routable beside the model's agents", () => {
  const router = platformRouter([...PACKS, EXAMPLE_PACK]);
  for (const [language, phrases] of Object.entries(LIBRARY_INTENTS.phrases)) {
    // Phrases the library desk was taught, reworded: a book to borrow, in each language.
    const text = {
      en: "can I borrow a book please",
      rw: "nshaka gutira igitabo",
      fr: "je voudrais emprunter un livre",
    }[language]!;
    assert.ok(phrases.length > 0);
    assert.equal(router.classifier.classify(text).agent, EXAMPLE_PACK.id, text);
    const decided = decideRoute(text, NEW, router);
    assert.equal(decided.kind === "route" ? decided.agent : decided.kind, EXAMPLE_PACK.id, text);
  }
  // The model still speaks for the agents it learnt.
  for (const { text, agent } of CORPUS_ONLY) {
    assert.equal(router.classifier.classify(text).agent, agent, text);
  }
});
