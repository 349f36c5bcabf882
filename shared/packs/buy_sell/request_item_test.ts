import assert from "node:assert/strict";
import { itemLine, requestedItem } from "./request_item.ts";

Deno.test("requestedItem() keeps the item and the count, without the words around them", () => {
  assert.deepEqual(requestedItem("Hello, I need 2 Fanta 50cl please"), {
    item: "Fanta 50cl",
    quantity: 2,
  });
  assert.equal(itemLine(requestedItem("Ndashaka kugura 3 x isukari")), "3 × isukari");
});

// Found on a fresh clone: vendors were asked "Do you sell laptops? I need one under 400000",
// the buyer's whole message, which the module promises they never get.
Deno.test("requestedItem() strips 'do you sell' and its rw and fr forms", () => {
  assert.equal(requestedItem("Do you sell laptops?").item, "laptops");
  assert.equal(requestedItem("Vous vendez des téléphones ?").item, "téléphones");
  assert.equal(requestedItem("Mucuruza amata?").item, "amata");
});
