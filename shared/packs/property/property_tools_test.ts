/**
 * The property tools through the pipeline on both databases: search that
 * never shows an address, a booking that reveals it, and every other path to
 * the address refused by row-level security (search_supabase, direct SQL as
 * `authenticated`, a guessed listing id, a cancelled viewing, another
 * tenant); two renters booking one slot at once; either side cancelling or
 * moving a viewing, the other told. The clock is injected: Monday 30
 * November 2026, 08:00 in Kigali.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { HOST_COUNTERPART } from "./host_counterpart.ts";

const NOW = new Date("2026-11-30T06:00:00Z");
const now = () => NOW;

const LISTING = {
  bibare: "70000000-0000-4000-8000-000000000001",
  kibagabaga: "70000000-0000-4000-8000-000000000002",
  rukiri: "70000000-0000-4000-8000-000000000004",
  pending: "70000000-0000-4000-8000-000000000006",
  beaver: "70000000-0000-4000-8000-000000000009",
};
const JEANNE = "00000000-0000-4000-8000-0000000000e1";
/** A queued message's text, plain or over buttons. */
const TEXT = "coalesce(body->'text'->>'body', body->'interactive'->'body'->>'text')";
const BIBARE_ADDRESS = "KG 15 Ave, house 23, Bibare, Kimironko";
/** Monday 30 November 2026, 10:00 Kigali: a slot of every seeded listing. */
const TEN = "2026-11-30T10:00:00+02:00";

function sweep(rt: TestRuntime, key: string): Promise<TestData> {
  return rt.platform.call({
    tool: "property_viewings_sweep",
    args: {},
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: key,
  });
}

function book(
  rt: TestRuntime,
  who: string,
  key: string,
  args: Record<string, unknown> = {},
  org: string = ORG.easymo,
) {
  return rt.callAs(who, "schedule_viewing", {
    listing_id: LISTING.bibare,
    when: TEN,
    name: "Aline",
    phone: "+250788000001",
    ...args,
  }, { idempotencyKey: key, org });
}

/** The addresses `who` can read with plain SQL as `authenticated`. */
function addressesAs(db: TestDatabase, who: string): Promise<string[]> {
  return db.asCaller(
    { sub: who, role: "authenticated" },
    (tx) =>
      tx.query<{ address: string }>(
        "select address from public.property_listing_addresses order by address",
      ),
  ).then((rows) => rows.map((row) => row.address));
}

dbTest("property_search() filters published listings and never carries an address", async (db) => {
  const rt = await createTestRuntime(db, { now });
  const found = await rt.callAs(USER.aline, "property_search", {
    area: "Kimironko",
    bedrooms: 2,
    price_max: 200000,
  });
  assert.ok(found.ok, JSON.stringify(found));
  assert.deepEqual(
    found.data.listings.map((l: { id: string }) => l.id),
    [LISTING.bibare, LISTING.kibagabaga],
  );
  const [bibare] = found.data.listings;
  assert.equal(bibare.area, "Kimironko, Bibare");
  assert.deepEqual(bibare.location, { lat: -1.949, lng: 30.126 });
  assert.equal(bibare.photo_count, 2);
  // No Storage configured here: no links, and the card says how many photos there are.
  assert.deepEqual(bibare.photos, []);
  const json = JSON.stringify(found);
  assert.doesNotMatch(json, /KG 15 Ave|address|contact|\+250788000201/);

  const pets = await rt.callAs(USER.aline, "property_search", {
    pets_allowed: true,
    parking: true,
  });
  assert.deepEqual(pets.data.listings.map((l: { title: string }) => l.title), [
    "2-bedroom house in Niboye",
    "3-bedroom family house in Nyagatovu",
  ]);
  const byDate = await rt.callAs(USER.aline, "property_search", {
    area: "kimironko",
    available_from: "2026-11-30",
  });
  assert.deepEqual(byDate.data.listings.map((l: { id: string }) => l.id), [LISTING.kibagabaga]);
  // The pending listing is not offered, nor Beaver's.
  const all = await rt.callAs(USER.aline, "property_search", { limit: 10 });
  const ids = all.data.listings.map((l: { id: string }) => l.id);
  assert.equal(ids.length, 5);
  assert.ok(!ids.includes(LISTING.pending) && !ids.includes(LISTING.beaver));
});

