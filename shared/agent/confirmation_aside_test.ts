import assert from "node:assert/strict";
import { PACKS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
import { notDoneText, readAtConfirmation } from "./confirmation_aside.ts";
import { createRouter } from "./router.ts";

const context = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });

Deno.test("a question at a pending order is answered beside it, in its language", () => {
  for (
    const [text, language] of [
      ["can I pay with MoMo?", "en"],
      ["are you open on Sunday?", "en"],
      ["how much is a ream of A4?", "en"],
      ["is it in stock?", "en"],
      ["Je peux payer par MoMo ?", "fr"],
      ["vous êtes ouverts dimanche ?", "fr"],
      ["combien coûte le café latte ?", "fr"],
      ["nakwishyura kuri MoMo?", "rw"],
      ["mufungura ku cyumweru?", "rw"],
      ["icyayi ni angahe?", "rw"],
    ] as const
  ) {
    const read = readAtConfirmation(text, { agent: "waiter_ai", langPref: "en" }, context);
    assert.deepEqual(read, { kind: "aside", language }, text);
  }
});

Deno.test("at a pending order a new request, the menu or danger replace it; 'cancel it' cancels", () => {
  for (
    const text of [
      "I need a moto to Remera",
      "je veux une moto pour aller à Remera",
      "ndashaka moto ijya i Remera",
      "menu",
      "subira ahabanza",
      "he is beating me, help",
    ]
  ) {
    const read = readAtConfirmation(text, { agent: "waiter_ai", langPref: "en" }, context);
    assert.equal(read.kind, "replace", text);
  }
  for (const text of ["cancel it", "je veux l'annuler", "ndashaka kubihagarika"]) {
    const read = readAtConfirmation(text, { agent: "waiter_ai", langPref: "en" }, context);
    assert.equal(read.kind, "cancel", text);
  }
});

Deno.test("an order dropped for a new request is named by its read-back's first line", () => {
  const summary = "Order at Beaver Paper Warehouse:\n40 × A4 paper — 260,000 RWF";
  assert.equal(
    notDoneText(summary, "en"),
    "“Order at Beaver Paper Warehouse” was not confirmed, so it was not done.",
  );
  assert.match(notDoneText(summary, "fr"), /^« Order at Beaver Paper Warehouse » n'a pas/);
});
