import assert from "node:assert/strict";
import { wantsToSell } from "./selling_wish.ts";

Deno.test("a seller is told from a buyer, however they ask, in en, rw and fr", () => {
  for (
    const text of [
      "I want to sell my Toyota RAV4",
      "anyone buying a used fridge?",
      "who wants to buy my motorbike",
      "qqn achète une Toyota Vitz 2012 ?",
      "quelqu'un intéressé par mon frigo",
      "qui veut acheter un salon complet ?",
      "je vends ma moto",
      "hari uwagura moto yanjye?",
      "ndashaka kugurisha imodoka",
    ]
  ) assert.equal(wantsToSell(text), true, text);
  for (
    const text of [
      "I want to buy a used fridge",
      "je cherche une Toyota Vitz",
      "ndashaka kugura moto",
      "who sells phone chargers in Remera?",
      "qui vend des chargeurs ?",
    ]
  ) assert.equal(wantsToSell(text), false, text);
});