dbTest("property_search() names the field of a bad filter", async (db) => {
  const rt = await createTestRuntime(db, { now });
  const bad = await rt.callAs(USER.aline, "property_search", {
    price_min: 300000,
    price_max: 100000,
    available_from: "next week",
  });
  assert.equal(bad.error.code, "VALIDATION_ERROR");
  assert.deepEqual(bad.error.fields.map((f: { path: string }) => f.path).sort(), [
    "available_from",
    "price_max",
  ]);
});

dbTest(
  "schedule_viewing() reveals the address; no other path reads it, and cancelling ends it",
  async (db) => {
    const rt = await createTestRuntime(db, { now });
    // Before booking: a renter reads no address by SQL, nor through search_supabase; an
    // anonymous caller never does.
    assert.deepEqual(await addressesAs(db, USER.aline), []);
    const anonymous = await db.asCaller(
      { role: "anon" },
      (tx) => tx.query("select address from public.property_listing_addresses"),
    );
    assert.deepEqual(anonymous, []);
    const searched = await rt.callAs(USER.aline, "search_supabase", {
      table: "property_listing_addresses",
    });
    assert.equal(searched.error.code, "VALIDATION_ERROR");
    assert.equal(searched.error.fields[0].path, "table");
    const columns = await rt.callAs(USER.aline, "search_supabase", {
      table: "property_listings",
      columns: ["address"],
    });
    assert.equal(columns.error.code, "VALIDATION_ERROR");

    // A guessed id, a listing not yet published: NOT_FOUND alike, nothing booked or shown.
    for (const listing_id of [LISTING.pending, "70000000-0000-4000-8000-0000000000ff"]) {
      const guessed = await book(rt, USER.aline, `guess-${listing_id}`, { listing_id });
      assert.equal(guessed.error.code, "NOT_FOUND", JSON.stringify(guessed));
      assert.doesNotMatch(JSON.stringify(guessed), /KG |Kamatamu Heights/);
    }

    const booked = await book(rt, USER.aline, "b1");
    assert.ok(booked.ok, JSON.stringify(booked));
    assert.equal(booked.data.address, BIBARE_ADDRESS);
    assert.equal(booked.data.contact, "Jeanne Mukandori, +250788000201");
    assert.equal(booked.data.when, "2026-11-30T08:00:00.000Z");
    assert.equal(booked.data.until, "2026-11-30T08:30:00.000Z");
    // The renter's tool messages nobody; the sweep tells the landlord, in Kinyarwanda.
    assert.deepEqual(await db.query("select id from public.wa_outbox"), []);
    // The viewing is two hours away, booked just now: the booking is its reminder.
    assert.deepEqual((await sweep(rt, "sw1")).data, {
      told: 1,
      reminded: 0,
      confirmed: 0,
      reviews_told: 0,
    });
    assert.deepEqual((await sweep(rt, "sw2")).data, {
      told: 0,
      reminded: 0,
      confirmed: 0,
      reviews_told: 0,
    });
    const told = await db.query<{ to_wa_id: string; body: string }>(
      `select to_wa_id, ${TEXT} as body from public.wa_outbox where ${TEXT} not like 'Kwibutsa%'`,
    );
    assert.deepEqual(told.map((m) => m.to_wa_id), ["250788000201"]);
    assert.match(told[0].body, /^Gusura gushya kwa 2-bedroom house in Bibare: .*10:00, Aline/);

    // Now, and only for that listing, the renter reads the address directly.
    assert.deepEqual(await addressesAs(db, USER.aline), [BIBARE_ADDRESS]);
    // A replay answers the same booking.
    assert.deepEqual(await book(rt, USER.aline, "b1"), booked);

    // Another tenant's people read nothing of EasyMO's, booked or not.
    assert.deepEqual(await addressesAs(db, USER.nina), []);
    assert.deepEqual(await addressesAs(db, USER.paul), ["KG 11 Ave, house 5, Nyabisindu, Remera"]);
    // Beaver's policy does not enable viewings: refused before the tool runs...
    const refused = await book(rt, USER.nina, "n0", { name: "Nina" }, ORG.beaver);
    assert.equal(refused.error.code, "AUTH_ERROR");
    // ... and were it enabled, EasyMO's listing is still no listing of Beaver's.
    await db.query(
      `update public.orgs set tool_policy = jsonb_set(tool_policy, '{enabled_tools}',
         (tool_policy -> 'enabled_tools') || '["schedule_viewing"]'::jsonb) where id = $1`,
      [ORG.beaver],
    );
    await rt.platform.tenants.load(db);
    const foreign = await book(rt, USER.nina, "n1", { name: "Nina" }, ORG.beaver);
    assert.equal(foreign.error.code, "NOT_FOUND");
    // ... nor by writing a viewing of EasyMO's listing around the tool.
    await assert.rejects(
      db.asCaller({ sub: USER.nina, role: "authenticated" }, (tx) =>
        tx.query(
          `insert into public.property_viewings
             (org_id, listing_id, renter_id, name, phone, starts_at, ends_at)
           values ($1, $2, $3, 'Nina', '+250788000011', $4, $5)`,
          [ORG.easymo, LISTING.bibare, USER.nina, "2026-12-01T08:00Z", "2026-12-01T08:30Z"],
        )),
    );
    // Staff of the listing's org, and its landlord, read it without a viewing.
    assert.ok((await addressesAs(db, USER.jean)).includes(BIBARE_ADDRESS));
    assert.ok((await addressesAs(db, JEANNE)).includes(BIBARE_ADDRESS));
    assert.equal((await addressesAs(db, JEANNE)).length, 3);

    // Cancelled: the address is gone again, for every path.
    const cancelled = await rt.callAs(USER.aline, "viewing_cancel", {
      event_id: booked.data.event_id,
    }, { idempotencyKey: "c1" });
    assert.ok(cancelled.ok, JSON.stringify(cancelled));
    assert.equal(cancelled.data.status, "cancelled");
    assert.deepEqual(await addressesAs(db, USER.aline), []);
    // A cancelled viewing cannot be revived around the tool either.
    await assert.rejects(
      db.asCaller(
        { sub: USER.aline, role: "authenticated" },
        (tx) =>
          tx.query("update public.property_viewings set status = 'booked', cancelled_by = null"),
      ),
    );
    assert.deepEqual(await addressesAs(db, USER.aline), []);
  },
);

