import assert from "node:assert/strict";
import { typedLeaveAnswer } from "./leave_answer.ts";

Deno.test("typed answers to 'cancel or keep?' are read in en, rw and fr", () => {
  const cases: Array<[string, "cancel" | "keep" | null]> = [
    ["cancel", "cancel"],
    ["Cancel it please", "cancel"],
    ["yes, cancel the ride!", "cancel"],
    ["keep it", "keep"],
    ["Keep it.", "keep"],
    ["no, don't cancel", "keep"],
    ["hagarika", "cancel"],
    ["Bihagarike", "cancel"],
    ["oya", "keep"],
    ["Oya, ubigumane", "keep"],
    ["cancel or keep", null], // both: not guessed
    ["bigumane", "keep"],
    ["annule", "cancel"],
    ["Annulez-la s'il vous plaît", "cancel"],
    ["garde-la", "keep"],
    ["Le garder", "keep"],
    ["non, n’annule pas", "keep"],
    ["1", "cancel"],
    ["2", "keep"],
  ];
  for (const [text, expected] of cases) assert.equal(typedLeaveAnswer(text), expected, text);
});

Deno.test("a message that is not an answer is left to the flow", () => {
  for (
    const text of ["yes", "oui", "Kimironko", "I need a moto to Nyabugogo", "ndashaka moto", ""]
  ) {
    assert.equal(typedLeaveAnswer(text), null, text);
  }
});
