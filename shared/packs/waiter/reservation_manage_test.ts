/**
 * `reservation_list`, `reservation_move` and `reservation_cancel` through
 * the pipeline on both databases: the diner's own bookings only, a move
 * checked like a booking, the venue told of each change once.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";

const CAFE = "c0000000-0000-4000-8000-000000000002"; // Café Nyamirambo, owner Diane (fr)
const HOUR = 3_600_000;

function tomorrowAt(hhmm: string): string {
  const kigali = new Date(Date.now() + 2 * HOUR + 24 * HOUR);
  const [h, m] = hhmm.split(":").map(Number);
  return new Date(
    Date.UTC(kigali.getUTCFullYear(), kigali.getUTCMonth(), kigali.getUTCDate(), h - 2, m),
  ).toISOString();
}

/** Calls a tool as `user`, confirming when asked. */
async function confirmed(
  rt: TestRuntime,
  user: string,
  tool: string,
  args: Record<string, unknown>,
  key: string,
): Promise<TestData> {
  const asked = await rt.callAs(user, tool, args, { idempotencyKey: key });
  if (asked.ok || asked.error.code !== "CONFIRMATION_REQUIRED") return asked;
  return await rt.callAs(user, tool, args, {
    idempotencyKey: key,
    confirmation: asked.error.confirmation.token,
  });
}

async function bookAt(rt: TestRuntime, hhmm: string): Promise<string> {
  const booked = await rt.callAs(USER.aline, "reservation_book", {
    venue_id: CAFE,
    when: tomorrowAt(hhmm),
    size: 2,
    name: "Aline",
    phone: "+250788000001",
  }, { idempotencyKey: `book-${hhmm}` });
  assert.ok(booked.ok, JSON.stringify(booked));
  return booked.data.confirmation_code;
}

dbTest("reservation_list shows a diner their own upcoming bookings only", async (db) => {
  const rt = await createTestRuntime(db);
  const code = await bookAt(rt, "12:30");
  const mine = await rt.callAs(USER.aline, "reservation_list", {}, { idempotencyKey: "l1" });
  assert.ok(mine.ok, JSON.stringify(mine));
  assert.deepEqual(
    mine.data.bookings.map((b: Record<string, unknown>) => [b.confirmation_code, b.venue_name]),
    [[code, "Café Nyamirambo"]],
  );
  const eric = await rt.callAs(USER.eric, "reservation_list", {}, { idempotencyKey: "l2" });
  assert.ok(eric.ok, JSON.stringify(eric));
  assert.deepEqual(eric.data.bookings, []);
});

dbTest("another customer cannot cancel or move a diner's booking", async (db) => {
  const rt = await createTestRuntime(db);
  const code = await bookAt(rt, "12:30");
  const cancel = await confirmed(rt, USER.eric, "reservation_cancel", {
    confirmation_code: code,
  }, "c1");
  assert.equal(cancel.ok, false);
  assert.equal(!cancel.ok && cancel.error.code, "NOT_FOUND");
  const move = await confirmed(rt, USER.eric, "reservation_move", {
    confirmation_code: code,
    when: tomorrowAt("13:00"),
  }, "m1");
  assert.equal(!move.ok && move.error.code, "NOT_FOUND");
  const [row] = await db.query<{ status: string }>("select status from public.reservations");
  assert.equal(row.status, "confirmed");
});

dbTest(
  "a move books the new time and cancels the old; a cancel frees it; the venue is told of each",
  async (db) => {
    const rt = await createTestRuntime(db);
    const code = await bookAt(rt, "12:30");
    const moved = await confirmed(rt, USER.aline, "reservation_move", {
      confirmation_code: code,
      when: tomorrowAt("13:00"),
      language: "fr",
    }, "m1");
    assert.ok(moved.ok, JSON.stringify(moved));
    assert.equal(moved.data.when, tomorrowAt("13:00"));
    assert.equal(moved.data.moved_from, code);
    assert.notEqual(moved.data.confirmation_code, code);
    const again = await confirmed(rt, USER.aline, "reservation_cancel", {
      confirmation_code: code,
    }, "c0");
    assert.equal(!again.ok && again.error.code, "CONFLICT");
    const cancelled = await confirmed(rt, USER.aline, "reservation_cancel", {
      confirmation_code: moved.data.confirmation_code,
    }, "c1");
    assert.ok(cancelled.ok, JSON.stringify(cancelled));
    const rows = await db.query<{ status: string }>(
      "select status from public.reservations order by slot_start",
    );
    assert.deepEqual(rows.map((r) => r.status), ["cancelled", "cancelled"]);
    const told = await db.query<{ to_wa_id: string; body: string }>(
      `select to_wa_id, body->'text'->>'body' as body from public.wa_outbox
       where idempotency_key ~ ':(moved|cancelled)$' order by created_at, idempotency_key`,
    );
    assert.deepEqual(told.map((m) => m.to_wa_id), ["250788000005", "250788000005"]);
    assert.match(told[0].body, /déplacée : .* 12:30 → .* 13:00/);
    assert.match(told[1].body, /réservation annulée chez Café Nyamirambo/);
  },
);
