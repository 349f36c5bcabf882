/**
 * The insurance flow's open work on both databases: the premium's MoMo charge
 * still waiting is found (by the flow's memory, a model's confirmed charge,
 * or its purpose), cancelled once through the pipeline as the Insurance
 * agent, and never offered again once it ended; a second cancel changes
 * nothing.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { charge, createPaymentsRuntime } from "@testing/payments.ts";
import type { TestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import type { OfflineToolCaller } from "@shared/registry/pack.ts";
import { premiumPending } from "./insurance_pending.ts";

/** Tools called as Aline in the Insurance agent's conversation (`step` keys the call). */
function asAline(rt: TestRuntime, turn: string): OfflineToolCaller {
  return (tool, args, step) =>
    rt.callAs(USER.aline, tool, args, {
      idempotencyKey: `${turn}:${step}`,
      context: { agent_id: "insurance" },
    });
}

function premium(rt: TestRuntime, quote: string, amount = 90590) {
  return charge(rt, {
    amount,
    payee_phone: "0788000002",
    payee_name: "EasyMO Insurance",
    memo: `Motor insurance RHG 726 M - ${quote}`,
    idempotency_key: `insurance:${quote}`,
    metadata: { purpose: "insurance_certificate", quote_id: quote },
  });
}

dbTest(
  "premiumPending finds the waiting premium, cancels it once, and never offers an ended one",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    // Another purpose's charge is not insurance's open work.
    const other = await charge(rt, { amount: 5000, payee_phone: "0788123456", memo: "Rent" });
    assert.ok(other.ok);
    assert.equal(
      await premiumPending.find({ language: "en", memory: {} }, asAline(rt, "t0")),
      null,
    );

    const made = await premium(rt, "q1");
    assert.ok(made.ok, JSON.stringify(made));
    const ref = made.data.momo_ref;
    const expected = {
      id: ref,
      summary: `an insurance premium of 90,590 RWF to EasyMO Insurance waiting for your MoMo ` +
        `payment (${ref})`,
    };
    // By purpose (the flow's memory lost), by the flow's memory, and by a model's confirmed call.
    for (
      const memory of [
        {},
        { step: "paying", momoRef: ref },
        { lastConfirmed: { ok: true, data: made.data } },
      ]
    ) {
      assert.deepEqual(
        await premiumPending.find({ language: "en", memory }, asAline(rt, "t1")),
        expected,
      );
    }

    const context = { language: "rw" as const, memory: { step: "paying", momoRef: ref } };
    const said = await premiumPending.cancel(expected, context, asAline(rt, "t2"));
    assert.match(said, new RegExp(`^Ubwishyu ${ref} bwahagaritswe: kode yabwo ntikishyura`));
    // Answered again (another message): the charge stays cancelled, once.
    assert.equal(await premiumPending.cancel(expected, context, asAline(rt, "t3")), said);
    const rows = await db.query<{ status: string; failure_reason: string }>(
      "select status, failure_reason from public.payments where momo_ref = $1",
      [ref],
    );
    assert.deepEqual(rows.map((row) => ({ ...row })), [
      { status: "failed", failure_reason: "CANCELLED" },
    ]);
    const [{ n }] = await db.query<{ n: number }>(
      `select count(*)::int as n from public.analytics_events
       where event = 'payment_failed' and props->>'reason' = 'CANCELLED'`,
    );
    assert.equal(n, 1);
    // Ended, it is never offered again, however it is looked for.
    assert.equal(await premiumPending.find(context, asAline(rt, "t4")), null);
    assert.equal(
      await premiumPending.find({ language: "rw", memory: {} }, asAline(rt, "t5")),
      null,
    );
  },
);

dbTest(
  "premiumPending says a premium paid before the answer is paid, and cancels nothing",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const made = await premium(rt, "q2");
    assert.ok(made.ok, JSON.stringify(made));
    const ref = made.data.momo_ref;
    const work = await premiumPending.find({ language: "fr", memory: {} }, asAline(rt, "t1"));
    assert.equal(work?.id, ref);
    // The money arrives while the question waits.
    await db.query(
      `update public.payments set status = 'settled', settled_at = now(), settled_by = 'callback'
     where momo_ref = $1`,
      [ref],
    );
    assert.equal(
      await premiumPending.cancel(work!, { language: "fr", memory: {} }, asAline(rt, "t2")),
      `Le paiement ${ref} était déjà terminé (réglé) : rien à annuler.`,
    );
    const [row] = await db.query<{ status: string }>(
      "select status from public.payments where momo_ref = $1",
      [ref],
    );
    assert.equal(row.status, "settled");
    assert.equal(
      await premiumPending.find({ language: "fr", memory: {} }, asAline(rt, "t3")),
      null,
    );
  },
);
