import assert from "node:assert/strict";
import { readItemList } from "./order_items.ts";

const STOCK = [
  {
    sku: "A4-500",
    name: "A4 paper (500 sheets)",
    names: { rw: "Impapuro A4 (impapuro 500)", fr: "Papier A4 (500 feuilles)" },
    unit: "ream",
  },
  {
    sku: "A4-BOX-5",
    name: "A4 printer paper box (5 reams)",
    names: { fr: "Carton de papier A4 (5 rames)" },
    unit: "box",
  },
  {
    sku: "ENV-C5-50",
    name: "C5 envelopes (50)",
    names: { rw: "Amabahasha C5 (50)", fr: "Enveloppes C5 (50)" },
    unit: "box",
  },
  {
    sku: "CARD-200",
    name: "Cardstock 200gsm",
    names: { fr: "Papier cartonné 200 g/m²", rw: "Impapuro zikomeye 200gsm" },
    unit: "pack",
  },
];

const read = (text: string) => {
  const asked = readItemList(text, STOCK);
  return asked && {
    lines: asked.lines.map((line) => [line.product.sku, line.qty]),
    unknown: asked.unknown,
  };
};

Deno.test("several items in one message are read whole, each with its quantity (en, fr, rw)", () => {
  assert.deepEqual(read("40 reams of A4 and 10 boxes of envelopes, can you deliver?"), {
    lines: [["A4-500", 40], ["ENV-C5-50", 10]],
    unknown: [],
  });
  assert.deepEqual(read("Je voudrais 20 rames de papier A4 et 5 paquets de papier cartonné"), {
    lines: [["A4-500", 20], ["CARD-200", 5]],
    unknown: [],
  });
  assert.deepEqual(read("ndashaka impapuro A4 ipaki 30 na amabahasha 4"), {
    lines: [["A4-500", 30], ["ENV-C5-50", 4]],
    unknown: [],
  });
  // The unit names which of two products the words fit: the box of five reams.
  assert.deepEqual(read("2 boxes of A4, 3 reams of A4"), {
    lines: [["A4-BOX-5", 2], ["A4-500", 3]],
    unknown: [],
  });
});

Deno.test("an item the place does not stock is kept aside as written; one item is no list", () => {
  assert.deepEqual(read("10 reams of A4 and 5 staplers"), {
    lines: [["A4-500", 10]],
    unknown: ["5 staplers"],
  });
  assert.equal(read("I need 20 reams of A4 paper delivered to Remera"), null);
  assert.equal(read("how much is A4 paper?"), null);
});
