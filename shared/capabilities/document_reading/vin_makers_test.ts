import assert from "node:assert/strict";
import { vinCheckDigit, vinCheckDigitValid } from "./document_fields.ts";
import { makerOfVin, vinAgainstMake } from "./vin_makers.ts";

/** A VIN with a valid check digit, built from its other sixteen characters. */
function vin(body: string): string {
  const draft = body.slice(0, 8) + "0" + body.slice(8);
  return draft.slice(0, 8) + vinCheckDigit(draft) + draft.slice(9);
}

Deno.test("a VIN's J read as 1 gets the card's maker's code back, doubtful", () => {
  const suzuki = vin("JS3TD62V4E410000");
  const misread = "1" + suzuki.slice(1);
  // J and 1 count the same in the check digit: the misread passes it.
  assert.ok(vinCheckDigitValid(misread));
  assert.equal(makerOfVin(misread), null);
  assert.deepEqual(vinAgainstMake(misread, "SUZUKI"), {
    kind: "repaired",
    value: suzuki,
    note: "its maker's code was corrected to match the make: check it",
  });
  // A Yamaha's ME1 read MEL: the check digit fails as read and passes once repaired.
  const yamaha = vin("ME1CB98SXK870447");
  const repaired = vinAgainstMake("MEL" + yamaha.slice(3), "Yamaha");
  assert.equal(repaired?.kind === "repaired" && repaired.value, yamaha);
});

Deno.test("a VIN that agrees with its make, or a make we cannot check, is left as read", () => {
  const nissanUs = vin("1N4AL3AP8JC23100");
  // A North American Nissan starts with 1: the card's NISSAN agrees, nothing is changed.
  assert.equal(vinAgainstMake(nissanUs, "NISSAN"), null);
  assert.equal(vinAgainstMake(vin("JTDBR32E72012345"), "TOYOTA"), null);
  assert.equal(vinAgainstMake(vin("WDD2H2SL4C440972"), "MERCEDES-BENZ"), null);
  // A make we hold no code for, or an unknown code without a repair: nothing to say.
  assert.equal(vinAgainstMake(vin("LZSJCNPC5E500001"), "HAOJUE"), null);
  assert.equal(vinAgainstMake(vin("XYZ1234567890123"), "TOYOTA"), null);
});

Deno.test("a VIN whose code names another maker than the card's make is noted, never changed", () => {
  assert.deepEqual(vinAgainstMake(vin("JTDBR32E72012345"), "HONDA"), {
    kind: "another_maker",
    note: "its maker's code is TOYOTA's, not HONDA's",
  });
});
