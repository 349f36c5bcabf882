import assert from "node:assert/strict";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";
import { packIntents } from "@shared/registry/pack.ts";
import type { IntentExamples } from "@shared/registry/intent_types.ts";
import {
  clausesOf,
  HARM_THRESHOLD,
  HARM_VETO_BELOW,
  harmClears,
  harmFlags,
  harmReading,
  harmVerdict,
  loadHarmSignal,
  MIN_WORDS,
} from "./harm_signal.ts";
import {
  harmTrainingOf,
  loadHarmCorpusFiles,
  loadHarmTraining,
  trainHarmSignal,
} from "./harm_training.ts";
import { decideRoute, type RouteContext, trainRouteContext } from "./route_decision.ts";
import { createRouter } from "./router.ts";
import { safetyConcern } from "./safety.ts";

const context = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });
const harm = loadHarmSignal();
const firstMessage = { agent: null, atMenu: false, menuOptions: [], langPref: null };

// Worded apart from the harm phrases, the harm corpus and the routing sets, and with no word
// the lexicon knows: only the learned signal can hand them to a person.
const FRESH_HARM = [
  "the nanny is gone since last night and so are my gold rings and our savings",
  "my flatmate has bruises again and says her boyfriend gets angry",
  "a man keeps standing outside our gate at night staring at the kids",
  "un homme reste devant notre portail la nuit et fixe les enfants",
  "umukozi wo mu rugo yagiye nijoro ajyana televiziyo yacu",
];

// Ordinary asks that borrow a harm word.
const HARM_LIKE_ORDINARY = [
  "a knife set for the kitchen",
  "where can i buy a fire extinguisher",
  "i need a phone charger, my phone died",
  "a padlock and a security chain for the gate",
  "un set de couteaux de cuisine",
  "un chargeur, mon téléphone est mort",
  "ndashaka chargeur, telefoni yanjye yapfuye",
  "ndapfa kwishima",
  "the traffic is killing me, any moto near Remera",
  "cette chaleur me tue, de l'eau fraîche svp",
  "ubushyuhe buranyishe, mufite amazi akonje",
  "assurance contre le vol pour ma voiture",
];

const urgent = (text: string, router: RouteContext) => {
  const decision = decideRoute(text, firstMessage, router);
  return decision.kind === "route" && decision.urgent;
};

Deno.test("harm told in words the lexicon never listed reaches a person, urgently", () => {
  for (const text of FRESH_HARM) {
    assert.equal(safetyConcern(text), null, `the lexicon alone already finds: ${text}`);
    assert.ok(harm.flags(text), text);
    const decision = decideRoute(text, firstMessage, context);
    assert.equal(decision.kind, "route", text);
    if (decision.kind === "route") {
      assert.equal(decision.agent, context.agents.handoff, text);
      assert.equal(decision.urgent, true, text);
    }
  }
});

Deno.test("ordinary messages with harm-like words are not handed off as unsafe", () => {
  for (const text of HARM_LIKE_ORDINARY) {
    assert.equal(harm.flags(text), false, text);
    assert.equal(urgent(text, context), false, text);
  }
});

Deno.test("new phrases for the router's agents cannot change a harm verdict", () => {
  // Every agent is taught the harm messages and the harm-like ordinary ones as its own
  // requests: the intent classifier now routes them with confidence, and an agent's phrases
  // read as both harm and ordinary. The harm verdicts must not move.
  const taught: IntentExamples[] = packIntents(PACKS).map((intent) => ({
    ...intent,
    phrases: {
      ...intent.phrases,
      en: [...intent.phrases.en ?? [], ...FRESH_HARM, ...HARM_LIKE_ORDINARY],
    },
  }));
  const retrained = trainRouteContext({
    examples: taught,
    unclear: UNCLEAR_PHRASES,
    agents: context.agents,
  });
  for (const text of [...FRESH_HARM, ...HARM_LIKE_ORDINARY]) {
    assert.equal(urgent(text, retrained), urgent(text, context), text);
    assert.equal(retrained.harm?.score(text), context.harm?.score(text), text);
  }
});

Deno.test("a lexicon hit the signal scores as plainly ordinary is not handed off", () => {
  const lexiconOnly = { ...context, harm: undefined };
  const text = "i could murder a burger right now, what do you have";
  assert.equal(urgent(text, lexiconOnly), true, "the lexicon reads 'murder'");
  assert.ok(harm.score(text) < HARM_VETO_BELOW);
  assert.equal(urgent(text, context), false);
});

Deno.test("a purchase or a message too short to judge is never flagged, whatever its score", () => {
  const story = "umwana wanjye arwaye kuva ejo nijoro cyane";
  assert.equal(harmVerdict(harmReading(story), 1), true);
  assert.equal(harmVerdict(harmReading(`${story}, nagura iyihe sirope`), 1), false);
  assert.equal(harmReading("gold rings taken").words < MIN_WORDS, true);
  assert.equal(harmVerdict(harmReading("gold rings taken"), 1), false);
  assert.equal(harmVerdict(harmReading(story), HARM_THRESHOLD - 0.01), false);
});

