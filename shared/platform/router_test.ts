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

// A customer asking for what only staff do, worded unlike the staff packs' phrases.
const STAFF_WORK_ASKS = [
  { text: "could you film a little advert for my bakery", language: "en" },
  { text: "please blast an announcement of my sale to everybody on your list", language: "en" },
  { text: "mwankorera agavideo kamamaza salon yanjye ya coiffure", language: "rw" },
  { text: "je voudrais une petite vidéo pub pour mon salon de coiffure", language: "fr" },
  { text: "envoyez une annonce de mes soldes à tous vos abonnés", language: "fr" },
  // Operations (Locops): counts and lists across the tenant, not the person's own ride or order.
  {
    text: "Show me how many drivers are online right now and the open orders per venue",
    language: "en",
  },
  { text: "ni abashoferi bangahe bari ku murongo ubu?", language: "rw" },
  {
    text: "combien de chauffeurs sont en ligne et combien de commandes ouvertes par restaurant ?",
    language: "fr",
  },
] as const;

Deno.test("a customer asking for staff-only work is told so in their language, never routed to a staff agent or a service", () => {
  const router = platformRouter();
  for (const { text, language } of STAFF_WORK_ASKS) {
    const decision = decideRoute(text, NEW, router);
    assert.equal(decision.kind, "staff_work", text);
    assert.equal(decision.replyLanguage, language, text);
  }
  // A customer's own need that shares a word with staff work still reaches its service.
  for (
    const [text, agent] of [
      ["I need car insurance for my taxi", "insurance"],
      ["je veux vendre mon téléphone, comment faire une annonce", "buy_and_sell"],
      ["is there a driver available in Kicukiro?", "mobility_orchestrator"],
      ["hari umushoferi uri hafi ya Remera?", "mobility_orchestrator"],
      ["y a-t-il un chauffeur disponible à Nyamirambo ?", "mobility_orchestrator"],
    ] as const
  ) {
    const decision = decideRoute(text, NEW, router);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
});

Deno.test("staff-only work asked inside a customer flow is told beside the flow, in the customer's language", () => {
  const router = platformRouter();
  for (const agent of ["waiter_ai", "mobility_orchestrator", "pharmacy"]) {
    const inFlow = { agent, atMenu: false, menuOptions: [], langPref: "en" as const };
    for (
      const [text, language] of [
        ["how many drivers are online in total?", "en"],
        ["combien de chauffeurs sont en ligne au total ?", "fr"],
        ["ni abashoferi bangahe bari ku murongo ubu?", "rw"],
        ["open orders per venue please", "en"],
        ["je voudrais une petite vidéo pub pour mon salon de coiffure", "fr"],
        ["mwankorera agavideo kamamaza salon yanjye ya coiffure", "rw"],
      ] as const
    ) {
      const decision = decideRoute(text, inFlow, router);
      assert.deepEqual(
        [decision.kind, decision.kind === "staff_work" && decision.inFlow, decision.replyLanguage],
        ["staff_work", true, language],
        `${agent}: ${text}`,
      );
    }
    // The flow's answers stay the flow's.
    for (
      const text of ["2 beef brochettes", "Kimironko", "yes please", "is there a driver near me?"]
    ) {
      assert.equal(decideRoute(text, inFlow, router).kind, "stay", `${agent}: ${text}`);
    }
  }
});

Deno.test("a first message of one word is answered in the word's language, and mid-conversation in the conversation's", () => {
  const router = platformRouter();
  for (
    const [text, language] of [["pharmacie", "fr"], ["assurance", "fr"], ["resto", "fr"], [
      "inzu",
      "rw",
    ], ["médocs", "fr"]] as const
  ) {
    assert.equal(decideRoute(text, NEW, router).replyLanguage, language, text);
  }
  // A word every language uses says none: the person's known language stays.
  const rwPerson = { ...NEW, langPref: "rw" as const };
  assert.equal(decideRoute("moto", rwPerson, router).replyLanguage, "rw");
  // In a conversation, a short reply is read in the conversation's language.
  for (const langPref of ["en", "rw"] as const) {
    const atMenu = { agent: "concierge_router", atMenu: true, menuOptions: [], langPref };
    for (const text of ["pharmacie", "assurance", "resto"]) {
      assert.equal(decideRoute(text, atMenu, router).replyLanguage, langPref, text);
    }
  }
});

Deno.test("buying or selling a vehicle reaches Buy & Sell, not a ride, insurance or legal intake", () => {
  const router = platformRouter();
  for (
    const text of [
      "we want to buy a car for the family",
      "I will buy a Toyota Premio this month",
      "turashaka kugura imodoka yumuryango",
      "ndagura moto nziza",
      "on cherche à acheter une voiture pour la famille",
    ]
  ) {
    const decision = decideRoute(text, NEW, router);
    assert.equal(decision.kind === "route" && decision.agent, "buy_and_sell", text);
  }
  // Buying the vehicle's cover is the insurer's.
  for (const text of ["I want to buy insurance for my Toyota", "acheter une assurance auto"]) {
    const decision = decideRoute(text, NEW, router);
    assert.equal(decision.kind === "route" && decision.agent, "insurance", text);
  }
});
