import assert from "node:assert/strict";
import { phraseBook } from "./language.ts";

const say = phraseBook({
  failed: {
    en: "Could not help ({agent}). Last message: {text}",
    rw: "Ntiyashoboye ({agent}): {text}",
    fr: "N'a pas pu aider ({agent}). Dernier message : {text}",
  },
});

Deno.test("phraseBook() fills each value in as written, whatever the value holds", () => {
  assert.equal(
    say("failed", "en", { agent: "Pharmacy", text: "charged $$ twice, $& and $' too" }),
    "Could not help (Pharmacy). Last message: charged $$ twice, $& and $' too",
  );
  // A value is never read again as a template: a user's "{agent}" stays theirs.
  assert.equal(
    say("failed", "fr", { text: "où est {agent} ?", agent: "Pharmacie" }),
    "N'a pas pu aider (Pharmacie). Dernier message : où est {agent} ?",
  );
  assert.equal(say("failed", "rw"), "Ntiyashoboye ({agent}): {text}");
});

Deno.test("phraseBook() says one or many by the count, by each language's rule", () => {
  const count = phraseBook({
    asked: {
      en: "I asked {n|# driver|# drivers}.",
      rw: "Nabajije {n|umushoferi #|abashoferi #}.",
      fr: "J'ai demandé à {n|# chauffeur|# chauffeurs}.",
    },
  });
  assert.equal(count("asked", "en", { n: 1 }), "I asked 1 driver.");
  assert.equal(count("asked", "en", { n: 3 }), "I asked 3 drivers.");
  assert.equal(count("asked", "en", { n: 0 }), "I asked 0 drivers.");
  assert.equal(count("asked", "rw", { n: 1 }), "Nabajije umushoferi 1.");
  assert.equal(count("asked", "rw", { n: 2 }), "Nabajije abashoferi 2.");
  // French counts zero as singular.
  assert.equal(count("asked", "fr", { n: 0 }), "J'ai demandé à 0 chauffeur.");
  assert.equal(count("asked", "fr", { n: 5 }), "J'ai demandé à 5 chauffeurs.");
  // A missing count leaves the slot as written, like any missing value.
  assert.equal(count("asked", "en"), "I asked {n|# driver|# drivers}.");
});
