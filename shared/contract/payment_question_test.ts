import assert from "node:assert/strict";
import { asksHowToPay, otherMeansAnswer, paymentMeansAsked } from "./payment_question.ts";

Deno.test("how to pay is heard in en, fr and rw; paying a named thing or buying is not", () => {
  for (
    const text of [
      "Can I pay with MoMo?",
      "Je peux payer par MoMo ?",
      "Vous acceptez MoMo ?",
      "do you accept mobile money?",
      "how do I pay?",
      "nishyura nte?",
      "mushobora kwishyura na momo?",
      "ese nakwishyura kuri MoMo?",
      "do you take cash?",
    ]
  ) assert.ok(asksHowToPay(text), text);
  for (
    const text of [
      "I want to pay my electricity bill",
      "je veux payer ma facture d'électricité",
      "how much is A4 paper?",
      "ndashaka impapuro A4",
      "are you open on Sunday?",
      "my order is late",
    ]
  ) assert.ok(!asksHowToPay(text), text);
});

Deno.test("the way to pay asked is read, and any but MoMo is answered honestly, never with a yes", () => {
  for (
    const [text, means] of [
      ["Can I pay by bank transfer?", "bank"],
      ["Nshobora kwishyura kuri banki?", "bank"],
      ["vous acceptez le virement ?", "bank"],
      ["can I pay on delivery?", "on_delivery"],
      ["je peux payer à la livraison ?", "on_delivery"],
      ["do you take visa card?", "card"],
      ["je peux payer par carte bancaire ?", "card"],
      ["do you take cash?", "cash"],
      ["nakwishyura mu ntoki?", "cash"],
      ["je peux payer par MoMo ?", "momo"],
    ] as const
  ) {
    assert.ok(asksHowToPay(text), text);
    assert.equal(paymentMeansAsked(text), means, text);
  }
  const reader = { language: "fr" as const, brand: "Beaver Paper Warehouse" };
  assert.equal(
    otherMeansAnswer("vous acceptez le virement ?", reader),
    "Beaver Paper Warehouse accepte MoMo ici dans la discussion. Pour le virement bancaire, je ne peux pas vous le confirmer : une personne de l'équipe peut vous répondre.",
  );
  assert.equal(otherMeansAnswer("je peux payer par MoMo ?", reader), null);
  assert.equal(otherMeansAnswer("quels sont vos horaires ?", reader), null);
});
