import assert from "node:assert/strict";
import { DEFAULT_QUIET_HOURS, nextAllowedTime } from "./quiet_hours.ts";

const kigali = (iso: string) => nextAllowedTime(new Date(iso), DEFAULT_QUIET_HOURS).toISOString();

Deno.test("nextAllowedTime() moves a send at 22:00 Kigali to 08:00 the next day", () => {
  assert.equal(kigali("2026-12-01T22:00:00+02:00"), "2026-12-02T06:00:00.000Z");
});

Deno.test("nextAllowedTime() moves a send after midnight to 08:00 the same day", () => {
  assert.equal(kigali("2026-12-02T03:15:00+02:00"), "2026-12-02T06:00:00.000Z");
  assert.equal(kigali("2026-12-02T07:59:00+02:00"), "2026-12-02T06:00:00.000Z");
});

Deno.test("nextAllowedTime() keeps a send outside the quiet hours, bounds included", () => {
  assert.equal(kigali("2026-12-02T08:00:00+02:00"), "2026-12-02T06:00:00.000Z");
  assert.equal(kigali("2026-12-02T20:59:00+02:00"), "2026-12-02T18:59:00.000Z");
  assert.equal(kigali("2026-12-02T21:00:00+02:00"), "2026-12-03T06:00:00.000Z");
});

Deno.test("nextAllowedTime() reads an org's own hours and time zone", () => {
  const paris = { start: "13:00", end: "14:30", timeZone: "Europe/Paris" };
  // 13:10 in Paris in winter (UTC+1) waits until 14:30 local, 13:30Z.
  assert.equal(
    nextAllowedTime(new Date("2026-12-02T12:10:00Z"), paris).toISOString(),
    "2026-12-02T13:30:00.000Z",
  );
  assert.equal(
    nextAllowedTime(new Date("2026-12-02T11:10:00Z"), paris).toISOString(),
    "2026-12-02T11:10:00.000Z",
  );
});

Deno.test("nextAllowedTime() refuses a bound that is not HH:MM or an unknown zone", () => {
  assert.throws(
    () => nextAllowedTime(new Date(), { ...DEFAULT_QUIET_HOURS, start: "25:00" }),
    /start is not HH:MM: current value is 25:00/,
  );
  assert.throws(
    () => nextAllowedTime(new Date(), { ...DEFAULT_QUIET_HOURS, timeZone: "Mars/Olympus" }),
    /time zone is unknown: current value is Mars\/Olympus/,
  );
});
