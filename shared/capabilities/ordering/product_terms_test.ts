import assert from "node:assert/strict";
import { productTerms } from "./product_terms.ts";

Deno.test("quantities, units, delivery and place words are not what is sought", () => {
  assert.deepEqual(productTerms("10 bags of cement delivered, near Kimironko market")[0], "cement");
  assert.deepEqual(productTerms("20 kg nails please"), ["nail"]);
  assert.deepEqual(productTerms("5 litres paint livraison à Remera")[0], "paint");
});

Deno.test("product words in rw and fr find stock named in English", () => {
  assert.equal(productTerms("ciment")[0], "cement");
  assert.equal(productTerms("imifuka 10 ya sima")[0], "cement");
  assert.equal(productTerms("je cherche de la peinture")[0], "paint");
  assert.equal(productTerms("irangi")[0], "paint");
  assert.equal(productTerms("clous")[0], "nail");
  assert.equal(productTerms("imisumari 2 kg")[0], "nail");
});

Deno.test("every other content word is still tried, longest first", () => {
  assert.deepEqual(productTerms("wheelbarrow shovel"), ["wheelbarrow", "shovel"]);
  assert.deepEqual(productTerms("cement Kimironko", { exclude: ["kimironko"] }), ["cement"]);
  assert.deepEqual(productTerms("10 bags delivered"), []);
});

Deno.test("paper and stationery words in rw and fr find stock named in English; reams are a unit", () => {
  assert.deepEqual(productTerms("mufite impapuro za A4? Ream imwe ni angahe?").slice(0, 2), [
    "a4",
    "paper",
  ]);
  assert.deepEqual(productTerms("commander 20 rames de papier A4 livrées à Remera").slice(0, 2), [
    "a4",
    "paper",
  ]);
  assert.deepEqual(productTerms("urupapuro rwa A3").slice(0, 2), ["a3", "paper"]);
  assert.deepEqual(productTerms("des enveloppes C5").slice(0, 2), ["c5", "envelope"]);
  // A size alone is still sought: "50 reams of A4".
  assert.equal(
    productTerms("50 reams of A4 delivered to Remera", { exclude: ["remera"] })[0],
    "a4",
  );
  assert.equal(productTerms("amabahasha 50")[0], "envelope");
  assert.equal(productTerms("cahiers pour l'école")[0], "notebook");
  assert.equal(productTerms("amakaramu 12")[0], "pen");
  assert.deepEqual(productTerms("10 reams delivered"), []);
});
