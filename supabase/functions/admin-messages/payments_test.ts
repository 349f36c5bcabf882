/**
 * Staff confirm a payment from the Admin Inbox, over HTTP on both databases:
 * the payment ticket shows its charge, staff of the charge's org confirm it
 * (recorded as them, the payer told once), another org's staff and a
 * customer are refused and nothing changes.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { charge } from "@testing/payments.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { paymentTicket } from "@shared/packs/payments/settlement.ts";
import { createAdminApp } from "./app.ts";

dbTest("staff confirm a payment ticket's charge; another org's staff cannot", async (db) => {
  const rt = await createTestRuntime(db);
  const app = createAdminApp(rt);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/admin-messages`;
  const as = async (user: string, path: string, method = "GET") => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await rt.tokenFor(user)}`,
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    return { status: response.status, body: await response.json() };
  };
  try {
    const { data } = await charge(rt, {
      amount: 5000,
      payee_phone: "0788123456",
      memo: "Rent",
      language: "en",
    });
    const [{ id: paymentId, org_id }] = await db.query<{ id: string; org_id: string }>(
      "select id, org_id from public.payments where momo_ref = $1",
      [data.momo_ref],
    );
    const ticketId = await db.transaction((tx) =>
      paymentTicket(tx, {
        orgId: org_id,
        paymentId,
        reason: "Payment amount differs from the charge",
        summary: "Check it",
      })
    );
    const ticket = await as(USER.jean, `/tickets/${ticketId}`);
    assert.deepEqual(ticket.body.data.ticket.payment, {
      momo_ref: data.momo_ref,
      amount: 5000,
      status: "pending",
    });

    // Beaver's staff find no such payment in their org, an EasyMO customer is refused: nothing
    // changes.
    const foreign = await as(USER.paul, `/payments/${data.momo_ref}/confirm`, "POST");
    assert.equal(foreign.status, 404);
    const customer = await as(USER.aline, `/payments/${data.momo_ref}/confirm`, "POST");
    assert.equal(customer.status, 403);
    const unknown = await as(USER.jean, "/payments/PAY-NOPE22/confirm", "POST");
    assert.equal(unknown.status, 404);
    const [still] = await db.query<{ status: string }>(
      "select status from public.payments where momo_ref = $1",
      [data.momo_ref],
    );
    assert.equal(still.status, "pending");

    const confirmed = await as(USER.jean, `/payments/${data.momo_ref}/confirm`, "POST");
    assert.deepEqual(confirmed.body, {
      ok: true,
      data: { payment: { momo_ref: data.momo_ref, status: "settled" } },
    });
    const again = await as(USER.jean, `/payments/${data.momo_ref}/confirm`, "POST");
    assert.equal(again.body.data.payment.status, "settled");
    const [row] = await db.query<{ settled_by: string; settled_by_user_id: string }>(
      "select settled_by, settled_by_user_id from public.payments where momo_ref = $1",
      [data.momo_ref],
    );
    assert.deepEqual(row, { settled_by: "staff", settled_by_user_id: USER.jean });
    const told = await db.query<{ body: { text: { body: string } } }>(
      "select body from public.wa_outbox where to_wa_id = '250788000001'",
    );
    assert.equal(told.length, 1);
    assert.match(told[0].body.text.body, /^✅ Payment received: 5,000 RWF to 0788 123 456/);
  } finally {
    await server.shutdown();
  }
});
