import assert from "node:assert/strict";
import { nameWithTin, tin } from "./tax_id.ts";

Deno.test("nameWithTin() keeps the name and the 9-digit TIN apart, however it is written", () => {
  for (
    const [text, name, number] of [
      ["GS Kacyiru, TIN 102345678", "GS Kacyiru", "102345678"],
      [
        "Ecole Primaire Sainte Famille (NIF : 102 345 678)",
        "Ecole Primaire Sainte Famille",
        "102345678",
      ],
      [
        "Ishuri ribanza rya Kacyiru nomero ya TIN 102-345-678",
        "Ishuri ribanza rya Kacyiru",
        "102345678",
      ],
      ["Kigali Print Ltd 101234567", "Kigali Print Ltd", "101234567"],
      ["TIN no. 101234567 Groupe Scolaire Remera", "Groupe Scolaire Remera", "101234567"],
    ] as const
  ) assert.deepEqual(nameWithTin(text), { ok: true, name, tin: number }, text);
  // Other digits are no TIN: the words are returned whole.
  assert.deepEqual(nameWithTin("20 reams of A4, 30000 each"), {
    ok: true,
    name: "20 reams of A4, 30000 each",
  });
  assert.deepEqual(nameWithTin("Groupe Scolaire Remera"), {
    ok: true,
    name: "Groupe Scolaire Remera",
  });
});

Deno.test("nameWithTin() refuses a TIN that has not 9 digits, saying what it read", () => {
  assert.deepEqual(nameWithTin("GS Kacyiru TIN 12345"), { ok: false, digits: "12345" });
  assert.deepEqual(nameWithTin("Kigali Print Ltd, NIF 1012345678"), {
    ok: false,
    digits: "1012345678",
  });
});

Deno.test("tin() takes 9 digits, grouped or not, and names anything else", () => {
  assert.equal(tin().parse("102 345 678"), "102345678");
  const refused = tin().safeParse("10234567");
  assert.equal(refused.success, false);
  assert.match(refused.error!.issues[0].message, /9 digits/);
  assert.equal(tin().safeParse(102345678).success, false);
});
