import assert from "node:assert/strict";
import { askedQuantity } from "./order_steps.ts";

Deno.test("askedQuantity() reads the count asked with an item, not addresses, times, phones or sizes", () => {
  const cases: Array<[string, number | undefined]> = [
    ["commander 20 rames de papier A4 livrées à Remera", 20],
    ["do you have A4 paper reams? How much for 10?", 10],
    ["ndashaka imifuka 3 ya sima", 3],
    ["cement to KG 9 Ave please, 4 bags", 4],
    ["cement delivered to KK 15 Rd", undefined],
    ["call me on 0788 123 456 for cement", undefined],
    ["sima saa 14:00", undefined],
    ["2,5 kg of rice", undefined],
    ["A4 paper, 500mg", undefined],
  ];
  for (const [text, qty] of cases) assert.equal(askedQuantity(text), qty, text);
});
