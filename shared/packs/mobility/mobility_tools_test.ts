/**
 * The mobility tools through the real pipeline on PGlite and Postgres:
 * coarse positions in the raw answer, tariff versions by date, refusals with
 * the field, the ride flow from request to match (concurrent accepts), the
 * offer sweep, drivers' check-ins, and other tenants refused.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { enableTools } from "@testing/tenant_policy.ts";
import { ORG, USER } from "@testing/seed.ts";
import { isDriverCommand } from "./driver_counterpart.ts";

const REMERA = { lat: -1.9557, lng: 30.1123 };
const DRIVER = (n: number) => `f0000000-0000-4000-8000-00000000000${n}`;
const DRIVER_PHONE = (n: number) => `+2507881001${String(n).padStart(2, "0")}`;
const MOTO_V1 = "f1000000-0000-4000-8000-000000000001";
const MOTO_V2 = "f1000000-0000-4000-8000-000000000002";

function asService(rt: TestRuntime, tool: string, args: unknown, key: string) {
  return rt.platform.call({
    tool,
    args,
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: key,
  });
}

const decimals = (x: number) => (String(x).split(".")[1] ?? "").length;

dbTest("maps_geosearch: nearest first, metres, never finer than 3 decimals", async (db) => {
  const rt = await createTestRuntime(db);
  for (const kind of ["driver", "pharmacy", "venue", "shop"] as const) {
    const raw = await rt.platform.call({
      tool: "maps_geosearch",
      args: { ...REMERA, radius: 20_000, kind, limit: 50 },
      caller: { claims: { sub: USER.aline, role: "authenticated" }, org_id: ORG.easymo },
    });
    assert.ok(raw.ok, JSON.stringify(raw));
    // The raw JSON the caller receives: no coordinate with a 4th decimal.
    const text = JSON.stringify(raw);
    assert.doesNotMatch(text, /"l(at|ng)":-?[0-9]+\.[0-9]{4,}/, text);
    const results = (raw.data as { results: { lat: number; lng: number; distance: number }[] })
      .results;
    assert.ok(results.length > 0, kind);
    for (const r of results) assert.ok(decimals(r.lat) <= 3 && decimals(r.lng) <= 3);
    const distances = results.map((r) => r.distance);
    assert.deepEqual(distances, [...distances].sort((a, b) => a - b), kind);
  }
  const motos = await rt.callAs(USER.aline, "maps_geosearch", {
    ...REMERA,
    radius: 3000,
    kind: "driver",
    filters: { vehicle_type: "moto" },
  });
  assert.equal(motos.data.results[0].id, DRIVER(1)); // parked in Remera
  assert.ok(
    motos.data.results.every((r: { metadata: { vehicle_type: string } }) =>
      r.metadata.vehicle_type === "moto"
    ),
  );
  const pharmacies = await rt.callAs(USER.aline, "maps_geosearch", {
    lat: -1.9536,
    lng: 30.0925,
    radius: 3000,
    kind: "pharmacy",
  });
  assert.equal(pharmacies.data.results[0].name, "Pharmacie Conseil Kimihurura");
  assert.equal(pharmacies.data.results[0].distance, 71); // from the rounded (-1.954, 30.093)
});

dbTest("maps_geosearch refuses bad input with the field, and property plainly", async (db) => {
  const rt = await createTestRuntime(db);
  const cases: [unknown, string][] = [
    [{ ...REMERA, radius: 1000, kind: "property" }, "kind"],
    [
      { ...REMERA, radius: 1000, kind: "pharmacy", filters: { vehicle_type: "moto" } },
      "filters.vehicle_type",
    ],
    [
      { ...REMERA, radius: 1000, kind: "venue", filters: { category: "hardware" } },
      "filters.category",
    ],
    [{ ...REMERA, radius: 1000, kind: "venue", filters: { sql: "1=1" } }, "filters"],
    [{ ...REMERA, radius: 60_000, kind: "driver" }, "radius"],
    [{ ...REMERA, radius: 1000, kind: "driver", limit: 51 }, "limit"],
    [{ lat: 91, lng: 30, radius: 1000, kind: "driver" }, "lat"],
  ];
  for (const [args, path] of cases) {
    const result = await rt.callAs(USER.aline, "maps_geosearch", args);
    assert.equal(result.error?.code, "VALIDATION_ERROR", JSON.stringify(result));
    assert.ok(
      result.error.fields.some((f: { path: string }) => f.path.startsWith(path)),
      `${path}: ${JSON.stringify(result.error.fields)}`,
    );
  }
});

dbTest("maps_geosearch and ride_status show another tenant nothing", async (db) => {
  const rt = await createTestRuntime(db);
  // Nina (Beaver's customer) in her own org: EasyMO's drivers and shops are not there; the one
  // shop found is Beaver's own warehouse (Beaver enabling the search, as a tenant running rides).
  await enableTools(db, rt.platform.tenants, ORG.beaver, ["maps_geosearch"]);
  const found: Record<string, string[]> = {};
  for (const kind of ["driver", "pharmacy", "shop"]) {
    const result = await rt.callAs(USER.nina, "maps_geosearch", {
      ...REMERA,
      radius: 50_000,
      kind,
    }, { org: ORG.beaver });
    assert.ok(result.ok, JSON.stringify(result));
    found[kind] = result.data.results.map((row: { id: string }) => row.id);
  }
  assert.deepEqual(found, {
    driver: [],
    pharmacy: [],
    shop: ["d0000000-0000-4000-8000-000000000001"],
  });
  // Naming EasyMO's org as a non-member: the database's fences answer nothing.
  const foreign = await rt.callAs(USER.nina, "maps_geosearch", {
    ...REMERA,
    radius: 5000,
    kind: "driver",
  }, { org: ORG.easymo });
  assert.ok(
    foreign.ok ? foreign.data.results.length === 0 : foreign.error.code === "AUTH_ERROR",
    JSON.stringify(foreign),
  );
});

dbTest(
  "trip_price_estimate: the tariff in effect at `when`, traceable, by place name",
  async (db) => {
    const rt = await createTestRuntime(db);
    const noon = await rt.callAs(USER.aline, "trip_price_estimate", {
      origin: REMERA,
      dest: { name: "Nyabugogo" },
      when: "2026-11-23T12:00:00+02:00",
      pax: 1,
    });
    assert.ok(noon.ok, JSON.stringify(noon));
    assert.deepEqual(noon.data.tariff, { id: MOTO_V2, version: 2, vehicle_type: "moto" });
    assert.equal(noon.data.band, "normal");
    assert.deepEqual(noon.data.dest, { lat: -1.939, lng: 30.045, name: "Nyabugogo" });
    assert.ok(
      noon.data.window.min <= noon.data.estimate && noon.data.estimate <= noon.data.window.max,
    );
    const october = await rt.callAs(USER.aline, "trip_price_estimate", {
      origin: { name: "Remera" },
      dest: { name: "ku kibuga cy'indege" },
      when: "2026-10-15T08:00:00+02:00",
    });
    assert.deepEqual(october.data.tariff, { id: MOTO_V1, version: 1, vehicle_type: "moto" });
    assert.equal(october.data.band, "peak");
    const cab = await rt.callAs(USER.aline, "trip_price_estimate", {
      origin: REMERA,
      dest: { name: "CBD" },
      when: "2026-11-23T23:00:00+02:00",
      pax: 3,
    });
    assert.equal(cab.data.tariff.vehicle_type, "cab");
    assert.equal(cab.data.band, "night");

    const tooMany = await rt.callAs(USER.aline, "trip_price_estimate", {
      origin: REMERA,
      dest: { name: "CBD" },
      pax: 2,
      vehicle_type: "moto",
    });
    assert.equal(tooMany.error.code, "VALIDATION_ERROR");
    assert.deepEqual(tooMany.error.fields.map((f: { path: string }) => f.path), ["pax"]);
    assert.match(tooMany.error.msg, /cab/);
    const unknown = await rt.callAs(USER.aline, "trip_price_estimate", {
      origin: REMERA,
      dest: { name: "Atlantis" },
    });
    assert.equal(unknown.error.code, "VALIDATION_ERROR");
    assert.deepEqual(unknown.error.fields.map((f: { path: string }) => f.path), ["dest.name"]);
    const before = await rt.callAs(USER.aline, "trip_price_estimate", {
      origin: REMERA,
      dest: { name: "CBD" },
      when: "2025-06-01T12:00:00+02:00",
    });
    assert.deepEqual(before.error.fields.map((f: { path: string }) => f.path), ["when"]);
  },
);

async function requestMoto(rt: TestRuntime, key = "ride-1") {
  const result = await rt.callAs(USER.aline, "ride_request", {
    vehicle_type: "moto",
    pickup: REMERA,
    dest: { name: "Nyabugogo" },
    language: "rw",
  }, { idempotencyKey: key });
  assert.ok(result.ok, JSON.stringify(result));
  return result.data as { ride_request_id: string; drivers_asked: number };
}

dbTest("ride_request asks the nearest drivers without the rider's position", async (db) => {
  const rt = await createTestRuntime(db);
  const ride = await requestMoto(rt);
  assert.equal(ride.drivers_asked, 3);
  const offers = await db.query<{ to_wa_id: string; body: string; fallback: TestData }>(
    `select to_wa_id, body::text as body, fallback_template as fallback
     from public.wa_outbox order by seq`,
  );
  assert.equal(offers.length, 3);
  assert.equal(offers[0].to_wa_id, "250788100101"); // the Remera driver first
  for (const offer of offers) {
    assert.match(offer.body, /Remera/);
    const [, offerId] = /ride:([0-9a-f-]{36}):accept/.exec(offer.body) ?? [];
    assert.ok(offerId, offer.body);
    // Neither the rider's coordinates nor their number reach a driver before a match.
    assert.doesNotMatch(offer.body + JSON.stringify(offer.fallback), /1\.955|30\.112|250788000001/);
    // Outside the driver's 24-hour window the approved template asks instead; its quick
    // replies carry the buttons' ids, so a tap answers the same offer.
    const template = offer.fallback.template;
    assert.equal(template.name, "ride_offer");
    assert.equal(template.components[0].parameters.length, 4);
    assert.match(template.components[0].parameters[0].text, /Remera/);
    assert.deepEqual(
      template.components.slice(1).map((c: TestData) => c.parameters[0].payload),
      [`ride:${offerId}:accept`, `ride:${offerId}:decline`],
    );
  }
  // A replay is the same ride; no new offers.
  assert.equal((await requestMoto(rt)).ride_request_id, ride.ride_request_id);
  assert.equal((await db.query("select 1 from public.ride_offers")).length, 3);
});

dbTest("two drivers accept at once: exactly one is matched, the other told", async (db) => {
  const rt = await createTestRuntime(db);
  for (let round = 0; round < 3; round++) {
    const ride = await requestMoto(rt, `ride-${round}`);
    const offers = await db.query<{ id: string; driver_id: string }>(
      "select id, driver_id from public.ride_offers where request_id = $1 order by sent_at, id",
      [ride.ride_request_id],
    );
    const phoneOf = (driverId: string) => DRIVER_PHONE(Number(driverId.slice(-1)));
    const [a, b] = offers;
    const outcomes = await Promise.all(
      [a, b].map((offer, i) =>
        asService(rt, "ride_offer_respond", {
          driver_phone: phoneOf(offer.driver_id),
          offer_id: offer.id,
          action: "accept",
        }, `accept-${round}-${i}`)
      ),
    );
    const data = outcomes.map((o) => (o as { ok: true; data: { outcome: string } }).data?.outcome);
    assert.deepEqual([...data].sort(), ["matched", "taken"], JSON.stringify(outcomes));
    const winner = data[0] === "matched" ? a : b;
    const loser = winner === a ? b : a;
    const [row] = await db.query<{ status: string; matched_driver_id: string }>(
      "select status, matched_driver_id from public.ride_requests where id = $1",
      [ride.ride_request_id],
    );
    assert.deepEqual(row, { status: "matched", matched_driver_id: winner.driver_id });
    const toLoser = await db.query<{ body: string }>(
      "select body::text as body from public.wa_outbox where idempotency_key = $1",
      [`ride-lost:${loser.id}`],
    );
    assert.equal(toLoser.length, 1);
    assert.match(toLoser[0].body, /undi mushoferi|another driver|autre chauffeur/);
    // The rider learns the driver's contact; the winner the rider's.
    const status = await rt.callAs(USER.aline, "ride_status", {
      ride_request_id: ride.ride_request_id,
    });
    assert.equal(status.data.status, "matched");
    assert.equal(status.data.driver.phone, phoneOf(winner.driver_id));
    assert.match(status.data.driver.whatsapp_link, /^https:\/\/wa\.me\/2507881001/);
    const [won] = await db.query<{ body: string }>(
      "select body::text as body from public.wa_outbox where idempotency_key = $1",
      [`ride-won:${winner.id}`],
    );
    assert.match(won.body, /\+250788000001/);
    const [matched] = await db.query<{ body: string }>(
      "select body::text as body from public.wa_outbox where idempotency_key = $1",
      [`ride-matched:${ride.ride_request_id}`],
    );
    assert.match(matched.body, /trip:pay/);
  }
  // Another tenant's customer cannot read the ride, were rides enabled for it.
  await enableTools(db, rt.platform.tenants, ORG.beaver, ["ride_status"]);
  const [anyRide] = await db.query<{ id: string }>("select id from public.ride_requests limit 1");
  const foreign = await rt.callAs(USER.nina, "ride_status", { ride_request_id: anyRide.id }, {
    org: ORG.beaver,
  });
  assert.equal(foreign.error.code, "NOT_FOUND");
});

dbTest("unanswered offers expire in the sweep and the rider is offered what next", async (db) => {
  const rt = await createTestRuntime(db);
  const ride = await requestMoto(rt);
  const idle = await asService(rt, "ride_offers_sweep", {}, "sweep-0");
  assert.deepEqual((idle as { data: unknown }).data, { offers_expired: 0, rides_expired: 0 });
  // Two minutes later (an offer's expiry is fixed once sent, so the test moves it by hand).
  await db.query("alter table public.ride_offers disable trigger ride_offers_guard_update");
  await db.query("update public.ride_offers set expires_at = now() - interval '1 second'");
  await db.query("alter table public.ride_offers enable trigger ride_offers_guard_update");
  await db.query("update public.ride_requests set expires_at = now() - interval '1 second'");
  const swept = await asService(rt, "ride_offers_sweep", {}, "sweep-1");
  assert.deepEqual((swept as { data: unknown }).data, { offers_expired: 3, rides_expired: 1 });
  const [told] = await db.query<{ to_wa_id: string; body: string }>(
    "select to_wa_id, body::text as body from public.wa_outbox where idempotency_key = $1",
    [`ride-nobody:${ride.ride_request_id}`],
  );
  assert.equal(told.to_wa_id, "250788000001");
  assert.match(told.body, /trip:retry/);
  // A late accept is told the request expired.
  const late = await asService(rt, "ride_offer_respond", {
    driver_phone: DRIVER_PHONE(1),
    action: "accept",
    offer_id: (await db.query<{ id: string }>(
      "select id from public.ride_offers where driver_id = $1",
      [DRIVER(1)],
    ))[0].id,
  }, "late");
  assert.equal((late as { data: { outcome: string } }).data.outcome, "expired");
  // A late typed "yego" (no button, so no offer id) is told the same: it was NOT_FOUND, and the
  // webhook gave the driver the customers' menu ("Sorry, I did not catch that").
  const [other] = await db.query<{ phone: string }>(
    `select d.phone from public.ride_offers o join public.drivers d on d.id = o.driver_id
     where o.driver_id <> $1 order by d.phone limit 1`,
    [DRIVER(1)],
  );
  const typedLate = await asService(rt, "ride_offer_respond", {
    driver_phone: other.phone,
    action: "accept",
  }, "late-typed");
  assert.equal(
    (typedLate as { data?: { outcome: string } }).data?.outcome,
    "expired",
    JSON.stringify(typedLate),
  );
  const yego = { wamid: "wamid.late", from: other.phone.slice(1), text: "yego" };
  assert.equal(await isDriverCommand(db, { ...yego, idle: () => Promise.resolve(true) }), true);
  // A driver busy in a conversation of their own keeps their "yego" for it.
  assert.equal(await isDriverCommand(db, { ...yego, idle: () => Promise.resolve(false) }), false);
});

dbTest(
  "drivers check in by location or word; availability lapses; strangers are not drivers",
  async (db) => {
    const rt = await createTestRuntime(db);
    const message = (from: string, extra: Record<string, unknown>) => ({
      wamid: "w",
      from,
      text: "",
      ...extra,
    });
    assert.equal(await isDriverCommand(db, message("250788100101", { text: "ndahari" })), true);
    assert.equal(
      await isDriverCommand(db, message("250788100101", { text: "I want pizza" })),
      false,
    );
    assert.equal(await isDriverCommand(db, message("250788000001", { text: "available" })), false);
    // "yes" is an answer only while an offer is open for that driver.
    assert.equal(await isDriverCommand(db, message("250788100101", { text: "yego" })), false);

    const busy = await asService(rt, "driver_status", {
      driver_phone: DRIVER_PHONE(1),
      status: "busy",
    }, "busy");
    assert.deepEqual((busy as { data: unknown }).data, { status: "busy" });
    const none = await rt.callAs(USER.aline, "maps_geosearch", {
      ...REMERA,
      radius: 300,
      kind: "driver",
    });
    assert.equal(none.data.results.some((r: { id: string }) => r.id === DRIVER(1)), false);
    const back = await asService(rt, "driver_status", {
      driver_phone: DRIVER_PHONE(1),
      status: "available",
      lat: -1.9494,
      lng: 30.1256,
    }, "back");
    const until = Date.parse((back as { data: { available_until: string } }).data.available_until);
    assert.ok(until > Date.now() + 55 * 60_000 && until < Date.now() + 65 * 60_000);
    const [told] = await db.query<{ body: string }>(
      "select body::text as body from public.wa_outbox where to_wa_id = '250788100101' order by seq desc limit 1",
    );
    assert.match(told.body, /Kigali/);
    const stranger = await asService(rt, "driver_status", {
      driver_phone: "+250788000001",
      status: "available",
    }, "stranger");
    assert.equal((stranger as { error: { code: string } }).error.code, "NOT_FOUND");
    // Users and agents cannot call the drivers' tools.
    const user = await rt.callAs(USER.aline, "driver_status", {
      driver_phone: DRIVER_PHONE(1),
      status: "busy",
    }, { idempotencyKey: "u" });
    assert.equal(user.error.code, "AUTH_ERROR");
  },
);

/** A driver's answer's outcome, failing the test on an error. */
function outcome(result: Awaited<ReturnType<typeof asService>>): string {
  assert.ok(result.ok, JSON.stringify(result));
  return (result.data as { outcome: string }).outcome;
}

