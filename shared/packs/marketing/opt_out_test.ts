/**
 * Opt-out on WhatsApp through the real webhook and handler, on both
 * databases: STOP / HAGARIKA / ARRÊT end a person's opt-in at once, withdraw
 * their campaign messages already queued, keep them out of campaigns
 * scheduled before, and are acknowledged in their language; for every
 * tenant, before any routing.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import {
  callConfirmed,
  createTestRuntime,
  type TestData,
  type TestRuntime,
} from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { addCustomers, addTemplate, withoutSeededBroadcasts } from "@testing/broadcasts.ts";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { createWhatsAppHandler } from "@shared/channels/whatsapp/handler.ts";
import { messageDelivery } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";

const SECRET = "opt-out-test-app-secret";
const MORNING = new Date("2026-12-02T06:00:00Z"); // 08:00 in Kigali

function channelOf(rt: TestRuntime) {
  const tasks: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model: null, router: platformRouter() }),
    background: (task) => void tasks.push(task()),
    rateLimitRetryMs: 60_000,
  });
  return {
    async say(from: string, wamid: string, text: string) {
      const body = new TextEncoder().encode(
        JSON.stringify(messageDelivery({ from, wamid }, { text })),
      );
      const response = await channel.app.request("/wa-webhook", {
        method: "POST",
        headers: { "x-hub-signature-256": await signBody(SECRET, body) },
        body,
      });
      assert.equal(response.status, 200);
      while (tasks.length) await tasks.shift();
    },
    drain: () => channel.dispatcher.drain(),
  };
}

function textsTo(db: TestDatabase, waId: string) {
  return db.query<{ text: string }>(
    `select body->'text'->>'body' as text from public.wa_outbox
     where to_wa_id = $1 and kind = 'text' order by created_at`,
    [waId],
  ).then((rows) => rows.map((row) => row.text));
}

function schedule(rt: TestRuntime, template: string, when: string, key: string): Promise<TestData> {
  return callConfirmed(rt, USER.jean, "broadcast_schedule", {
    template_id: template,
    audience: {},
    when,
  }, { key });
}

dbTest("STOP, HAGARIKA and ARRÊT take effect at once, in the person's language", async (db) => {
  const rt = await createTestRuntime(db, { now: () => MORNING });
  await withoutSeededBroadcasts(db);
  const template = await addTemplate(db, ORG.easymo, { name: "weekend_offer" });
  const people = await addCustomers(db, ORG.easymo, { count: 4 });
  const [french] = await addCustomers(db, ORG.easymo, { count: 1, first: 40, locale: "fr" });
  // A campaign sending now (queued, not yet dispatched) and one scheduled for tomorrow.
  const now = await schedule(rt, template, "2026-12-02T08:00:00+02:00", "now");
  const later = await schedule(rt, template, "2026-12-03T10:00:00+02:00", "later");
  assert.equal(now.data.estimated_reach, 5);
  const run = await rt.platform.call({
    tool: "broadcast_send_due",
    args: {},
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: "run-1",
  });
  assert.ok(run.ok, JSON.stringify(run));
  // A long campaign: its messages still wait their turn behind the number's throughput.
  await db.query(
    `update public.wa_outbox set next_attempt_at = now() + interval '1 hour'
     where idempotency_key like 'broadcast:%'`,
  );

  const hook = channelOf(rt);
  await hook.say(people[1].waId, "wamid.STOP.RW", "Hagarika!");
  await hook.say(french.waId, "wamid.STOP.FR", "STOP");
  await hook.say(people[2].waId, "wamid.STOP.FR2", "arrêt svp");
  await db.query(
    "update public.wa_outbox set next_attempt_at = now() where idempotency_key like 'broadcast:%'",
  );
  await hook.drain();

  assert.deepEqual(await textsTo(db, people[1].waId), [
    "Ntuzongera kubona ubutumwa bwo kwamamaza buturutse kuri EasyMO. Ushobora kutwandikira igihe cyose.",
  ]);
  assert.deepEqual(await textsTo(db, french.waId), [
    // "de EasyMO" would need its elision ("d'EasyMO"): the brand leads the sentence instead.
    "EasyMO ne vous enverra plus de messages marketing. Vous pouvez toujours nous écrire à tout moment.",
  ]);
  assert.match(
    (await textsTo(db, people[2].waId))[0],
    /ne vous enverra plus de messages marketing/,
  );

  // Their messages of the campaign already sending were withdrawn before they left.
  const outbox = await db.query<{ to_wa_id: string; status: string; last_error: string | null }>(
    `select to_wa_id, status, last_error from public.wa_outbox
     where idempotency_key like 'broadcast:%' order by to_wa_id`,
  );
  const stopped = new Set([people[1].waId, people[2].waId, french.waId]);
  for (const row of outbox) {
    if (stopped.has(row.to_wa_id)) {
      assert.deepEqual([row.status, row.last_error], ["failed", "withdrawn: opted out"]);
    } else {
      assert.equal(row.status, "sent", row.to_wa_id);
    }
  }
  const withdrawn = await db.query<{ n: number }>(
    `select count(*)::int as n from public.broadcast_sends
     where campaign_id = $1 and status = 'withdrawn'`,
    [now.data.campaign_id],
  );
  assert.equal(withdrawn[0].n, 3);
  const logged = await db.query<{ said: string; channel: string }>(
    "select said, channel from public.marketing_opt_outs where org_id = $1 order by said",
    [ORG.easymo],
  );
  assert.deepEqual(logged.map((row) => row.said), ["Hagarika!", "STOP", "arrêt svp"]);

  // The campaign scheduled before the opt-outs reaches only those still opted in.
  const tomorrow = await createTestRuntime(db, { now: () => new Date("2026-12-03T08:00:00Z") });
  const second = await tomorrow.platform.call({
    tool: "broadcast_send_due",
    args: {},
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: "run-2",
  });
  assert.ok(second.ok, JSON.stringify(second));
  const reached = await db.query<{ user_id: string }>(
    "select user_id from public.broadcast_sends where campaign_id = $1 order by user_id",
    [later.data.campaign_id],
  );
  assert.deepEqual(reached.map((row) => row.user_id), [people[0].user, people[3].user]);
});

dbTest(
  "unsubscribing is read before routing from anyone; STOP only from the opted-in",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => MORNING });
    await withoutSeededBroadcasts(db);
    const hook = channelOf(rt);
    await hook.say("250788777001", "wamid.STOP.NEW", "Unsubscribe");
    assert.deepEqual(await textsTo(db, "250788777001"), [
      "You will get no more marketing messages from EasyMO. You can still write to us at any time.",
    ]);
    // It never reached a conversation: no transcript, no menu.
    const transcript = await db.query(
      "select 1 from public.messages m join public.conversations c on c.id = m.conversation_id " +
        "join public.profiles p on p.id = c.user_id where p.phone = '+250788777001'",
    );
    assert.equal(transcript.length, 0);
    // "stop at Kimironko" is not an opt-out: it reaches the assistant.
    await hook.say("250788777002", "wamid.NOT.STOP", "stop at Kimironko");
    const answered = await db.query<{ body: unknown }>(
      "select body from public.wa_outbox where to_wa_id = '250788777002'",
    );
    assert.ok(answered.length > 0);
    assert.equal(answered.some((row) => /marketing/.test(JSON.stringify(row.body))), false);
    // "STOP" mid-flow from someone with no opt-in in effect keeps its everyday meaning
    // ("cancel") for the conversation: nothing to opt out of, nothing logged.
    await hook.say("250788777003", "wamid.RIDE.ASK", "I need a moto from Kimironko to Nyabugogo");
    const before = (await textsTo(db, "250788777003")).length;
    await hook.say("250788777003", "wamid.PLAIN.STOP", "STOP");
    const plain = await db.query<{ body: unknown }>(
      "select body from public.wa_outbox where to_wa_id = '250788777003' order by created_at",
    );
    assert.ok(plain.length > before);
    assert.equal(plain.some((row) => /marketing/.test(JSON.stringify(row.body))), false);
    // With nothing open, a bare stop word is the opt-out it says, in its language, never a
    // search for "arret" nor the restaurants for "HAGARIKA".
    for (
      const [waId, said, answer] of [
        ["250788777004", "HAGARIKA", /^Ntuzongera kubona ubutumwa bwo kwamamaza/],
        ["250788777005", "Arrêt", /ne vous enverra plus de messages marketing/],
        ["250788777006", "STOP", /^You will get no more marketing messages/],
      ] as const
    ) {
      await hook.say(waId, `wamid.IDLE.${waId}`, said);
      const texts = await textsTo(db, waId);
      assert.equal(texts.length, 1, said);
      assert.match(texts[0], answer);
    }
    const [{ n }] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.marketing_opt_outs",
    );
    assert.equal(n, 0);
  },
);

dbTest(
  "another tenant's customers opt out of that tenant's broadcasts the same way",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => MORNING });
    await withoutSeededBroadcasts(db);
    const [customer] = await addCustomers(db, ORG.beaver, { count: 1, first: 70, locale: "fr" });
    const handle = createWhatsAppHandler({
      platform: rt.platform,
      orgId: ORG.beaver,
      conversation: () => {
        throw new Error("an opt-out must not reach the conversation");
      },
    });
    await handle({
      wamid: "wamid.BEAVER.STOP",
      from: customer.waId,
      phoneNumberId: "100000000000002",
      orgId: ORG.beaver,
      sentAt: MORNING,
      content: { kind: "text", text: "Désabonner" },
      raw: {},
    });
    const [optIn] = await db.query<{ opted_out_at: Date | null }>(
      "select opted_out_at from public.marketing_opt_ins where org_id = $1 and user_id = $2",
      [ORG.beaver, customer.user],
    );
    assert.equal(new Date(optIn.opted_out_at!).toISOString(), MORNING.toISOString());
    assert.match(
      (await textsTo(db, customer.waId))[0],
      /ne vous enverra plus de messages marketing/,
    );
  },
);
