import assert from "node:assert/strict";
import { z } from "zod";
import {
  dateTime,
  e164Phone,
  id,
  int,
  INT4,
  isoDuration,
  latitude,
  longitude,
  minorUnits,
  moneyRwf,
  payload,
  slug,
  text,
} from "./validators.ts";

function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

Deno.test("text() refuses NUL, C0/C1 controls and lone surrogates, keeps ordinary text", () => {
  const name = text({ max: 20 });
  assert.equal(name.parse("  Café Nyamirambo  "), "Café Nyamirambo");
  assert.equal(name.parse("Murakoze 🙏"), "Murakoze 🙏");
  for (const hostile of ["a\u0000b", "a\u0007", "a\u001bc", "a\u007f", "a\u0085", "a\nb", "a\tb"]) {
    assert.deepEqual(messages(name, hostile), [
      "must not contain control characters or line breaks",
    ], JSON.stringify(hostile));
  }
  for (const broken of ["\ud800", "a\udc00b", "\ud83d"]) {
    assert.deepEqual(messages(name, broken), [
      "must not contain broken characters (lone surrogates)",
    ]);
  }
});

Deno.test("text() bounds length after trimming and allows line breaks only when multiline", () => {
  assert.deepEqual(messages(text({ max: 3 }), "abcd"), ["must be at most 3 characters"]);
  assert.deepEqual(messages(text({ max: 3, min: 1 }), "   "), ["must not be empty"]);
  assert.deepEqual(messages(text({ max: 9, min: 2 }), "a"), ["must be at least 2 characters"]);
  assert.equal(text({ max: 3, trim: false }).safeParse(" ab ").success, false);
  const body = text({ max: 100, multiline: true });
  assert.equal(body.parse("YES 1500\n2\tpacks\r\n"), "YES 1500\n2\tpacks");
  assert.equal(body.safeParse("YES\u0000").success, false);
  // A megabyte is refused by length; the schema still answers quickly and names the field.
  const big = z.object({ note: text({ max: 500 }) }).safeParse({ note: "x".repeat(1 << 20) });
  assert.deepEqual(big.error?.issues.map((issue) => issue.path), [["note"]]);
  assert.throws(() => text({ max: 1, min: 2 }), RangeError);
});

Deno.test("dateTime() takes RFC 3339 with an offset within 2000..2100 and refuses the rest", () => {
  const at = dateTime();
  for (
    const good of ["2025-08-24T10:00:00+02:00", "2025-08-24T08:00:00.123Z", "2099-12-31T23:59:59Z"]
  ) {
    assert.equal(at.parse(good), good);
  }
  for (
    const bad of [
      "+275760-09-13T00:00:00Z",
      "-000001-01-01T00:00:00Z",
      "2025-08-24",
      "2025-08-24T10:00:00",
      "2025-02-30T10:00:00Z",
      "2025-08-24T24:00:00Z",
      "yesterday",
      "",
    ]
  ) assert.equal(at.safeParse(bad).success, false, bad);
  assert.deepEqual(messages(at, "1999-12-31T23:59:59Z"), [
    "must be between 2000-01-01T00:00:00.000Z and 2100-01-01T00:00:00.000Z",
  ]);
  // One message for a malformed value, not a second one about the range.
  assert.equal(messages(at, "+275760-09-13T00:00:00Z").length, 1);
  const soon = dateTime({
    min: new Date("2025-01-01T00:00:00Z"),
    max: new Date("2025-12-31T00:00:00Z"),
  });
  assert.equal(soon.safeParse("2026-01-01T00:00:00Z").success, false);
  assert.throws(
    () => dateTime({ min: new Date("2030-01-01"), max: new Date("2020-01-01") }),
    RangeError,
  );
  assert.throws(() => dateTime({ min: new Date("nonsense") }), RangeError);
});

Deno.test("isoDuration() takes ISO 8601 durations only", () => {
  for (const good of ["PT15M", "P1DT2H", "PT1H35M", "P2W"]) {
    assert.equal(isoDuration().parse(good), good);
  }
  for (const bad of ["15m", "P", "PT", "PT1H\u0000", "P".padEnd(100, "1")]) {
    assert.equal(isoDuration().safeParse(bad).success, false, bad);
  }
});

Deno.test("e164Phone() normalises like toWaId and refuses what it cannot read", () => {
  const phone = e164Phone();
  assert.equal(phone.parse("+250788123456"), "+250788123456");
  assert.equal(phone.parse("250788123456"), "+250788123456");
  assert.equal(phone.parse("0788 123 456"), "+250788123456");
  assert.equal(phone.parse("+250 0788 123 456"), "+250788123456");
  assert.equal(phone.parse("+1 (415) 555-0100"), "+14155550100");
  for (const bad of ["+", "abc", "07881234", "1".repeat(30), "+250788\u0000123456", "", "\ud800"]) {
    assert.deepEqual(messages(phone, bad), ["must be a phone number like +250788123456"], bad);
  }
  assert.deepEqual(messages(phone, 250788123456), [
    "Invalid input: expected string, received number",
  ]);
  const rw = e164Phone({ rwandanMobile: true });
  assert.equal(rw.parse("0722 000 111"), "+250722000111");
  assert.deepEqual(messages(rw, "+14155550100"), ["must be a Rwandan mobile like +250788123456"]);
});

