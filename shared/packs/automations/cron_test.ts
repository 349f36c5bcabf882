// nextSlot() against a small reference: standard (Vixie) cron read on Kigali's wall clock
// (UTC+2, no daylight saving), scanned minute by minute. Expressions are generated with the set
// of values each field allows, so the reference never reads cron syntax itself.
import assert from "node:assert/strict";
import fc from "fast-check";
import { cronProblem, nextSlot } from "./model.ts";

const MINUTE = 60_000;
const KIGALI_OFFSET = 2 * 60 * MINUTE;

/** One field as written, and the values it allows. */
interface Field {
  text: string;
  values: Set<number>;
  /** Starts with `*`: Vixie cron treats the field as unrestricted when combining the days. */
  star: boolean;
}

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
}

/** A field of `min`–`max` (`top` is the largest value that may be written: 7 for Sunday). */
function field(min: number, max: number, top = max): fc.Arbitrary<Field> {
  // Only the day of week may be written past its maximum: 7 is Sunday (0).
  const sunday = (v: number) => v > max ? min : v;
  return fc.oneof(
    fc.constant({ text: "*", values: new Set(range(min, max)), star: true }),
    fc.integer({ min: 2, max: Math.max(2, max - min) }).map((step) => ({
      text: `*/${step}`,
      values: new Set(range(min, max, step)),
      star: true,
    })),
    fc.uniqueArray(fc.integer({ min, max: top }), { minLength: 1, maxLength: 4 }).map((list) => ({
      text: list.join(","),
      values: new Set(list.map(sunday)),
      star: false,
    })),
    fc.tuple(
      fc.integer({ min, max: top }),
      fc.integer({ min, max: top }),
      fc.integer({
        min: 1,
        max: 5,
      }),
    ).map(([a, b, step]) => {
      const [from, to] = a <= b ? [a, b] : [b, a];
      return {
        text: step === 1 ? `${from}-${to}` : `${from}-${to}/${step}`,
        values: new Set(range(from, to, step).map(sunday)),
        star: false,
      };
    }),
  );
}

const CRON = fc.tuple(
  field(0, 59),
  field(0, 23),
  field(1, 31),
  field(1, 12),
  field(0, 6, 7),
);

/** The first matching minute after `after` within `days`, or null: the reference. */
function reference(fields: Field[], after: Date, days: number): Date | null {
  const [minutes, hours, dom, months, dow] = fields;
  const start = Math.floor(after.getTime() / MINUTE) * MINUTE + MINUTE;
  for (let at = start; at < start + days * 1440 * MINUTE; at += MINUTE) {
    const wall = new Date(at + KIGALI_OFFSET);
    const byDate = dom.values.has(wall.getUTCDate());
    const byWeekday = dow.values.has(wall.getUTCDay());
    // Vixie cron: both day fields restricted, either one; else both (one allows every day).
    const day = !dom.star && !dow.star ? byDate || byWeekday : byDate && byWeekday;
    if (
      day && months.values.has(wall.getUTCMonth() + 1) && hours.values.has(wall.getUTCHours()) &&
      minutes.values.has(wall.getUTCMinutes())
    ) return new Date(at);
  }
  return null;
}

const AFTER = fc.date({
  min: new Date("2026-01-01T00:00:00Z"),
  max: new Date("2030-12-31T23:59:59Z"),
  noInvalidDate: true,
});

Deno.test("nextSlot() finds the reference's slot for any cron, on Kigali's clock", () => {
  const DAYS = 800;
  fc.assert(
    fc.property(CRON, AFTER, (fields, after) => {
      const cron = fields.map((f) => f.text).join(" ");
      assert.equal(cronProblem(cron), null, cron);
      const expected = reference(fields, after, DAYS);
      let actual: Date | null;
      try {
        actual = nextSlot({ cron }, after, { timeZone: "Africa/Kigali" });
      } catch (error) {
        assert.ok(error instanceof RangeError, String(error));
        actual = null;
      }
      if (expected) {
        assert.equal(
          actual?.toISOString(),
          expected.toISOString(),
          `${cron} after ${after.toISOString()}`,
        );
      } else if (actual) {
        // None within the scanned days: nextSlot's, if any, lies beyond them.
        assert.ok(actual.getTime() >= after.getTime() + DAYS * 1440 * MINUTE - MINUTE, cron);
      }
    }),
    { numRuns: 150 },
  );
});

Deno.test("nextSlot() fires on either day field when both are restricted (Vixie cron)", () => {
  // Friday 27 November 2026, 10:07 in Kigali.
  const at = new Date("2026-11-27T08:07:30Z");
  const kigali = { timeZone: "Africa/Kigali" };
  // The 1st, the 15th, or any Monday at 09:00: Monday the 30th comes first.
  assert.equal(
    nextSlot({ cron: "0 9 1,15 * 1" }, at, kigali).toISOString(),
    "2026-11-30T07:00:00.000Z",
  );
  // Days of the month with every day of the week: the 1st only.
  assert.equal(
    nextSlot({ cron: "0 9 1 * *" }, at, kigali).toISOString(),
    "2026-12-01T07:00:00.000Z",
  );
  // "*/2" starts with "*": unrestricted, so a Monday also has to be an odd day (Dec 7).
  assert.equal(
    nextSlot({ cron: "0 9 */2 * 1" }, at, kigali).toISOString(),
    "2026-12-07T07:00:00.000Z",
  );
  // Weekdays at 09:00 Kigali are 07:00 UTC; today's 09:00 is past, Monday's comes next.
  assert.equal(
    nextSlot({ cron: "0 9 * * 1-5" }, at, kigali).toISOString(),
    "2026-11-30T07:00:00.000Z",
  );
  // With no zone named, Kigali's clock (the documented default).
  assert.equal(nextSlot({ cron: "0 9 * * 1-5" }, at).toISOString(), "2026-11-30T07:00:00.000Z");
});

Deno.test("nextSlot() reads a zone with daylight saving: a skipped time has no slot, a repeated one runs once", () => {
  const paris = { timeZone: "Europe/Paris" };
  // 29 March 2026: 02:00 → 03:00 in Paris; 02:30 does not exist that day.
  assert.equal(
    nextSlot({ cron: "30 2 * * *" }, new Date("2026-03-28T12:00:00Z"), paris).toISOString(),
    "2026-03-30T00:30:00.000Z",
  );
  // 25 October 2026: 03:00 → 02:00; 02:30 happens twice, the first (00:30 UTC) runs.
  const first = nextSlot({ cron: "30 2 * * *" }, new Date("2026-10-24T12:00:00Z"), paris);
  assert.equal(first.toISOString(), "2026-10-25T00:30:00.000Z");
  // After it, the next is the following day's, not the repeat an hour later.
  assert.equal(
    nextSlot({ cron: "30 2 * * *" }, first, paris).toISOString(),
    "2026-10-26T01:30:00.000Z",
  );
});
