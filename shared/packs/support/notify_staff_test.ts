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
  // Each ticket a conversation of its own, as four people waiting are (the earlier ones of the
  // same person closed: one open WhatsApp conversation per person).
  const eta = async (key: string) => {
    await db.query("update public.conversations set status = 'closed' where user_id = $1", [
      USER.aline,
    ]);
    const [convo] = await db.query<{ id: string }>(
      "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
      [ORG.easymo, USER.aline],
    );
    const result = await rt.callAs(USER.aline, "notify_staff", {
      channel: "inbox",
      payload: { convo_id: convo.id, reason: "r", summary: "s", priority: "medium" },
    }, { idempotencyKey: key });
    assert.ok(result.ok);
    return result.data.estimated_response_time;
  };
  assert.equal(await eta("q1"), "PT1H");
  for (const key of ["q2", "q3"]) await eta(key);
  // Fourth in the queue of medium tickets, two staff: two waves of the default hour.
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
        // A reason per call: a second ticket of one reason in one conversation is added to the first.
        payload: {
          convo_id: convo.id,
          reason: `complaint ${key}`,
          summary: "Plainte",
          language: "fr",
        },
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

dbTest(
  "notify_staff adds what a person says of a request staff have open to its ticket: one request, one ticket",
  async (db) => {
    const rt = await createTestRuntime(db);
    const [convo] = await db.query<{ id: string }>(
      "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
      [ORG.easymo, USER.aline],
    );
    const raise = (key: string, reason: string, summary: string, priority = "medium") =>
      rt.callAs(USER.aline, "notify_staff", {
        channel: "inbox",
        payload: { convo_id: convo.id, reason, summary, priority },
      }, { idempotencyKey: key });
    const asked = await raise("p1", "proforma request", "Proforma requested: 2 reams A4");
    const named = await raise("p2", "proforma request", "Name to put on the proforma: GS Remera");
    assert.ok(asked.ok && named.ok, JSON.stringify([asked, named]));
    assert.equal(named.data.ticket_id, asked.data.ticket_id);
    const tickets = await db.query<{ summary: string }>(
      "select summary from public.staff_tickets where convo_id = $1",
      [convo.id],
    );
    assert.equal(tickets.length, 1);
    assert.equal(
      tickets[0].summary,
      "Proforma requested: 2 reams A4\nName to put on the proforma: GS Remera",
    );
    // Another reason is another request; an urgent one is always raised (and sent) anew.
    const other = await raise("p3", "user asked for a person", "Wants a person");
    const danger = await raise("p4", "proforma request", "Threatened at the shop", "urgent");
    assert.ok(other.ok && danger.ok);
    assert.notEqual(other.data.ticket_id, asked.data.ticket_id);
    assert.notEqual(danger.data.ticket_id, asked.data.ticket_id);
    // Once staff resolve it, the same reason opens a new ticket.
    await db.query("update public.staff_tickets set status = 'resolved' where id = $1", [
      asked.data.ticket_id,
    ]);
    const again = await raise("p5", "proforma request", "Proforma requested: 1 stapler");
    assert.ok(again.ok);
    assert.notEqual(again.data.ticket_id, asked.data.ticket_id);
    // Another customer (Eric) cannot add to Aline's open ticket, even naming her conversation;
    // Aline can; Beaver's staff cannot.
    const addAs = (userId: string) =>
      db.transaction(async (tx) => {
        await tx.query("set local role authenticated");
        await tx.query(
          "select set_config('request.jwt.claims', $1, true)",
          [JSON.stringify({ sub: userId, role: "authenticated" })],
        );
        await tx.query("select set_config('request.jwt.claim.sub', $1, true)", [userId]);
        const [row] = await tx.query<{ id: string | null }>(
          "select private.add_to_open_ticket($1, 'proforma request', 'smuggled') as id",
          [convo.id],
        );
        return row.id;
      });
    assert.equal(await addAs(USER.eric), null);
    assert.equal(await addAs(USER.paul), null);
    assert.equal(await addAs(USER.aline), again.data.ticket_id);
  },
);