Deno.test("moneyRwf() and minorUnits() take whole, bounded amounts", () => {
  assert.equal(moneyRwf().parse(1500), 1500);
  assert.deepEqual(messages(moneyRwf(), 0), ["must be more than 0 RWF"]);
  assert.deepEqual(messages(moneyRwf(), 12.5), ["must be a whole number of francs"]);
  assert.deepEqual(messages(moneyRwf({ max: 1000 }), 1001), ["must be at most 1000 RWF"]);
  for (const huge of [1e308, -1e308, 2 ** 63, Number.MAX_VALUE, NaN, Infinity]) {
    assert.equal(moneyRwf().safeParse(huge).success, false, String(huge));
    assert.equal(minorUnits().safeParse(huge).success, false, String(huge));
  }
  assert.equal(minorUnits().parse(0), 0);
  assert.deepEqual(messages(minorUnits(), -1), ["must not be negative"]);
  assert.throws(() => moneyRwf({ max: 0 }), RangeError);
  assert.throws(() => moneyRwf({ max: 2 ** 60 }), RangeError);
});

Deno.test("int() stays within Postgres int4 unless told otherwise", () => {
  assert.equal(int().parse(INT4.max), INT4.max);
  assert.equal(int().parse(INT4.min), INT4.min);
  assert.deepEqual(messages(int(), INT4.max + 1), [`must be at most ${INT4.max}`]);
  assert.deepEqual(messages(int(), 1.5), ["must be a whole number"]);
  assert.equal(int({ min: 0, max: Number.MAX_SAFE_INTEGER }).safeParse(2 ** 53).success, false);
  assert.deepEqual(messages(int({ min: 1, max: 5 }), 0), ["must be at least 1"]);
  assert.throws(() => int({ min: 5, max: 1 }), RangeError);
  assert.throws(() => int({ max: 2 ** 63 }), RangeError);
});

Deno.test("id(), slug(), latitude() and longitude() refuse malformed values", () => {
  assert.equal(id().safeParse("c0000000-0000-4000-8000-000000000001").success, true);
  assert.deepEqual(messages(id(), "c0000000"), [
    "must be an id like 5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d",
  ]);
  assert.equal(slug().parse("support_handoff"), "support_handoff");
  for (const bad of ["Beaver", "a--b", "-a", "a b", "a\u0000", ""]) {
    assert.equal(slug().safeParse(bad).success, false, bad);
  }
  assert.equal(latitude().safeParse(-1.9441).success, true);
  assert.equal(longitude().safeParse(30.0619).success, true);
  for (const bad of [90.0001, -1e308, Infinity, "1.5", null]) {
    assert.equal(latitude().safeParse(bad).success, false, String(bad));
  }
  assert.equal(longitude().safeParse(180.5).success, false);
});

Deno.test("payload() bounds depth and size and refuses what jsonb cannot store", () => {
  const schema = z.object({ data: payload({ maxDepth: 3, maxSize: 200 }) });
  assert.equal(schema.safeParse({ data: { a: [1, "two", { b: null }] } }).success, true);
  const fieldsOf = (value: unknown) =>
    schema.safeParse({ data: value }).error?.issues.map((issue) => [
      issue.path.join("."),
      issue.message,
    ]);
  assert.deepEqual(fieldsOf({ a: { b: { c: {} } } }), [[
    "data.a.b.c",
    "must not nest deeper than 3 levels",
  ]]);
  assert.deepEqual(fieldsOf({ a: ["ok", "x\u0000"] }), [[
    "data.a.1",
    "must not contain NUL or broken characters",
  ]]);
  assert.deepEqual(fieldsOf({ a: "\udfff" }), [[
    "data.a",
    "must not contain NUL or broken characters",
  ]]);
  assert.deepEqual(fieldsOf({ "k\u0000": 1 }), [[
    "data",
    "keys must not contain control characters",
  ]]);
  assert.deepEqual(fieldsOf({ n: Infinity }), [["data.n", "must be a finite number"]]);
  assert.deepEqual(fieldsOf({ f: undefined }), [["data.f", "must be a JSON value"]]);
  assert.deepEqual(
    fieldsOf({ s: "x".repeat(300) })?.[0][1],
    "must be at most 200 characters as JSON",
  );
  assert.equal(schema.safeParse({ data: [1] }).success, false);
  // Deep nesting is refused without recursion: 100 000 levels cost no stack.
  let deep: unknown = {};
  for (let level = 0; level < 100_000; level++) deep = { d: deep };
  assert.equal(payload().safeParse(deep).success, false);
});