dbTest("ride_hold: a paused ride refuses every accept until its rider reopens it", async (db) => {
  const rt = await createTestRuntime(db);
  const ride = await requestMoto(rt);
  const hold = (hold: boolean, key: string, user: string = USER.aline, org: string = ORG.easymo) =>
    rt.callAs(user, "ride_hold", { ride_request_id: ride.ride_request_id, hold }, {
      idempotencyKey: key,
      org,
    });
  const outbox = (key: string) =>
    db.query<{ to_wa_id: string; body: string }>(
      `select to_wa_id, body::text as body from public.wa_outbox
       where idempotency_key like $1 order by to_wa_id`,
      [`${key}:%`],
    );
  const offers = () =>
    db.query<{ phone: string; status: string }>(
      `select d.phone, o.status from public.ride_offers o join public.drivers d on d.id = o.driver_id
       where o.request_id = $1 order by d.phone`,
      [ride.ride_request_id],
    );
  const paused = await hold(true, "hold-1");
  assert.ok(paused.ok, JSON.stringify(paused));
  assert.deepEqual(paused.data, {
    ride_request_id: ride.ride_request_id,
    status: "paused",
    drivers_told: 3,
  });
  // Every driver asked hears it is on hold, in their own language (0 and 1 rw, 3 fr).
  const held = await outbox("ride-held");
  assert.deepEqual(held.map((m) => m.to_wa_id), ["250788100100", "250788100101", "250788100103"]);
  assert.match(held[0].body, /ruhagaze gato/);
  assert.match(held[2].body, /est en attente/);
  // Holding it again changes nothing and tells nobody twice.
  const again = await hold(true, "hold-1b");
  assert.equal((again.data as { drivers_told: number }).drivers_told, 0);
  assert.equal((await outbox("ride-held")).length, 3);
  // The database itself refuses an accept of a paused ride's offer (no rider details leak),
  // and keeps its offers: the sweep and a direct write cannot expire them while it is paused.
  await assert.rejects(
    db.query(
      `update public.ride_offers set status = 'accepted'
       where id = (select id from public.ride_offers where request_id = $1 limit 1)`,
      [ride.ride_request_id],
    ),
    /no longer open/,
  );
  await assert.rejects(
    db.query(
      `update public.ride_offers set status = 'expired'
       where id = (select id from public.ride_offers where request_id = $1 limit 1)`,
      [ride.ride_request_id],
    ),
    /a paused ride keeps its offers/,
  );
  await assert.rejects(
    db.query("update public.ride_requests set paused_at = now() where id = $1", [
      ride.ride_request_id,
    ]),
    /pause time is kept by the database/,
  );
  // A driver's Accept while it is held: "on hold, we'll tell you", and the offer is kept.
  const accept = await asService(rt, "ride_offer_respond", {
    driver_phone: DRIVER_PHONE(1),
    action: "accept",
  }, "accept-paused");
  assert.ok(accept.ok, JSON.stringify(accept));
  assert.equal(outcome(accept), "held");
  const [onHold] = await outbox("ride-on-hold");
  assert.equal(onHold.to_wa_id, "250788100101");
  assert.match(onHold.body, /Uru rugendo ruhagaze gato/);
  // A driver who declines while it is held is taken at their word; the ride waits for its
  // rider even so.
  const decline = await asService(rt, "ride_offer_respond", {
    driver_phone: DRIVER_PHONE(0),
    action: "decline",
  }, "decline-paused");
  assert.equal(outcome(decline), "declined");
  assert.deepEqual(
    (await offers()).map((o) => o.status),
    ["declined", "pending", "pending"],
  );
  // Another tenant's customer cannot hold it, were rides enabled for it.
  await enableTools(db, rt.platform.tenants, ORG.beaver, ["ride_hold"]);
  const foreign = await hold(true, "hold-foreign", USER.nina, ORG.beaver);
  assert.equal(foreign.ok ? "ok" : foreign.error.code, "NOT_FOUND");
  // Kept: the two drivers still asked hear it is open again, with their offer's buttons.
  const reopened = await hold(false, "hold-2");
  assert.ok(reopened.ok, JSON.stringify(reopened));
  assert.equal((reopened.data as { drivers_told: number }).drivers_told, 2);
  const open = await outbox("ride-reopened");
  assert.deepEqual(open.map((m) => m.to_wa_id), ["250788100101", "250788100103"]);
  assert.match(open[0].body, /rwongeye gufungurwa/);
  assert.match(open[1].body, /est rouverte/);
  assert.match(open[0].body, /ride:[0-9a-f-]{36}:accept/);
  const [row] = await db.query<{ status: string; paused_at: string | null }>(
    "select status, paused_at from public.ride_requests where id = $1",
    [ride.ride_request_id],
  );
  assert.deepEqual({ ...row }, { status: "open", paused_at: null });
  // Reopened, it works as before: the kept offer's accept is matched.
  const matched = await asService(rt, "ride_offer_respond", {
    driver_phone: DRIVER_PHONE(1),
    action: "accept",
  }, "accept-reopened");
  assert.equal(outcome(matched), "matched");
  assert.deepEqual(
    (await offers()).map((o) => o.status),
    ["declined", "accepted", "lost"],
  );
});

