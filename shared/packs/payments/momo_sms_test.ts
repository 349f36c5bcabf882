import assert from "node:assert/strict";
import fc from "fast-check";
import { matchCharge, type OpenCharge, parseMomoSms } from "./momo_sms.ts";

/** Confirmation texts as MTN MoMo and Airtel Money send them, in en/fr/rw. */
const SAMPLES = {
  mtnEn:
    "You have received 5,000 RWF from JOHN DOE (2507******12) on your mobile money account at " +
    "2026-11-23 10:15:01. Message from sender: PAY-7K3QX. Your new balance: 25,000 RWF. " +
    "Financial Transaction Id: 1234567890.",
  mtnFr: "Vous avez reçu 5 000 RWF de JOHN DOE (2507******12) sur votre compte mobile money le " +
    "2026-11-23 10:15:01. Message de l'expéditeur : PAY-7K3QX. Votre nouveau solde : 25 000 RWF. " +
    "ID de transaction financière : 1234567890.",
  mtnRw: "Wakiriye 5,000 RWF uvuye kuri JOHN DOE (2507******12) kuri konti yawe ya mobile money " +
    "ku wa 2026-11-23 10:15:01. Ubutumwa bw'uwohereje: PAY-7K3QX. Asigaye kuri konti: 25,000 RWF. " +
    "Nomero y'igikorwa: 1234567890.",
  airtelEn: "You have received RWF 5000 from 0731234567 ALICE UWASE. Ref: PAY-7K3QX. " +
    "Your balance is RWF 25000. Trans ID: PP261123.1015.A12345. 23/11/2026 10:15",
  airtelFr: "Vous avez recu RWF 5000 de 0731234567 ALICE UWASE. Ref: PAY-7K3QX. " +
    "Nouveau solde: RWF 25000. Trans ID: PP261123.1015.A12345. 23/11/2026 10:15",
  airtelRw: "Wakiriye RWF 5000 kuva kuri 0731234567 ALICE UWASE. Ref: PAY-7K3QX. " +
    "Asigaye: RWF 25000. Trans ID: PP261123.1015.A12345. 23/11/2026 10:15",
};

Deno.test("MTN confirmations in en/fr/rw give amount, masked payer, reference, id and time", () => {
  for (const text of [SAMPLES.mtnEn, SAMPLES.mtnFr, SAMPLES.mtnRw]) {
    const sms = parseMomoSms(text);
    assert.ok(sms, text);
    assert.equal(sms.provider, "mtn");
    assert.equal(sms.amount, 5000);
    assert.equal(sms.payerName, "JOHN DOE");
    assert.deepEqual(sms.payerPhone, {
      raw: "2507******12",
      e164: null,
      leading: "2507",
      trailing: "12",
    });
    assert.equal(sms.reference, "PAY-7K3QX");
    assert.equal(sms.transactionId, "1234567890");
    assert.equal(sms.at, "2026-11-23T08:15:01.000Z");
  }
});

Deno.test("Airtel confirmations in en/fr/rw give the full payer number and the PP id", () => {
  for (const text of [SAMPLES.airtelEn, SAMPLES.airtelFr, SAMPLES.airtelRw]) {
    const sms = parseMomoSms(text);
    assert.ok(sms, text);
    assert.equal(sms.provider, "airtel");
    assert.equal(sms.amount, 5000);
    assert.equal(sms.payerPhone?.e164, "+250731234567");
    assert.equal(sms.payerName, "ALICE UWASE");
    assert.equal(sms.reference, "PAY-7K3QX");
    assert.equal(sms.transactionId, "PP261123.1015.A12345");
    assert.equal(sms.at, "2026-11-23T08:15:00.000Z");
  }
});

Deno.test("texts that are not a receipt, or whose amount is unreadable, are not read", () => {
  for (
    const text of [
      "You have sent 5,000 RWF to JOHN DOE. Your new balance: 20,000 RWF.",
      "Your new balance: 25,000 RWF.",
      "You have received 5,000.50 RWF from JOHN DOE",
      "You have received 0 RWF from JOHN DOE",
      "hello",
      "",
      "You have received RWF " + "9".repeat(3000),
    ]
  ) {
    assert.equal(parseMomoSms(text), null, text);
  }
  assert.equal(parseMomoSms("You have received 5,000.00 RWF from X (0788123456)")?.amount, 5000);
});

const open: OpenCharge[] = [
  { id: "a", momoRef: "PAY-7K3QX", amount: 5000, payerPhone: "+250788000012" },
  { id: "b", momoRef: "PAY-9ZZ2M", amount: 5000, payerPhone: "+250731234567" },
  { id: "c", momoRef: "PAY-4HH8R", amount: 3000, payerPhone: "+250788000012" },
];

Deno.test("matching: the reference wins; then amount and payer; never amount alone", () => {
  assert.deepEqual(matchCharge(parseMomoSms(SAMPLES.mtnEn)!, open), {
    kind: "matched",
    charge: open[0],
    by: "reference",
  });
  const noRef = parseMomoSms(SAMPLES.airtelEn.replace("Ref: PAY-7K3QX. ", ""))!;
  assert.deepEqual(matchCharge(noRef, open), {
    kind: "matched",
    charge: open[1],
    by: "amount_and_payer",
  });
  const maskedNoRef = parseMomoSms(SAMPLES.mtnEn.replace("PAY-7K3QX", "thanks"))!;
  assert.deepEqual(matchCharge(maskedNoRef, open), {
    kind: "matched",
    charge: open[0],
    by: "amount_and_payer",
  });
  const noPayer = parseMomoSms("You have received 5,000 RWF. Financial Transaction Id: 99999.")!;
  assert.deepEqual(matchCharge(noPayer, open), { kind: "none", reason: "payer_unknown" });
});

