/**
 * Drivers, locations, tariffs and ride offers in the database (migration
 * 20261123000600_commerce_mobility_payments.sql), on PGlite and Postgres:
 * coarse-only positions, self-expiring availability, the GiST index in the
 * radius query's plan, immutable tariffs, and first-accept-wins.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { JwtClaims, Queryable } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });
const DRIVER = (n: number) => `f0000000-0000-4000-8000-00000000000${n}`;
const DRIVER_USER = (n: number) => `00000000-0000-4000-8000-0000000000d${n}`;
const MOTO_V2 = "f1000000-0000-4000-8000-000000000002";
const REMERA = { lat: -1.9557, lng: 30.1123 };

async function sqlState(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "ok";
}

interface Near {
  driver_id: string;
  lat: number;
  lng: number;
  distance_m: number;
}

function near(q: Queryable, radius: number, org: string = ORG.easymo) {
  return q.query<Near>(
    "select * from private.drivers_near($1, $2, $3, $4, null, 20)",
    [org, REMERA.lat, REMERA.lng, radius],
  );
}

const decimals = (x: number) => (String(x).split(".")[1] ?? "").length;

dbTest(
  "callers get drivers near a point with 3-decimal positions only; raw columns are refused",
  async (db) => {
    await db.query("update public.drivers set available_until = now() + interval '1 hour'");
    const rows = await db.asCaller(as(USER.aline), (tx) => near(tx, 3000));
    assert.ok(rows.length >= 2, JSON.stringify(rows));
    assert.equal(rows[0].driver_id, DRIVER(1)); // parked in Remera
    for (const row of rows) {
      assert.ok(decimals(row.lat) <= 3 && decimals(row.lng) <= 3, JSON.stringify(row));
      assert.ok(Number.isInteger(row.distance_m) && row.distance_m <= 3200);
    }
    assert.deepEqual(
      rows.map((r) => r.distance_m),
      [...rows.map((r) => r.distance_m)].sort((a, b) => a - b),
    );
    for (
      const sql of [
        "select lat, lng from private.driver_locations",
        "select * from private.driver_locations",
      ]
    ) {
      assert.equal(await sqlState(db.asCaller(as(USER.aline), (tx) => tx.query(sql))), "42501");
      assert.equal(await sqlState(db.asCaller(as(USER.jean), (tx) => tx.query(sql))), "42501");
    }
    // Customers see no driver rows (phones, plates) directly; org B sees no org A drivers.
    assert.deepEqual(
      await db.asCaller(as(USER.aline), (tx) => tx.query("select id from public.drivers")),
      [],
    );
    assert.deepEqual(await db.asCaller(as(USER.nina), (tx) => near(tx, 50_000)), []);
    assert.deepEqual(await db.asCaller(as(USER.nina), (tx) => near(tx, 50_000, ORG.beaver)), []);
  },
);

dbTest("availability lapses by itself; drivers check in as themselves only", async (db) => {
  await db.query("update public.drivers set available_until = now() - interval '1 second'");
  assert.deepEqual(await db.asCaller(as(USER.aline), (tx) => near(tx, 50_000)), []);
  // Driver 1 shares a new position in Kimironko and taps "available" for 30 minutes.
  const [{ until }] = await db.asCaller(
    as(DRIVER_USER(1)),
    (tx) =>
      tx.query<{ until: string }>(
        "select private.driver_check_in($1, -1.949512, 30.126187, 30) as until",
        [DRIVER(1)],
      ),
  );
  assert.ok(new Date(until).getTime() > Date.now() + 29 * 60_000);
  const rows = await db.asCaller(as(USER.aline), (tx) => near(tx, 50_000));
  assert.deepEqual(rows.map((r) => [r.driver_id, r.lat, r.lng]), [[DRIVER(1), -1.95, 30.126]]);
  // Someone else cannot move driver 1, nor can staff of another org; bad minutes are refused.
  for (const sub of [USER.aline, USER.paul, DRIVER_USER(2)]) {
    assert.equal(
      await sqlState(
        db.asCaller(
          as(sub),
          (tx) => tx.query("select private.driver_check_in($1, 0, 0, 30)", [DRIVER(1)]),
        ),
      ),
      "42501",
      sub,
    );
  }
  assert.equal(
    await sqlState(
      db.asCaller(
        as(DRIVER_USER(1)),
        (tx) => tx.query("select private.driver_check_in($1, 0, 0, 10000)", [DRIVER(1)]),
      ),
    ),
    "23514",
  );
  assert.equal(
    await sqlState(
      db.asCaller(
        as(DRIVER_USER(1)),
        (tx) => tx.query("select private.driver_check_in($1, 95, 0, 10)", [DRIVER(1)]),
      ),
    ),
    "23514",
  );
});

dbTest("with 10,000 drivers the radius query's plan uses the GiST index", async (db) => {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into public.drivers (id, org_id, display_name, phone, vehicle_type, plate, available_until)
       select gen_random_uuid(), $1, 'Driver ' || n, '+25078' || lpad(n::text, 7, '0'),
              case when n % 3 = 0 then 'cab' else 'moto' end,
              'RB ' || lpad((n % 1000)::text, 3, '0') || ' ' || chr(65 + (n / 1000) % 26),
              now() + interval '1 hour'
       from generate_series(1, 10000) as n`,
      [ORG.easymo],
    );
    await tx.query(
      `insert into private.driver_locations (driver_id, lat, lng)
       select d.id, -1.85 - random() * 0.25, 29.95 + random() * 0.3
       from public.drivers d where d.display_name like 'Driver %'`,
    );
  });
  await db.exec("analyze private.driver_locations; analyze public.drivers");
  const plan = (await db.query<Record<string, string>>(
    `explain select l.driver_id from private.driver_locations l
     where l.earth operator(extensions.<@)
             extensions.cube_enlarge(private.earth_point($1, $2), $3, 3)
       and extensions.cube_distance(l.earth, private.earth_point($1, $2)) <= 2 * 6378168 * sin($3 / (2 * 6378168.0))`,
    [REMERA.lat, REMERA.lng, 2000],
  )).map((row) => Object.values(row)[0]).join("\n");
  assert.match(plan, /driver_locations_earth_idx/, plan);
  // The function answers the same as the bare query.
  const bare = await db.query<{ n: number }>(
    `select count(*)::int as n from private.driver_locations l join public.drivers d on d.id = l.driver_id
     where private.earth_metres(l.earth, private.earth_point($1, $2)) <= $3 and d.available_until > now()`,
    [REMERA.lat, REMERA.lng, 2000],
  );
  const viaFunction = await db.asCaller(
    as(USER.aline),
    (tx) =>
      tx.query<{ n: number }>(
        "select count(*)::int as n from private.drivers_near($1, $2, $3, $4, null, 50)",
        [
          ORG.easymo,
          REMERA.lat,
          REMERA.lng,
          2000,
        ],
      ),
  );
  assert.equal(viaFunction[0].n, Math.min(50, bare[0].n));
});

dbTest(
  "tariffs in effect never change; only closing them and new versions are allowed",
  async (db) => {
    const staff = (sql: string, params: unknown[] = []) =>
      sqlState(db.asCaller(as(USER.jean), (tx) => tx.query(sql, params)));
    assert.equal(
      await staff("update public.tariffs set base_fare = 1 where id = $1", [MOTO_V2]),
      "P0409",
    );
    assert.equal(
      await sqlState(db.query("update public.tariffs set per_km = 1 where id = $1", [MOTO_V2])),
      "P0409",
    );
    assert.equal(
      await sqlState(db.query("delete from public.tariffs where id = $1", [MOTO_V2])),
      "P0409",
    );
    assert.equal(
      await staff(
        "update public.tariffs set effective_to = now() - interval '1 day' where id = $1",
        [MOTO_V2],
      ),
      "P0409",
    );
    // v3 from next week: v2 is closed then, and v3 may still be edited until it starts.
    assert.equal(
      await staff(
        `insert into public.tariffs (org_id, vehicle_type, version, base_fare, per_km, per_minute, minimum_fare,
         speed_kmh, peak_speed_kmh, night_speed_kmh, effective_from)
       values ($1, 'moto', 3, 500, 300, 20, 700, 30, 18, 38, now() + interval '7 days')`,
        [ORG.easymo],
      ),
      "ok",
    );
    assert.equal(
      await staff(
        "update public.tariffs set effective_to = now() + interval '7 days' where id = $1",
        [MOTO_V2],
      ),
      "ok",
    );
    assert.equal(
      await staff(
        "update public.tariffs set base_fare = 450 where version = 3 and vehicle_type = 'moto'",
      ),
      "ok",
    );
    // Customers and other orgs' staff write no tariffs.
    for (const sub of [USER.aline, USER.paul]) {
      assert.equal(
        await sqlState(db.asCaller(as(sub), (tx) =>
          tx.query(
            `insert into public.tariffs (org_id, vehicle_type, version, base_fare, per_km, per_minute, minimum_fare,
             speed_kmh, peak_speed_kmh, night_speed_kmh, effective_from)
           values ($1, 'cab', 9, 1, 1, 1, 1, 30, 18, 38, now() + interval '1 day')`,
            [ORG.easymo],
          ))),
        "42501",
      );
    }
  },
);

async function openRide(
  db: Queryable,
  drivers: number[],
): Promise<{ ride: string; offers: string[] }> {
  const [ride] = await db.query<{ id: string }>(
    `insert into public.ride_requests (org_id, rider_id, vehicle_type, pickup_lat, pickup_lng, dest_lat, dest_lng,
       tariff_id, estimate_rwf, estimate_min_rwf, estimate_max_rwf, expires_at)
     values ($1, $2, 'moto', -1.9557, 30.1123, -1.9441, 30.0619, $3, 2150, 1850, 2500, now() + interval '10 minutes')
     returning id`,
    [ORG.easymo, USER.aline, MOTO_V2],
  );
  const offers: string[] = [];
  for (const n of drivers) {
    const [offer] = await db.query<{ id: string }>(
      `insert into public.ride_offers (org_id, request_id, driver_id, expires_at)
       values ($1, $2, $3, now() + interval '2 minutes') returning id`,
      [ORG.easymo, ride.id, DRIVER(n)],
    );
    offers.push(offer.id);
  }
  return { ride: ride.id, offers };
}

const accept = (db: Parameters<Parameters<typeof dbTest>[1]>[0], n: number, offer: string) =>
  sqlState(
    db.asCaller(
      as(DRIVER_USER(n)),
      (tx) =>
        tx.query("update public.ride_offers set status = 'accepted' where id = $1 returning id", [
          offer,
        ]).then((rows) => {
          if (rows.length !== 1) {
            throw Object.assign(new Error("no row"), { code: "no rows" });
          }
        }),
    ),
  );

dbTest("two drivers accepting at once: exactly one is matched", async (db) => {
  for (let round = 0; round < 5; round++) {
    const { ride, offers } = await openRide(db, [0, 1, 4]);
    const outcomes = await Promise.all([accept(db, 0, offers[0]), accept(db, 1, offers[1])]);
    assert.equal(outcomes.filter((o) => o === "ok").length, 1, outcomes.join());
    assert.ok(outcomes.every((o) => o === "ok" || o === "23505" || o === "P0409"), outcomes.join());
    const winner = outcomes[0] === "ok" ? 0 : 1;
    const [row] = await db.query<{ status: string; matched_driver_id: string }>(
      "select status, matched_driver_id from public.ride_requests where id = $1",
      [ride],
    );
    assert.deepEqual(row, { status: "matched", matched_driver_id: DRIVER(winner) });
    // The driver who was not involved lost the ride; a later accept is refused.
    const [third] = await db.query<{ status: string }>(
      "select status from public.ride_offers where id = $1",
      [offers[2]],
    );
    assert.equal(third.status, "lost");
    assert.equal(await accept(db, 4, offers[2]), "P0409");
  }
});

dbTest(
  "offers: expired ones cannot be accepted; drivers touch only their own; cross-org offers refused",
  async (db) => {
    const { ride, offers } = await openRide(db, [0, 1]);
    await db.query("update public.ride_offers set status = 'expired' where id = $1", [offers[0]]);
    assert.equal(await accept(db, 0, offers[0]), "P0409");
    assert.equal(await accept(db, 2, offers[1]), "no rows"); // driver 2 is not offer 1's driver
    assert.equal(
      await sqlState(
        db.asCaller(
          as(DRIVER_USER(1)),
          (tx) =>
            tx.query("update public.ride_offers set driver_id = $2 where id = $1", [
              offers[1],
              DRIVER(2),
            ]),
        ),
      ),
      "42501",
    );
    // A ride of org A offered under org B, even by the owner role, has no such (org, ride).
    assert.equal(
      await sqlState(db.query(
        "insert into public.ride_offers (org_id, request_id, driver_id, expires_at) values ($1, $2, $3, now())",
        [ORG.beaver, ride, DRIVER(3)],
      )),
      "23503",
    );
    for (const sub of [USER.aline, USER.paul, USER.nina]) {
      assert.equal(
        await sqlState(
          db.asCaller(as(sub), (tx) =>
            tx.query(
              "insert into public.ride_offers (org_id, request_id, driver_id, expires_at) values ($1, $2, $3, now())",
              [
                ORG.easymo,
                ride,
                DRIVER(3),
              ],
            )),
        ),
        "42501",
        sub,
      );
    }
    // Customer B cannot request a ride in org A, nor see A's rides.
    assert.equal(
      await sqlState(db.asCaller(as(USER.nina), (tx) =>
        tx.query(
          `insert into public.ride_requests (org_id, rider_id, vehicle_type, pickup_lat, pickup_lng, dest_lat, dest_lng, expires_at)
         values ($1, $2, 'moto', 0, 0, 0, 0, now())`,
          [ORG.easymo, USER.nina],
        ))),
      "42501",
    );
    assert.deepEqual(
      await db.asCaller(as(USER.nina), (tx) => tx.query("select id from public.ride_requests")),
      [],
    );
    // A ride cannot name org B's tariff; staff A sees the ride, the rider sees it too.
    assert.equal(
      await sqlState(db.query(
        `insert into public.tariffs (id, org_id, vehicle_type, version, base_fare, per_km, per_minute, minimum_fare,
         speed_kmh, peak_speed_kmh, night_speed_kmh, effective_from)
       values ('f1000000-0000-4000-8000-0000000000b1', $1, 'moto', 1, 1, 1, 1, 1, 30, 18, 38, now())`,
        [ORG.beaver],
      )),
      "ok",
    );
    assert.equal(
      await sqlState(
        db.query(
          "update public.ride_requests set tariff_id = 'f1000000-0000-4000-8000-0000000000b1' where id = $1",
          [ride],
        ),
      ),
      "23503",
    );
    assert.equal(
      (await db.asCaller(
        as(USER.jean),
        (tx) => tx.query("select id from public.ride_requests where id = $1", [ride]),
      )).length,
      1,
    );
    assert.equal(
      (await db.asCaller(
        as(USER.aline),
        (tx) => tx.query("select id from public.ride_requests where id = $1", [ride]),
      )).length,
      1,
    );
  },
);