dbTest(
  "ride_hold: a paused ride can still be cancelled, and the drivers asked are told",
  async (db) => {
    const rt = await createTestRuntime(db);
    const ride = await requestMoto(rt);
    const held = await rt.callAs(USER.aline, "ride_hold", {
      ride_request_id: ride.ride_request_id,
      hold: true,
    }, { idempotencyKey: "hold" });
    assert.ok(held.ok, JSON.stringify(held));
    const cancelled = await rt.callAs(USER.aline, "ride_cancel", {
      ride_request_id: ride.ride_request_id,
    }, { idempotencyKey: "cancel-paused" });
    assert.ok(cancelled.ok, JSON.stringify(cancelled));
    assert.equal((cancelled.data as { drivers_told: number }).drivers_told, 3);
    const offers = await db.query<{ status: string }>(
      "select status from public.ride_offers where request_id = $1",
      [ride.ride_request_id],
    );
    assert.deepEqual(offers.map((o) => o.status), ["expired", "expired", "expired"]);
    // Withdrawn, an offer's Accept finds the ride ended.
    const [offer] = await db.query<{ id: string }>(
      "select id from public.ride_offers where request_id = $1 and driver_id = $2",
      [ride.ride_request_id, DRIVER(1)],
    );
    const late = await asService(rt, "ride_offer_respond", {
      driver_phone: DRIVER_PHONE(1),
      offer_id: offer.id,
      action: "accept",
    }, "accept-cancelled");
    assert.equal(outcome(late), "expired");
  },
);

