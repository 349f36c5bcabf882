/**
 * The payments function over real HTTP on 127.0.0.1, on PGlite and Postgres:
 * signed callbacks (refusals, each status, replay, amount mismatch), forwarded
 * SMS signed by their device (MTN and Airtel matched, unmatched and ambiguous
 * to staff, each device's SMS filed under its own org),
 * the sweep (and callbacks racing it), a payee's PAID <ref>, and fulfilment
 * waiting for settlement.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { signCallback } from "@shared/packs/payments/callback_signature.ts";
import { signForwarded } from "@shared/packs/payments/forwarder_auth.ts";
import {
  addForwarder,
  type IssuedForwarder,
  revokeForwarder,
  rotateForwarder,
} from "@shared/packs/payments/sms_forwarders.ts";
import {
  cafeOrder,
  charge,
  createPaymentsRuntime,
  TEST_CALLBACK_SECRET,
} from "@testing/payments.ts";
import { confirmsPayment } from "@shared/packs/payments/paid_counterpart.ts";
import { runPackSchedules } from "@shared/pipeline/pack_schedules.ts";
import { paymentExpireDue } from "@shared/packs/payments/settlement_tools.ts";
import { readData } from "@shared/registry/tool_call.ts";
import { createPaymentsApp } from "./app.ts";
import { serveFunction } from "@testing/serve_function.ts";

const CALLBACK_SECRET = TEST_CALLBACK_SECRET;
const OTHER_SECRET = "another-secret-for-tests-01234";
const DIANE_WA = "250788000005"; // owner of Café Nyamirambo

interface Served {
  url: string;
  /**
   * Runs the expiry as the platform's sweep does (the pack's schedule, each tenant, as the
   * service), a period after the last run so it is not a replay; answers what expired.
   */
  sweep(): Promise<string[]>;
  close(): Promise<void>;
}

function serve(rt: TestRuntime): Served {
  const app = createPaymentsApp(rt);
  const server = serveFunction("payments", (request) => app.fetch(request));
  // The schedule's period names each run's idempotency key: each sweep here is the next minute.
  let period = 0;
  return {
    url: server.url,
    async sweep() {
      const runs = await runPackSchedules(rt.platform, {
        now: new Date(Date.UTC(2026, 0, 1) + 60_000 * period++),
        schedule: "payments.expire_due_charges",
      });
      assert.ok(runs.length > 0 && runs.every((run) => run.schedule === "expire_due_charges"));
      return runs.flatMap(({ result }) => {
        assert.ok(result.ok, JSON.stringify(result));
        return readData(paymentExpireDue, result.data).expired;
      });
    },
    close: () => server.close(),
  };
}

async function post(
  url: string,
  body: unknown,
  options: { secret?: string | null; timestamp?: number; tamper?: boolean } = {},
): Promise<{ status: number; json: TestData }> {
  const bytes = new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.secret !== null) {
    headers["x-easymo-signature"] = await signCallback({
      secret: options.secret ?? CALLBACK_SECRET,
      body: bytes,
      timestamp: options.timestamp,
    });
  }
  const sent = options.tamper
    ? new TextEncoder().encode(JSON.stringify({ ...body as object, amount: 1 }))
    : bytes;
  const response = await fetch(url, { method: "POST", headers, body: sent });
  return { status: response.status, json: await response.json() };
}

/** Registers a forwarder of `org` as the operator does (the service role). */
function forwarder(rt: TestRuntime, org: string, label = "Till"): Promise<IssuedForwarder> {
  return addForwarder(rt.platform.db, { role: "service_role" }, { orgId: org, label });
}

/** Posts a forwarded SMS signed by `device`. */
async function postSms(
  url: string,
  device: IssuedForwarder,
  payload: Record<string, unknown>,
): Promise<{ status: number; json: TestData }> {
  const body = new TextEncoder().encode(JSON.stringify(payload));
  const headers = await signForwarded({ deviceId: device.device_id, secret: device.secret, body });
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: response.status, json: await response.json() };
}

async function payment(db: TestRuntime["platform"]["db"], ref: string) {
  const [row] = await db.query<Record<string, unknown>>(
    `select status, failure_reason, settled_by, provider_txn_id from public.payments where momo_ref = $1`,
    [ref],
  );
  return row;
}

