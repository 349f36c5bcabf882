import assert from "node:assert/strict";
import { asLabelWord, slipDistance } from "./label_slips.ts";

Deno.test("a label word OCR slipped on is read as the label it is nearest", () => {
  assert.equal(asLabelWord("Mpdel"), "model");
  assert.equal(asLabelWord("Nemes"), "names");
  assert.equal(asLabelWord("Caténorrés"), "categories");
  // An `rn` read for an `m`, and the punctuation around the word kept.
  assert.equal(asLabelWord("Urnwaka"), "umwaka");
  assert.equal(asLabelWord("Yatarmzwe:"), "yatanzwe:");
  assert.equal(asLabelWord("Maraue:"), "marque:");
});

Deno.test("values, real words near a label and words too far from any are kept as printed", () => {
  // Values are printed in capitals: a name is never a label.
  assert.equal(asLabelWord("MARIE"), "MARIE");
  assert.equal(asLabelWord("MODEL"), "MODEL");
  // Words printed on cards that are a slip from another field's label.
  assert.equal(asLabelWord("Place"), "Place");
  assert.equal(asLabelWord("manufacture"), "manufacture");
  assert.equal(asLabelWord("Issue"), "Issue");
  // A word holding a label word whole is matched by the labels as printed.
  assert.equal(asLabelWord("Kizarangira"), "Kizarangira");
  // Short words and words two slips off in five letters.
  assert.equal(asLabelWord("Mode"), "Mode");
  assert.equal(asLabelWord("Antes"), "Antes");
  assert.equal(asLabelWord("document"), "document");
});

Deno.test("a confusable letter costs half a slip", () => {
  assert.equal(slipDistance("TYANDIKWA", "IYANDIKWA"), 0.5);
  assert.equal(slipDistance("MODEL", "MPDEL"), 1);
});

Deno.test("a label cut short by a dot is the one label word it starts", () => {
  assert.equal(asLabelWord("Yatang."), "yatangiweho.");
  // A confusable letter in it (`l` for `i`).
  assert.equal(asLabelWord("Nylr."), "nyirayo.");
  // A start no label's, or too short to say, stays as printed.
  assert.equal(asLabelWord("Urug."), "Urug.");
  assert.equal(asLabelWord("Ind."), "Ind.");
});
