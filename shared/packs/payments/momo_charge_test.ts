/**
 * `momo_charge` through the pipeline on PGlite and Postgres: the USSD code
 * and link, validation with field paths, the configured cap, idempotent
 * replay and CONFLICT on another payload, orders already paid or cancelled,
 * and tenant fences.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { cafeOrder, charge } from "@testing/payments.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { PAYMENTS_CONFIG } from "./config.ts";

dbTest("momo_charge gives the USSD code, the tel: link and a pending charge", async (db) => {
  const rt = await createTestRuntime(db);
  const asked = await rt.callAs(USER.aline, "momo_charge", {
    amount: 5000,
    currency: "RWF",
    phone: "0788 000 001",
    memo: "Rent share",
    idempotency_key: "k1",
    payee_phone: "0788123456",
    language: "fr",
  }, { idempotencyKey: "k1" });
  assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
  assert.match(asked.error.confirmation.summary, /^Payer 5 000 RWF à 0788 123 456/);
  const result = await charge(rt, {
    amount: 5000,
    phone: "0788 000 001",
    memo: "Rent share",
    idempotency_key: "k1",
    payee_phone: "0788123456",
    language: "fr",
  });
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.data.ussd_code, "*182*1*1*0788123456*5000#");
  assert.equal(result.data.payment_link, "tel:*182*1*1*0788123456*5000%23");
  assert.match(result.data.momo_ref, /^PAY-[2-9A-HJKMNP-Z]{6}$/);
  const minutes = (Date.parse(result.data.expires_at) - Date.now()) / 60_000;
  assert.ok(minutes > 29 && minutes <= 30, `expires in ${minutes} minutes`);
  const [row] = await db.query<Record<string, unknown>>(
    `select status, payer_phone, payee_phone, payer_id, created_by, language, amount::int as amount
     from public.payments where momo_ref = $1`,
    [result.data.momo_ref],
  );
  assert.deepEqual(row, {
    status: "pending",
    payer_phone: "+250788000001",
    payee_phone: "+250788123456",
    payer_id: USER.aline,
    created_by: USER.aline,
    language: "fr",
    amount: 5000,
  });
});

dbTest(
  "momo_charge pays an order's venue by its merchant code; the payer defaults to the caller",
  async (db) => {
    const rt = await createTestRuntime(db);
    const order = await cafeOrder(rt);
    const result = await charge(rt, { amount: 5000, order_id: order, memo: "Order" });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.data.ussd_code, "*182*8*1*210045*5000#");
    assert.equal(result.data.payee, "Café Nyamirambo");
    const [o] = await db.query<{ payment_status: string }>(
      "select payment_status from public.orders where id = $1",
      [order],
    );
    assert.equal(o.payment_status, "pending");
    // A second charge while one waits, another amount, an order not ours.
    const again = await charge(rt, { amount: 5000, order_id: order, memo: "Order" });
    assert.equal(again.error.code, "CONFLICT");
    // …whose details give the waiting charge back, so a second "Pay" shows the same code.
    assert.deepEqual(again.error.details?.pending, result.data);
    const other = await cafeOrder(rt);
    const wrong = await charge(rt, { amount: 4000, order_id: other, memo: "Order" });
    assert.equal(wrong.error.code, "VALIDATION_ERROR");
    assert.deepEqual(wrong.error.fields.map((f: { path: string }) => f.path), ["amount"]);
    const stranger = await charge(rt, { amount: 5000, order_id: other, memo: "x" }, {
      user: USER.eric,
    });
    assert.equal(stranger.error.code, "NOT_FOUND");
  },
);

dbTest("momo_charge refuses bad phones and amounts with the field path", async (db) => {
  const rt = await createTestRuntime(db, {
    provide: [{ key: PAYMENTS_CONFIG, value: { chargeTtlMinutes: 30, maxAmountRwf: 100_000 } }],
  });
  const base = { amount: 5000, memo: "x", payee_phone: "0788123456" };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ phone: "+14155550100" }, "phone"],
    [{ phone: "0252123456" }, "phone"],
    [{ payee_phone: "12" }, "payee_phone"],
    [{ amount: 0 }, "amount"],
    [{ amount: -5 }, "amount"],
    [{ amount: 1500.5 }, "amount"],
    [{ currency: "USD" }, "currency"],
    [{ memo: "x".repeat(141) }, "memo"],
  ];
  for (const [change, path] of cases) {
    const key = crypto.randomUUID();
    const result = await rt.callAs(
      USER.aline,
      "momo_charge",
      { currency: "RWF", idempotency_key: key, ...base, ...change },
      { idempotencyKey: key },
    );
    assert.equal(result.error?.code, "VALIDATION_ERROR", JSON.stringify(change));
    assert.ok(
      result.error.fields.some((f: { path: string }) => f.path === path),
      `${JSON.stringify(change)} → ${JSON.stringify(result.error.fields)}`,
    );
  }
  // The cap is checked after confirmation too: still a validation error, nothing written.
  const over = await charge(rt, { ...base, amount: 100_001 });
  assert.equal(over.error.code, "VALIDATION_ERROR");
  const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from public.payments");
  assert.equal(n, 0);
});

dbTest(
  "momo_charge: the same key returns the same charge; another payload is CONFLICT",
  async (db) => {
    const rt = await createTestRuntime(db);
    const args = {
      amount: 2000,
      memo: "Lunch",
      payee_phone: "0788123456",
      idempotency_key: "same",
    };
    const first = await charge(rt, args, { key: "request-1" });
    // A later request (another pipeline key) with the charge's same key: same charge.
    const second = await charge(rt, args, { key: "request-2" });
    assert.ok(first.ok && second.ok, JSON.stringify([first, second]));
    assert.equal(second.data.momo_ref, first.data.momo_ref);
    // The pipeline's own replay (same request key) answers from the ledger.
    const replay = await charge(rt, args, { key: "request-1" });
    assert.equal(replay.data.momo_ref, first.data.momo_ref);
    const changed = await charge(rt, { ...args, amount: 2500 }, { key: "request-3" });
    assert.equal(changed.error.code, "CONFLICT");
    // Another user's same key is theirs to use but never reveals Aline's charge.
    const other = await charge(rt, args, { key: "request-4", user: USER.eric });
    assert.equal(other.error?.code, "CONFLICT");
    const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from public.payments");
    assert.equal(n, 1);
  },
);

dbTest("momo_charge refuses paid and cancelled orders, and another tenant's order", async (db) => {
  const rt = await createTestRuntime(db);
  const order = await cafeOrder(rt);
  await db.query("update public.orders set status = 'cancelled' where id = $1", [order]);
  const cancelled = await charge(rt, { amount: 5000, order_id: order, memo: "x" });
  assert.equal(cancelled.error.code, "CONFLICT");
  const paid = await cafeOrder(rt);
  const first = await charge(rt, { amount: 5000, order_id: paid, memo: "x" });
  await db.query(
    "update public.payments set status = 'settled', settled_at = now(), settled_by = 'callback' where momo_ref = $1",
    [first.data.momo_ref],
  );
  const twice = await charge(rt, { amount: 5000, order_id: paid, memo: "x" });
  assert.equal(twice.error.code, "CONFLICT");
  assert.match(twice.error.msg, /already paid/);
  // Beaver's customer cannot point at an EasyMO order, whatever org she names.
  const foreign = await charge(rt, { amount: 5000, order_id: await cafeOrder(rt), memo: "x" }, {
    user: USER.nina,
    org: ORG.beaver,
  });
  assert.equal(foreign.error.code, "NOT_FOUND");
  const wrongOrg = await charge(rt, { amount: 5000, payee_phone: "0788123456", memo: "x" }, {
    user: USER.nina,
    org: ORG.easymo,
  });
  assert.equal(wrongOrg.error.code, "AUTH_ERROR");
});

// Seed 000's own call: no order, ride or payee.
const SEED_CALL = {
  amount: 1000,
  phone: "+250788123456",
  memo: "Test payment",
  idempotency_key: "test-123",
};

dbTest(
  "momo_charge naming no payee pays the tenant's own merchant code, and says so",
  async (db) => {
    const rt = await createTestRuntime(db);
    const asked = await rt.callAs(USER.aline, "momo_charge", {
      ...SEED_CALL,
      currency: "RWF",
      language: "fr",
    }, { idempotencyKey: "ask" });
    assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
    assert.equal(
      asked.error.confirmation.summary,
      "Payer 1 000 RWF à EasyMO depuis votre numéro MoMo 0788 123 456 ?",
    );
    const result = await charge(rt, SEED_CALL);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.data.ussd_code, "*182*8*1*300400*1000#");
    assert.equal(result.data.payment_link, "tel:*182*8*1*300400*1000%23");
    assert.equal(result.data.payee, "EasyMO");
    const [row] = await db.query<Record<string, unknown>>(
      `select org_id, payee_merchant_code, payee_phone, payer_phone, order_id, ride_request_id,
              metadata->>'payee_name' as payee_name
       from public.payments where momo_ref = $1`,
      [result.data.momo_ref],
    );
    assert.deepEqual(row, {
      org_id: ORG.easymo,
      payee_merchant_code: "300400",
      payee_phone: null,
      payer_phone: "+250788123456",
      order_id: null,
      ride_request_id: null,
      payee_name: "EasyMO",
    });

    // Settled, the payer reads who was paid, the tenant by name, in their language (Aline: rw).
    const settled = await rt.platform.call({
      tool: "payment_settle",
      args: {
        momo_ref: result.data.momo_ref,
        status: "SUCCESSFUL",
        provider_txn_id: "T-tenant-1",
        amount: 1000,
      },
      caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
      idempotencyKey: "settle-1",
    });
    assert.ok(settled.ok, JSON.stringify(settled));
    const told = await db.query<{ body: TestData }>(
      "select body from public.wa_outbox where to_wa_id = '250788123456' order by seq",
    );
    assert.match(
      JSON.stringify(told.map((r) => r.body)),
      /Twakiriye ubwishyu: 1,000 RWF kuri EasyMO\. Indango PAY-/,
    );
  },
);

dbTest("momo_charge naming no payee pays a tenant's own number by send-money", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await charge(rt, SEED_CALL, { user: USER.nina, org: ORG.beaver });
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.data.ussd_code, "*182*1*1*0788300500*1000#");
  assert.equal(result.data.payee, "Beaver's Choice Paper Company");
  const [row] = await db.query<Record<string, unknown>>(
    "select org_id, payee_merchant_code, payee_phone from public.payments where momo_ref = $1",
    [result.data.momo_ref],
  );
  assert.deepEqual(row, {
    org_id: ORG.beaver,
    payee_merchant_code: null,
    payee_phone: "+250788300500",
  });
});

dbTest(
  "momo_charge naming no payee, for a tenant with no merchant account, is a VALIDATION_ERROR saying so",
  async (db) => {
    const rt = await createTestRuntime(db);
    await db.query("update public.orgs set momo_merchant_code = null where id = $1", [ORG.easymo]);
    const result = await charge(rt, SEED_CALL);
    assert.equal(result.error?.code, "VALIDATION_ERROR", JSON.stringify(result));
    assert.deepEqual(result.error.fields, [{
      path: "payee_phone",
      message: "EasyMO has no MoMo merchant account set up: say who is paid " +
        "(order_id, ride_request_id or payee_phone)",
    }]);
    const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from public.payments");
    assert.equal(n, 0);
    // Naming a payee still works.
    const named = await charge(rt, {
      ...SEED_CALL,
      idempotency_key: "k2",
      payee_phone: "0788123456",
    });
    assert.ok(named.ok, JSON.stringify(named));
  },
);

dbTest(
  "momo_charge: a charge's key names its payee; the tenant's name cannot be forged in metadata",
  async (db) => {
    const rt = await createTestRuntime(db);
    const first = await charge(rt, SEED_CALL, { key: "request-1" });
    assert.ok(first.ok, JSON.stringify(first));
    const again = await charge(rt, SEED_CALL, { key: "request-2" });
    assert.equal(again.data?.momo_ref, first.data.momo_ref, JSON.stringify(again));
    // The same key for a charge to a number is another payload.
    const toNumber = await charge(rt, { ...SEED_CALL, payee_phone: "0788300400" }, {
      key: "request-3",
    });
    assert.equal(toNumber.error?.code, "CONFLICT", JSON.stringify(toNumber));
    // …and the other way round.
    const byNumber = { ...SEED_CALL, idempotency_key: "by-number", payee_phone: "0788123456" };
    assert.ok((await charge(rt, byNumber, { key: "request-4" })).ok);
    const { payee_phone: _, ...toTenant } = byNumber;
    const switched = await charge(rt, toTenant, { key: "request-5" });
    assert.equal(switched.error?.code, "CONFLICT", JSON.stringify(switched));

    // A caller's payee_name would name the payee in the link and receipts: it is dropped.
    const forged = await charge(rt, {
      ...SEED_CALL,
      idempotency_key: "forged",
      payee_phone: "0788123456",
      metadata: { payee_name: "EasyMO", table: 4 },
    });
    assert.ok(forged.ok, JSON.stringify(forged));
    assert.equal(forged.data.payee, "+250788123456");
    const [row] = await db.query<{ metadata: Record<string, unknown> }>(
      "select metadata from public.payments where momo_ref = $1",
      [forged.data.momo_ref],
    );
    assert.deepEqual(row.metadata, { table: 4 });
    // Two payees at once are still refused.
    const both = await charge(rt, {
      ...SEED_CALL,
      idempotency_key: "both",
      payee_phone: "0788123456",
      order_id: await cafeOrder(rt),
    });
    assert.equal(both.error?.code, "VALIDATION_ERROR");
    assert.deepEqual(both.error.fields.map((f: { path: string }) => f.path), ["payee_phone"]);
  },
);

dbTest(
  "momo_charge's read-back names the venue an order pays, read as the caller: not for a stranger's order",
  async (db) => {
    const rt = await createTestRuntime(db);
    const order = await cafeOrder(rt);
    const [{ order_no }] = await db.query<{ order_no: string }>(
      "select order_no from public.orders where id = $1",
      [order],
    );
    const ask = (user: string, language: string) =>
      rt.callAs(user, "momo_charge", {
        amount: 5000,
        currency: "RWF",
        phone: "0788 000 001",
        memo: "Order",
        idempotency_key: `read-back-${language}`,
        order_id: order,
        language,
      }, { idempotencyKey: `read-back-${language}` });
    // The model's memo says only "Order": the venue comes from the order itself.
    const en = await ask(USER.aline, "en");
    assert.equal(en.error.code, "CONFIRMATION_REQUIRED");
    assert.match(en.error.confirmation.summary, /^Pay 5,000 RWF to Café Nyamirambo \(order /);
    assert.ok(en.error.confirmation.summary.includes(`(order ${order_no})`));
    const rw = await ask(USER.aline, "rw");
    assert.match(rw.error.confirmation.summary, /kuri Café Nyamirambo \(itumiza /);
    // Eric cannot read Aline's order: his read-back names only what he wrote, and the call fails.
    const stranger = await ask(USER.eric, "fr");
    assert.equal(stranger.error.code, "CONFIRMATION_REQUIRED");
    assert.doesNotMatch(stranger.error.confirmation.summary, /Nyamirambo/);
    assert.match(stranger.error.confirmation.summary, /^Payer 5 000 RWF à Order /);
  },
);