async function outboxTo(db: TestRuntime["platform"]["db"], waId: string): Promise<string[]> {
  const rows = await db.query<{ body: TestData }>(
    "select body from public.wa_outbox where to_wa_id = $1 order by seq",
    [waId],
  );
  return rows.map((r) => r.body.text?.body ?? r.body.interactive?.body?.text ?? "");
}

dbTest(
  "callback: unsigned, stale, tampered or foreign signatures are 401 and change nothing",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    try {
      const order = await cafeOrder(rt);
      const { data } = await charge(rt, { amount: 5000, order_id: order, memo: "Order" });
      const body = {
        momo_ref: data.momo_ref,
        status: "SUCCESSFUL",
        provider_txn_id: "T1",
        amount: 5000,
      };
      const refusals = [
        await post(`${fn.url}/callback`, body, { secret: null }),
        await post(`${fn.url}/callback`, body, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
        await post(`${fn.url}/callback`, body, { tamper: true }),
        await post(`${fn.url}/callback`, body, { secret: OTHER_SECRET }),
        await post(`${fn.url}/sms`, {
          sender: "M-Money",
          text: "x",
          received_at: new Date().toISOString(),
        }),
      ];
      for (const refusal of refusals) {
        assert.equal(refusal.status, 401);
        assert.deepEqual(refusal.json, {
          ok: false,
          error: { code: "AUTH_ERROR", msg: "Signature required" },
        });
      }
      assert.equal((await payment(db, data.momo_ref)).status, "pending");
      const [{ n }] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.payment_events",
      );
      assert.equal(n, 0);
      // Signed but malformed: a validation error with the field, never a 500.
      const bad = await post(`${fn.url}/callback`, { ...body, amount: "5000" });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.error.fields[0].path, "amount");
      const notJson = await post(`${fn.url}/callback`, "{nope");
      assert.equal(notJson.status, 400);
      const unknown = await post(`${fn.url}/callback`, { ...body, momo_ref: "PAY-NOPE22" });
      assert.equal(unknown.status, 404);
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "callback SUCCESSFUL settles once, moves the order on and tells payer and venue",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    try {
      const order = await cafeOrder(rt);
      const [{ order_no }] = await db.query<{ order_no: string }>(
        "select order_no from public.orders where id = $1",
        [order],
      );
      const { data } = await charge(rt, {
        amount: 5000,
        order_id: order,
        memo: "Order",
        language: "en",
      });
      // The venue accepts; fulfilment waits for the money (P0402 → the DB refuses).
      await db.asCaller(
        { sub: USER.jean, role: "authenticated" },
        (tx) => tx.query("update public.orders set status = 'confirmed' where id = $1", [order]),
      );
      await assert.rejects(
        db.asCaller(
          { sub: USER.jean, role: "authenticated" },
          (tx) => tx.query("update public.orders set status = 'preparing' where id = $1", [order]),
        ),
        (error: { code?: string }) => error.code === "P0402",
      );
      const body = {
        momo_ref: data.momo_ref,
        status: "SUCCESSFUL",
        provider_txn_id: "MTN-1",
        amount: 5000,
      };
      const first = await post(`${fn.url}/callback`, body);
      assert.equal(first.status, 200, JSON.stringify(first.json));
      assert.deepEqual(first.json.data, {
        momo_ref: data.momo_ref,
        status: "settled",
        outcome: "applied",
      });
      const again = await post(`${fn.url}/callback`, body);
      assert.equal(again.json.data.status, "settled");
      assert.deepEqual(await payment(db, data.momo_ref), {
        status: "settled",
        failure_reason: null,
        settled_by: "callback",
        provider_txn_id: "MTN-1",
      });
      const [o] = await db.query<{ payment_status: string }>(
        "select payment_status from public.orders where id = $1",
        [order],
      );
      assert.equal(o.payment_status, "settled");
      await db.asCaller(
        { sub: USER.jean, role: "authenticated" },
        (tx) => tx.query("update public.orders set status = 'preparing' where id = $1", [order]),
      );
      const toAline = await outboxTo(db, "250788000001");
      assert.deepEqual(toAline, [
        `✅ Payment received: 5,000 RWF for ${order_no} at Café Nyamirambo. Reference ${data.momo_ref}.`,
      ]);
      // Diane reads French (her profile's locale).
      const toVenue = (await outboxTo(db, DIANE_WA)).filter((t) => t.includes("Payé"));
      assert.deepEqual(toVenue, [
        `💰 Payé : 5 000 RWF par Aline Uwase pour ${order_no}. Référence ${data.momo_ref}.`,
      ]);
      // A venue that has not written in 24 hours gets the approved template, in its language.
      const [fallback] = await db.query<{ fallback_template: TestData }>(
        "select fallback_template from public.wa_outbox where idempotency_key = $1",
        [`payment:${data.momo_ref}:settled:payee`],
      );
      assert.deepEqual(fallback.fallback_template.template, {
        name: "payment_update",
        language: { code: "fr" },
        components: [{ type: "body", parameters: [{ type: "text", text: toVenue[0] }] }],
      });
      // A later FAILED for the same charge is recorded but changes nothing.
      const late = await post(`${fn.url}/callback`, {
        ...body,
        status: "FAILED",
        provider_txn_id: "MTN-2",
      });
      assert.deepEqual(late.json.data, {
        momo_ref: data.momo_ref,
        status: "settled",
        outcome: "final",
      });
      const [{ n }] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.payment_events",
      );
      assert.equal(n, 2);
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "callback failures: each status ends the charge with its reason and the payer is told why",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    try {
      const expected = {
        FAILED: ["failed", "PAYMENT_FAILED", /Mobile Money refused it/],
        INSUFFICIENT_FUNDS: ["failed", "INSUFFICIENT_FUNDS", /not enough balance/],
        EXPIRED: ["expired", "EXPIRED", /expired before a payment/],
      } as const;
      for (const [status, [final, reason, words]] of Object.entries(expected)) {
        const { data } = await charge(rt, {
          amount: 1500,
          payee_phone: "0788123456",
          memo: status,
          language: "en",
        });
        const result = await post(`${fn.url}/callback`, {
          momo_ref: data.momo_ref,
          status,
          provider_txn_id: `T-${status}`,
          amount: 1500,
        });
        assert.equal(result.json.data.status, final);
        const row = await payment(db, data.momo_ref);
        assert.equal(row.failure_reason, reason);
        const [told] = await db.query<{ body: TestData; fallback_template: TestData }>(
          "select body, fallback_template from public.wa_outbox where idempotency_key = $1",
          [`payment:${data.momo_ref}:${final}:payer`],
        );
        assert.match(told.body.interactive.body.text, words);
        assert.equal(told.fallback_template.template.name, "payment_update");
        assert.equal(
          told.fallback_template.template.components[0].parameters[0].text,
          told.body.interactive.body.text.replace(/\s+/g, " "),
        );
        assert.deepEqual(
          told.body.interactive.action.buttons.map((b: { reply: { id: string } }) => b.reply.id),
          ["agent:payments", "agent:support_handoff"],
        );
      }
    } finally {
      await fn.close();
    }
  },
);

