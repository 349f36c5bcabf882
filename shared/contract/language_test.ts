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