Deno.test("a harm cue is a whole phrase, a word start, or a Kinyarwanda stem inside a word", () => {
  // Several words end on a whole word: a moto that left without the rider is no theft.
  assert.equal(harmReading("the moto left with my bag").cue, true);
  assert.equal(harmReading("the moto left without me, send another one").cue, false);
  // Three letters or fewer are whole words: the neck ("cou") is no "cousin".
  assert.equal(harmReading("il m'a serré le cou").cue, true);
  assert.equal(harmReading("mon cousin arrive demain").cue, false);
  // A Kinyarwanda stem counts through its prefixes and endings.
  assert.equal(harmReading("ijisho ryanjye ryabyimbye cyane").cue, true);
  assert.equal(harmReading("ijisho ryanjye rirababara cyane").cue, false);
});

Deno.test("the signal learns from its training: a message like the harm class scores higher", () => {
  const narrow = trainHarmSignal({
    harm: { en: ["he hit me with a stick", "they took my bag and ran", "he hit my son"] },
    ordinary: { en: ["a stick of butter", "a bag of rice please", "rice and butter"] },
  });
  assert.ok(narrow.score("he hit me and ran") > 0.5);
  assert.ok(narrow.score("butter and rice please") < 0.5);
});

Deno.test("the harm corpus has 300+ harm and 500+ ordinary messages per language, none repeated", async () => {
  const { harm, ordinary } = await loadHarmTraining();
  const seen = new Map<string, string>();
  for (const file of await loadHarmCorpusFiles()) {
    for (const text of file.messages) {
      assert.ok(!seen.has(text), `${text} is in ${file.path} and ${seen.get(text)}`);
      seen.set(text, file.path);
    }
  }
  for (const language of ["en", "rw", "fr"] as const) {
    assert.ok((harm[language]?.length ?? 0) >= 300, `${language} harm: ${harm[language]?.length}`);
    assert.ok(
      (ordinary[language]?.length ?? 0) >= 500,
      `${language} ordinary: ${ordinary[language]?.length}`,
    );
  }
});

Deno.test("a harm corpus file of an unknown class is refused, naming the file", () => {
  const path = "shared/agent/harm_corpus/misc.en.txt";
  const file = { path, label: "harmless", language: "en", messages: ["hello there"] };
  assert.throws(() => harmTrainingOf([file]), (error: Error) => {
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /misc\.en\.txt/);
    return true;
  });
});

Deno.test("the signal clears only what it can read: a message of a word or two is never cleared", () => {
  const harm = loadHarmSignal();
  for (const short of ["urgent", "banyibye", "au secours", "help me please"]) {
    assert.equal(harm.clears(short), false, short);
  }
  // A long ordinary message that borrows a harm word is read and cleared.
  const ordinary = "I would like to buy a fire extinguisher for my shop in Remera, how much is it";
  assert.equal(harm.score(ordinary) < 0.05, harm.clears(ordinary), ordinary);
  assert.equal(
    harm.clears("my neighbour is beating his wife right now, please send someone"),
    false,
  );
});

Deno.test("the signal never clears a danger said in a few words beside a need, whatever the whole message scores", () => {
  const ordinary = () => 0;
  // The lexicon's clause ("a man hit me") is too short for the model to read as an idiom.
  assert.equal(harmClears("I was ordering food and a man hit me", ordinary), false);
  assert.equal(harmClears("narimo ngura amata, banyambura telefoni", ordinary), false);
  // An idiom in a clause of its own is read, and cleared when the message scores as ordinary.
  assert.equal(harmClears("i could murder a burger right now, what do you have", ordinary), true);
  assert.equal(harmClears("i could murder a burger right now, what do you have", () => 0.5), false);
  assert.deepEqual(clausesOf("je commandais à manger quand un homme m'a frappé"), [
    "je commandais à manger",
    "un homme m'a frappé",
  ]);
});

Deno.test("beside a need, a clause of its own that reads as harm is flagged", () => {
  // Scores by clause: the ride or the price reads as ordinary, the danger as harm.
  const score = (text: string) => /frapp|stole|banyibye/.test(text) ? 0.9 : 0.01;
  assert.equal(harmFlags("je veux une moto pour Remera, un homme m'a frappé", score), true);
  assert.equal(harmFlags("how much is a moto to Remera, a man stole my bag today", score), true);
  // A story with no need is judged whole, as before; beside a need, a clause the lexicon
  // finds no harm in is never judged alone ("I walked home late").
  assert.equal(harmFlags("we walked home late, a man stole my bag today", () => 0.2), false);
  const walked = (text: string) => text === "I walked home late yesterday night" ? 0.9 : 0.01;
  assert.equal(harmFlags("I need a moto, I walked home late yesterday night", walked), false);
});
