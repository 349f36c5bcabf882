/**
 * The database's send budget for staff (migration
 * 20261203000200_staff_send_budget.sql), on both databases: a staff member
 * queues at most 30 WhatsApp messages at once and 10 a minute after that, in
 * each org (and the org's staff together 120 and 60 a minute), whether
 * through the Data API or a tool running as them. Over it,
 * the insert fails with PT429 (HTTP 429 from PostgREST) and the tool answers
 * RATE_LIMIT with nothing of its transaction kept; other staff members, other
 * orgs and the server's own writes are not touched by it.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { charge } from "@testing/payments.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { JwtClaims } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });
const NINA = "00000000-0000-4000-8000-000000000011";

let n = 0;
/**
 * Queues `count` texts in one statement as `claims` (each row is checked and counted on its
 * own): "queued" or the SQLSTATE refusing them.
 */
function enqueue(
  db: TestDatabase,
  claims: JwtClaims,
  { org = ORG.easymo as string, to = "250788000001", count = 1 } = {},
): Promise<string> {
  return db.asCaller(claims, (tx) =>
    tx.query(
      `insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
       select $1, $2, 'text', '{"type": "text", "text": {"body": "hi"}}',
              'budget-test-' || $3 || '-' || i
         from generate_series(1, $4::int) i`,
      [org, to, String(++n), count],
    )).then(() => "queued", (error: { code?: string }) => `refused ${error.code}`);
}

function queued(db: TestDatabase, org: string = ORG.easymo): Promise<number> {
  return db.query<{ n: number }>(
    "select count(*)::int as n from public.wa_outbox where org_id = $1 and idempotency_key like 'budget-test-%'",
    [org],
  ).then(([row]) => row.n);
}

/**
 * Sets a member's bucket. `rested` dates its last refill an hour back (it is
 * full again); otherwise its refill is dated ahead of the test, so no token
 * accrues however slowly a loaded machine runs the next statements.
 */
async function setBucket(db: TestDatabase, user: string, tokens: number, rested = false) {
  await db.query(
    `update private.staff_send_budgets
        set tokens = $2, refilled_at = now() + ($3 || ' minutes')::interval
      where org_id = $1 and user_id = $4`,
    [ORG.easymo, tokens, rested ? "-60" : "10", user],
  );
}