dbTest("a time that is no slot, or too soon, is refused with free slots", async (db) => {
  const rt = await createTestRuntime(db, { now });
  const soon = await book(rt, USER.aline, "s1", { when: "2026-11-30T08:30:00+02:00" });
  assert.equal(soon.error.code, "VALIDATION_ERROR");
  assert.equal(soon.error.fields[0].path, "when");
  assert.equal(soon.error.details.reason, "past");
  const off = await book(rt, USER.aline, "s2", { when: "2026-11-30T10:10:00+02:00" });
  assert.equal(off.error.details.reason, "not_a_slot");
  // The nearest free slots from an hour or so before the time asked.
  assert.deepEqual(off.error.details.suggestions, [
    "2026-11-30T07:00:00.000Z",
    "2026-11-30T07:30:00.000Z",
    "2026-11-30T08:00:00.000Z",
  ]);
  // Sunday: the landlord shows no home.
  const sunday = await book(rt, USER.aline, "s3", { when: "2026-12-06T10:00:00+02:00" });
  assert.equal(sunday.error.details.reason, "not_a_slot");
  const slots = await rt.callAs(USER.aline, "property_viewing_slots", {
    listing_id: LISTING.bibare,
    limit: 2,
  });
  assert.deepEqual(slots.data.slots, ["2026-11-30T07:00:00.000Z", "2026-11-30T07:30:00.000Z"]);
});

