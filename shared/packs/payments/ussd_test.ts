import assert from "node:assert/strict";
import fc from "fast-check";
import { momoUssd, parseMomoPhone } from "./ussd.ts";

Deno.test("Rwandan MoMo numbers are read in the three usual forms and stored E.164", () => {
  for (
    const written of [
      "+250788123456",
      "250788123456",
      "0788123456",
      "078 812 3456",
      "+250 0788123456",
    ]
  ) {
    assert.equal(parseMomoPhone(written)?.e164, "+250788123456", written);
  }
  assert.equal(parseMomoPhone("0791234567")?.network, "mtn");
  assert.equal(parseMomoPhone("0731234567")?.network, "airtel");
  assert.equal(parseMomoPhone("0721234567")?.network, "airtel");
  assert.equal(parseMomoPhone("0751234567")?.network, "unknown");
});

Deno.test("non-Rwandan, landline or malformed numbers are not MoMo numbers", () => {
  for (
    const bad of [
      "invalid",
      "",
      "+14155550100",
      "0252123456",
      "078812345",
      "07881234567",
      "+2507881234a",
    ]
  ) {
    assert.equal(parseMomoPhone(bad), null, bad);
  }
});

Deno.test("merchant and phone codes; the tel: link escapes # and keeps *", () => {
  const merchant = momoUssd({ payee: { kind: "merchant", merchantCode: "123456" }, amount: 5000 });
  assert.equal(merchant.code, "*182*8*1*123456*5000#");
  assert.equal(merchant.telLink, "tel:*182*8*1*123456*5000%23");
  const phone = momoUssd({ payee: { kind: "phone", phone: "+250731234567" }, amount: 200 });
  assert.equal(phone.code, "*182*1*1*0731234567*200#");
  assert.equal(phone.telLink, "tel:*182*1*1*0731234567*200%23");
});

Deno.test("bad amounts, merchant codes and payees are refused", () => {
  const merchant = { kind: "merchant", merchantCode: "123456" } as const;
  for (const amount of [0, -5, 1.5, Number.NaN, 10_000_001]) {
    assert.throws(() => momoUssd({ payee: merchant, amount }), RangeError, String(amount));
  }
  assert.throws(
    () => momoUssd({ payee: { kind: "merchant", merchantCode: "12#4" }, amount: 5 }),
    RangeError,
  );
  assert.throws(
    () => momoUssd({ payee: { kind: "phone", phone: "+14155550100" }, amount: 5 }),
    RangeError,
  );
});

Deno.test("property: every code is one USSD string whose link decodes back to it", () => {
  fc.assert(fc.property(
    fc.stringMatching(/^[0-9]{4,10}$/),
    fc.integer({ min: 1, max: 10_000_000 }),
    (merchantCode, amount) => {
      const { code, telLink } = momoUssd({ payee: { kind: "merchant", merchantCode }, amount });
      assert.match(code, /^\*182\*8\*1\*[0-9]+\*[0-9]+#$/);
      assert.equal(decodeURIComponent(telLink.slice(4)), code);
      assert.ok(!telLink.includes("#"));
    },
  ));
});
