/**
 * `order_cancel` through the pipeline on both databases: only the customer's
 * own unpaid order, its waiting charge expired, the venue told once.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";

const CAFE = "c0000000-0000-4000-8000-000000000002"; // Café Nyamirambo, owner Diane (fr)

async function confirmed(
  rt: TestRuntime,
  tool: string,
  args: Record<string, unknown>,
  key: string,
): Promise<TestData> {
  const asked = await rt.callAs(USER.aline, tool, args, { idempotencyKey: key });
  if (asked.ok || asked.error.code !== "CONFIRMATION_REQUIRED") return asked;
  return await rt.callAs(USER.aline, tool, args, {
    idempotencyKey: key,
    confirmation: asked.error.confirmation.token,
  });
}

dbTest(
  "order_cancel: the customer's own unpaid order only; its charge expires, the venue is told once",
  async (db) => {
    const rt = await createTestRuntime(db);
    const order = await confirmed(rt, "order_create", {
      venue_id: CAFE,
      items: [{ sku: "CAF-LAT", qty: 1 }],
    }, "o1");
    assert.ok(order.ok, JSON.stringify(order));
    const charge = await confirmed(rt, "momo_charge", {
      amount: order.data.total,
      currency: "RWF",
      phone: "0788 000 001",
      memo: order.data.order_no,
      idempotency_key: "c1",
      order_id: order.data.order_id,
    }, "c1");
    assert.ok(charge.ok, JSON.stringify(charge));

    // Another customer's call finds nothing, and changes nothing.
    const other = await rt.callAs(USER.nina, "order_cancel", { order_id: order.data.order_id }, {
      idempotencyKey: "x1",
    });
    assert.equal(other.ok, false);
    assert.equal(other.error.code, "NOT_FOUND");
    const eric = await rt.callAs(USER.eric, "order_cancel", { order_id: order.data.order_id }, {
      idempotencyKey: "x2",
    });
    assert.equal(eric.error.code, "NOT_FOUND");

    const done = await rt.callAs(USER.aline, "order_cancel", { order_id: order.data.order_id }, {
      idempotencyKey: "k1",
    });
    assert.ok(done.ok, JSON.stringify(done));
    assert.equal(done.data.charges_expired, 1);
    assert.equal(done.data.venue_told, true);
    const again = await rt.callAs(USER.aline, "order_cancel", { order_id: order.data.order_id }, {
      idempotencyKey: "k2",
    });
    assert.ok(again.ok, JSON.stringify(again));
    assert.equal(again.data.venue_told, false);

    const rows = await db.query<Record<string, unknown>>(
      `select o.status, o.payment_status, p.status as charge from public.orders o
     join public.payments p on p.order_id = o.id`,
    );
    assert.deepEqual(rows, [{ status: "cancelled", payment_status: "expired", charge: "expired" }]);
    const told = await db.query<{ body: string }>(
      `select body::text as body from public.wa_outbox where idempotency_key like 'order:%:customer-cancelled'`,
    );
    assert.equal(told.length, 1);
    assert.match(told[0].body, /le client a annulé la commande A-\d+/);
    // The payment status a customer reads never shows it waiting.
    const status = await rt.callAs(
      USER.aline,
      "payment_status",
      { momo_ref: charge.data.momo_ref },
      {
        idempotencyKey: "s1",
      },
    );
    assert.ok(status.ok, JSON.stringify(status));
    assert.deepEqual(
      status.data.payments.map((p: { momo_ref: string; status: string }) => [p.momo_ref, p.status]),
      [[charge.data.momo_ref, "expired"]],
    );
  },
);
