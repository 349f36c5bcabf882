/**
 * How a person says they have nothing more to send ("done", "that's all",
 * "ndangije", "c'est tout"), in English, Kinyarwanda and French: the typed
 * twin of a flow's Done button, after photos or documents. One list for every
 * flow that collects several things, so none of them waits forever on a
 * wording another one understands.
 *
 * @module
 */

const DONE_WORDS = new Set([
  "done",
  "finished",
  "i am done",
  "im done",
  "that is all",
  "thats all",
  "that s all",
  "nothing else",
  "no more",
  "ndangije",
  "narangije",
  "birarangiye",
  "byarangiye",
  "ni ibyo",
  "ni ibyo gusa",
  "nta kindi",
  "ntayindi",
  "termine",
  "fini",
  "j ai fini",
  "c est tout",
  "cest tout",
  "rien d autre",
  "pas d autre",
  "c est fini",
]);

/**
 * Whether `text` says the person has nothing more to send; courtesies and punctuation around it
 * are ignored ("ok c'est tout merci").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { saysDone } from "./done_words.ts";
 *
 * assert.equal(saysDone("C'est tout !"), true);
 * assert.equal(saysDone("ndangije"), true);
 * assert.equal(saysDone("done with the kitchen, now the bedroom"), false);
 * ```
 */
export function saysDone(text: string): boolean {
  const words = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z]+/g, " ").trim()
    .replace(/^(ok|okay|yes|oui|yego|bon|alors)\s+/, "")
    .replace(/\s+(thanks|thank you|merci|murakoze|please|svp|stp)$/, "");
  return DONE_WORDS.has(words);
}
