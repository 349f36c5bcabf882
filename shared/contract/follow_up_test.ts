import assert from "node:assert/strict";
import { followsUpPurchase } from "./follow_up.ts";

Deno.test("followsUpPurchase() hears a late, damaged or billed purchase in en, rw and fr", () => {
  for (
    const text of [
      "my order is late",
      "I ordered paper on Monday and it still hasn't arrived",
      "the box of paper arrived damaged",
      "I want a refund",
      "can I get an invoice for order A-1001",
      "facture pour ma commande A-1001",
      "ma commande est en retard",
      "le carton est arrivé abîmé",
      "je veux être remboursé",
      "itumiza ryanjye ryatinze",
      "ibyo natumije byageze byangiritse",
      "ndashaka fagitire y'itumiza ryanjye",
      "je n'ai pas reçu ma commande",
      "le reçu de ma commande svp",
      "j'ai reçu ma commande abîmée",
      "my order was never received",
      "Ikarito y'impapuro nahawe yangiritse, ndashaka kuyisubiza",
      "Komande yanjye iri he?",
      "I want to return the paper I ordered",
      "je veux retourner la commande, elle est incomplète",
    ]
  ) assert.ok(followsUpPurchase(text), text);
});

Deno.test("followsUpPurchase() leaves new requests and other services alone", () => {
  for (
    const text of [
      "I need a moto to Remera",
      "do you have A4 paper?",
      "I want to order 20 reams of A4 paper",
      "commander 20 rames de papier A4",
      "ndashaka impapuro A4 20",
      "what are your opening hours?",
      "I'm running late, book a table for 8",
      "je cherche une maison à louer",
      "je veux payer ma facture d'électricité",
      "I want to pay my water bill invoice",
      "ndashaka komande y'impapuro A4 20",
      "where is your warehouse?",
      "I will return the favour, send me 20 reams of A4",
    ]
  ) assert.ok(!followsUpPurchase(text), text);
});

Deno.test("followsUpPurchase() never reads one word as both the purchase and what went wrong", () => {
  // "reçu" is both "received" and "a receipt": alone it follows up nothing.
  for (
    const text of [
      "j'ai reçu une convocation au tribunal pour une dette, il me faut un avocat",
      "j'ai reçu un message bizarre hier",
      "vous avez reçu mon dossier ?",
    ]
  ) assert.ok(!followsUpPurchase(text), text);
});
