import assert from "node:assert/strict";
import { isWaId, toE164, toWaId } from "./wa_id.ts";

Deno.test("toWaId() reads international and Rwandan local numbers", () => {
  for (
    const phone of [
      "+250788123456",
      "250788123456",
      "0788123456",
      "+250 788 123 456",
      "(+250) 788-123-456",
      "00250788123456",
      "+250 0788 123 456",
      " 0788.123.456 ",
    ]
  ) {
    assert.equal(toWaId(phone), "250788123456", phone);
  }
  assert.equal(toWaId("+33612345678"), "33612345678");
  assert.equal(toWaId("0722000111"), "250722000111");
});

Deno.test("toWaId() rejects numbers it cannot place", () => {
  for (
    const phone of [
      "",
      "abc",
      "+250",
      "0612345678",
      "078812345",
      "+1234567890123456",
      "07881234567",
    ]
  ) {
    assert.throws(() => toWaId(phone), TypeError, phone);
  }
  assert.throws(() => toWaId("0612345678"), {
    message: "Cannot read the phone number as it must be international (+250788123456) or " +
      'Rwandan local (0788123456): current value is "0612345678"',
  });
  assert.throws(() => toWaId(250788123456 as unknown as string), TypeError);
});

Deno.test("toE164() and isWaId() accept only digits-only wa_ids", () => {
  assert.equal(toE164("250788123456"), "+250788123456");
  assert.throws(() => toE164("+250788123456"), TypeError);
  assert.throws(() => toE164("0788123456"), TypeError);
  assert.equal(isWaId("250788123456"), true);
  assert.equal(isWaId("12345"), false);
  assert.equal(isWaId(250788123456), false);
});
