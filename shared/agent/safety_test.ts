import assert from "node:assert/strict";
import { safetyConcern } from "./safety.ts";

// Worded apart from the routing sets: the detector is judged on wordings it was not written for.
Deno.test("violence, theft and danger said without a harm keyword are found in three languages", () => {
  const cases: Array<[string, string]> = [
    ["my uncle kicked me in the stomach", "violence"],
    ["a boda rider rode away with our luggage", "theft"],
    ["I handed my parcel to a moto driver and he left with it, now he does not pick up", "theft"],
    ["my little brother went missing at the market", "danger"],
    ["the flat next door is on fire", "danger"],
    ["il m'a gifle devant tout le monde", "violence"],
    ["le taxi est parti avec mes bagages", "theft"],
    ["j'ai confie mon colis a un motard et il est parti avec, il ne repond plus", "theft"],
    ["mon bebe a disparu du quartier", "danger"],
    ["mushiki wanjye yankubise", "violence"],
    ["umushoferi yirukanse n'imizigo yanjye", "theft"],
    ["banyibiye mu modoka", "theft"],
    ["nahaye umumotari ipaki yanjye yigendera nayo", "theft"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("ordinary messages that share a word with harm raise no alarm", () => {
  for (
    const text of [
      "fire extinguisher for the office",
      "assurance incendie pour ma maison",
      "extincteur d'incendie",
      "tourner a gauche au feu rouge",
      "suivi de ma commande",
      "blood pressure tablets",
      "umuvuduko w'amaraso",
      "follow up on my order",
      "my landlord kicked me out, is it legal",
      "a kilo of sugar",
      "I paid for the phone and left with it",
      "il est parti avec sa soeur au marche",
      "ibyerekeye serivisi yanyu",
      "mu kagari ka Kimironko",
      "aho batuye ni he",
    ]
  ) {
    assert.equal(safetyConcern(text), null, text);
  }
});