Deno.test("matching: wrong amount for the reference, two candidates, or none go to staff", () => {
  const wrongAmount = parseMomoSms(SAMPLES.mtnEn.replace("5,000 RWF from", "4,000 RWF from"))!;
  assert.deepEqual(matchCharge(wrongAmount, open), { kind: "none", reason: "amount_mismatch" });
  const twin = [...open, {
    id: "d",
    momoRef: "PAY-1AB2C",
    amount: 5000,
    payerPhone: "+250788111112",
  }];
  const masked = parseMomoSms(SAMPLES.mtnEn.replace("PAY-7K3QX", "merci"))!;
  const result = matchCharge(masked, twin);
  assert.equal(result.kind, "ambiguous");
  assert.deepEqual(result.kind === "ambiguous" && result.candidates.map((c) => c.id), ["a", "d"]);
  assert.deepEqual(matchCharge(masked, []), { kind: "none", reason: "no_candidate" });
  const bothRefs = parseMomoSms(SAMPLES.mtnEn.replace("PAY-7K3QX", "PAY-7K3QX PAY-9ZZ2M"))!;
  assert.equal(matchCharge(bothRefs, open).kind, "ambiguous");
});

Deno.test("property: arbitrary text never throws and never yields a bad amount", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" })),
      (text) => {
        const sms = parseMomoSms(text);
        if (sms) assert.ok(Number.isSafeInteger(sms.amount) && sms.amount > 0);
      },
    ),
    { numRuns: 2000 },
  );
  fc.assert(fc.property(fc.string(), (noise) => {
    const sms = parseMomoSms(`You have received ${noise} RWF ${noise}`);
    if (sms) assert.ok(sms.amount > 0);
  }));
});

const NAME = fc.stringMatching(/^[A-Z]{2,10} [A-Z]{2,10}$/);
const REF = fc.stringMatching(/^PAY-[2-9A-HJKMNP-Z]{5}$/);

function thousands(n: number, sep: string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

Deno.test("property: generated MTN and Airtel texts round-trip and match their charge", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5_000_000 }),
      fc.stringMatching(/^07[2389][0-9]{7}$/),
      NAME,
      REF,
      fc.stringMatching(/^[0-9]{8,12}$/),
      fc.date({
        min: new Date("2025-01-01T00:00:00Z"),
        max: new Date("2030-01-01T00:00:00Z"),
        noInvalidDate: true,
      }),
      fc.constantFrom("mtn-en", "mtn-fr", "mtn-rw", "airtel-en", "airtel-fr", "airtel-rw"),
      (amount, local, name, ref, txn, date, form) => {
        const at = new Date(Math.floor(date.getTime() / 1000) * 1000);
        const k = new Date(at.getTime() + 2 * 3600_000).toISOString(); // Kigali clock
        const isoLocal = `${k.slice(0, 10)} ${k.slice(11, 19)}`;
        const dmyLocal = `${k.slice(8, 10)}/${k.slice(5, 7)}/${k.slice(0, 4)} ${k.slice(11, 19)}`;
        const masked = `250${local.slice(1, 3)}*****${local.slice(-2)}`;
        const text = {
          "mtn-en": `You have received ${
            thousands(amount, ",")
          } RWF from ${name} (${masked}) on your mobile money account at ${isoLocal}. Message from sender: ${ref}. Your new balance: 1,000 RWF. Financial Transaction Id: ${txn}.`,
          "mtn-fr": `Vous avez reçu ${
            thousands(amount, " ")
          } RWF de ${name} (${masked}) sur votre compte mobile money le ${isoLocal}. Message de l'expéditeur : ${ref}. Votre nouveau solde : 1 000 RWF. ID de transaction financière : ${txn}.`,
          "mtn-rw": `Wakiriye ${
            thousands(amount, ",")
          } RWF uvuye kuri ${name} (${masked}) kuri konti yawe ya mobile money ku wa ${isoLocal}. Ubutumwa bw'uwohereje: ${ref}. Asigaye kuri konti: 1,000 RWF. Nomero y'igikorwa: ${txn}.`,
          "airtel-en":
            `You have received RWF ${amount} from ${local} ${name}. Ref: ${ref}. Your balance is RWF 1000. Trans ID: PP${txn}. ${dmyLocal}`,
          "airtel-fr":
            `Vous avez recu RWF ${amount} de ${local} ${name}. Ref: ${ref}. Nouveau solde: RWF 1000. Trans ID: PP${txn}. ${dmyLocal}`,
          "airtel-rw":
            `Wakiriye RWF ${amount} kuva kuri ${local} ${name}. Ref: ${ref}. Asigaye: RWF 1000. Trans ID: PP${txn}. ${dmyLocal}`,
        }[form];
        const sms = parseMomoSms(text);
        assert.ok(sms, text);
        assert.equal(sms.amount, amount);
        assert.equal(sms.payerName, name);
        assert.equal(sms.reference, ref);
        assert.equal(sms.transactionId, form.startsWith("mtn") ? txn : `PP${txn}`);
        assert.equal(sms.at, at.toISOString());
        assert.equal(sms.provider, form.startsWith("mtn") ? "mtn" : "airtel");
        const e164 = `+250${local.slice(1)}`;
        const charge = { id: "x", momoRef: ref, amount, payerPhone: e164 };
        assert.deepEqual(matchCharge(sms, [charge]), { kind: "matched", charge, by: "reference" });
        const other = { id: "y", momoRef: "PAY-22222", amount, payerPhone: e164 };
        const withoutRef = { ...sms, reference: null };
        assert.deepEqual(matchCharge(withoutRef, [other]), {
          kind: "matched",
          charge: other,
          by: "amount_and_payer",
        });
      },
    ),
    { numRuns: 500 },
  );
});
