/**
 * `reservation_book` through the pipeline on both databases: a booking with
 * its code and WhatsApp notices, refusals that suggest free slots, replay,
 * tenancy, and concurrent bookings for the last seats (exactly as many
 * succeed as fit).
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { enableTools } from "@testing/tenant_policy.ts";
import { ORG, USER } from "@testing/seed.ts";

const COFFEE = "c0000000-0000-4000-8000-000000000010"; // Question Coffee: 07:00–20:00, 24 seats, 30 min, max 6
const CAFE = "c0000000-0000-4000-8000-000000000002"; // Café Nyamirambo, owner Diane (fr)
const HARDWARE = "c0000000-0000-4000-8000-000000000013"; // takes no bookings
const ALINE_PHONE = "+250788000001";
const HOUR = 3_600_000;

/** The next day's `hh:mm` on the Kigali clock (UTC+2), as an ISO instant. */
function tomorrowAt(hhmm: string, days = 1): string {
  const kigali = new Date(Date.now() + 2 * HOUR + days * 24 * HOUR);
  const [h, m] = hhmm.split(":").map(Number);
  return new Date(
    Date.UTC(kigali.getUTCFullYear(), kigali.getUTCMonth(), kigali.getUTCDate(), h - 2, m),
  ).toISOString();
}

function book(
  rt: TestRuntime,
  args: Record<string, unknown>,
  key: string,
  who: string = USER.aline,
): Promise<TestData> {
  return rt.callAs(who, "reservation_book", {
    venue_id: COFFEE,
    when: tomorrowAt("19:00"),
    size: 4,
    name: "Aline",
    phone: ALINE_PHONE,
    ...args,
  }, { idempotencyKey: key });
}

dbTest(
  "a table is booked with a short code; the venue is told, the diner is answered in chat",
  async (db) => {
    const rt = await createTestRuntime(db);
    const booked = await book(rt, { venue_id: CAFE, when: tomorrowAt("12:30") }, "b1");
    assert.ok(booked.ok, JSON.stringify(booked));
    assert.match(booked.data.confirmation_code, /^[2-9A-HJKMNP-Z]{6}$/);
    assert.equal(booked.data.when, tomorrowAt("12:30"));
    assert.equal(booked.data.venue_name, "Café Nyamirambo");
    // Aline booked for herself: the agent's answer in her conversation is her confirmation (one
    // message, in the conversation's language), so the tool sends her nothing; Diane (the café's
    // owner) reads French.
    const sent = await db.query<{ to_wa_id: string; body: string }>(
      "select to_wa_id, body->'text'->>'body' as body from public.wa_outbox order by to_wa_id",
    );
    assert.deepEqual(sent.map((m) => m.to_wa_id), ["250788000005"]);
    assert.match(sent[0].body, /table réservée chez Café Nyamirambo : Aline, 4 pers\./);
    // The same key answers the same booking; nothing is booked twice.
    const replay = await book(rt, { venue_id: CAFE, when: tomorrowAt("12:30") }, "b1");
    assert.deepEqual(replay, booked);
    const [{ n }] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.reservations",
    );
    assert.equal(n, 1);
  },
);

dbTest("staff booking for a diner: the diner is told, with the code", async (db) => {
  const rt = await createTestRuntime(db);
  const booked = await book(rt, { venue_id: CAFE, when: tomorrowAt("12:30") }, "s1", USER.jean);
  assert.ok(booked.ok, JSON.stringify(booked));
  const sent = await db.query<{ to_wa_id: string; body: string }>(
    "select to_wa_id, body->'text'->>'body' as body from public.wa_outbox order by to_wa_id",
  );
  assert.deepEqual(sent.map((m) => m.to_wa_id), ["250788000001", "250788000005"]);
  // Aline's profile reads Kinyarwanda.
  assert.match(sent[0].body, new RegExp(`Kode: ${booked.data.confirmation_code}`));
});

dbTest("a diner booking under someone else's number does not make us message them", async (db) => {
  const rt = await createTestRuntime(db);
  const booked = await book(rt, { phone: "+250788999999", name: "Friend" }, "f1");
  assert.ok(booked.ok, JSON.stringify(booked));
  const to = await db.query<{ to_wa_id: string }>("select to_wa_id from public.wa_outbox");
  assert.deepEqual(to.map((m) => m.to_wa_id), ["250788000110"]);
});

