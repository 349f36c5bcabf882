import assert from "node:assert/strict";
import { asksHowToPay } from "./payment_question.ts";

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
