/**
 * Waiter AI's open work on both databases: a table the diner booked is found
 * while it is confirmed and ahead, cancelled once through the pipeline as
 * Waiter AI (the table freed, the venue told once), a second cancel changes
 * nothing, a table the model booked (not in the memory) is found in the
 * database, and a customer with no booking (or a past one) has nothing open. The clock is injected: 08:00 in
 * Kigali on the day after the real one.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import type { OfflineToolCaller } from "@shared/registry/pack.ts";
import { waiterPending } from "./waiter_pending.ts";

// The injected clock is a day after the real one: the database stamps rows with its own clock
// (which CI runs a year ahead), so a fixed date would be in its past.
const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const DAY = dayOf(new Date(Date.now() + DAY_MS));
const NEXT_DAY = dayOf(new Date(Date.now() + 2 * DAY_MS));
const NOW = new Date(`${DAY}T06:00:00Z`);
const CAFE = "c0000000-0000-4000-8000-000000000002"; // Café Nyamirambo

/**
 * Tools called as Aline in Waiter AI's conversation, confirmed as the kernel confirms a leave's
 * cancel (the tapped Cancel is the confirmation).
 */
function asAline(rt: TestRuntime, turn: string): OfflineToolCaller {
  return async (tool, args, step) => {
    const options = { idempotencyKey: `${turn}:${step}`, context: { agent_id: "waiter_ai" } };
    const asked = await rt.callAs(USER.aline, tool, args, options);
    if (asked.ok || asked.error.code !== "CONFIRMATION_REQUIRED") return asked;
    return await rt.callAs(USER.aline, tool, args, {
      ...options,
      confirmation: asked.error.confirmation.token,
    });
  };
}

/** Tools called as Eric (a pharmacy owner, here a customer with no booking) in Waiter AI. */
function asEric(rt: TestRuntime): OfflineToolCaller {
  return (tool, args, step) =>
    rt.callAs(USER.eric, tool, args, {
      idempotencyKey: `eric:${step}`,
      context: { agent_id: "waiter_ai" },
    });
}

async function toldCancelled(rt: TestRuntime): Promise<number> {
  const [{ n }] = await rt.platform.db.query<{ n: number }>(
    `select count(*)::int as n from public.wa_outbox
     where idempotency_key like 'reservation:%:cancelled'`,
  );
  return n;
}

dbTest(
  "waiterPending finds the booked table, cancels it once and tells the venue once",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    const booked = await rt.callAs(USER.aline, "reservation_book", {
      venue_id: CAFE,
      when: `${DAY}T19:00:00+02:00`,
      size: 3,
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: "book" });
    assert.ok(booked.ok, JSON.stringify(booked));
    const code: string = booked.data.confirmation_code;

    // A customer with no booking has no table open.
    assert.equal(await waiterPending.find({ language: "en", memory: {} }, asEric(rt)), null);
    // A table the model booked is not in the memory: it is found in the database.
    assert.equal(
      (await waiterPending.find({ language: "en", memory: {} }, asAline(rt, "t0")))?.id,
      `table:${code}`,
    );

    const memory = { table: code };
    const work = await waiterPending.find({ language: "fr", memory }, asAline(rt, "t1"));
    assert.ok(work, "the booked table is open work");
    assert.equal(work.id, `table:${code}`);
    assert.match(work.summary, /votre table pour 3 chez Café Nyamirambo/);
    assert.ok(work.summary.includes(code), work.summary);

    const said = await waiterPending.cancel(work, { language: "rw", memory }, asAline(rt, "t2"));
    assert.match(said, /yahagaritswe; Café Nyamirambo yabimenyeshejwe/);
    const rows = await db.query<{ status: string }>("select status from public.reservations");
    assert.deepEqual(rows.map((row) => row.status), ["cancelled"]);
    assert.equal(await toldCancelled(rt), 1);

    // Answered again (a retried turn, a second tap): nothing changes, the venue is not told twice.
    const again = await waiterPending.cancel(work, { language: "en", memory }, asAline(rt, "t3"));
    assert.match(again, /already cancelled/);
    const after = await db.query<{ status: string }>("select status from public.reservations");
    assert.deepEqual(after.map((row) => row.status), ["cancelled"]);
    assert.equal(await toldCancelled(rt), 1);

    // Once cancelled, it is no longer open work, from memory or from the database.
    assert.equal(await waiterPending.find({ language: "en", memory }, asAline(rt, "t4")), null);
    assert.equal(await waiterPending.find({ language: "en", memory: {} }, asAline(rt, "t5")), null);
  },
);

dbTest("a table already past is not open work", async (db) => {
  let now = NOW;
  const rt = await createTestRuntime(db, { now: () => now });
  const booked = await rt.callAs(USER.aline, "reservation_book", {
    venue_id: CAFE,
    when: `${DAY}T19:00:00+02:00`,
    size: 2,
    name: "Aline",
    phone: "+250788000001",
  }, { idempotencyKey: "book" });
  assert.ok(booked.ok, JSON.stringify(booked));
  const memory = { table: booked.data.confirmation_code };
  assert.ok(await waiterPending.find({ language: "en", memory }, asAline(rt, "t1")));
  now = new Date(`${NEXT_DAY}T06:00:00Z`); // the next morning: the meal is over
  assert.equal(await waiterPending.find({ language: "en", memory }, asAline(rt, "t2")), null);
});

dbTest("a table kept on an earlier leave comes after a new one", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  const book = async (size: number, hour: number) => {
    const booked = await rt.callAs(USER.aline, "reservation_book", {
      venue_id: CAFE,
      when: `${DAY}T${hour}:00:00+02:00`,
      size,
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: `book-${size}` });
    assert.ok(booked.ok, JSON.stringify(booked));
    return `table:${booked.data.confirmation_code}`;
  };
  // The kept table is the flow's (its memory) and the soonest; the new one, later, is booked
  // by the model (not in the memory).
  const kept = await book(2, 19);
  const memory = { table: kept.slice("table:".length) };
  const found = await waiterPending.find({ language: "en", memory }, asAline(rt, "k0"));
  assert.equal(found?.id, kept, "nothing kept: the flow's own table first");
  assert.equal(found?.revision, `${DAY}T17:00:00.000Z|2`);
  const fresh = await book(4, 20);
  const context = { language: "en" as const, memory, kept: new Set([kept]) };
  assert.equal((await waiterPending.find(context, asAline(rt, "k1")))?.id, fresh);
  // Both kept: a kept one is answered, and the kernel asks nothing about it.
  const both = { ...context, kept: new Set([kept, fresh]) };
  assert.equal((await waiterPending.find(both, asAline(rt, "k2")))?.id, kept);
});
