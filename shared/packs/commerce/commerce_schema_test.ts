/**
 * Orders and reservations in the database (migration
 * 20261123000600_commerce_mobility_payments.sql), on PGlite and Postgres:
 * order numbers per org under concurrency, the state machine and the
 * settlement gate agree with order_states.ts, who may move an order, and
 * reservations that never exceed a slot's seats.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { JwtClaims, Queryable } from "@shared/db/types.ts";
import {
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  type OrderStatus,
} from "@shared/capabilities/order_states/mod.ts";

const CAFE = "c0000000-0000-4000-8000-000000000002"; // Café Nyamirambo, org A, owner Diane
const BEAVER_SHOP = "d0000000-0000-4000-8000-000000000001";
const DIANE = "00000000-0000-4000-8000-000000000005";
const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

async function sqlState(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "ok";
}

async function newOrder(
  q: Queryable,
  org = ORG.easymo,
  business = CAFE,
  customer: string = USER.aline,
) {
  const [row] = await q.query<{ id: string; order_no: string }>(
    `insert into public.orders (org_id, business_id, customer_id, total) values ($1, $2, $3, 3000)
     returning id, order_no`,
    [org, business, customer],
  );
  return row;
}

dbTest("order numbers are consecutive and unique per org, also under concurrency", async (db) => {
  const numbers = await Promise.all(
    Array.from(
      { length: 20 },
      () => db.asCaller(as(USER.aline), async (tx) => (await newOrder(tx)).order_no),
    ),
  );
  assert.deepEqual(
    [...numbers].sort((a, b) => Number(a.slice(2)) - Number(b.slice(2))),
    Array.from({ length: 20 }, (_, i) => `A-${1001 + i}`),
  );
  // Another org counts on its own; a number sent by the caller is ignored.
  const [beaver] = await db.asCaller(as(USER.nina), (tx) =>
    tx.query<{ order_no: string }>(
      `insert into public.orders (org_id, business_id, customer_id, total, order_no, status)
       values ($1, $2, $3, 100, 'Z-1', 'delivered') returning order_no`,
      [ORG.beaver, BEAVER_SHOP, USER.nina],
    ));
  assert.equal(beaver.order_no, "A-1001");
  assert.equal(
    await sqlState(
      db.query(`update public.orders set order_no = 'A-1' where org_id = $1`, [ORG.beaver]),
    ),
    "P0409",
  );
});

/** Walks an order to `status` with its payment settled (as the owner role). */
async function orderAt(tx: Queryable, status: OrderStatus): Promise<string> {
  const order = await newOrder(tx);
  await tx.query("update public.orders set payment_status = 'settled' where id = $1", [order.id]);
  const path: OrderStatus[] = status === "cancelled"
    ? ["cancelled"]
    : ["confirmed", "preparing", "ready", "delivered"].slice(
      0,
      ["pending", "confirmed", "preparing", "ready", "delivered"].indexOf(status),
    ) as OrderStatus[];
  for (const step of path) {
    await tx.query("update public.orders set status = $2 where id = $1", [order.id, step]);
  }
  return order.id;
}

dbTest("the database allows exactly the moves order_states.ts allows", async (db) => {
  for (const from of ORDER_STATUSES) {
    const id = await db.transaction((tx) => orderAt(tx, from));
    for (const to of ORDER_STATUSES) {
      const state = await sqlState(db.transaction(async (tx) => {
        await tx.query("update public.orders set status = $2 where id = $1", [id, to]);
        throw Object.assign(new Error("roll back"), { code: "ok" });
      }));
      const expected = from === to || ORDER_TRANSITIONS[from].includes(to) ? "ok" : "P0409";
      assert.equal(state, expected, `${from} → ${to}`);
    }
  }
});