dbTest(
  "staff send budget: 30 at once, then 429/RATE_LIMIT with nothing kept; others unaffected",
  async (db) => {
    const rt = await createTestRuntime(db);
    try {
      // Aline (the payer) and 0788123456 (the payee) become EasyMO's contacts.
      const { data } = await charge(rt, {
        amount: 2000,
        payee_phone: "0788123456",
        language: "en",
      });
      // 31 in one go is over the burst: the whole transaction is refused, nothing queued.
      assert.equal(await enqueue(db, as(USER.jean), { count: 31 }), "refused PT429");
      assert.equal(await queued(db), 0);
      // 30 is within it.
      assert.equal(await enqueue(db, as(USER.jean), { count: 30 }), "queued");
      assert.equal(await queued(db), 30);
      await setBucket(db, USER.jean, 0);
      assert.equal(await enqueue(db, as(USER.jean)), "refused PT429");
      // The refusal says when to come back, and never names another org's data.
      const refusal = await db.asCaller(as(USER.jean), (tx) =>
        tx.query(
          `insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
           values ($1, '250788000001', 'text', '{"type": "text", "text": {"body": "hi"}}', 'budget-hint')`,
          [ORG.easymo],
        )).then(() => undefined, (error: { hint?: string }) => error.hint);
      assert.match(String(refusal), /^retry in \d+ s$/);

      // An idempotent retry of a queued message inserts nothing and spends nothing.
      const [first] = await db.query<{ idempotency_key: string }>(
        "select idempotency_key from public.wa_outbox where idempotency_key like 'budget-test-%' limit 1",
      );
      await db.asCaller(as(USER.jean), (tx) =>
        tx.query(
          `insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
           values ($1, '250788000001', 'text', '{"type": "text", "text": {"body": "hi"}}', $2)
           on conflict (idempotency_key) do nothing`,
          [ORG.easymo, first.idempotency_key],
        ));

      // Through a tool running as Jean: RATE_LIMIT, the payment still pending, nobody told.
      const confirm = (user: string) =>
        rt.callAs(user, "payment_confirm_by_staff", { momo_ref: data.momo_ref }, {
          org: ORG.easymo,
          idempotencyKey: crypto.randomUUID(),
        });
      const limited = await confirm(USER.jean);
      assert.equal(limited.error?.code, "RATE_LIMIT");
      // When to come back: the bucket refills a token every 6 s and the call needs two.
      const wait = limited.error?.details?.retry_after_ms;
      assert.ok(typeof wait === "number" && wait >= 1000 && wait <= 60_000, String(wait));
      const status = () =>
        db.query<{ status: string }>("select status from public.payments where momo_ref = $1", [
          data.momo_ref,
        ]).then(([row]) => row.status);
      assert.equal(await status(), "pending");
      const told = () =>
        db.query<{ n: number }>(
          "select count(*)::int as n from public.wa_outbox where to_wa_id = '250788123456'",
        ).then(([row]) => row.n);
      assert.equal(await told(), 0);

      // Grace, the same org's other staff member, has her own budget.
      assert.equal((await confirm(USER.grace)).data?.status, "settled");
      assert.equal(await told(), 1);
      // Beaver's staff, to Beaver's own customer, are unaffected.
      await db.query(
        "insert into public.conversations (org_id, user_id) values ($1, $2)",
        [ORG.beaver, NINA],
      );
      assert.equal(
        await enqueue(db, as(USER.paul), { org: ORG.beaver, to: "250788000011" }),
        "queued",
      );
      // The server's own writes spend nothing (the service role, and the owner).
      assert.equal(await enqueue(db, { role: "service_role" }), "queued");
      const [bucket] = await db.query<{ tokens: number }>(
        "select tokens from private.staff_send_budgets where org_id = $1 and user_id = $2",
        [ORG.easymo, USER.jean],
      );
      assert.equal(bucket.tokens, 0);

      // A rested bucket is full again (30, never more), and a message spends one of them.
      await setBucket(db, USER.jean, 0, true);
      assert.equal(await enqueue(db, as(USER.jean)), "queued");
      const [rested] = await db.query<{ tokens: number }>(
        "select tokens from private.staff_send_budgets where org_id = $1 and user_id = $2",
        [ORG.easymo, USER.jean],
      );
      assert.equal(rested.tokens, 29);

      // The org's staff share one budget too (120 at once, 60 a minute): with one token left
      // (and its refill dated ahead of the test), Grace's first message takes it and her next
      // is refused although her own budget has room.
      await db.query(
        `update private.org_staff_send_budgets
            set tokens = 1, refilled_at = now() + interval '10 minutes' where org_id = $1`,
        [ORG.easymo],
      );
      assert.equal(await enqueue(db, as(USER.grace)), "queued");
      assert.equal(await enqueue(db, as(USER.grace)), "refused PT429");
      // Beaver's staff still send.
      assert.equal(
        await enqueue(db, as(USER.paul), { org: ORG.beaver, to: "250788000011" }),
        "queued",
      );
    } finally {
      await rt.platform.close();
    }
  },
);

dbTest("staff send budget: concurrent transactions cannot overspend it", async (db) => {
  const rt = await createTestRuntime(db);
  try {
    await charge(rt, { amount: 1000, payee_phone: "0788123456", language: "en" });
    // Five transactions of ten messages race for a fresh bucket of 30 (on Postgres each on
    // its own connection, the first creating the bucket row the others wait on): three win.
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => enqueue(db, as(USER.grace), { count: 10 })),
    );
    assert.deepEqual(
      outcomes.toSorted(),
      ["queued", "queued", "queued", "refused PT429", "refused PT429"],
    );
    assert.equal(await queued(db), 30);
  } finally {
    await rt.platform.close();
  }
});