dbTest("bad input names its field", async (db) => {
  const rt = await createTestRuntime(db);
  const bad = await book(rt, { when: "tomorrow 7pm", size: 0, phone: "12" }, "v1");
  assert.equal(bad.error.code, "VALIDATION_ERROR");
  assert.deepEqual(bad.error.fields.map((f: { path: string }) => f.path).sort(), [
    "phone",
    "size",
    "when",
  ]);
  const tooMany = await book(rt, { size: 7 }, "v2");
  assert.equal(tooMany.error.code, "VALIDATION_ERROR");
  assert.deepEqual(tooMany.error.fields, [{ path: "size", message: "must be at most 6" }]);
  const noTables = await book(rt, { venue_id: HARDWARE }, "v3");
  assert.equal(noTables.error.code, "VALIDATION_ERROR");
  assert.equal(noTables.error.fields[0].path, "venue_id");
});

dbTest("past, off-slot and closed times are refused with the nearest free slots", async (db) => {
  const rt = await createTestRuntime(db);
  const past = await book(rt, { when: new Date(Date.now() - HOUR).toISOString() }, "p1");
  assert.equal(past.error.code, "VALIDATION_ERROR");
  assert.equal(past.error.fields[0].path, "when");
  assert.ok(past.error.details.suggestions.length > 0);

  const offSlot = await book(rt, { when: tomorrowAt("19:10") }, "p2");
  assert.equal(offSlot.error.code, "VALIDATION_ERROR");
  // The nearest slot first, then the ones beside it, earlier first.
  assert.deepEqual(offSlot.error.details.suggestions, [
    tomorrowAt("19:00"),
    tomorrowAt("18:30"),
    tomorrowAt("19:30"),
  ]);

  // Question Coffee closes at 20:00: the last slot is 19:30.
  const closed = await book(rt, { when: tomorrowAt("21:00") }, "p3");
  assert.equal(closed.error.code, "CONFLICT");
  assert.equal(closed.error.details.reason, "closed");
  assert.equal(closed.error.details.suggestions[0], tomorrowAt("19:30"));
  assert.match(
    closed.error.msg,
    /Question Coffee Gishushu is closed then\. Free: \w{3} \d+ \w{3}, 19:30/,
  );
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.reservations",
  );
  assert.equal(n, 0);
});

dbTest("a full slot is CONFLICT and offers the slots beside it", async (db) => {
  const rt = await createTestRuntime(db);
  for (let i = 0; i < 4; i++) assert.ok((await book(rt, { size: 6 }, `full-${i}`)).ok);
  const full = await book(rt, { size: 1 }, "full-x");
  assert.equal(full.error.code, "CONFLICT");
  assert.equal(full.error.details.reason, "full");
  assert.deepEqual(full.error.details.suggestions.slice(0, 2), [
    tomorrowAt("18:30"),
    tomorrowAt("19:30"),
  ]);
});

dbTest("another org cannot book this org's venue; nothing leaks", async (db) => {
  const rt = await createTestRuntime(db);
  // Another org that takes bookings too (Beaver's seeded policy does not enable them).
  await enableTools(db, rt.platform.tenants, ORG.beaver, ["reservation_book"]);
  const foreign = await rt.callAs(USER.nina, "reservation_book", {
    venue_id: COFFEE,
    when: tomorrowAt("19:00"),
    size: 2,
    name: "Nina",
    phone: "+250788000011",
  }, { idempotencyKey: "o1", org: ORG.beaver });
  assert.equal(foreign.error.code, "NOT_FOUND");
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.reservations",
  );
  assert.equal(n, 0);
});

for (const contenders of [2, 20]) {
  dbTest(
    `${contenders} concurrent bookings for the last seats: as many succeed as fit`,
    async (db) => {
      const rt = await createTestRuntime(db);
      // 24 seats: 22 taken, 2 left — one party of 2 fits, whoever comes first.
      for (const [i, size] of [6, 6, 6, 4].entries()) {
        assert.ok((await book(rt, { size }, `fill-${i}`)).ok);
      }
      const results = await Promise.all(
        Array.from({ length: contenders }, (_, i) => book(rt, { size: 2 }, `race-${i}`)),
      );
      const won = results.filter((r) => r.ok).length;
      const lost = results.filter((r) => !r.ok);
      assert.equal(won, 1);
      assert.ok(lost.every((r) => r.error.code === "CONFLICT"), JSON.stringify(lost[0]));
      const [{ seats }] = await db.query<{ seats: number }>(
        "select sum(party_size)::int as seats from public.reservations where business_id = $1",
        [COFFEE],
      );
      assert.equal(seats, 24);
    },
  );
}