dbTest("callback with another amount does not settle: staff get a payment ticket", async (db) => {
  const rt = await createPaymentsRuntime(db);
  const fn = serve(rt);
  try {
    const { data } = await charge(rt, { amount: 5000, payee_phone: "0788123456", memo: "x" });
    const result = await post(`${fn.url}/callback`, {
      momo_ref: data.momo_ref,
      status: "SUCCESSFUL",
      provider_txn_id: "T9",
      amount: 4000,
    });
    assert.equal(result.json.data.outcome, "amount_mismatch");
    assert.equal((await payment(db, data.momo_ref)).status, "pending");
    const tickets = await db.query<{ reason: string; summary: string }>(
      `select reason, summary from public.staff_tickets t join public.payments p on p.id = t.payment_id
       where p.momo_ref = $1`,
      [data.momo_ref],
    );
    assert.equal(tickets.length, 1);
    assert.match(tickets[0].summary, /reports 4,000 RWF, the charge asks 5,000 RWF/);
  } finally {
    await fn.close();
  }
});

dbTest(
  "SMS: MTN by reference and Airtel by amount and payer settle; unmatched and ambiguous go to staff",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    const phone = await forwarder(rt, ORG.easymo, "Café phone");
    const sms = (text: string, sender = "M-Money") =>
      postSms(`${fn.url}/sms`, phone, {
        sender,
        text,
        received_at: new Date().toISOString(),
      });
    try {
      const mtn = (await charge(rt, { amount: 5000, payee_phone: "0788123456", memo: "a" })).data;
      const matched = await sms(
        `You have received 5,000 RWF from ALINE U (2507******01) on your mobile money account at ` +
          `2026-11-23 10:15:01. Message from sender: ${mtn.momo_ref}. Your new balance: 25,000 RWF. ` +
          "Financial Transaction Id: 1234567890.",
      );
      assert.equal(matched.status, 200, JSON.stringify(matched.json));
      assert.equal(matched.json.data.match_status, "matched");
      assert.deepEqual(await payment(db, mtn.momo_ref), {
        status: "settled",
        failure_reason: null,
        settled_by: "sms",
        provider_txn_id: "1234567890",
      });
      // The same SMS forwarded twice is one row and settles nothing more.
      const twice = await sms(
        `You have received 5,000 RWF from ALINE U (2507******01) on your mobile money account at ` +
          `2026-11-23 10:15:01. Message from sender: ${mtn.momo_ref}. Your new balance: 25,000 RWF. ` +
          "Financial Transaction Id: 1234567890.",
      );
      assert.equal(twice.json.data.duplicate, true);

      // Airtel, no reference: the amount and the payer's number pick the one open charge.
      const airtel = (await charge(rt, {
        amount: 3200,
        phone: "0731234567",
        payee_phone: "0788123456",
        memo: "b",
      })).data;
      const byPayer = await sms(
        "You have received RWF 3200 from 0731234567 ALINE UWASE. Your balance is RWF 25000. " +
          "Trans ID: PP261123.1015.A12345. 23/11/2026 10:15",
        "AirtelMoney",
      );
      assert.equal(byPayer.json.data.match_status, "matched");
      assert.equal(byPayer.json.data.momo_ref, airtel.momo_ref);
      assert.equal((await payment(db, airtel.momo_ref)).status, "settled");

      const unmatched = await sms(
        "You have received 777 RWF from X (2507******99). Financial Transaction Id: 555.",
      );
      assert.equal(unmatched.json.data.match_status, "unmatched");
      // Two open charges of 2,000 from the same number: ambiguous, never settled by itself.
      const a = (await charge(rt, { amount: 2000, payee_phone: "0788123456", memo: "c1" })).data;
      const b = (await charge(rt, { amount: 2000, payee_phone: "0788123456", memo: "c2" })).data;
      const ambiguous = await sms(
        "You have received 2,000 RWF from ALINE (2507******01). Financial Transaction Id: 556.",
      );
      assert.equal(ambiguous.json.data.match_status, "ambiguous");
      assert.equal((await payment(db, a.momo_ref)).status, "pending");
      assert.equal((await payment(db, b.momo_ref)).status, "pending");
      const tickets = await db.query<{ reason: string; summary: string }>(
        "select reason, summary from public.staff_tickets where reason like 'MoMo SMS%' order by created_at",
      );
      assert.deepEqual(tickets.map((t) => t.reason), [
        "MoMo SMS unmatched: a person must match it",
        "MoMo SMS ambiguous: a person must match it",
      ]);
      assert.match(tickets[1].summary, new RegExp(`${a.momo_ref}, ${b.momo_ref}`));
      const inbox = await db.query<{ match_status: string }>(
        "select match_status from public.sms_inbox order by received_at, id",
      );
      assert.equal(inbox.length, 4);
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "SMS: a device's SMS is filed under the org its key belongs to, whatever the body or header claims",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    try {
      const till = await forwarder(rt, ORG.beaver, "Beaver till");
      const kiosk = await forwarder(rt, ORG.easymo, "EasyMO kiosk");
      const beaver = await charge(rt, { amount: 4100, payee_phone: "0788123456", memo: "b" }, {
        user: USER.nina,
        org: ORG.beaver,
      });
      assert.ok(beaver.ok, JSON.stringify(beaver));
      const ref = beaver.data.momo_ref;
      const text = `You have received 4,100 RWF from NINA (2507******11) on your mobile money ` +
        `account at 2026-11-23 10:15:01. Message from sender: ${ref}. Financial Transaction Id: 771.`;
      const sms = { sender: "M-Money", text, received_at: new Date().toISOString() };

      // EasyMO's kiosk forwards it: filed under EasyMO, where Beaver's charge is out of reach.
      const stray = await postSms(`${fn.url}/sms`, kiosk, sms);
      assert.equal(stray.json.data.match_status, "unmatched", JSON.stringify(stray.json));
      assert.equal((await payment(db, ref)).status, "pending");
      // The kiosk naming Beaver's till in the body is refused, with the field; nothing is filed.
      const claimed = await postSms(`${fn.url}/sms`, kiosk, { ...sms, device_id: till.device_id });
      assert.equal(claimed.status, 403);
      assert.equal(claimed.json.error.code, "AUTH_ERROR");
      assert.deepEqual(claimed.json.error.fields, [{
        path: "device_id",
        message: `must be the signing device's id (${kiosk.device_id}) or left out`,
      }]);
      // The kiosk's key under the till's name in the header: a bad signature like any other.
      const posing = await postSms(`${fn.url}/sms`, { ...till, secret: kiosk.secret }, sms);
      assert.equal(posing.status, 401);
      assert.equal((await payment(db, ref)).status, "pending");
      // From Beaver's till (which may repeat its own id in the body) it matches and settles.
      const own = await postSms(`${fn.url}/sms`, till, { ...sms, device_id: till.device_id });
      assert.equal(own.json.data.match_status, "matched", JSON.stringify(own.json));
      assert.equal((await payment(db, ref)).status, "settled");
      const filed = await db.query<{ org_id: string; device_id: string; match_status: string }>(
        "select org_id, device_id, match_status from public.sms_inbox order by org_id",
      );
      assert.deepEqual(filed.map((row) => [row.org_id, row.device_id, row.match_status]), [
        [ORG.easymo, kiosk.device_id, "unmatched"],
        [ORG.beaver, till.device_id, "matched"],
      ]);
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "SMS: unknown, revoked, rotated-out, wrong-key, stale and unnamed devices get one identical 401",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    try {
      const till = await forwarder(rt, ORG.beaver);
      const gone = await forwarder(rt, ORG.beaver, "Old phone");
      await revokeForwarder(rt.platform.db, { role: "service_role" }, gone.device_id);
      const kept = await forwarder(rt, ORG.easymo, "Rotated");
      const rotated = await rotateForwarder(
        rt.platform.db,
        { role: "service_role" },
        kept.device_id,
      );
      const body = new TextEncoder().encode(JSON.stringify({
        sender: "M-Money",
        text: "You have received 4,100 RWF from NINA (2507******11). Financial Transaction Id: 9.",
        received_at: new Date().toISOString(),
      }));
      const signedBy = (deviceId: string, secret: string, timestamp?: number) =>
        signForwarded({ deviceId, secret, body, timestamp });
      const attempts: Record<string, Record<string, string>> = {
        "unknown device": await signedBy("fwd-nobodyhere0", till.secret),
        "revoked device": await signedBy(gone.device_id, gone.secret),
        "rotated-out secret": await signedBy(kept.device_id, kept.secret),
        "wrong secret": await signedBy(till.device_id, "fwd_sk_not-the-right-secret-at-all"),
        "stale": await signedBy(till.device_id, till.secret, Math.floor(Date.now() / 1000) - 3600),
        "no device named": {
          "x-easymo-signature": (await signedBy(till.device_id, till.secret))["X-EasyMO-Signature"],
        },
        "nothing": {},
      };
      const answers = new Set<string>();
      for (const [what, headers] of Object.entries(attempts)) {
        const response = await fetch(`${fn.url}/sms`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body,
        });
        const text = await response.text();
        assert.equal(response.status, 401, what);
        answers.add(
          JSON.stringify([response.status, response.headers.get("content-type"), text]),
        );
      }
      assert.deepEqual([...answers], [
        JSON.stringify([
          401,
          "application/json",
          '{"ok":false,"error":{"code":"AUTH_ERROR","msg":"Signature required"}}',
        ]),
      ]);
      const [{ n }] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.sms_inbox",
      );
      assert.equal(n, 0);
      // The right secrets still work: the refusals above were about the credential alone.
      for (
        const [deviceId, secret] of [[till.device_id, till.secret], [
          kept.device_id,
          rotated.secret,
        ]]
      ) {
        const response = await fetch(`${fn.url}/sms`, {
          method: "POST",
          headers: { "content-type": "application/json", ...await signedBy(deviceId, secret) },
          body,
        });
        assert.equal(response.status, 200, await response.text());
      }
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "PAID <ref> from the venue settles it as the vendor; a stranger is not claimed",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const order = await cafeOrder(rt);
    const { data } = await charge(rt, { amount: 5000, order_id: order, memo: "Order" });
    const message = (from: string, text: string) => ({
      wamid: `wamid.${crypto.randomUUID()}`,
      from,
      text,
    });
    assert.equal(await confirmsPayment(db, message(DIANE_WA, `PAID ${data.momo_ref}`)), true);
    assert.equal(
      await confirmsPayment(db, message(DIANE_WA, `payé ${data.momo_ref.toLowerCase()}`)),
      true,
    );
    assert.equal(await confirmsPayment(db, message(DIANE_WA, `Yishyuwe ${data.momo_ref}`)), true);
    assert.equal(await confirmsPayment(db, message(DIANE_WA, "I want a coffee")), false);
    assert.equal(
      await confirmsPayment(db, message("250788000004", `PAID ${data.momo_ref}`)),
      false,
    );
    const service = { claims: { role: "service_role" as const }, org_id: ORG.easymo };
    const stranger = await rt.platform.call({
      tool: "payment_confirm_by_payee",
      args: { momo_ref: data.momo_ref, phone: "250788000004", whatsapp_message_id: "w1" },
      caller: service,
      idempotencyKey: "w1",
    });
    assert.equal(stranger.ok ? "ok" : stranger.error.code, "NOT_FOUND");
    const vendor = await rt.platform.call({
      tool: "payment_confirm_by_payee",
      args: { momo_ref: data.momo_ref, phone: DIANE_WA, whatsapp_message_id: "w2" },
      caller: service,
      idempotencyKey: "w2",
    });
    assert.ok(vendor.ok, JSON.stringify(vendor));
    const [row] = await db.query<{ settled_by: string; settled_by_user_id: string }>(
      "select settled_by, settled_by_user_id from public.payments where momo_ref = $1",
      [data.momo_ref],
    );
    assert.deepEqual(row, {
      settled_by: "vendor",
      settled_by_user_id: "00000000-0000-4000-8000-000000000005",
    });
    const replies = await outboxTo(db, DIANE_WA);
    assert.ok(
      replies.some((t) => t.startsWith(`Merci. ${data.momo_ref} est marqué payé`)),
      replies.join("\n"),
    );
  },
);

