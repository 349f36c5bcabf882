import assert from "node:assert/strict";
import { itemLine, placeNamed, requestedItem } from "./request_item.ts";

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

// Found in play: vendors were asked for a « chargeur de téléphone à Remera ».
Deno.test("requestedItem() leaves the place out of the item, in en, fr and rw", () => {
  for (
    const [text, item] of [
      ["je cherche un chargeur de téléphone à Remera", "chargeur de téléphone"],
      ["I need a phone charger in Kimironko", "phone charger"],
      ["Ndashaka charger ya telefoni i Remera", "charger ya telefoni"],
      ["nkeneye matelas hafi ya Nyabugogo", "matelas"],
      ["Do you sell laptops near Kigali Heights?", "laptops"],
    ]
  ) assert.equal(requestedItem(text).item, item, text);
  // The router's place, however written, with its locative word.
  assert.equal(
    requestedItem("je cherche un chargeur de téléphone a remera", { place: "Remera" }).item,
    "chargeur de téléphone",
  );
  assert.equal(requestedItem("2 matelas kuri kimironko", { place: "Kimironko" }).item, "matelas");
  // No place: the item stays whole, a lower-case word after "in" included.
  assert.equal(requestedItem("a phone case in black").item, "phone case in black");
  assert.equal(requestedItem("I need 2 Fanta 50cl").item, "Fanta 50cl");
});

Deno.test("placeNamed() finds the place a request names to search around, or none", () => {
  assert.equal(placeNamed("I need a phone charger", "Remera"), "Remera");
  assert.equal(placeNamed("je cherche un chargeur de téléphone à Remera"), "Remera");
  assert.equal(placeNamed("ndashaka chaja i Kimironko Market?"), "Kimironko Market");
  assert.equal(placeNamed("a used HP laptop"), null);
  assert.equal(placeNamed("a charger in blue"), null);
});
