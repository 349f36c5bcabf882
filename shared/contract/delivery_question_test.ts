import assert from "node:assert/strict";
import {
  asksAboutDelivery,
  deliveryPlaceAsked,
  withoutDeliveryWords,
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

Deno.test("the words of delivering are taken out for reading what else a question names", () => {
  assert.equal(withoutDeliveryWords("vous livrez à Kicukiro ?"), "vous à Kicukiro ?");
  assert.equal(withoutDeliveryWords("mukora delivery i Remera?"), "mukora i Remera?");
});
