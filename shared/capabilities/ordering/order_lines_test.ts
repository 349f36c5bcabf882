import assert from "node:assert/strict";
import fc from "fast-check";
import { bestProduct, nameScore, parseOrderLines } from "./order_lines.ts";

const cafe = [
  { sku: "QC-CAP", name: "Cappuccino" },
  { sku: "QC-AME", name: "Americano" },
  { sku: "CAF-LAT", name: "Café latte" },
  { sku: "QC-CROIS", name: "Butter croissant" },
  { sku: "BRO-BEEF", name: "Beef brochette" },
  { sku: "BRO-GOAT", name: "Goat brochette" },
];
const hardware = [
  { sku: "CEM-50", name: "Cement 50kg (CIMERWA)" },
  { sku: "IRON-10", name: "Iron bar 10mm (12 m)" },
  { sku: "IRON-12", name: "Iron bar 12mm (12 m)" },
  { sku: "NAILS-4", name: "Nails 4 inch (1 kg)" },
];
const read = (text: string, list = cafe) => {
  const order = parseOrderLines(text, list);
  return { lines: order.lines.map((line) => [line.product.sku, line.qty]), unknown: order.unknown };
};

Deno.test("quantities and names, in en, rw and fr separators", () => {
  assert.deepEqual(read("2 latte, 1 croissant").lines, [["CAF-LAT", 2], ["QC-CROIS", 1]]);
  assert.deepEqual(read("2 lattes and a croissant").lines, [["CAF-LAT", 2], ["QC-CROIS", 1]]);
  assert.deepEqual(read("cappuccino 2 na croissant").lines, [["QC-CAP", 2], ["QC-CROIS", 1]]);
  assert.deepEqual(read("cappuccino x 2 na croissant").lines, [["QC-CAP", 2], ["QC-CROIS", 1]]);
  assert.deepEqual(read("3 café latte et 1 americano").lines, [["CAF-LAT", 3], ["QC-AME", 1]]);
});

Deno.test("a bare number picks that line of the list; N x M is N of line M", () => {
  assert.deepEqual(read("3").lines, [["CAF-LAT", 1]]);
  assert.deepEqual(read("1, 4").lines, [["QC-CAP", 1], ["QC-CROIS", 1]]);
  assert.deepEqual(read("2 x 5").lines, [["BRO-BEEF", 2]]);
  assert.deepEqual(read("2x5, 2×5").lines, [["BRO-BEEF", 4]]);
  // A number beyond the list is not a product, and is never searched for.
  assert.deepEqual(read("9"), { lines: [], unknown: ["9"] });
});

Deno.test("hardware quantities with units pick the right size", () => {
  assert.deepEqual(read("20 bags of cement, 10 iron bars 12mm", hardware).lines, [
    ["CEM-50", 20],
    ["IRON-12", 10],
  ]);
  assert.deepEqual(read("5 kg nails", hardware).lines, [["NAILS-4", 5]]);
});

Deno.test("ambiguous or unknown names are reported, not guessed", () => {
  assert.deepEqual(read("2 brochettes"), { lines: [], unknown: ["2 brochettes"] });
  assert.deepEqual(read("1 goat brochette, 2 pizza"), {
    lines: [["BRO-GOAT", 1]],
    unknown: ["2 pizza"],
  });
  assert.equal(bestProduct("cap", cafe), null);
  assert.equal(nameScore("tea", "Cappuccino"), 0);
});

Deno.test("property: any listed name with any quantity reads back as itself", () => {
  fc.assert(fc.property(
    fc.integer({ min: 0, max: cafe.length - 1 }),
    fc.integer({ min: 1, max: 999 }),
    fc.constantFrom("", "x ", "× "),
    (index, qty, times) => {
      const product = cafe[index];
      const order = parseOrderLines(`${qty} ${times}${product.name}`, cafe);
      assert.deepEqual(order.lines.map((line) => [line.product.sku, line.qty]), [[
        product.sku,
        qty,
      ]]);
    },
  ));
});

Deno.test("parseOrderLines() reads the quantity after the words of a request, in en, rw and fr", () => {
  for (
    const [text, qty] of [
      ["I want 2 lattes", 2],
      ["I'd like 3 cappuccinos please", 3],
      ["je voudrais 4 cappuccinos", 4],
      ["ndashaka cappuccino 2", 2],
      ["mwampa cappuccino 5", 5],
      ["can I have 2 x cappuccino", 2],
    ] as const
  ) {
    const order = parseOrderLines(text, cafe);
    assert.deepEqual(order.lines.map((line) => line.qty), [qty], text);
    assert.deepEqual(order.unknown, [], text);
  }
  // A greeting beside the order is no part of it.
  assert.deepEqual(parseOrderLines("Muraho, ndashaka cappuccino 2", cafe), {
    lines: [{ product: cafe[0], qty: 2 }],
    unknown: [],
  });
  // What names nothing is reported as it was written, the request's words included.
  assert.deepEqual(parseOrderLines("I want 2 pizzas", cafe).unknown, ["I want 2 pizzas"]);
});
