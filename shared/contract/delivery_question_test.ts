import assert from "node:assert/strict";
import {
  asksAboutDelivery,
  asksWhereDelivered,
  deliveredThing,
  deliveryPlaceAsked,
} from "./delivery_question.ts";

Deno.test("delivery questions in en, fr and rw are read as questions about the business", () => {
  for (
    const text of [
      "do you deliver to Nyamata, how much?",
      "Do you do delivery?",
      "how much is delivery to Kimironko",
      "vous livrez à Kicukiro ?",
      "Livrez-vous à domicile",
      "quels sont les frais de livraison",
      "mukora delivery i Remera?",
      "mwangezaho impapuro i Nyamata?",
      "ese mushobora kunzanira ibintu ku Kicukiro",
    ]
  ) assert.ok(asksAboutDelivery(text), text);
});

Deno.test("an order that asks for delivery, or delivery told, is no delivery question", () => {
  for (
    const text of [
      "40 reams of A4 and 10 boxes of envelopes, can you deliver?",
      "I need 20 reams of A4 paper delivered to Remera",
      "commander 20 rames de papier A4 livrées à Kicukiro",
      "my delivery arrived, thank you",
      "do you have A3 paper?",
      "vous ouvrez à quelle heure ?",
      // Paying when the goods come asks how to pay.
      "can I pay on delivery?",
      "je peux payer à la livraison ?",
      "do you accept cash on delivery?",
    ]
  ) assert.ok(!asksAboutDelivery(text), text);
  // Both asked: the delivery is still a question.
  assert.ok(asksAboutDelivery("do you deliver to Remera? can I pay on delivery?"));
});

Deno.test("the place a delivery question names, after a word that says where", () => {
  assert.equal(deliveryPlaceAsked("mukora delivery i Remera?"), "remera");
  assert.equal(deliveryPlaceAsked("vous livrez à Kicukiro ?"), "kicukiro");
  assert.equal(deliveryPlaceAsked("do you deliver to Nyamata, how much?"), "nyamata");
  assert.equal(deliveryPlaceAsked("livrez-vous à domicile ?"), null);
  assert.equal(deliveryPlaceAsked("do you do delivery?"), null);
});

Deno.test("a delivery question naming where or nothing is the business's; one naming a thing, its seller's", () => {
  for (
    const text of [
      "do you deliver to Nyamata, how much?",
      "Do you do delivery?",
      "vous livrez à Kicukiro ?",
      "est-ce que vous livrez à la maison ?",
      "quels sont les frais de livraison",
      "mukora delivery i Remera?",
      "ese murageza ku rugo?",
      "do you deliver to Kigali Heights?",
    ]
  ) {
    assert.equal(deliveredThing(text), null, text);
    assert.ok(asksWhereDelivered(text), text);
  }
  for (
    const [text, thing] of [
      ["vous livrez des sambusa ?", "sambusa"],
      ["do you deliver brochettes?", "brochettes"],
      ["mwaba mugeza sambusa i Kicukiro?", "sambusa"],
      ["mwangezaho impapuro i Nyamata?", "impapuro"],
      ["do you deliver medicine to Remera?", "medicine"],
      ["il y a des sambusa en livraison ?", "sambusa"],
    ]
  ) {
    assert.equal(deliveredThing(text), thing, text);
    assert.ok(!asksWhereDelivered(text), text);
  }
});