dbTest(
  "a paused ride's offers keep the time they had left: the sweep passes them by, reopening restores it",
  async (db) => {
    const rt = await createTestRuntime(db);
    // A ride paused ten minutes ago, with two minutes left on its offers then: by the wall clock
    // they ran out eight minutes ago.
    const [ride] = await db.query<{ id: string }>(
      `insert into public.ride_requests
       (org_id, rider_id, vehicle_type, pickup_lat, pickup_lng, pickup_name, dest_lat, dest_lng,
        dest_name, estimate_rwf, estimate_min_rwf, estimate_max_rwf, status, paused_at,
        expires_at)
     values ($1, $2, 'moto', -1.9557, 30.1123, 'Remera', -1.9393, 30.0445, 'Nyabugogo', 1500,
       1300, 1700, 'paused', now() - interval '10 minutes', now() - interval '8 minutes')
     returning id`,
      [ORG.easymo, USER.aline],
    );
    await db.query(
      `insert into public.ride_offers (org_id, request_id, driver_id, expires_at, sent_at)
     select $1, $2, d, now() - interval '8 minutes', now() - interval '12 minutes'
     from unnest($3::uuid[]) d`,
      [ORG.easymo, ride.id, [DRIVER(1), DRIVER(3)]],
    );
    const sweep = await asService(rt, "ride_offers_sweep", {}, "sweep-paused");
    assert.deepEqual(sweep.ok ? sweep.data : sweep, { offers_expired: 0, rides_expired: 0 });
    const status = () =>
      db.query<{ status: string; minutes: number }>(
        `select status, round(extract(epoch from (expires_at - now())) / 60)::int as minutes
       from public.ride_offers where request_id = $1 order by driver_id`,
        [ride.id],
      );
    assert.deepEqual((await status()).map((o) => o.status), ["pending", "pending"]);
    // Held, a driver's typed "oui" is still theirs (their offer is kept, its time stopped), and
    // their accept is held, not refused as run out.
    const typed = { wamid: "w", from: "250788100103", text: "oui" };
    assert.equal(await isDriverCommand(db, typed), true);
    const accept = await asService(rt, "ride_offer_respond", {
      driver_phone: DRIVER_PHONE(3),
      action: "accept",
    }, "accept-held");
    assert.equal(outcome(accept), "held");
    const reopened = await rt.callAs(USER.aline, "ride_hold", {
      ride_request_id: ride.id,
      hold: false,
    }, {
      idempotencyKey: "reopen",
    });
    assert.ok(reopened.ok, JSON.stringify(reopened));
    // Two minutes again, for the ride and each offer, and the drivers are told so.
    assert.deepEqual((await status()).map((o) => ({ ...o })), [
      { status: "pending", minutes: 2 },
      { status: "pending", minutes: 2 },
    ]);
    const [expiry] = await db.query<{ minutes: number }>(
      `select round(extract(epoch from (expires_at - now())) / 60)::int as minutes
     from public.ride_requests where id = $1`,
      [ride.id],
    );
    assert.equal(expiry.minutes, 2);
    const told = await db.query<{ body: string }>(
      `select body::text as body from public.wa_outbox where idempotency_key like 'ride-reopened:%'
     order by to_wa_id`,
    );
    assert.equal(told.length, 2);
    assert.match(told[1].body, /votre offre expire dans 2 min/);
    // An offer's expiry is moved by nothing else.
    await assert.rejects(
      db.query(
        "update public.ride_offers set expires_at = now() + interval '1 hour' where request_id = $1",
        [ride.id],
      ),
      /keeps its request, driver and expiry/,
    );
    const matched = await asService(rt, "ride_offer_respond", {
      driver_phone: DRIVER_PHONE(3),
      action: "accept",
    }, "accept-open");
    assert.equal(outcome(matched), "matched");
  },
);

