/**
 * Payments, settlement evidence and forwarded SMS in the database (migration
 * 20261123000600_commerce_mobility_payments.sql), on PGlite and Postgres:
 * unique momo_ref, amount and phone rules, final states, idempotent events,
 * manual confirmation by staff or the venue's owner, and tenant fences.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { JwtClaims, Queryable } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });
const CAFE = "c0000000-0000-4000-8000-000000000002"; // owner Diane
const PHARMACY = "c0000000-0000-4000-8000-000000000001"; // owner Eric
const BEAVER_SHOP = "d0000000-0000-4000-8000-000000000001";
const DIANE = "00000000-0000-4000-8000-000000000005";

async function sqlState(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "ok";
}

interface Charge {
  org?: string;
  ref: string;
  amount?: number;
  phone?: string;
  order?: string | null;
  payer?: string;
}

function charge(q: Queryable, c: Charge, createdBy: string | null = USER.aline) {
  return q.query<{ id: string }>(
    `insert into public.payments (org_id, created_by, payer_id, payer_phone, payee_merchant_code, amount, momo_ref,
       expires_at, order_id)
     values ($1, $2, $3, $4, '123456', $5, $6, now() + interval '15 minutes', $7) returning id`,
    [
      c.org ?? ORG.easymo,
      createdBy,
      c.payer ?? USER.aline,
      c.phone ?? "+250788000001",
      c.amount ?? 5000,
      c.ref,
      c.order ?? null,
    ],
  );
}

async function order(
  q: Queryable,
  customer: string = USER.aline,
  org: string = ORG.easymo,
  business = CAFE,
) {
  const [row] = await q.query<{ id: string }>(
    "insert into public.orders (org_id, business_id, customer_id, total) values ($1, $2, $3, 5000) returning id",
    [org, business, customer],
  );
  return row.id;
}

dbTest(
  "charges: momo_ref unique, whole RWF within the ceiling, Rwandan MoMo numbers only",
  async (db) => {
    const mine = (c: Charge) => sqlState(db.asCaller(as(USER.aline), (tx) => charge(tx, c)));
    assert.equal(await mine({ ref: "PAY-AAAA1" }), "ok");
    assert.equal(await mine({ ref: "PAY-AAAA1" }), "23505");
    for (const amount of [0, -1, 10_000_001]) {
      assert.equal(
        await mine({ ref: `PAY-A${amount + 2}X`, amount }),
        "23514",
      );
    }
    assert.equal(await mine({ ref: "PAY-AAAA2", amount: 1.5 }), "22P02");
    for (const phone of ["+14155550100", "+250252123456", "0788000001"]) {
      assert.equal(await mine({ ref: "PAY-AAAA3", phone }), "23514", phone);
    }
    assert.equal(await mine({ ref: "pay lowercase" }), "23514");
    // Inserted already settled: refused, a payment starts pending.
    assert.equal(
      await sqlState(db.query(
        `insert into public.payments (org_id, payer_phone, payee_phone, amount, momo_ref, expires_at, status, settled_by, settled_at)
       values ($1, '+250788000001', '+250788000005', 100, 'PAY-AAAA4', now(), 'settled', 'callback', now())`,
        [ORG.easymo],
      )),
      "23514",
    );
  },
);

dbTest("settlement is final, mirrors onto the order, and events are idempotent", async (db) => {
  const orderId = await db.asCaller(as(USER.aline), (tx) => order(tx));
  const [pay] = await db.asCaller(
    as(USER.aline),
    (tx) => charge(tx, { ref: "PAY-SETL1", order: orderId }),
  );
  const settle =
    `update public.payments set status = 'settled', settled_at = now(), settled_by = 'callback',
                    provider_txn_id = $2 where id = $1`;
  assert.equal(await sqlState(db.query(settle, [pay.id, "MTN-1"])), "ok");
  const [o] = await db.query<{ payment_status: string }>(
    "select payment_status from public.orders where id = $1",
    [orderId],
  );
  assert.equal(o.payment_status, "settled");
  assert.equal(
    await sqlState(
      db.query(
        "update public.payments set status = 'failed', failure_reason = 'PAYMENT_FAILED' where id = $1",
        [pay.id],
      ),
    ),
    "P0409",
  );
  assert.equal(
    await sqlState(db.query("update public.payments set amount = 1 where id = $1", [pay.id])),
    "P0409",
  );
  assert.equal(
    await sqlState(
      db.query("update public.payments set provider_txn_id = 'MTN-2' where id = $1", [pay.id]),
    ),
    "P0409",
  );
  // Failed needs its reason; expired says EXPIRED.
  const [other] = await db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-FAIL1" }));
  assert.equal(
    await sqlState(
      db.query("update public.payments set status = 'failed' where id = $1", [other.id]),
    ),
    "23514",
  );
  assert.equal(
    await sqlState(
      db.query(
        "update public.payments set status = 'expired', failure_reason = 'INSUFFICIENT_FUNDS' where id = $1",
        [other.id],
      ),
    ),
    "23514",
  );
  assert.equal(
    await sqlState(
      db.query(
        "update public.payments set status = 'failed', failure_reason = 'INSUFFICIENT_FUNDS' where id = $1",
        [other.id],
      ),
    ),
    "ok",
  );
  // The same callback twice is one event.
  const event =
    `insert into public.payment_events (org_id, payment_id, source, dedupe_key, momo_ref, provider_txn_id, reported_status, amount)
                 values ($1, $2, 'callback', 'MTN-1', 'PAY-SETL1', 'MTN-1', 'settled', 5000)
                 on conflict (org_id, source, dedupe_key) do nothing returning id`;
  assert.equal((await db.query(event, [ORG.easymo, pay.id])).length, 1);
  assert.equal((await db.query(event, [ORG.easymo, pay.id])).length, 0);
  // A transaction id settles one payment only.
  const [third] = await db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-DUPE1" }));
  assert.equal(await sqlState(db.query(settle, [third.id, "MTN-1"])), "23505");
});

dbTest("staff or the venue's owner confirm by hand, and the record says who", async (db) => {
  const cafeOrder = await db.asCaller(as(USER.aline), (tx) => order(tx));
  await db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-HAND1", order: cafeOrder }));
  await db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-HAND2" }));
  const confirm = (sub: string, ref: string, role: string) =>
    db.asCaller(
      as(sub),
      (tx) =>
        tx.query<{ s: string }>("select private.confirm_payment_manually($1, $2) as s", [
          ref,
          role,
        ]),
    );
  // The customer, another org's staff, a vendor of another venue: refused.
  assert.equal(await sqlState(confirm(USER.aline, "PAY-HAND1", "staff")), "42501");
  assert.equal(await sqlState(confirm(USER.aline, "PAY-HAND1", "vendor")), "42501");
  assert.equal(await sqlState(confirm(USER.paul, "PAY-HAND1", "staff")), "42501");
  assert.equal(await sqlState(confirm(USER.eric, "PAY-HAND1", "vendor")), "42501");
  assert.equal(await sqlState(confirm(DIANE, "PAY-HAND2", "vendor")), "42501"); // not linked to her venue
  assert.equal(await sqlState(confirm(USER.jean, "PAY-NONE1", "staff")), "P0002");
  assert.deepEqual(await confirm(DIANE, "PAY-HAND1", "vendor"), [{ s: "settled" }]);
  assert.deepEqual(await confirm(DIANE, "PAY-HAND1", "vendor"), [{ s: "settled" }]); // repeat: no second event
  assert.deepEqual(await confirm(USER.jean, "PAY-HAND2", "staff"), [{ s: "settled" }]);
  const rows = await db.query<
    { momo_ref: string; settled_by: string; settled_by_user_id: string; events: number }
  >(
    `select p.momo_ref, p.settled_by, p.settled_by_user_id,
            (select count(*)::int from public.payment_events e where e.payment_id = p.id) as events
     from public.payments p where p.momo_ref like 'PAY-HAND%' order by p.momo_ref`,
  );
  assert.deepEqual(rows, [
    { momo_ref: "PAY-HAND1", settled_by: "vendor", settled_by_user_id: DIANE, events: 1 },
    { momo_ref: "PAY-HAND2", settled_by: "staff", settled_by_user_id: USER.jean, events: 1 },
  ]);
  // Nobody settles by writing the row as a caller.
  const [open] = await db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-HAND3" }));
  for (const sub of [USER.aline, USER.jean]) {
    assert.equal(
      await sqlState(
        db.asCaller(as(sub), (tx) =>
          tx.query(
            "update public.payments set status = 'settled', settled_at = now(), settled_by = 'callback' where id = $1",
            [open.id],
          )),
      ),
      "42501",
    );
  }
});

dbTest("charges and evidence stay inside their tenant and their customer", async (db) => {
  const alineOrder = await db.asCaller(as(USER.aline), (tx) => order(tx));
  const ninaOrder = await db.asCaller(
    as(USER.nina),
    (tx) => order(tx, USER.nina, ORG.beaver, BEAVER_SHOP),
  );
  const graceOrder = await db.asCaller(
    as(USER.grace),
    (tx) => order(tx, USER.grace, ORG.easymo, PHARMACY),
  );
  // Customer A: another customer's order (restrictive policy), org B's order (composite key).
  assert.equal(
    await sqlState(
      db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-X0001", order: graceOrder })),
    ),
    "42501",
  );
  assert.equal(
    await sqlState(
      db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-X0002", order: ninaOrder })),
    ),
    "42501",
  );
  // The owner role passes RLS, but the (org, order) key still refuses it.
  assert.equal(await sqlState(charge(db, { ref: "PAY-X0006", order: ninaOrder })), "23503");
  // Customer B in org A; customer B naming org A's order under org B (RLS refuses before the key).
  assert.equal(
    await sqlState(
      db.asCaller(
        as(USER.nina),
        (tx) => charge(tx, { ref: "PAY-X0003", payer: USER.nina }, USER.nina),
      ),
    ),
    "42501",
  );
  assert.equal(
    await sqlState(
      db.asCaller(as(USER.nina), (tx) =>
        charge(
          tx,
          { org: ORG.beaver, ref: "PAY-X0004", payer: USER.nina, order: alineOrder },
          USER.nina,
        )),
    ),
    "42501",
  );
  // Staff A may charge for any order of org A, on the customer's behalf.
  assert.equal(
    await sqlState(
      db.asCaller(
        as(USER.jean),
        (tx) => charge(tx, { ref: "PAY-X0005", order: graceOrder, payer: USER.grace }, USER.jean),
      ),
    ),
    "ok",
  );
  // Customers see their own charges only; staff B sees none of org A's.
  assert.deepEqual(
    (await db.asCaller(
      as(USER.aline),
      (tx) => tx.query<{ momo_ref: string }>("select momo_ref from public.payments"),
    )).map((r) => r.momo_ref),
    [],
  );
  assert.equal(
    (await db.asCaller(as(USER.grace), (tx) => tx.query("select id from public.payments"))).length,
    1,
  );
  assert.deepEqual(
    await db.asCaller(as(USER.paul), (tx) => tx.query("select id from public.payments")),
    [],
  );
  // Evidence of org B cannot point at a payment of org A.
  const [pay] = await db.query<{ id: string }>(
    "select id from public.payments where momo_ref = 'PAY-X0005'",
  );
  assert.equal(
    await sqlState(db.query(
      `insert into public.payment_events (org_id, payment_id, source, dedupe_key, reported_status) values ($1, $2, 'sms', 'k', 'settled')`,
      [ORG.beaver, pay.id],
    )),
    "23503",
  );
  assert.equal(
    await sqlState(
      db.asCaller(as(USER.jean), (tx) =>
        tx.query(
          `insert into public.payment_events (org_id, source, dedupe_key, reported_status) values ($1, 'staff', 'k', 'settled')`,
          [
            ORG.easymo,
          ],
        )),
    ),
    "42501",
  );
});

dbTest(
  "forwarded SMS: unmatched ones wait for staff of their org; the same text is stored once",
  async (db) => {
    const sms =
      `insert into public.sms_inbox (org_id, device_id, raw_text, text_sha256, amount, match_status)
               values ($1, 'merchant-phone-1', 'You have received 5,000 RWF', $2, 5000, 'unmatched') returning id, needs_staff`;
    const hash = "a".repeat(64);
    const [row] = await db.query<{ id: string; needs_staff: boolean }>(sms, [ORG.easymo, hash]);
    assert.equal(row.needs_staff, true);
    assert.equal(await sqlState(db.query(sms, [ORG.easymo, hash])), "23505");
    assert.equal(
      (await db.asCaller(as(USER.jean), (tx) => tx.query("select id from public.sms_inbox")))
        .length,
      1,
    );
    for (const sub of [USER.aline, USER.paul]) {
      assert.deepEqual(
        await db.asCaller(as(sub), (tx) => tx.query("select id from public.sms_inbox")),
        [],
        sub,
      );
    }
    assert.equal(
      await sqlState(db.asCaller(as(USER.aline), (tx) =>
        tx.query(
          "insert into public.sms_inbox (org_id, device_id, raw_text, text_sha256, match_status) values ($1, 'd', 'x', $2, 'unparsed')",
          [
            ORG.easymo,
            "b".repeat(64),
          ],
        ))),
      "42501",
    );
    // Staff resolve it to a payment of their org, as themselves; not to another org's.
    const [pay] = await db.asCaller(as(USER.aline), (tx) => charge(tx, { ref: "PAY-SMS01" }));
    const resolve = (sub: string, paymentId: string) =>
      db.asCaller(as(sub), (tx) =>
        tx.query(
          `update public.sms_inbox set match_status = 'resolved', payment_id = $2, resolved_by_user_id = $3, resolved_at = now()
         where id = $1 returning needs_staff`,
          [row.id, paymentId, sub],
        ));
    const [ninaPay] = await db.query<{ id: string }>(
      `insert into public.payments (org_id, payer_phone, payee_phone, amount, momo_ref, expires_at)
     values ($1, '+250788000011', '+250788000010', 100, 'PAY-BEAV1', now() + interval '1 hour') returning id`,
      [ORG.beaver],
    );
    assert.equal(await sqlState(resolve(USER.jean, ninaPay.id)), "23503");
    assert.deepEqual(await resolve(USER.paul, pay.id), []);
    assert.deepEqual(await resolve(USER.jean, pay.id), [{ needs_staff: false }]);
  },
);