for (const contenders of [2, 8]) {
  dbTest(`${contenders} renters booking one slot at once: exactly one wins`, async (db) => {
    const rt = await createTestRuntime(db, { now });
    const renters = [USER.aline, USER.eric, "00000000-0000-4000-8000-000000000005"];
    const results = await Promise.all(
      Array.from(
        { length: contenders },
        (_, i) => book(rt, renters[i % renters.length], `race-${i}`, { name: `R${i}` }),
      ),
    );
    const won = results.filter((r) => r.ok);
    const lost = results.filter((r) => !r.ok);
    assert.equal(won.length, 1, JSON.stringify(results.map((r) => r.error?.code ?? "ok")));
    assert.ok(lost.every((r) => r.error.code === "CONFLICT"), JSON.stringify(lost[0]));
    assert.ok(lost.every((r) => !r.error.details.suggestions.includes(won[0].data.when)));
    assert.ok(lost.every((r) => !JSON.stringify(r).includes("KG 15")));
    const [{ n }] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.property_viewings where status = 'booked'",
    );
    assert.equal(n, 1);
  });
}

dbTest("the landlord moves a viewing and the renter is told; the renter cancels", async (db) => {
  const rt = await createTestRuntime(db, { now });
  const booked = await book(rt, USER.aline, "b1");
  assert.ok(booked.ok);
  await sweep(rt, "sw0");
  await db.query("delete from public.wa_outbox");
  // The landlord sees the viewings of her listings; another member sees none of them.
  const hers = await rt.callAs(JEANNE, "property_viewings", {});
  assert.deepEqual(hers.data.viewings.map((v: { event_id: string }) => v.event_id), [
    booked.data.event_id,
  ]);
  assert.deepEqual((await rt.callAs(USER.eric, "property_viewings", {})).data.viewings, []);
  const moved = await rt.callAs(JEANNE, "viewing_move", {
    event_id: booked.data.event_id,
    when: "2026-12-01T11:00:00+02:00",
  }, { idempotencyKey: "m1" });
  assert.ok(moved.ok, JSON.stringify(moved));
  assert.equal(moved.data.when, "2026-12-01T09:00:00.000Z");
  assert.equal((await sweep(rt, "sw1")).data.told, 1);
  const told = await db.query<{ to_wa_id: string; body: string }>(
    `select to_wa_id, ${TEXT} as body from public.wa_outbox`,
  );
  assert.deepEqual(told.map((m) => m.to_wa_id), ["250788000001"]);
  assert.match(told[0].body, /^Nyir'inzu yimuye gusura inzu y'ibyumba 2 i Kimironko, Bibare /);
  // The old slot is free again; the new one is taken.
  const slots = await rt.callAs(USER.eric, "property_viewing_slots", {
    listing_id: LISTING.bibare,
    limit: 3,
  });
  assert.ok(slots.data.slots.includes("2026-11-30T08:00:00.000Z"));
  const taken = await book(rt, USER.eric, "e1", { when: "2026-12-01T11:00:00+02:00" });
  assert.equal(taken.error.code, "CONFLICT");
  // Someone else cannot touch it: Eric sees no such viewing.
  const foreign = await rt.callAs(USER.eric, "viewing_cancel", {
    event_id: booked.data.event_id,
  }, { idempotencyKey: "x1" });
  assert.equal(foreign.error.code, "NOT_FOUND");
  await db.query("delete from public.wa_outbox");
  const cancelled = await rt.callAs(USER.aline, "viewing_cancel", {
    event_id: booked.data.event_id,
  }, { idempotencyKey: "c1" });
  assert.ok(cancelled.ok);
  assert.equal((await sweep(rt, "sw2")).data.told, 1);
  const host = await db.query<{ to_wa_id: string }>("select to_wa_id from public.wa_outbox");
  assert.deepEqual(host.map((m) => m.to_wa_id), ["250788000201"]);
  const again = await rt.callAs(USER.aline, "viewing_cancel", {
    event_id: booked.data.event_id,
  }, { idempotencyKey: "c2" });
  assert.equal(again.error.code, "CONFLICT");
});

