import assert from "node:assert/strict";
import fc from "fast-check";
import { kigaliClock } from "@shared/contract/opening_hours.ts";
import { checkSlot, CONFIRMATION_ALPHABET, confirmationCode } from "./slots.ts";

// Café hours: Mon–Sat 07:00–22:00, Sunday 10:00–24:00.
const hours = [
  ...[1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opens: "07:00", closes: "22:00" })),
  { weekday: 7, opens: "10:00", closes: "24:00" },
];
const capacity = { seatsPerSlot: 10, slotMinutes: 30, maxParty: 8 };
const now = new Date("2026-11-23T06:00:00Z"); // Monday 08:00 Kigali
const kigali = (local: string) => new Date(`${local}+02:00`);
const base = { hours, capacity, usage: [], partySize: 2, now };

Deno.test("Kigali clock: weekday and minute at UTC+2, across midnight", () => {
  assert.deepEqual(kigaliClock(new Date("2026-11-22T22:30:00Z")), { weekday: 1, minute: 30 });
  assert.deepEqual(kigaliClock(new Date("2026-11-22T21:59:00Z")), {
    weekday: 7,
    minute: 23 * 60 + 59,
  });
});

Deno.test("a future, aligned slot inside opening hours with seats is ok", () => {
  assert.deepEqual(checkSlot({ ...base, requested: kigali("2026-11-23T19:00:00") }), {
    kind: "ok",
    slotStart: "2026-11-23T17:00:00.000Z",
    slotEnd: "2026-11-23T17:30:00.000Z",
  });
  // Sunday's last slot ends at midnight ('24:00').
  assert.equal(checkSlot({ ...base, requested: kigali("2026-11-29T23:30:00") }).kind, "ok");
});

Deno.test("the last slot must end by closing time; the night is closed", () => {
  const late = checkSlot({ ...base, requested: kigali("2026-11-23T21:45:00") });
  assert.equal(late.kind === "unavailable" && late.reason, "misaligned");
  const last = checkSlot({ ...base, requested: kigali("2026-11-23T22:00:00") });
  assert.equal(last.kind === "unavailable" && last.reason, "closed");
  assert.deepEqual(last.kind === "unavailable" && last.suggestions, [
    kigali("2026-11-23T21:30:00").toISOString(),
    kigali("2026-11-23T21:00:00").toISOString(),
    kigali("2026-11-23T20:30:00").toISOString(),
  ]);
  const night = checkSlot({ ...base, requested: kigali("2026-11-24T03:00:00") });
  assert.equal(night.kind === "unavailable" && night.reason, "closed");
});

Deno.test("past times, full slots and oversized parties are refused with reasons", () => {
  const past = checkSlot({ ...base, requested: kigali("2026-11-23T07:30:00") });
  assert.equal(past.kind === "unavailable" && past.reason, "past");
  assert.equal(
    past.kind === "unavailable" && past.suggestions[0],
    kigali("2026-11-23T08:30:00").toISOString(),
  );
  const usage = [{ slotStart: kigali("2026-11-23T19:00:00").toISOString(), seatsTaken: 9 }];
  const full = checkSlot({ ...base, usage, requested: kigali("2026-11-23T19:00:00") });
  assert.equal(full.kind === "unavailable" && full.reason, "full");
  assert.equal(
    checkSlot({ ...base, usage, partySize: 1, requested: kigali("2026-11-23T19:00:00") }).kind,
    "ok",
  );
  const big = checkSlot({ ...base, partySize: 9, requested: kigali("2026-11-23T19:00:00") });
  assert.deepEqual(big, { kind: "unavailable", reason: "party_too_large", suggestions: [] });
});

Deno.test("bad capacity or hours are programming errors", () => {
  assert.throws(
    () => checkSlot({ ...base, capacity: { ...capacity, slotMinutes: 7 }, requested: now }),
    RangeError,
  );
  assert.throws(() => checkSlot({ ...base, partySize: 0, requested: now }), RangeError);
  assert.throws(
    () =>
      checkSlot({
        ...base,
        hours: [{ weekday: 1, opens: "7am", closes: "22:00" }],
        requested: kigali("2026-11-23T19:00:00"),
      }),
    RangeError,
  );
});

Deno.test("property: every suggestion is itself bookable and ok answers are aligned and open", () => {
  fc.assert(fc.property(
    fc.integer({ min: -2 * 24 * 60, max: 9 * 24 * 60 }),
    fc.integer({ min: 1, max: 8 }),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 10 })), {
      maxLength: 30,
    }),
    (offsetMin, partySize, taken) => {
      const usage = taken.map(([slot, seats]) => ({
        slotStart: new Date(now.getTime() + slot * 30 * 60_000).toISOString(),
        seatsTaken: seats,
      }));
      const requested = new Date(now.getTime() + offsetMin * 60_000);
      const result = checkSlot({ hours, capacity, usage, requested, partySize, now });
      const starts = result.kind === "ok" ? [result.slotStart] : result.suggestions;
      for (const start of starts) {
        const again = checkSlot({
          hours,
          capacity,
          usage,
          requested: new Date(start),
          partySize,
          now,
        });
        assert.equal(again.kind, "ok", start);
      }
    },
  ));
});

Deno.test("confirmation codes use the unambiguous alphabet, evenly", () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 2000; i++) {
    const code = confirmationCode();
    assert.match(code, /^[2-9A-HJKMNP-Z]{6}$/);
    for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(counts.size, CONFIRMATION_ALPHABET.length);
  for (const ch of "01OIL") assert.equal(counts.has(ch), false);
});