dbTest("fulfilment waits for settlement: confirmed → preparing is P0402 until paid", async (db) => {
  const order = await newOrder(db);
  await db.asCaller(
    as(USER.jean),
    (tx) => tx.query("update public.orders set status = 'confirmed' where id = $1", [order.id]),
  );
  assert.equal(
    await sqlState(
      db.asCaller(
        as(USER.jean),
        (tx) => tx.query("update public.orders set status = 'preparing' where id = $1", [order.id]),
      ),
    ),
    "P0402",
  );
  await db.query(
    `insert into public.payments (org_id, payer_id, payer_phone, payee_merchant_code, amount, momo_ref, expires_at, order_id)
     values ($1, $2, '+250788000001', '123456', 3000, 'PAY-GATE1', now() + interval '15 minutes', $3)`,
    [ORG.easymo, USER.aline, order.id],
  );
  const [pending] = await db.query<{ payment_status: string }>(
    "select payment_status from public.orders where id = $1",
    [order.id],
  );
  assert.equal(pending.payment_status, "pending");
  await db.query(
    `update public.payments set status = 'settled', settled_at = now(), settled_by = 'callback', provider_txn_id = 'T-1'
     where momo_ref = 'PAY-GATE1'`,
  );
  for (const status of ["preparing", "ready", "delivered"]) {
    await db.asCaller(
      as(USER.jean),
      (tx) => tx.query("update public.orders set status = $2 where id = $1", [order.id, status]),
    );
  }
  const [done] = await db.query<{ status: string; payment_status: string }>(
    "select status, payment_status from public.orders where id = $1",
    [order.id],
  );
  assert.deepEqual(done, { status: "delivered", payment_status: "settled" });
});

dbTest(
  "only staff of the org or the venue's owner move an order, and only its status",
  async (db) => {
    const order = await newOrder(db);
    const move = (sub: string) =>
      db.asCaller(
        as(sub),
        (tx) =>
          tx.query("update public.orders set status = 'confirmed' where id = $1 returning id", [
            order.id,
          ]),
      );
    assert.deepEqual(await move(USER.aline), []); // customer A: not theirs to move
    assert.deepEqual(await move(USER.paul), []); // staff B
    assert.deepEqual(await move(USER.nina), []); // customer B
    assert.equal((await move(DIANE)).length, 1); // the café's owner
    assert.equal((await move(USER.jean)).length, 1); // staff A, idempotent repeat
    assert.equal(
      await sqlState(
        db.asCaller(
          as(USER.jean),
          (tx) =>
            tx.query("update public.orders set payment_status = 'settled' where id = $1", [
              order.id,
            ]),
        ),
      ),
      "42501",
    );
    assert.equal(
      await sqlState(
        db.asCaller(
          as(USER.jean),
          (tx) => tx.query("update public.orders set total = 1 where id = $1", [order.id]),
        ),
      ),
      "42501",
    );
  },
);

/** The next day's `hh:mm` on the Kigali clock, as an ISO instant. */
function kigaliTomorrow(hhmm: string): string {
  const kigaliToday = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
  const t = new Date(`${kigaliToday}T${hhmm}:00+02:00`);
  return new Date(t.getTime() + 86_400_000).toISOString();
}

function book(
  q: Queryable,
  options: { at: string; size: number; customer?: string | null; org?: string; business?: string },
) {
  return q.query<{ id: string; confirmation_code: string; slot_end: string }>(
    `insert into public.reservations (org_id, business_id, customer_id, name, phone, party_size, slot_start)
     values ($1, $2, $3, 'Aline', '+250788000001', $4, $5) returning id, confirmation_code, slot_end`,
    [
      options.org ?? ORG.easymo,
      options.business ?? CAFE,
      options.customer === undefined ? USER.aline : options.customer,
      options.size,
      options.at,
    ],
  );
}

dbTest(
  "20 concurrent bookings for the last 3 seats: exactly 3 succeed, the rest are P0409",
  async (db, backend) => {
    const at = kigaliTomorrow("19:00");
    // The café seats 16 per 30-minute slot: take 13 first.
    await db.asCaller(as(USER.aline), (tx) => book(tx, { at, size: 8 }));
    await db.asCaller(as(USER.aline), (tx) => book(tx, { at, size: 5 }));
    const outcomes = await Promise.all(
      Array.from(
        { length: 20 },
        () => sqlState(db.asCaller(as(USER.aline), (tx) => book(tx, { at, size: 1 }))),
      ),
    );
    assert.equal(
      outcomes.filter((o) => o === "ok").length,
      3,
      `${backend}: ${outcomes.join(",")}`,
    );
    assert.equal(outcomes.filter((o) => o === "P0409").length, 17);
    const [usage] = await db.asCaller(
      as(USER.aline),
      (tx) =>
        tx.query<{ seats_taken: number; capacity: number }>(
          "select seats_taken, capacity from private.venue_slot_usage($1, $2, $2::timestamptz + interval '1 minute')",
          [CAFE, at],
        ),
    );
    assert.deepEqual(usage, { seats_taken: 16, capacity: 16 });
    // Nina (org B) learns nothing about org A's venue.
    assert.deepEqual(
      await db.asCaller(
        as(USER.nina),
        (tx) =>
          tx.query(
            "select * from private.venue_slot_usage($1, $2, $2::timestamptz + interval '1 day')",
            [CAFE, at],
          ),
      ),
      [],
    );
  },
);