dbTest(
  "PAID <ref> from a paid person of another org settles it as them, now a customer here",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    // Nina (a Beaver customer) is paid by an EasyMO customer: her profile is no member of EasyMO.
    const { data } = await charge(rt, { amount: 2000, payee_phone: "0788000011", memo: "Rent" });
    const paid = {
      wamid: `wamid.${crypto.randomUUID()}`,
      from: "250788000011",
      text: `PAID ${data.momo_ref}`,
    };
    assert.equal(await confirmsPayment(db, paid), true);
    const result = await rt.platform.call({
      tool: "payment_confirm_by_payee",
      args: { momo_ref: data.momo_ref, phone: paid.from, whatsapp_message_id: paid.wamid },
      caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
      idempotencyKey: paid.wamid,
    });
    assert.ok(result.ok, JSON.stringify(result));
    const [row] = await db.query<{ settled_by: string; settled_by_user_id: string; role: string }>(
      `select p.settled_by, p.settled_by_user_id, m.role from public.payments p
       join public.org_members m on m.org_id = p.org_id and m.user_id = p.settled_by_user_id
       where p.momo_ref = $1`,
      [data.momo_ref],
    );
    assert.deepEqual(row, {
      settled_by: "vendor",
      settled_by_user_id: USER.nina,
      role: "customer",
    });
  },
);

