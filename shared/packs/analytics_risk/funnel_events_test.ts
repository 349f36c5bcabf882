import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { bodyChoices, bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { charge, paymentsSettings } from "@testing/payments.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { Database } from "@shared/db/types.ts";
import { createOpenAIModel } from "@shared/agent/model.ts";
import { startScriptedOpenAI } from "@testing/openai_server.ts";
import type { TestData, TestRuntime } from "@testing/runtime.ts";

// Aline, an EasyMO customer, on her own number.
const ALINE = "250788000001";
const CAFE = "c0000000-0000-4000-8000-000000000002";
const KIMIHURURA_PHARMACY = "c0000000-0000-4000-8000-000000000001"; // owner 250788000004

interface EventRow {
  event: string;
  agent: string | null;
  user_id: string | null;
  convo: boolean;
}

async function eventsOf(db: Database, org = ORG.easymo): Promise<EventRow[]> {
  return await db.query<EventRow>(
    `select event, props->>'agent' as agent, user_id, convo_id is not null as convo
     from public.analytics_events where org_id = $1 order by id`,
    [org],
  );
}

// The events are stamped by the database's clock; the platform's is injected an hour after it,
// so "the last 24 hours" holds them whatever the day the test runs.
async function clockAfterDatabase(db: Database): Promise<() => Date> {
  const [row] = await db.query<{ now: string }>("select to_jsonb(now()) #>> '{}' as now");
  const now = new Date(new Date(row.now).getTime() + 3_600_000);
  return () => now;
}

function settle(rt: TestRuntime, momoRef: string, status: string, txn: string, amount = 5000) {
  return rt.platform.call({
    tool: "payment_settle",
    args: { momo_ref: momoRef, status, provider_txn_id: txn, amount },
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: `settle-${txn}`,
  });
}

dbTest(
  "offline, a customer who enters Payments, confirms a charge and pays it is counted started → confirmed → paid once each",
  async (db) => {
    const now = await clockAfterDatabase(db);
    const channel = await startAgentChannel(db, { model: null }, {
      now,
      provide: [paymentsSettings()],
    });
    try {
      const ask = await channel.say(ALINE, { text: "pay 5000 to 0788123456" });
      assert.deepEqual(bodyChoices(ask), ["agent_confirm", "agent_cancel"], bodyText(ask));
      // Started on entering, not again while the conversation stays with the agent.
      assert.deepEqual((await eventsOf(db)).map((row) => [row.event, row.agent]), [
        ["funnel_started", "payments"],
      ]);
      await channel.say(ALINE, { buttonReply: { id: "agent_confirm", title: "Confirm" } });
      // The Confirm tap delivered again confirms nothing more.
      await channel.say(ALINE, { buttonReply: { id: "agent_confirm", title: "Confirm" } });
      const [payment] = await db.query<{ momo_ref: string; agent_id: string }>(
        "select momo_ref, agent_id from public.payments where org_id = $1",
        [ORG.easymo],
      );
      assert.equal(payment.agent_id, "payments");
      const settled = await settle(channel.rt, payment.momo_ref, "SUCCESSFUL", "T-funnel-1");
      assert.ok(settled.ok, JSON.stringify(settled));
      // The provider's callback delivered twice settles (and counts) once.
      await settle(channel.rt, payment.momo_ref, "SUCCESSFUL", "T-funnel-1");

      const events = await eventsOf(db);
      assert.deepEqual(events.map((row) => [row.event, row.agent]), [
        ["funnel_started", "payments"],
        ["funnel_confirmed", "payments"],
        ["funnel_paid", "payments"],
      ]);
      // Each names Aline; the agent-level ones her conversation too.
      assert.ok(events.every((row) => row.user_id === USER.aline), JSON.stringify(events));
      assert.deepEqual(events.map((row) => row.convo), [true, true, false]);

      // Back to the menu and into Payments again: a second entry, a second start.
      await channel.say(ALINE, { text: "menu" });
      await channel.say(ALINE, { listReply: { id: "agent:payments", title: "Payments" } });
      assert.equal(
        (await eventsOf(db)).filter((row) => row.event === "funnel_started").length,
        2,
      );

      // Staff read it in the funnel report.
      const report = await channel.rt.callAs(USER.jean, "funnel_report", { hours: 24 });
      assert.ok(report.ok, JSON.stringify(report));
      assert.deepEqual(report.data.funnels, [
        { agent: "payments", started: 2, confirmed: 1, paid: 1 },
      ]);
      // Another tenant's staff see none of it, in the report or in the table.
      const other = await channel.rt.callAs(USER.paul, "funnel_report", { hours: 24 }, {
        org: ORG.beaver,
      });
      assert.ok(other.ok, JSON.stringify(other));
      assert.deepEqual(other.data.funnels, []);
      const seen = await db.transaction(async (tx) => {
        await tx.exec(
          `set local role authenticated;
           set local request.jwt.claims = '{"sub": "${USER.paul}", "role": "authenticated"}';
           set local request.jwt.claim.sub = '${USER.paul}'`,
        );
        return await tx.query("select org_id from public.analytics_events");
      });
      assert.deepEqual(seen, []);
    } finally {
      await channel.rt.platform.close();
    }
  },
);

dbTest(
  "offline, a Waiter AI order and its payment, each confirmed, are one conversion and one payment",
  async (db) => {
    const channel = await startAgentChannel(db, { model: null }, {
      now: await clockAfterDatabase(db),
      provide: [paymentsSettings()],
    });
    try {
      await channel.say(ALINE, { listReply: { id: "agent:waiter_ai", title: "Food & drinks" } });
      await channel.say(ALINE, { listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
      await channel.say(ALINE, { listReply: { id: "item:BRO-BEEF", title: "Beef brochette" } });
      const placed = await channel.say(ALINE, {
        buttonReply: { id: "agent_confirm", title: "Confirm" },
      });
      const pay = bodyChoices(placed).find((id) => id.startsWith("pay:"));
      assert.ok(pay, JSON.stringify(placed));
      await channel.say(ALINE, { buttonReply: { id: pay, title: "Pay" } });
      await channel.say(ALINE, { buttonReply: { id: "agent_confirm", title: "Confirm" } });
      const [payment] = await db.query<{ momo_ref: string; agent_id: string }>(
        "select momo_ref, agent_id from public.payments where org_id = $1",
        [ORG.easymo],
      );
      // The charge the waiter asked for is the waiter's.
      assert.equal(payment.agent_id, "waiter_ai");
      const settled = await settle(channel.rt, payment.momo_ref, "SUCCESSFUL", "T-order", 1500);
      assert.ok(settled.ok, JSON.stringify(settled));
      assert.deepEqual((await eventsOf(db)).map((row) => [row.event, row.agent]), [
        ["funnel_started", "waiter_ai"],
        ["funnel_confirmed", "waiter_ai"],
        ["funnel_paid", "waiter_ai"],
      ]);
    } finally {
      await channel.rt.platform.close();
    }
  },
);

dbTest(
  "with a model, entering Payments and a confirmed charge are counted for it once each",
  async (db) => {
    await using server = startScriptedOpenAI({
      script: [
        {
          tool_calls: [{
            name: "momo_charge",
            arguments: {
              amount: 5000,
              currency: "RWF",
              payee_phone: "+250788123456",
              memo: "Rent",
              idempotency_key: "model-rent-1",
            },
          }],
        },
        { content: "Dial the code to pay 5,000 RWF." },
        { content: "Anything else?" },
      ],
    });
    const model = createOpenAIModel({
      apiKey: server.apiKey,
      baseURL: server.baseURL,
      model: "test",
    });
    const channel = await startAgentChannel(db, { model }, {
      now: await clockAfterDatabase(db),
      provide: [paymentsSettings()],
    });
    try {
      const ask = await channel.say(ALINE, { text: "pay 5000 to 0788123456" });
      assert.deepEqual(bodyChoices(ask), ["agent_confirm", "agent_cancel"], bodyText(ask));
      const done = await channel.say(ALINE, {
        buttonReply: { id: "agent_confirm", title: "Confirm" },
      });
      assert.equal(bodyText(done), "Dial the code to pay 5,000 RWF.");
      await channel.say(ALINE, { buttonReply: { id: "agent_confirm", title: "Confirm" } });
      assert.deepEqual((await eventsOf(db)).map((row) => [row.event, row.agent]), [
        ["funnel_started", "payments"],
        ["funnel_confirmed", "payments"],
      ]);
      const [payment] = await db.query<{ agent_id: string }>(
        "select agent_id from public.payments where org_id = $1",
        [ORG.easymo],
      );
      assert.equal(payment.agent_id, "payments");
    } finally {
      await channel.rt.platform.close();
    }
  },
);

dbTest(
  "a failed payment, a hand-off, a vendor asked and a vendor answering each write their event",
  async (db) => {
    const now = await clockAfterDatabase(db);
    const channel = await startAgentChannel(db, { model: null }, {
      now,
      provide: [paymentsSettings()],
    });
    const rt = channel.rt;
    try {
      // Three charges that fail within the hour: payment_failed each, with the reason; none
      // is paid, and made with no agent (a direct call) none is in a funnel.
      for (const [index, status] of ["INSUFFICIENT_FUNDS", "FAILED", "FAILED"].entries()) {
        const failing = await charge(rt, { amount: 5000, phone: "+250788000001" });
        assert.ok(failing.ok, JSON.stringify(failing));
        const failed = await settle(rt, failing.data.momo_ref, status, `T-fail-${index}`);
        assert.ok(failed.ok, JSON.stringify(failed));
      }
      const failures = await db.query<{ props: Record<string, unknown>; user_id: string }>(
        "select props, user_id from public.analytics_events where event = 'payment_failed' order by id",
      );
      assert.deepEqual(failures, [
        { props: { reason: "INSUFFICIENT_FUNDS" }, user_id: USER.aline },
        { props: { reason: "PAYMENT_FAILED" }, user_id: USER.aline },
        { props: { reason: "PAYMENT_FAILED" }, user_id: USER.aline },
      ]);

      // A person handed to staff.
      await channel.say(ALINE, { text: "I want to talk to a person" });
      const handoffs = await db.query<{ user_id: string; agent: string | null }>(
        `select user_id, props->>'agent' as agent from public.analytics_events
         where event = 'handoff_raised'`,
      );
      assert.equal(handoffs.length, 1);
      assert.equal(handoffs[0].user_id, USER.aline);

      // One vendor asked, who answers.
      const asked = await rt.callAs(
        USER.aline,
        "create_vendor_inquiries_and_message_vendors",
        {
          user_phone: "+250788000001",
          business_ids: [KIMIHURURA_PHARMACY],
          request_type: "medicine",
          request_summary: "Paracetamol 500mg",
          structured_payload: { item: "Paracetamol 500mg", quantity: 2 },
          language: "en",
          consent: true,
        },
        { idempotencyKey: "funnel-inquiry" },
      );
      assert.ok(asked.ok, JSON.stringify(asked));
      const replied = await rt.platform.call({
        tool: "process_vendor_reply",
        args: { vendor_phone: "+250788000004", message_body: "YES 800", whatsapp_message_id: "w1" },
        caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
        idempotencyKey: "wa:w1",
      });
      assert.ok(replied.ok, JSON.stringify(replied));
      // A correction (what process_vendor_reply writes when the vendor answers the same message
      // again) is still one answer.
      await db.query(
        `update public.market_vendor_inquiry_messages
         set reply_status = 'no', replied_at = coalesce(replied_at, now())`,
      );

      const counts = await db.query<{ event: string; n: number }>(
        `select event, count(*)::int as n from public.analytics_events
         where org_id = $1 group by event order by event`,
        [ORG.easymo],
      );
      assert.deepEqual(Object.fromEntries(counts.map((row) => [row.event, row.n])), {
        handoff_raised: 1,
        payment_failed: 3,
        vendor_inquiry_sent: 1,
        vendor_replied: 1,
      });
      // The risk watch finds the failures from these very rows.
      const scan: TestData = await rt.platform.call({
        tool: "risk_scan",
        args: {},
        caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
        idempotencyKey: "funnel-scan",
      });
      assert.ok(scan.ok, JSON.stringify(scan));
      assert.deepEqual(scan.data.found, ["payment_failures"]);
    } finally {
      await rt.platform.close();
    }
  },
);
