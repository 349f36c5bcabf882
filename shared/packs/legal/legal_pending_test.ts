/**
 * Legal Intake's open work on both databases: the consultation fee's charge
 * still waiting is found, cancelled once through the pipeline as Legal
 * Intake, and staff are told once however often the client answers.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { charge, createPaymentsRuntime } from "@testing/payments.ts";
import type { TestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import type { OfflineToolCaller } from "@shared/registry/pack.ts";
import { feePending } from "./legal_pending.ts";

/** Tools called as Aline in Legal Intake's conversation (`step` keys the call). */
function asAline(rt: TestRuntime, turn: string): OfflineToolCaller {
  return (tool, args, step) =>
    rt.callAs(USER.aline, tool, args, {
      idempotencyKey: `${turn}:${step}`,
      context: { agent_id: "legal_intake" },
    });
}

dbTest("feePending cancels the waiting fee once and tells staff once", async (db) => {
  const rt = await createPaymentsRuntime(db);
  const made = await charge(rt, {
    amount: 10000,
    payee_phone: "0788123456",
    payee_name: "Me Kalisa Chambers",
    memo: "Legal consultation LC-2026-000001",
    idempotency_key: "legal-consultation:case-1",
    metadata: { purpose: "legal_consultation", case_id: "case-1", reference: "LC-2026-000001" },
  });
  assert.ok(made.ok, JSON.stringify(made));
  const ref = made.data.momo_ref;
  const context = {
    language: "en" as const,
    memory: { step: "filed", reference: "LC-2026-000001" },
  };
  const work = await feePending.find(context, asAline(rt, "t1"));
  assert.deepEqual(work, {
    id: ref,
    summary: `a consultation fee of 10,000 RWF to Me Kalisa Chambers waiting for your MoMo ` +
      `payment (${ref})`,
  });
  for (const turn of ["t2", "t3"]) {
    assert.match(
      await feePending.cancel(work!, context, asAline(rt, turn)),
      new RegExp(`^Payment ${ref} is cancelled: .* Your case stays with our lawyers`),
    );
  }
  const tickets = await db.query<{ summary: string; agent_id: string }>(
    `select summary, agent_id from public.staff_tickets
     where reason = 'Legal: consultation fee cancelled by the client'`,
  );
  assert.equal(tickets.length, 1);
  assert.match(tickets[0].summary, new RegExp(`${ref} for case LC-2026-000001`));
  assert.equal(tickets[0].agent_id, "legal_intake");
  const [row] = await db.query<{ status: string; failure_reason: string }>(
    "select status, failure_reason from public.payments where momo_ref = $1",
    [ref],
  );
  assert.deepEqual({ ...row }, { status: "failed", failure_reason: "CANCELLED" });
  assert.equal(await feePending.find(context, asAline(rt, "t4")), null);
});

dbTest(
  "feePending never takes another flow's waiting charge the shared memory names",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    // An insurance premium kept waiting, its reference still in the conversation's memory.
    const premium = await charge(rt, {
      amount: 90590,
      payee_phone: "0788000002",
      payee_name: "EasyMO Insurance",
      memo: "Motor insurance RHG 726 M",
      idempotency_key: "insurance:q1",
      metadata: { purpose: "insurance_certificate" },
    });
    assert.ok(premium.ok, JSON.stringify(premium));
    const memory = { step: "paying", momoRef: premium.data.momo_ref };
    assert.equal(await feePending.find({ language: "en", memory }, asAline(rt, "t1")), null);
    const fee = await charge(rt, {
      amount: 10000,
      payee_phone: "0788123456",
      payee_name: "Me Kalisa Chambers",
      memo: "Legal consultation",
      idempotency_key: "legal-consultation:case-2",
      metadata: { purpose: "legal_consultation" },
    });
    assert.ok(fee.ok, JSON.stringify(fee));
    const work = await feePending.find({ language: "en", memory }, asAline(rt, "t2"));
    assert.equal(work?.id, fee.data.momo_ref);
  },
);
