/**
 * `price_insurance` on PGlite and Postgres: every insurer quoted from the
 * tariff version in effect, exact sums, rules refused with the field, quotes
 * reproducible as of an earlier instant, stored under RLS, replayed by key.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { JwtClaims } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });
const SONARWA = "e1000000-0000-4000-8000-000000000001";
const SONARWA_CAR_TP_V1 = "e2000000-0000-4000-8000-000000000001";
const SONARWA_CAR_TP_V2 = "e2000000-0000-4000-8000-000000000002";
const CAR = {
  type: "motor",
  category: "car",
  coverage_period_days: 365,
  vehicle: { make: "Toyota", model: "RAV4", year: 2015 },
  driver: { age: 34, experience_years: 10 },
};

async function sqlState(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "ok";
}

function countQuotes(db: { query<T>(sql: string): Promise<T[]> }) {
  return db.query<{ n: number }>("select count(*)::int as n from public.insurance_quotes")
    .then(([row]) => row.n);
}

dbTest("every insurer quoted from its current tariff, cheapest first, sums exact", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "price_insurance", CAR, { idempotencyKey: "q1" });
  assert.ok(result.ok, JSON.stringify(result));
  const data = result.data;
  assert.equal(data.quotes.length, 3);
  assert.deepEqual(data.declined, []);
  const premiums = data.quotes.map((q: TestData) => q.premium);
  assert.deepEqual(premiums, [...premiums].sort((a, b) => a - b));
  for (const q of data.quotes) {
    assert.equal(q.breakdown.base + q.breakdown.tax + q.breakdown.fees, q.premium);
    assert.equal(q.breakdown.fees, q.fee_items.reduce((s: number, f: TestData) => s + f.amount, 0));
    assert.equal(q.vat_rate_pct, 18);
  }
  // SONARWA's v2 (from November 2026): 79 000 base; fees 2 000 admin (VAT) + 1 000 road
  // safety + 500 card; VAT 18 % of 81 000 = 14 580.
  const sonarwa = data.quotes.find((q: TestData) => q.insurer_id === SONARWA);
  assert.equal(sonarwa.tariff_id, SONARWA_CAR_TP_V2);
  assert.equal(sonarwa.tariff_version, 2);
  assert.deepEqual(sonarwa.breakdown, { base: 79000, tax: 14580, fees: 3500 });
  assert.equal(sonarwa.premium, 97080);
  assert.deepEqual(sonarwa.fee_items.map((f: TestData) => [f.code, f.amount, f.vat]), [
    ["admin_fee", 2000, true],
    ["road_safety_fee", 1000, false],
    ["insurance_card", 500, false],
  ]);
  assert.equal(sonarwa.fee_items[0].label.fr, "Frais de dossier");
  // The seed's single-quote fields are the cheapest quote.
  assert.equal(data.premium, data.quotes[0].premium);
  assert.deepEqual(data.breakdown, data.quotes[0].breakdown);
  assert.equal(data.insurer, data.quotes[0].insurer);
  assert.equal(data.validity, data.quotes[0].valid_until);
  assert.equal(data.currency, "RWF");

  const stored = await db.query<TestData>(
    `select tariff_id, tariff_version, premium_rwf, base_rwf, tax_rwf, fees_rwf, customer_id
     from public.insurance_quotes where request_id = $1 order by premium_rwf`,
    [data.request_id],
  );
  assert.deepEqual(
    stored.map((row) => [row.tariff_id, row.tariff_version, row.premium_rwf]),
    data.quotes.map((q: TestData) => [q.tariff_id, q.tariff_version, q.premium]),
  );
  assert.ok(stored.every((row) => row.customer_id === USER.aline));
});

dbTest("a quote made yesterday is reproduced exactly as of its instant", async (db) => {
  const yesterday = new Date("2026-10-31T10:00:00+02:00");
  const then = await createTestRuntime(db, { now: () => yesterday });
  const first = await then.callAs(USER.aline, "price_insurance", CAR, { idempotencyKey: "y1" });
  assert.ok(first.ok, JSON.stringify(first));
  const sonarwaThen = first.data.quotes.find((q: TestData) => q.insurer_id === SONARWA);
  // v1: 72 000 + VAT 18 % of 74 000 (13 320) + fees 3 500.
  assert.equal(sonarwaThen.tariff_id, SONARWA_CAR_TP_V1);
  assert.deepEqual(sonarwaThen.breakdown, { base: 72000, tax: 13320, fees: 3500 });
  assert.equal(sonarwaThen.premium, 88820);
  // A quote never outlives its tariff: v1 ends on 1 November.
  assert.equal(sonarwaThen.valid_until, "2026-10-31T22:00:00.000Z");

  const rt = await createTestRuntime(db);
  const today = await rt.callAs(USER.aline, "price_insurance", CAR, { idempotencyKey: "y2" });
  assert.equal(
    today.data.quotes.find((q: TestData) => q.insurer_id === SONARWA).tariff_version,
    2,
  );
  const again = await rt.callAs(
    USER.aline,
    "price_insurance",
    { ...CAR, as_of: yesterday.toISOString() },
    { idempotencyKey: "y3" },
  );
  assert.ok(again.ok, JSON.stringify(again));
  const strip = (quotes: TestData[]) => quotes.map(({ quote_id: _, ...rest }) => rest);
  assert.deepEqual(strip(again.data.quotes), strip(first.data.quotes));
  assert.equal(again.data.as_of, yesterday.toISOString());

  const future = await rt.callAs(USER.aline, "price_insurance", {
    ...CAR,
    as_of: "2099-01-01T00:00:00Z",
  }, { idempotencyKey: "y4" });
  assert.equal(future.error.code, "VALIDATION_ERROR");
  assert.deepEqual(future.error.fields.map((f: TestData) => f.path), ["as_of"]);
});

dbTest("inputs outside every tariff's rules are VALIDATION_ERROR naming the field", async (db) => {
  const rt = await createTestRuntime(db);
  const cases: Array<[string, unknown, string, RegExp]> = [
    ["a 1950 car", { ...CAR, vehicle: { ...CAR.vehicle, year: 1950 } }, "vehicle.year", /1950/],
    ["a driver aged 15", { ...CAR, driver: { age: 15 } }, "driver.age", /at least 18/],
    ["0 days", { ...CAR, coverage_period_days: 0 }, "coverage_period_days", /at least 1/],
    ["10 days of motor", { ...CAR, coverage_period_days: 10 }, "coverage_period_days", /30/],
    ["an unknown category", { ...CAR, category: "spaceship" }, "category", /car, moto/],
    [
      "a car from the future",
      { ...CAR, vehicle: { ...CAR.vehicle, year: 2031 } },
      "vehicle.year",
      /2031/,
    ],
    ["no vehicle", { ...CAR, vehicle: undefined }, "vehicle", /make, model and year/],
    [
      "comprehensive without a value",
      { ...CAR, cover: "comprehensive" },
      "declared_value",
      /value/,
    ],
    [
      "travel without a destination",
      {
        type: "travel",
        category: "schengen",
        coverage_period_days: 10,
      },
      "destination",
      /destination/,
    ],
    [
      "a vehicle on health cover",
      {
        type: "health",
        category: "family",
        coverage_period_days: 365,
        vehicle: CAR.vehicle,
      },
      "vehicle",
      /motor/,
    ],
  ];
  for (const [what, args, path, reason] of cases) {
    const result = await rt.callAs(USER.aline, "price_insurance", args, {
      idempotencyKey: `bad-${what.replaceAll(" ", "-")}`,
    });
    assert.equal(result.ok, false, what);
    assert.equal(result.error.code, "VALIDATION_ERROR", `${what}: ${JSON.stringify(result)}`);
    const field = result.error.fields.find((f: TestData) => f.path === path);
    assert.ok(field, `${what}: ${JSON.stringify(result.error.fields)}`);
    assert.match(field.message, reason, what);
  }
  assert.equal(await countQuotes(db), 0);
});

dbTest("insurers whose rules refuse are listed as declined; the others quote", async (db) => {
  const rt = await createTestRuntime(db);
  // 1992: Radiant covers cars from 1990; SONARWA from 1995, Prime from 2000.
  const result = await rt.callAs(USER.aline, "price_insurance", {
    ...CAR,
    vehicle: { ...CAR.vehicle, year: 1992 },
  }, { idempotencyKey: "old" });
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.data.quotes.map((q: TestData) => q.insurer), ["Radiant Insurance"]);
  assert.deepEqual(
    result.data.declined.map((d: TestData) => [d.insurer, d.path]).sort(),
    [["Prime Insurance", "vehicle.year"], ["SONARWA General Insurance", "vehicle.year"]],
  );
  // Comprehensive on a declared value, and a product line nobody sells.
  const comprehensive = await rt.callAs(USER.aline, "price_insurance", {
    ...CAR,
    cover: "comprehensive",
    declared_value: 15_000_000,
  }, { idempotencyKey: "comp" });
  assert.ok(comprehensive.ok, JSON.stringify(comprehensive));
  const sonarwa = comprehensive.data.quotes.find((q: TestData) => q.insurer_id === SONARWA);
  // 3.5 % of 15 000 000 = 525 000; VAT on 527 000 = 94 860.
  assert.deepEqual(sonarwa.breakdown, { base: 525000, tax: 94860, fees: 3500 });
  const truck = await rt.callAs(USER.aline, "price_insurance", {
    ...CAR,
    category: "truck",
  }, { idempotencyKey: "truck" });
  assert.equal(truck.error.code, "NOT_FOUND");
  assert.match(truck.error.msg, /truck/);
  const travel = await rt.callAs(USER.aline, "price_insurance", {
    type: "travel",
    category: "regional",
    coverage_period_days: 7,
    destination: "Kampala",
  }, { idempotencyKey: "travel" });
  assert.ok(travel.ok, JSON.stringify(travel));
  // SONARWA: max(7 × 900, 5 000) = 6 300 + 1 000 admin, VAT on 7 300 = 1 314; Radiant's
  // 5 950 + 1 500 + 1 341 = 8 791 comes second.
  assert.equal(travel.data.insurer, "SONARWA General Insurance");
  assert.deepEqual(travel.data.breakdown, { base: 6300, tax: 1314, fees: 1000 });
  assert.deepEqual(travel.data.quotes.map((q: TestData) => q.premium), [8614, 8791]);
});

dbTest("a replay with the same key returns the same quotes and stores nothing new", async (db) => {
  const rt = await createTestRuntime(db);
  const first = await rt.callAs(USER.aline, "price_insurance", CAR, { idempotencyKey: "r1" });
  const again = await rt.callAs(USER.aline, "price_insurance", CAR, { idempotencyKey: "r1" });
  assert.deepEqual(again, first);
  assert.equal(await countQuotes(db), 3);
  const other = await rt.callAs(
    USER.aline,
    "price_insurance",
    { ...CAR, coverage_period_days: 90 },
    {
      idempotencyKey: "r1",
    },
  );
  assert.equal(other.error.code, "CONFLICT");
});

dbTest("customers see their own quotes, staff their org's, other orgs none", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "price_insurance", CAR, { idempotencyKey: "rls" });
  assert.ok(result.ok, JSON.stringify(result));
  const read = (user: string) =>
    db.asCaller(
      as(user),
      (tx) => tx.query<{ id: string }>("select id from public.insurance_quotes"),
    );
  assert.equal((await read(USER.aline)).length, 3);
  assert.equal((await read(USER.jean)).length, 3); // EasyMO staff
  assert.equal((await read(USER.eric)).length, 0); // another EasyMO member
  assert.equal((await read(USER.paul)).length, 0); // Beaver staff
  assert.equal((await read(USER.nina)).length, 0); // Beaver customer
  // Beaver's members read no EasyMO tariffs either.
  assert.deepEqual(
    await db.asCaller(as(USER.nina), (tx) => tx.query("select id from public.insurance_tariffs")),
    [],
  );
  // Quotes are records: a customer cannot rewrite one, nor forge a cheaper one.
  assert.equal(
    await sqlState(
      db.asCaller(
        as(USER.aline),
        (tx) => tx.query("update public.insurance_quotes set premium_rwf = 1"),
      ),
    ),
    "42501",
  );
  const forge = (premium: number, base: number) =>
    db.asCaller(as(USER.aline), (tx) =>
      tx.query(
        `insert into public.insurance_quotes
           (org_id, customer_id, request_id, insurer_id, tariff_id, tariff_version, product,
            category, usage, cover, coverage_days, base_rwf, tax_rwf, fees_rwf, premium_rwf,
            priced_at, valid_until)
         values ($1, $2, gen_random_uuid(), $3, $4, 2, 'motor', 'car', 'private', 'third_party',
                 365, $5, 0, 0, $6, now(), now() + interval '1 day')`,
        [ORG.easymo, USER.aline, SONARWA, SONARWA_CAR_TP_V2, base, premium],
      ));
  assert.equal(await sqlState(forge(1000, 1000)), "23514");
  // Nor quote in another org: the tariff is not even visible to a Beaver customer (P0002
  // from the price check, which runs before the policy's check), else RLS refuses.
  assert.match(
    await sqlState(db.asCaller(as(USER.nina), (tx) =>
      tx.query(
        `insert into public.insurance_quotes
           (org_id, customer_id, request_id, insurer_id, tariff_id, tariff_version, product,
            category, usage, cover, coverage_days, base_rwf, tax_rwf, fees_rwf, premium_rwf,
            priced_at, valid_until)
         values ($1, $2, gen_random_uuid(), $3, $4, 2, 'motor', 'car', 'private', 'third_party',
                 365, 79000, 14580, 3500, 97080, now(), now() + interval '1 day')`,
        [ORG.easymo, USER.nina, SONARWA, SONARWA_CAR_TP_V2],
      ))),
    /^(42501|P0002)$/,
  );
  assert.equal(await countQuotes(db), 3);
});

dbTest("an effective tariff cannot change; a new version takes over", async (db) => {
  assert.equal(
    await sqlState(
      db.query("update public.insurance_tariffs set base_rate_rwf = 1 where id = $1", [
        SONARWA_CAR_TP_V2,
      ]),
    ),
    "P0409",
  );
  assert.equal(
    await sqlState(db.query("delete from public.insurance_tariffs where id = $1", [
      SONARWA_CAR_TP_V1,
    ])),
    "P0409",
  );
  // Staff of another org cannot add a tariff to EasyMO.
  assert.equal(
    await sqlState(db.asCaller(as(USER.paul), (tx) =>
      tx.query(
        `insert into public.insurers (org_id, name) values ($1, 'Fake Insurance')`,
        [ORG.easymo],
      ))),
    "42501",
  );
});

dbTest("base + tax + fees = premium exactly, with VAT rounded half up (fast-check)", async (db) => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        fixed: fc.boolean(),
        rate: fc.integer({ min: 1, max: 5_000_000 }),
        bp: fc.integer({ min: 1, max: 2_000 }),
        period: fc.constantFrom(1, 30, 365),
        minBase: fc.integer({ min: 0, max: 200_000 }),
        fees: fc.array(
          fc.record({ amount: fc.integer({ min: 0, max: 50_000 }), vat: fc.boolean() }),
          { maxLength: 4 },
        ),
        vatBp: fc.constantFrom(0, 1800, 1850, 1),
        days: fc.integer({ min: 1, max: 3650 }),
        value: fc.integer({ min: 0, max: 2_000_000_000 }),
      }),
      async (t) => {
        run += 1;
        const [{ id }] = await db.query<{ id: string }>(
          `insert into public.insurance_tariffs
             (org_id, insurer_id, product, category, usage, cover, version, rate_basis,
              base_rate_rwf, rate_bp, period_days, min_base_rwf, fees, vat_rate_bp,
              effective_from)
           values ($1, $2, 'motor', 'truck', 'commercial', 'third_party', $3::int, $4, $5, $6, $7,
                   $8, $9::jsonb -> 'items', $10, '2030-01-01'::timestamptz + $3::int * interval '1 day')
           returning id`,
          [
            ORG.easymo,
            SONARWA,
            run,
            t.fixed ? "fixed" : "declared_value",
            t.fixed ? t.rate : 0,
            t.fixed ? 0 : t.bp,
            t.period,
            t.minBase,
            {
              items: t.fees.map((f, i) => ({
                code: `fee_${i}`,
                amount_rwf: f.amount,
                vat: f.vat,
                label: { en: "Fee", fr: "Frais", rw: "Amafaranga" },
              })),
            },
            t.vatBp,
          ],
        );
        const [{ p }] = await db.query<{ p: TestData }>(
          "select private.insurance_price($1, $2, $3) as p",
          [id, t.days, t.value],
        );
        for (const key of ["base", "tax", "fees", "premium"]) {
          assert.ok(Number.isSafeInteger(p[key]) && p[key] >= 0, `${key}: ${p[key]}`);
        }
        assert.equal(p.base + p.tax + p.fees, p.premium);
        // The stated rules, in exact integer arithmetic.
        const raw = t.fixed
          ? BigInt(t.rate) * BigInt(t.days) * 2n
          : BigInt(t.value) * BigInt(t.bp) * BigInt(t.days) * 2n;
        const divisor = t.fixed ? BigInt(t.period) : 10_000n * BigInt(t.period);
        const base = Math.max(Number((raw / divisor + 1n) / 2n), t.minBase);
        assert.equal(p.base, base);
        const fees = t.fees.reduce((s, f) => s + f.amount, 0);
        assert.equal(p.fees, fees);
        const vatBase = base + t.fees.filter((f) => f.vat).reduce((s, f) => s + f.amount, 0);
        assert.equal(p.vat_base, vatBase);
        assert.equal(p.tax, Number((BigInt(vatBase) * BigInt(t.vatBp) * 2n / 10_000n + 1n) / 2n));
      },
    ),
    { numRuns: 60 },
  );
});