dbTest(
  "drivers and the rider read a ride's price in the tenant's currency, one range per language",
  async (db) => {
    await db.query("update public.orgs set currency = 'KES' where id = $1", [ORG.easymo]);
    const rt = await createTestRuntime(db);
    const ride = await requestMoto(rt, "ride-kes");
    const offers = await db.query<{ id: string; body: string; fallback: TestData }>(
      `select o.id, w.body::text as body, w.fallback_template as fallback
     from public.ride_offers o join public.wa_outbox w on w.idempotency_key = 'ride-offer:' || o.id
     where o.request_id = $1 order by o.sent_at, o.id`,
      [ride.ride_request_id],
    );
    assert.equal(offers.length, 3);
    for (const offer of offers) {
      // "1,500–2,000 KES" (en, rw) or "1 500–2 000 KES" (fr): the range once, then the currency.
      assert.match(offer.body, /[0-9][0-9, ]*–[0-9][0-9, ]* KES/, offer.body);
      assert.doesNotMatch(offer.body, /RWF/);
      // The approved template names no currency: its fourth parameter carries the tenant's.
      assert.match(
        offer.fallback.template.components[0].parameters[3].text,
        /^[0-9][0-9, ]*–[0-9][0-9, ]* KES$/,
      );
    }
    const [first] = offers;
    const driver = await db.query<{ phone: string }>(
      `select d.phone from public.ride_offers o join public.drivers d on d.id = o.driver_id
     where o.id = $1`,
      [first.id],
    );
    const accepted = await asService(rt, "ride_offer_respond", {
      driver_phone: driver[0].phone,
      offer_id: first.id,
      action: "accept",
    }, "accept-kes");
    assert.ok(accepted.ok, JSON.stringify(accepted));
    const told = await db.query<{ key: string; body: string }>(
      `select idempotency_key as key, body::text as body from public.wa_outbox
     where idempotency_key in ($1, $2) order by idempotency_key`,
      [`ride-matched:${ride.ride_request_id}`, `ride-won:${first.id}`],
    );
    assert.equal(told.length, 2);
    // The rider is asked to pay the estimate, the driver told the window: both in KES.
    for (const { body } of told) assert.match(body, /[0-9] KES/, body);
  },
);
