import assert from "node:assert/strict";
import {
  formatKigaliDate,
  formatKigaliTime,
  formatMoney,
  formatMoneyRange,
  formatNumber,
  formatNumberRange,
  formatRwf,
} from "./format.ts";

Deno.test("amounts use one grouping per language", () => {
  assert.equal(formatRwf(26000, "en"), "26,000 RWF");
  assert.equal(formatRwf(26000, "rw"), "26,000 RWF");
  assert.equal(formatRwf(26000, "fr"), "26 000 RWF");
  assert.equal(formatRwf(1234567.4, "fr"), "1 234 567 RWF");
  assert.equal(formatNumber(950, "en"), "950");
  assert.equal(formatNumber(-1500, "en"), "-1,500");
});

Deno.test("formatMoney() writes the tenant's currency after the language's grouping", () => {
  assert.equal(formatMoney(26000, "en", { currency: "KES" }), "26,000 KES");
  assert.equal(formatMoney(26000, "fr", { currency: "XOF" }), "26 000 XOF");
  // A tenant without a currency set: the default, as formatRwf writes it.
  assert.equal(formatMoney(26000, "rw", { currency: undefined }), formatRwf(26000, "rw"));
  assert.throws(
    () => formatMoney(100, "en", { currency: "francs" }),
    new TypeError(
      'Cannot format an amount as its currency must be an ISO 4217 code like "RWF": current value is francs',
    ),
  );
});

Deno.test("formatMoneyRange() writes a range one way per language, the currency once", () => {
  const fare = { min: 1500, max: 2000 };
  assert.equal(formatMoneyRange(fare, "en"), "1,500–2,000 RWF");
  assert.equal(formatMoneyRange(fare, "rw"), "1,500–2,000 RWF");
  assert.equal(formatMoneyRange(fare, "fr"), "1 500–2 000 RWF");
  assert.equal(
    formatMoneyRange({ min: 900, max: 12500 }, "fr", { currency: "KES" }),
    "900–12 500 KES",
  );
  // A template's parameter: the numbers only, its approved body writes the currency.
  assert.equal(formatNumberRange(fare, "fr"), "1 500–2 000");
  assert.throws(
    () => formatMoneyRange({ min: 2000, max: 1500 }, "en"),
    new RangeError("Cannot format a range as its min is above its max: current value is 2000–1500"),
  );
});

Deno.test("Kinyarwanda dates name the weekday and month in Kinyarwanda, on the Kigali clock", () => {
  // 22:30 UTC on Tuesday is already Wednesday in Kigali.
  const at = "2026-11-24T22:30:00Z";
  assert.equal(formatKigaliDate(at, "rw"), "Ku wa gatatu 25 Ugushyingo");
  assert.equal(formatKigaliDate(at, "en"), "Wed 25 Nov");
  assert.equal(formatKigaliDate(at, "fr"), "mer. 25 nov.");
  assert.equal(formatKigaliDate(at, "en", { time: true }), "Wed 25 Nov, 00:30");
  const months = Array.from(
    { length: 12 },
    (_, month) => formatKigaliDate(new Date(Date.UTC(2026, month, 15, 10)), "rw"),
  );
  assert.ok(
    months.every((text) => !/[A-Z][a-z]{2} /.test(text.replace(/^Ku /, ""))),
    months.join(),
  );
  assert.ok(months.at(-1)!.endsWith("Ukuboza"));
  assert.equal(formatKigaliDate(at, "rw", { time: true, compact: true }), "25/11, 00:30");
  assert.equal(formatKigaliDate(at, "fr", { time: true, compact: true }), "mer. 25 nov., 00:30");
  assert.throws(() => formatKigaliDate("not a date", "rw"), RangeError);
});

Deno.test("formatKigaliTime() is the Kigali clock's hours and minutes", () => {
  assert.equal(formatKigaliTime("2026-11-25T17:05:00Z"), "19:05");
  assert.equal(formatKigaliTime(new Date("2026-11-25T22:30:00Z")), "00:30");
  assert.throws(() => formatKigaliTime("not a date"), RangeError);
});
