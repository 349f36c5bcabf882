import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { isoMinutes } from "./notify_staff.ts";

Deno.test("isoMinutes() writes ISO 8601 durations", () => {
  assert.equal(isoMinutes(30), "PT1M");
  assert.equal(isoMinutes(15 * 60), "PT15M");
  assert.equal(isoMinutes(60 * 60), "PT1H");
  assert.equal(isoMinutes(95 * 60), "PT1H35M");
});

dbTest("notify_staff opens a ticket in the caller's org with an estimate", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "notify_staff", {
    channel: "inbox",
    payload: { reason: "complaint", summary: "Order arrived cold", priority: "high" },
  }, { idempotencyKey: "n1", context: { trace_id: "trace-n1" } });
  assert.ok(result.ok);
  const [ticket] = await db.query<Record<string, unknown>>(
    "select org_id, requester_user_id, priority, status, trace_id from public.staff_tickets where id = $1",
    [result.data.ticket_id],
  );
  assert.deepEqual(ticket, {
    org_id: ORG.easymo,
    requester_user_id: USER.aline,
    priority: "high",
    status: "open",
    trace_id: "trace-n1",
  });
  // Two staff, one open high ticket, no history: the default 15 minutes.
  assert.equal(result.data.estimated_response_time, "PT15M");
  const outbox = await db.query("select 1 from public.notification_outbox");
  assert.equal(outbox.length, 0);
});

dbTest("notify_staff records slack and sms messages; urgent tickets reach both", async (db) => {
  const rt = await createTestRuntime(db);
  await rt.callAs(USER.aline, "notify_staff", {
    channel: "slack",
    payload: { reason: "refund", summary: "Wants a refund" },
  }, { idempotencyKey: "n2" });
  await rt.callAs(USER.aline, "notify_staff", {
    channel: "inbox",
    payload: { reason: "safety", summary: "Driver behaving badly", priority: "urgent" },
  }, { idempotencyKey: "n3" });
  const rows = await db.query<{ channel: string; body: string }>(
    "select channel, body from public.notification_outbox order by created_at, channel",
  );
  assert.deepEqual(rows.map((row) => row.channel).sort(), ["slack", "slack", "sms"]);
  assert.ok(rows.some((row) => row.body.startsWith("[urgent] safety")));
});

dbTest("notify_staff estimates from the queue: more open tickets, longer wait", async (db) => {
  const rt = await createTestRuntime(db);
  const eta = async (key: string) => {
    const result = await rt.callAs(USER.aline, "notify_staff", {
      channel: "inbox",
      payload: { reason: "r", summary: "s", priority: "medium" },
    }, { idempotencyKey: key });
    assert.ok(result.ok);
    return result.data.estimated_response_time;
  };
  assert.equal(await eta("q1"), "PT1H");
  for (const key of ["q2", "q3"]) await eta(key);
  // Four open medium tickets (this one included), two staff: two waves of the default hour.
  assert.equal(await eta("q4"), "PT2H");
});

dbTest(
  "notify_staff quotes the person's earlier words under the org's own language",
  async (db) => {
    const rt = await createTestRuntime(db);
    const [convo] = await db.query<{ id: string }>(
      "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
      [ORG.easymo, USER.aline],
    );
    await db.query(
      `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body)
     values ($1, $2, $3, 'inbound', 'user', 'Commande arrivée froide')`,
      [ORG.easymo, convo.id, USER.aline],
    );
    const summaryFor = async (languages: string, key: string) => {
      await db.query("update public.orgs set languages = $2::text[] where id = $1", [
        ORG.easymo,
        languages,
      ]);
      const result = await rt.callAs(USER.aline, "notify_staff", {
        channel: "inbox",
        payload: { convo_id: convo.id, reason: "complaint", summary: "Plainte", language: "fr" },
      }, { idempotencyKey: key });
      assert.ok(result.ok, JSON.stringify(result));
      const [ticket] = await db.query<{ summary: string }>(
        "select summary from public.staff_tickets where id = $1",
        [result.data.ticket_id],
      );
      return ticket.summary;
    };
    // A French-speaking org reads French, a Kinyarwanda one Kinyarwanda, an English one English:
    // the org decides, not the customer's language.
    assert.equal(
      await summaryFor("{fr,en}", "e1"),
      "Plainte\nAuparavant : «Commande arrivée froide»",
    );
    assert.equal(await summaryFor("{rw}", "e2"), "Plainte\nMbere yaho: «Commande arrivée froide»");
    assert.equal(
      await summaryFor("{en,rw,fr}", "e3"),
      "Plainte\nEarlier: «Commande arrivée froide»",
    );
  },
);
