import assert from "node:assert/strict";
import fc from "fast-check";
import { shortenTitle, TITLE_LIMITS } from "./titles.ts";

Deno.test("titles are cut at a word boundary, never mid-word", () => {
  assert.equal(
    shortenTitle("Kimironko Brochettes & Grill", TITLE_LIMITS.row),
    "Kimironko Brochettes…",
  );
  assert.equal(shortenTitle("Yego, shaka umushoferi", TITLE_LIMITS.button), "Yego, shaka…");
  assert.equal(
    shortenTitle("Ibikoresho by'ubwubatsi", TITLE_LIMITS.row),
    "Ibikoresho by'ubwubatsi",
  );
  assert.equal(shortenTitle("Supercalifragilisticexpialidocious", 20), "Supercalifragilisti…");
  assert.throws(() => shortenTitle("x", 1), RangeError);
});

Deno.test("a shortened title always fits and starts as the text did", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 2, max: 72 }), (text, max) => {
      const short = shortenTitle(text, max);
      assert.ok([...short].length <= max, short);
      const whole = text.trim().replace(/\s+/g, " ");
      assert.ok(whole.startsWith(short.replace(/…$/, "")), `${short} / ${whole}`);
    }),
  );
});
