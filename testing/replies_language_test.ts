/**
 * The English-word finder that checks the replies to Kinyarwanda and French
 * users. The check itself (every offline rw and fr scenario's replies) is in
 * scenario_suite.ts, beside each part's run of those scenarios, whose plays it reads.
 */
import assert from "node:assert/strict";
import { englishWords } from "./english_words.ts";

Deno.test("englishWords() finds units, roles and English dates, not French or Kinyarwanda", () => {
  assert.deepEqual(englishWords("1,500 RWF / stick · Wed 25 Nov"), ["stick", "Wed", "Nov"]);
  assert.deepEqual(englishWords("Kwishyura 3,950 RWF kuri Ride Kimironko"), ["Ride"]);
  assert.deepEqual(englishWords("mer. 25 nov., 19:00 · 2 000 RWF / tasse · payée"), []);
  assert.deepEqual(englishWords("Ku wa gatatu 25 Ugushyingo · {payee} https://pay.example/x"), []);
  assert.deepEqual(englishWords("Indango: PAY-FX2DW8, A-1001"), []);
});