dbTest("the sweep expires unpaid charges once and tells the payer once", async (db) => {
  const rt = await createPaymentsRuntime(db);
  const fn = serve(rt);
  try {
    // A charge made 31 minutes ago (the tool's clock) expired a minute ago.
    const earlier = await createTestRuntime(db, { now: () => new Date(Date.now() - 31 * 60_000) });
    const { data } = await charge(earlier, { amount: 1000, payee_phone: "0788123456", memo: "x" });
    const live = (await charge(rt, { amount: 1100, payee_phone: "0788123456", memo: "y" })).data;
    assert.deepEqual(await fn.sweep(), [data.momo_ref]);
    assert.deepEqual(await fn.sweep(), []);
    // The expiry has one loop, the schedule: the function serves no sweep of its own.
    const noSweep = await fetch(`${fn.url}/sweep`, {
      method: "POST",
      headers: { authorization: `Bearer ${await rt.tokenFor(null)}` },
    });
    assert.equal(noSweep.status, 404);
    await noSweep.body?.cancel();
    assert.equal((await payment(db, data.momo_ref)).failure_reason, "EXPIRED");
    assert.equal((await payment(db, live.momo_ref)).status, "pending");
    const told = await db.query("select 1 from public.wa_outbox where idempotency_key like $1", [
      `payment:${data.momo_ref}:expired:%`,
    ]);
    assert.equal(told.length, 1);
  } finally {
    await fn.close();
  }
});