dbTest(
  "bookings: code and slot end assigned; closed, past, misaligned and oversized refused; cancel frees seats",
  async (db) => {
    const at = kigaliTomorrow("12:00");
    const [row] = await db.asCaller(as(USER.aline), (tx) => book(tx, { at, size: 8 }));
    assert.match(row.confirmation_code, /^[2-9A-HJKMNP-Z]{6}$/);
    assert.equal(new Date(row.slot_end).getTime() - new Date(at).getTime(), 30 * 60_000);
    const attempt = (options: Parameters<typeof book>[1]) =>
      sqlState(db.asCaller(as(USER.aline), (tx) => book(tx, options)));
    assert.equal(await attempt({ at: kigaliTomorrow("23:00"), size: 2 }), "P0409"); // closed
    assert.equal(await attempt({ at: kigaliTomorrow("21:45"), size: 2 }), "23514"); // not on a slot
    assert.equal(await attempt({ at: kigaliTomorrow("21:30"), size: 2 }), "ok"); // last slot ends at 22:00
    assert.equal(
      await attempt({ at: new Date(Date.now() - 3600_000).toISOString(), size: 2 }),
      "23514",
    );
    assert.equal(await attempt({ at, size: 9 }), "23514"); // larger than max_party
    await db.asCaller(as(USER.aline), (tx) => book(tx, { at, size: 8 }));
    assert.equal(await attempt({ at, size: 1 }), "P0409"); // full
    await db.asCaller(
      as(USER.aline),
      (tx) =>
        tx.query("update public.reservations set status = 'cancelled' where id = $1", [row.id]),
    );
    assert.equal(await attempt({ at, size: 8 }), "ok");
    assert.equal(
      await sqlState(
        db.asCaller(
          as(USER.aline),
          (tx) => tx.query("update public.reservations set party_size = 1 where id = $1", [row.id]),
        ),
      ),
      "42501",
    );
  },
);

dbTest("cross-tenant references are refused for hours, capacity and bookings", async (db) => {
  const at = kigaliTomorrow("13:00");
  // Customer B naming org A's venue under org B: no such (org, venue) pair.
  assert.equal(
    await sqlState(
      db.asCaller(
        as(USER.nina),
        (tx) => book(tx, { at, size: 1, customer: USER.nina, org: ORG.beaver }),
      ),
    ),
    "23503",
  );
  // Customer B booking in org A: not a member.
  assert.equal(
    await sqlState(
      db.asCaller(as(USER.nina), (tx) => book(tx, { at, size: 1, customer: USER.nina })),
    ),
    "42501",
  );
  // Customer A booking on someone else's behalf; staff A booking a walk-in is fine.
  assert.equal(
    await sqlState(
      db.asCaller(as(USER.aline), (tx) => book(tx, { at, size: 1, customer: USER.grace })),
    ),
    "42501",
  );
  assert.equal(
    await sqlState(db.asCaller(as(USER.jean), (tx) => book(tx, { at, size: 1, customer: null }))),
    "ok",
  );
  // Even the owner role cannot file org B's hours under org A's venue.
  assert.equal(
    await sqlState(db.query(
      `insert into public.venue_hours (org_id, business_id, weekday, opens, closes) values ($1, $2, 1, '05:00', '06:00')`,
      [ORG.beaver, CAFE],
    )),
    "23503",
  );
  for (const sub of [USER.aline, USER.paul]) {
    assert.equal(
      await sqlState(
        db.asCaller(as(sub), (tx) =>
          tx.query(
            "insert into public.venue_capacity (org_id, business_id, seats_per_slot, slot_minutes) values ($1, $2, 5, 30)",
            [ORG.easymo, "c0000000-0000-4000-8000-000000000003"],
          )),
      ),
      "42501",
      sub,
    );
  }
  // Customer B sees none of org A's bookings.
  assert.deepEqual(
    await db.asCaller(as(USER.nina), (tx) => tx.query("select id from public.reservations")),
    [],
  );
});
