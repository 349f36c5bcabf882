import assert from "node:assert/strict";
import { reminderAt } from "./viewing_reminder.ts";

const at = (iso: string) => new Date(iso);

Deno.test("reminderAt() is the day before for a viewing booked days ahead", () => {
  assert.deepEqual(
    reminderAt({ startsAt: at("2026-12-02T12:00:00Z"), timedAt: at("2026-11-30T06:00:00Z") }),
    at("2026-12-01T12:00:00Z"),
  );
});

Deno.test("reminderAt() is two hours before for a viewing booked the same day", () => {
  // Booked at 08:00 for 17:00, and at 08:00 for tomorrow 07:00: neither hears right away.
  assert.deepEqual(
    reminderAt({ startsAt: at("2026-11-30T15:00:00Z"), timedAt: at("2026-11-30T06:00:00Z") }),
    at("2026-11-30T13:00:00Z"),
  );
  assert.deepEqual(
    reminderAt({ startsAt: at("2026-12-01T05:00:00Z"), timedAt: at("2026-11-30T06:00:00Z") }),
    at("2026-12-01T03:00:00Z"),
  );
});

Deno.test("reminderAt() is none when any reminder would follow the booking within the hour", () => {
  assert.equal(
    reminderAt({ startsAt: at("2026-11-30T08:00:00Z"), timedAt: at("2026-11-30T06:00:00Z") }),
    null,
  );
  assert.equal(
    reminderAt({ startsAt: at("2026-11-30T08:30:00Z"), timedAt: at("2026-11-30T06:00:00Z") }),
    null,
  );
});