dbTest(
  "a callback racing the sweep: each charge ends once, settled or expired, and late money reaches staff",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    try {
      const earlier = await createTestRuntime(db, {
        now: () => new Date(Date.now() - 31 * 60_000),
      });
      const refs: string[] = [];
      for (let i = 0; i < 6; i++) {
        const made = await charge(earlier, {
          amount: 1000 + i,
          payee_phone: "0788123456",
          memo: `race ${i}`,
        });
        assert.ok(made.ok, JSON.stringify(made));
        refs.push(made.data.momo_ref);
      }
      // Every charge is due; the money for each arrives while the sweep runs.
      const [expired, ...answers] = await Promise.all([
        fn.sweep(),
        ...refs.map((ref, i) =>
          post(`${fn.url}/callback`, {
            momo_ref: ref,
            status: "SUCCESSFUL",
            provider_txn_id: `RACE-${i}`,
            amount: 1000 + i,
          })
        ),
      ]);
      for (const [i, ref] of refs.entries()) {
        const answer = answers[i];
        assert.equal(answer.status, 200, JSON.stringify(answer.json));
        const row = await payment(db, ref);
        const told = await db.query<{ idempotency_key: string }>(
          "select idempotency_key from public.wa_outbox where idempotency_key like $1",
          [`payment:${ref}:%:payer`],
        );
        const tickets = await db.query<{ reason: string }>(
          `select t.reason from public.staff_tickets t join public.payments p on p.id = t.payment_id
           where p.momo_ref = $1`,
          [ref],
        );
        if (expired.includes(ref)) {
          // The sweep decided first: the callback finds it final, and staff get the money's report.
          assert.equal(row.status, "expired");
          assert.equal(answer.json.data.outcome, "final");
          assert.deepEqual(tickets.map((t) => t.reason), [
            "Payment arrived after the charge was expired",
          ]);
          // The payer hears both: the code expired, then that the late money goes to staff.
          assert.deepEqual(told.map((t) => t.idempotency_key).sort(), [
            `payment:${ref}:expired:payer`,
            `payment:${ref}:late:payer`,
          ]);
        } else {
          // The callback decided first: the sweep skipped it (locked) or found it settled.
          assert.equal(row.status, "settled");
          assert.equal(answer.json.data.outcome, "applied");
          assert.deepEqual(tickets, []);
          assert.deepEqual(told.map((t) => t.idempotency_key), [`payment:${ref}:settled:payer`]);
        }
      }
      // A second sweep finds nothing: settled charges are never expired afterwards.
      assert.deepEqual(await fn.sweep(), []);
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "the platform's sweep expires due charges of every tenant, once, with no scheduler calling /sweep",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    // Charges made 31 minutes ago (the tool's clock) in EasyMO and in Beaver, whose agents
    // include no payments agent: a waiter's or a driver's charge expires all the same.
    const earlier = await createPaymentsRuntime(db, {
      now: () => new Date(Date.now() - 31 * 60_000),
    });
    const ours = (await charge(earlier, { amount: 1000, payee_phone: "0788123456", memo: "x" }))
      .data;
    const theirs = (await charge(earlier, { amount: 1200, payee_phone: "0788123456", memo: "y" }, {
      user: USER.nina,
      org: ORG.beaver,
    })).data;
    const summary = await rt.platform.sweep();
    assert.equal(summary.schedulesFailed, 0);
    assert.equal((await payment(db, ours.momo_ref)).failure_reason, "EXPIRED");
    assert.equal((await payment(db, theirs.momo_ref)).failure_reason, "EXPIRED");
    const told = await db.query("select 1 from public.wa_outbox where idempotency_key like $1", [
      `payment:${theirs.momo_ref}:expired:%`,
    ]);
    assert.equal(told.length, 1);
    await rt.platform.traces.flush();
  },
);

