import assert from "node:assert/strict";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";
import { packIntents } from "@shared/registry/pack.ts";
import { HARM_PHRASES } from "./harm_phrases.ts";
import { HARM_THRESHOLD, trainHarmSignal } from "./harm_signal.ts";
import { decideRoute } from "./route_decision.ts";
import { createRouter } from "./router.ts";
import { safetyConcern } from "./safety.ts";

const context = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });
const harm = trainHarmSignal(packIntents(PACKS), { ordinary: UNCLEAR_PHRASES });
const firstMessage = { agent: null, atMenu: false, menuOptions: [], langPref: null };

// Worded apart from the harm phrases and the routing sets, and with no word the lexicon
// knows: only the learned signal can hand them to a person.
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

Deno.test("harm told in words the lexicon never listed reaches a person, urgently", () => {
  for (const text of FRESH_HARM) {
    assert.equal(safetyConcern(text), null, `the lexicon alone already finds: ${text}`);
    assert.ok(harm.flags(text, context.classifier), text);
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
    assert.equal(harm.flags(text, context.classifier), false, text);
    const decision = decideRoute(text, firstMessage, context);
    assert.ok(decision.kind !== "route" || decision.urgent !== true, text);
  }
});

Deno.test("a high harm score alone flags nothing: a cue or an unsure intent must agree", () => {
  // Trained so that "gold rings" reads as harm: the score is high, but without a harm cue
  // a message the intent classifier routes with confidence stays ordinary.
  const narrow = trainHarmSignal(packIntents(PACKS), {
    harm: { en: ["my gold rings and gold chain", "gold chain gold rings"], rw: [], fr: [] },
  });
  const text = "my gold rings and chain";
  assert.ok(narrow.score(text) >= HARM_THRESHOLD);
  assert.equal(
    narrow.flags(text, {
      classify: () => ({ agent: "shop", confidence: 0.9, unclear: 0, ranking: [] }),
    }),
    false,
  );
  assert.equal(
    narrow.flags(text, {
      classify: () => ({ agent: "shop", confidence: 0.1, unclear: 0, ranking: [] }),
    }),
    true,
  );
  assert.equal(narrow.flags(`${text} taken`), true);
  assert.equal(narrow.flags("gold rings taken"), false, "too short to judge");
});

Deno.test("the harm phrases are 100+ per language and distinct", () => {
  for (const [language, phrases] of Object.entries(HARM_PHRASES)) {
    assert.ok(phrases.length >= 100, language);
    assert.equal(new Set(phrases).size, phrases.length, language);
  }
});

Deno.test("a cue of several words is matched whole: a moto that left without the rider is no theft", () => {
  assert.equal(harm.flags("the moto left without me, send another one", context.classifier), false);
});

Deno.test("a Kinyarwanda cue counts inside a word, through its prefixes and endings", () => {
  // Trained so the words read as harm; the intent is confident, so only a cue can agree.
  const narrow = trainHarmSignal(packIntents(PACKS), {
    harm: { en: [], rw: ["ijisho ryanjye ryabyimbye cyane", "ijisho rye ryarabyimbye"], fr: [] },
  });
  const confident = {
    classify: () => ({ agent: "pharmacy", confidence: 0.9, unclear: 0, ranking: [] }),
  };
  const swollen = "ijisho ryanjye ryabyimbye cyane rwose";
  assert.ok(narrow.score(swollen) >= HARM_THRESHOLD);
  assert.equal(narrow.flags(swollen, confident), true);
  // The same score without the stem: no cue, and the confident intent keeps it ordinary.
  const plain = "ijisho ryanjye rirababara cyane rwose";
  assert.ok(narrow.score(plain) >= HARM_THRESHOLD);
  assert.equal(narrow.flags(plain, confident), false);
});

Deno.test("a cue of three letters or fewer is a whole word, and 'cassé' is no cue: the neck is no cousin, the case no break", () => {
  const confident = {
    classify: () => ({ agent: "legal_intake", confidence: 0.9, unclear: 0, ranking: [] }),
  };
  const narrow = trainHarmSignal(packIntents(PACKS), {
    harm: { en: ["my cousin the case is closed at work"], rw: [], fr: [] },
  });
  const text = "my cousin the case is closed at work now";
  assert.ok(narrow.score(text) >= HARM_THRESHOLD);
  assert.equal(narrow.flags(text, confident), false);
  // A cue word itself still agrees ("il la bat").
  const beaten = trainHarmSignal(packIntents(PACKS), {
    harm: { en: [], rw: [], fr: ["le voisin la bat toutes les nuits"] },
  });
  assert.equal(beaten.flags("le voisin la bat toutes les nuits encore", confident), true);
});

Deno.test("a purchase question is a shopper's, whatever its story scores", () => {
  const confident = {
    classify: () => ({ agent: "pharmacy", confidence: 0.9, unclear: 0, ranking: [] }),
  };
  const narrow = trainHarmSignal(packIntents(PACKS), {
    harm: { en: [], rw: ["umwana wanjye arwaye kuva ejo nijoro cyane"], fr: [] },
  });
  assert.equal(narrow.flags("umwana wanjye arwaye kuva ejo nijoro cyane", confident), true);
  assert.equal(
    narrow.flags("umwana wanjye arwaye kuva ejo nijoro cyane, nagura iyihe sirope", confident),
    false,
  );
});
