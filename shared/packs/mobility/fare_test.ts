import assert from "node:assert/strict";
import fc from "fast-check";
import {
  estimateFare,
  estimateTrip,
  haversine,
  kigaliMinuteOfDay,
  type Tariff,
  tariffAt,
  timeBand,
} from "./fare.ts";

const moto: Tariff = {
  id: "t-moto-2",
  vehicleType: "moto",
  version: 2,
  baseFare: 400,
  perKm: 250,
  perMinute: 20,
  minimumFare: 600,
  nightSurchargePct: 30,
  nightFrom: "22:00",
  nightTo: "05:00",
  peakSurchargePct: 15,
  peakWindows: [["07:00", "09:00"], ["17:00", "19:30"]],
  speedKmh: 30,
  peakSpeedKmh: 18,
  nightSpeedKmh: 38,
  windowPct: 15,
  effectiveFrom: "2026-11-01T00:00:00Z",
  effectiveTo: null,
};
const kigali = (local: string) => new Date(`${local}+02:00`);

Deno.test("Kigali local time is UTC+2 on every date", () => {
  assert.equal(kigaliMinuteOfDay(new Date("2026-11-23T22:30:00Z")), 30); // 00:30 next day
  assert.equal(kigaliMinuteOfDay(new Date("2026-03-29T01:00:00Z")), 180); // no DST, ever
  assert.equal(kigaliMinuteOfDay(new Date("2026-10-25T01:00:00Z")), 180);
});

Deno.test("bands: night wraps midnight, peak windows are start-inclusive, night wins", () => {
  assert.equal(timeBand(moto, kigali("2026-11-23T23:10:00")), "night");
  assert.equal(timeBand(moto, kigali("2026-11-23T04:59:00")), "night");
  assert.equal(timeBand(moto, kigali("2026-11-23T05:00:00")), "normal");
  assert.equal(timeBand(moto, kigali("2026-11-23T07:00:00")), "peak");
  assert.equal(timeBand(moto, kigali("2026-11-23T09:00:00")), "normal");
  assert.equal(timeBand(moto, kigali("2026-11-23T19:29:00")), "peak");
  assert.equal(
    timeBand({ ...moto, peakWindows: [["21:00", "23:00"]] }, kigali("2026-11-23T22:30:00")),
    "night",
  );
});

Deno.test("the same trip costs more and takes longer at peak; night is dearer but faster", () => {
  const at = (t: string) =>
    estimateFare({ tariff: moto, distanceM: 6000, at: kigali(`2026-11-23T${t}`) });
  const noon = at("12:00:00"), peak = at("08:00:00"), night = at("23:00:00");
  assert.deepEqual([noon.estimate, noon.etaMinutes, noon.band], [2150, 12, "normal"]);
  // 400 + 1500 + 20 min × 20 = 2300, +15% = 2645 → 2650.
  assert.deepEqual([peak.estimate, peak.etaMinutes, peak.surchargePct], [2650, 20, 15]);
  assert.ok(night.etaMinutes < noon.etaMinutes && night.estimate > noon.estimate);
  assert.deepEqual(noon.window, { min: 1850, max: 2500 });
  assert.deepEqual(noon.tariff, { id: "t-moto-2", version: 2, vehicleType: "moto" });
});

Deno.test("short trips pay the minimum, and the window never goes below it", () => {
  const quote = estimateFare({ tariff: moto, distanceM: 300, at: kigali("2026-11-23T12:00:00") });
  assert.equal(quote.minimumApplied, true);
  assert.equal(quote.estimate, 600);
  assert.equal(quote.window.min, 600);
});

Deno.test("bad distances and dates are refused", () => {
  for (const distanceM of [-1, Number.NaN, Infinity, 500_001]) {
    assert.throws(() => estimateFare({ tariff: moto, distanceM, at: new Date() }), RangeError);
  }
  assert.throws(
    () => estimateFare({ tariff: moto, distanceM: 10, at: new Date("nope") }),
    RangeError,
  );
});

Deno.test("the version in effect at the trip time is picked", () => {
  const v1 = {
    ...moto,
    id: "t-moto-1",
    version: 1,
    effectiveFrom: "2026-01-01T00:00:00Z",
    effectiveTo: "2026-11-01T00:00:00Z",
  };
  const cab = {
    ...moto,
    id: "t-cab-1",
    vehicleType: "cab" as const,
    effectiveFrom: "2026-01-01T00:00:00Z",
  };
  const all = [v1, moto, cab];
  assert.equal(tariffAt(all, "moto", new Date("2026-10-31T23:59:59Z"))?.id, "t-moto-1");
  assert.equal(tariffAt(all, "moto", new Date("2026-11-01T00:00:00Z"))?.id, "t-moto-2");
  assert.equal(tariffAt(all, "moto", new Date("2025-12-31T00:00:00Z")), null);
  assert.equal(tariffAt(all, "cab", new Date("2027-01-01T00:00:00Z"))?.id, "t-cab-1");
});

Deno.test("haversine: symmetric, zero for one point, and a known Kigali distance", () => {
  const remera = { lat: -1.9557, lng: 30.1123 }, cbd = { lat: -1.9441, lng: 30.0619 };
  assert.equal(haversine(remera, remera), 0);
  assert.equal(Math.round(haversine(remera, cbd)), Math.round(haversine(cbd, remera)));
  assert.ok(Math.abs(haversine(remera, cbd) - 5750) < 100);
  const trip = estimateTrip({
    tariff: moto,
    origin: remera,
    dest: cbd,
    at: kigali("2026-11-23T12:00:00"),
  });
  assert.equal(trip.distanceKm, 7.5);
});

Deno.test("property: estimates are whole, within their window, and grow with distance", () => {
  fc.assert(fc.property(
    fc.integer({ min: 0, max: 100_000 }),
    fc.integer({ min: 0, max: 100_000 }),
    fc.date({
      min: new Date("2026-01-01T00:00:00Z"),
      max: new Date("2030-01-01T00:00:00Z"),
      noInvalidDate: true,
    }),
    (a, b, at) => {
      const near = estimateFare({ tariff: moto, distanceM: Math.min(a, b), at });
      const far = estimateFare({ tariff: moto, distanceM: Math.max(a, b), at });
      for (const q of [near, far]) {
        assert.ok(
          Number.isInteger(q.estimate) && q.estimate % 50 === 0 && q.estimate >= moto.minimumFare,
        );
        assert.ok(q.window.min <= q.estimate && q.estimate <= q.window.max);
        assert.ok(q.etaMinutes >= 1);
      }
      assert.ok(near.estimate <= far.estimate);
    },
  ));
});
