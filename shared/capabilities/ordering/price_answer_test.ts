import assert from "node:assert/strict";
import { itemAsked, namesPriceOrStock, priceAnswer, productsAsked } from "./price_answer.ts";

const PAPER = [
  {
    name: "A4 paper (500 sheets)",
    names: { rw: "Impapuro A4 (impapuro 500)", fr: "Papier A4 (500 feuilles)" },
    price: 6500,
    unit: "ream",
    inStock: true,
    venue: "Beaver Paper Warehouse",
  },
  {
    name: "C5 envelopes (50)",
    names: { rw: "Amabahasha C5 (50)", fr: "Enveloppes C5 (50)" },
    price: 4000,
    unit: "box",
    inStock: false,
    venue: "Beaver Paper Warehouse",
  },
];

Deno.test("productsAsked() finds the product a price question names, in any of its languages", () => {
  for (
    const [text, name] of [
      ["how much is a ream of A4?", "A4 paper (500 sheets)"],
      ["combien coûte le papier A4 ?", "A4 paper (500 sheets)"],
      ["impapuro A4 ni angahe?", "A4 paper (500 sheets)"],
      ["do you have envelopes?", "C5 envelopes (50)"],
      ["mufite amabahasha?", "C5 envelopes (50)"],
    ]
  ) {
    assert.deepEqual(productsAsked(text, PAPER).map((product) => product.name), [name], text);
  }
  assert.deepEqual(productsAsked("how much is a moto to Remera?", PAPER), []);
});

Deno.test("priceAnswer() says the price per unit, the place and the stock in the reader's language", () => {
  assert.equal(
    priceAnswer(PAPER[0], { language: "en" }),
    "A4 paper (500 sheets): 6,500 RWF per ream at Beaver Paper Warehouse, in stock.",
  );
  assert.match(priceAnswer(PAPER[0], { language: "fr" }), /^Papier A4 \(500 feuilles\) : /);
  assert.match(
    priceAnswer(PAPER[1], { language: "rw" }),
    /^Amabahasha C5 \(50\): .*ubu ntibihari\.$/,
  );
});

Deno.test("namesPriceOrStock() hears a price or stock asked in words, not any question", () => {
  for (const text of ["how much is it", "c'est combien", "ni angahe", "mufite impapuro"]) {
    assert(namesPriceOrStock(text), text);
  }
  for (const text of ["when will someone answer?", "ndategereje"]) {
    assert(!namesPriceOrStock(text), text);
  }
});

Deno.test("the item a price question names is its words without the question's frame", () => {
  for (
    const [text, item] of [
      ["c'est combien le café latte ?", "café latte"],
      ["how much is a café latte?", "café latte"],
      ["café latte ni angahe?", "café latte"],
      ["igiciro cya sambusa ni angahe?", "sambusa"],
      ["what's the price of chapati?", "chapati"],
      ["Vous avez du jus d'orange ?", "jus d'orange"],
      ["combien coûte-t-il ?", ""],
    ]
  ) assert.equal(itemAsked(text), item, text);
});