dbTest("the sweep reminds both sides the day before, once, on the injected clock", async (db) => {
  let clock = NOW;
  const rt = await createTestRuntime(db, { now: () => clock });
  const booked = await book(rt, USER.aline, "b1", { when: "2026-12-02T14:00:00+02:00" });
  assert.ok(booked.ok, JSON.stringify(booked));
  await sweep(rt, "sw0");
  await db.query("delete from public.wa_outbox");
  assert.equal((await sweep(rt, "sw1")).data.reminded, 0);
  clock = new Date("2026-12-01T12:30:00Z"); // 14:30 Kigali the day before: 23.5 hours ahead
  assert.equal((await sweep(rt, "sw2")).data.reminded, 1);
  assert.equal((await sweep(rt, "sw3")).data.reminded, 0);
  const sent = await db.query<{ to_wa_id: string; body: string }>(
    `select to_wa_id, ${TEXT} as body from public.wa_outbox order by to_wa_id`,
  );
  assert.deepEqual(sent.map((m) => m.to_wa_id), ["250788000001", "250788000201"]);
  // Aline reads Kinyarwanda: the home named in it, and the address her booking revealed.
  assert.match(sent[0].body, /^Kwibutsa: gusura inzu y'ibyumba 2 i Kimironko, Bibare ni /);
  assert.match(sent[0].body, /KG 15 Ave, house 23/);
});

dbTest(
  "a viewing booked the same day is reminded two hours before, not right after its confirmation",
  async (db) => {
    let clock = NOW; // Monday 08:00 Kigali
    const rt = await createTestRuntime(db, { now: () => clock });
    const booked = await book(rt, USER.aline, "b1", { when: "2026-11-30T16:00:00+02:00" });
    assert.ok(booked.ok, JSON.stringify(booked));
    assert.equal((await sweep(rt, "sw1")).data.reminded, 0);
    clock = new Date("2026-11-30T11:59:00Z"); // 13:59 Kigali
    assert.equal((await sweep(rt, "sw2")).data.reminded, 0);
    clock = new Date("2026-11-30T12:00:00Z"); // 14:00 Kigali, two hours before
    assert.equal((await sweep(rt, "sw3")).data.reminded, 1);
    assert.equal((await sweep(rt, "sw4")).data.reminded, 0);
    const reminders = await db.query<{ to_wa_id: string }>(
      `select to_wa_id from public.wa_outbox where ${TEXT} like 'Kwibutsa%' order by to_wa_id`,
    );
    // One reminder to each side, at two hours before.
    assert.deepEqual(reminders.map((m) => m.to_wa_id), ["250788000001", "250788000201"]);
  },
);

dbTest("the landlord taps Cancel on the booking notice: cancelled, the renter told", async (db) => {
  const rt = await createTestRuntime(db, { now });
  const booked = await book(rt, USER.aline, "b1", { when: "2026-12-02T10:00:00+02:00" });
  assert.ok(booked.ok);
  await sweep(rt, "sw1");
  const [notice] = await db.query<{ choice: string }>(
    `select body->'interactive'->'action'->'buttons'->1->'reply'->>'id' as choice
     from public.wa_outbox where to_wa_id = '250788000201'`,
  );
  assert.equal(notice.choice, `pviewing:${booked.data.event_id}:cancel`);
  const tap = {
    wamid: "wamid.host1",
    from: "250788000201",
    text: "Hagarika gusura",
    choice: notice.choice,
  };
  // Only the host's own tap is theirs: the same button from Eric's phone is not.
  assert.equal(await HOST_COUNTERPART.claims(db, { ...tap, from: "250788000004" }), false);
  assert.equal(await HOST_COUNTERPART.claims(db, tap), true);
  const asService = (tool: string, args: unknown, step: string) =>
    rt.platform.call({
      tool,
      args,
      caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
      idempotencyKey: `${tap.wamid}:${step}`,
    });
  await HOST_COUNTERPART.handle(tap, asService);
  const [viewing] = await db.query<{ status: string; cancelled_by: string }>(
    "select status, cancelled_by from public.property_viewings",
  );
  assert.deepEqual(viewing, { status: "cancelled", cancelled_by: "host" });
  assert.equal((await sweep(rt, "sw2")).data.told, 1);
  const told = await db.query<{ to_wa_id: string; body: string }>(
    `select to_wa_id, ${TEXT} as body from public.wa_outbox
     where to_wa_id <> '250788000201' or ${TEXT} like 'Byahagaritswe%' order by to_wa_id`,
  );
  assert.deepEqual(told.map((m) => m.to_wa_id), ["250788000001", "250788000201"]);
  assert.match(told[0].body, /byahagaritswe na nyir'inzu/);
  // The renter's address access ended with it.
  assert.deepEqual(await addressesAs(db, USER.aline), []);
});

dbTest("the landlord taps Move, then a free time: moved, the renter told", async (db) => {
  const rt = await createTestRuntime(db, { now });
  const booked = await book(rt, USER.aline, "b1", { when: "2026-12-02T10:00:00+02:00" });
  assert.ok(booked.ok);
  await sweep(rt, "sw1");
  const [notice] = await db.query<{ choice: string }>(
    `select body->'interactive'->'action'->'buttons'->0->'reply'->>'id' as choice
     from public.wa_outbox where to_wa_id = '250788000201'`,
  );
  assert.equal(notice.choice, `pviewing:${booked.data.event_id}:move`);
  const asService = (key: string) => (tool: string, args: unknown, step: string) =>
    rt.platform.call({
      tool,
      args,
      caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
      idempotencyKey: `${key}:${step}`,
    });
  const moveTap = { wamid: "wamid.m1", from: "250788000201", text: "Imura", choice: notice.choice };
  assert.equal(await HOST_COUNTERPART.claims(db, moveTap), true);
  await HOST_COUNTERPART.handle(moveTap, asService("wamid.m1"));
  // She gets the free times as a list; the booked one is not among them.
  const [list] = await db.query<{ rows: Array<{ id: string; title: string }> }>(
    `select body->'interactive'->'action'->'sections'->0->'rows' as rows
     from public.wa_outbox where to_wa_id = '250788000201' and body->'interactive'->>'type' = 'list'`,
  );
  const ids = list.rows.map((row) => row.id);
  assert.equal(ids.length, 10);
  assert.ok(!ids.includes(`pviewing:${booked.data.event_id}:to:2026-12-02T08:00:00.000Z`));
  const target = `pviewing:${booked.data.event_id}:to:2026-11-30T09:00:00.000Z`;
  assert.ok(ids.includes(target), JSON.stringify(ids));
  const pick = { wamid: "wamid.m2", from: "250788000201", text: "30/11, 11:00", choice: target };
  // Another phone's tap on the same row is not the host's.
  assert.equal(await HOST_COUNTERPART.claims(db, { ...pick, from: "250788000001" }), false);
  await HOST_COUNTERPART.handle(pick, asService("wamid.m2"));
  const [viewing] = await db.query<{ starts_at: string; changed_by: string }>(
    "select starts_at::text as starts_at, changed_by from public.property_viewings",
  );
  assert.equal(new Date(viewing.starts_at).toISOString(), "2026-11-30T09:00:00.000Z");
  assert.equal(viewing.changed_by, "host");
  assert.equal((await sweep(rt, "sw2")).data.told, 1);
  const renter = await db.query<{ body: string }>(
    `select ${TEXT} as body from public.wa_outbox where to_wa_id = '250788000001'
     and ${TEXT} like 'Nyir''inzu yimuye%'`,
  );
  assert.equal(renter.length, 1);
});