dbTest("callback: a body over 16 KiB is refused before its signature is read", async (db) => {
  const rt = await createPaymentsRuntime(db);
  const fn = serve(rt);
  try {
    const refused = await post(`${fn.url}/callback`, "x".repeat(17 * 1024));
    assert.equal(refused.status, 413);
    assert.equal(refused.json.error.code, "VALIDATION_ERROR");
  } finally {
    await fn.close();
  }
});

dbTest(
  "momo_charge_cancel ends the payer's waiting charge once; money after it goes to staff, the payer told",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const fn = serve(rt);
    try {
      const { data } = await charge(rt, {
        amount: 30000,
        payee_phone: "0788000002",
        payee_name: "EasyMO Insurance",
        memo: "Motor insurance RAB 123 C",
      });
      const ref = data.momo_ref;
      // Another customer cannot cancel it: it is not theirs to see.
      const foreign = await rt.callAs(USER.nina, "momo_charge_cancel", { momo_ref: ref }, {
        idempotencyKey: "cancel-nina",
      });
      assert.equal(foreign.ok ? "ok" : foreign.error.code, "NOT_FOUND");
      assert.equal((await payment(db, ref)).status, "pending");

      const first = await rt.callAs(USER.aline, "momo_charge_cancel", { momo_ref: ref }, {
        idempotencyKey: "cancel-1",
      });
      assert.ok(first.ok, JSON.stringify(first));
      assert.deepEqual(first.data, {
        momo_ref: ref,
        amount: 30000,
        payee: "EasyMO Insurance",
        status: "failed",
        failure_reason: "CANCELLED",
        already: false,
      });
      // A second cancel (another request) changes nothing and says so.
      const again = await rt.callAs(USER.aline, "momo_charge_cancel", { momo_ref: ref }, {
        idempotencyKey: "cancel-2",
      });
      assert.ok(again.ok, JSON.stringify(again));
      assert.equal(again.data.already, true);
      assert.equal(again.data.failure_reason, "CANCELLED");
      const [{ events }] = await db.query<{ events: number }>(
        `select count(*)::int as events from public.analytics_events
         where event = 'payment_failed' and props->>'reason' = 'CANCELLED'`,
      );
      assert.equal(events, 1);
      // Never shown as waiting: payment_status reads it ended.
      const status = await rt.callAs(USER.aline, "payment_status", { momo_ref: ref }, {
        idempotencyKey: "status-1",
      });
      assert.ok(status.ok);
      assert.equal(status.data.payments[0].status, "failed");

      // The payer paid anyway: the callback settles nothing, staff get a ticket to refund, and
      // the payer is told (in their language), once however often the provider repeats it.
      for (const _repeat of [1, 2]) {
        const late = await post(`${fn.url}/callback`, {
          momo_ref: ref,
          status: "SUCCESSFUL",
          provider_txn_id: "LATE-1",
          amount: 30000,
        });
        assert.equal(late.status, 200, JSON.stringify(late.json));
        assert.equal(late.json.data.outcome, "final");
      }
      assert.deepEqual(await payment(db, ref), {
        status: "failed",
        failure_reason: "CANCELLED",
        settled_by: null,
        provider_txn_id: null,
      });
      const tickets = await db.query<{ reason: string; summary: string }>(
        `select t.reason, t.summary from public.staff_tickets t
         join public.payments p on p.id = t.payment_id where p.momo_ref = $1`,
        [ref],
      );
      assert.deepEqual(tickets.map((t) => t.reason), [
        "Payment arrived after the charge was cancelled",
      ]);
      assert.match(tickets[0].summary, /30,000 RWF received \(transaction LATE-1\)/);
      const told = await outboxTo(db, "250788000001");
      assert.equal(told.filter((text) => text.includes(ref)).length, 1);
      assert.match(
        told.find((text) => text.includes(ref)) ?? "",
        // Aline reads Kinyarwanda: the charge had ended, cancelled at her request; staff refund it.
        /bwari bwararangiye: wabisabye ko bihagarikwa\. Umukozi wacu azagusubiza amafaranga/,
      );
    } finally {
      await fn.close();
    }
  },
);

dbTest(
  "momo_charge_cancel refuses a charge that pays an order: the order is cancelled instead",
  async (db) => {
    const rt = await createPaymentsRuntime(db);
    const order = await cafeOrder(rt);
    const { data } = await charge(rt, { amount: 5000, order_id: order, memo: "Order" });
    const refused = await rt.callAs(USER.aline, "momo_charge_cancel", { momo_ref: data.momo_ref }, {
      idempotencyKey: "cancel-order-charge",
    });
    assert.equal(refused.ok ? "ok" : refused.error.code, "CONFLICT");
    assert.equal((await payment(db, data.momo_ref)).status, "pending");
  },
);
