/**
 * The sender on both databases, end to end: the platform's sweep (injected
 * clock) queues a due campaign's template messages, the WhatsApp dispatcher
 * sends them to a loopback Graph API, and a sender or dispatcher killed
 * half-way resumes with every opted-in recipient receiving exactly one
 * message. Meta's answers (template paused, spam limit) and status webhooks
 * reach the campaign.
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
import { startFakeGraph } from "@testing/graph_server.ts";
import {
  addCustomers,
  addTemplate,
  type AudienceMember,
  withoutSeededBroadcasts,
} from "@testing/broadcasts.ts";
import { MESSAGING, type MessagingPort } from "@shared/capabilities/messaging/mod.ts";
import {
  createDispatcher,
  whatsappMessaging,
  type WhatsAppTransport,
} from "@shared/channels/whatsapp/mod.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { statusDelivery } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";

const SECRET = "broadcast-sender-test-app-secret";

// Far ahead of the real clock, which the database's own defaults read (an outbox row is due from
// its insert's now()), so the dispatcher's injected clock always finds them due.
const EVENING = new Date("2099-12-01T18:00:00Z"); // 20:00 in Kigali
const MORNING = new Date("2099-12-02T06:00:00Z"); // 08:00 in Kigali

/** A clock the test moves. */
function clockAt(start: Date) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (at: Date) => void (now = at.getTime()),
    advance: (ms: number) => void (now += ms),
  };
}

interface Setup {
  rt: TestRuntime;
  clock: ReturnType<typeof clockAt>;
  opted: AudienceMember[];
  campaign: string;
}

/**
 * EasyMO with 10 opted-in customers, 2 without proof and 1 who opted out,
 * and a campaign asked for 22:00 (so due at 08:00).
 */
async function setup(
  db: TestDatabase,
  options: { messaging?: MessagingPort } = {},
): Promise<Setup> {
  const clock = clockAt(EVENING);
  const rt = await createTestRuntime(db, {
    now: clock.now,
    provide: options.messaging ? [{ key: MESSAGING, value: options.messaging }] : [],
  });
  await withoutSeededBroadcasts(db);
  const template = await addTemplate(db, ORG.easymo, {
    name: "december_offer",
    variables: ["offer"],
  });
  const opted = await addCustomers(db, ORG.easymo, { count: 10 });
  await addCustomers(db, ORG.easymo, { count: 2, first: 50, optedIn: false });
  const [out] = await addCustomers(db, ORG.easymo, { count: 1, first: 60 });
  await db.query(
    "update public.marketing_opt_ins set opted_out_at = $3 where org_id = $1 and user_id = $2",
    [ORG.easymo, out.user, "2026-11-20T10:00:00Z"],
  );
  const scheduled = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
    template_id: template,
    audience: {},
    when: "2099-12-01T22:00:00+02:00",
    variables: { offer: "10% off pizza" },
  }, { key: "campaign" });
  assert.ok(scheduled.ok, JSON.stringify(scheduled));
  assert.equal(scheduled.data.estimated_reach, 10);
  return { rt, clock, opted, campaign: scheduled.data.campaign_id };
}

/** Runs the sender once as the sweep would, with a fresh key and a batch limit. */
function sendDue(rt: TestRuntime, key: string, limit?: number): Promise<TestData> {
  return rt.platform.call({
    tool: "broadcast_send_due",
    args: limit ? { limit } : {},
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: key,
  });
}

async function sends(db: TestDatabase, campaign: string) {
  return await db.query<{ user_id: string; status: string; error_code: number | null }>(
    "select user_id, status, error_code from public.broadcast_sends where campaign_id = $1 order by user_id",
    [campaign],
  );
}

/** The wa_ids a loopback Graph API accepted a template message for, sorted. */
function recipients(accepted: Array<{ to: string; body: Record<string, unknown> }>): string[] {
  return accepted.filter((message) => message.body.type === "template").map((m) => m.to).sort();
}

dbTest("the sweep sends a campaign asked for 22:00 at 08:00, to the opted-in only", async (db) => {
  const { rt, clock, opted, campaign } = await setup(db);
  // 20:00 and 23:00 in Kigali: not due, then quiet hours.
  assert.equal((await rt.platform.sweep()).schedules > 0, true);
  assert.deepEqual(await sends(db, campaign), []);
  clock.set(new Date("2099-12-01T21:00:00Z"));
  await rt.platform.sweep();
  assert.deepEqual(await sends(db, campaign), []);
  clock.set(MORNING);
  await rt.platform.sweep();
  const queued = await sends(db, campaign);
  assert.deepEqual(queued.map((s) => s.user_id), opted.map((m) => m.user));
  const outbox = await db.query<{ to_wa_id: string; body: Record<string, unknown> }>(
    `select to_wa_id, body from public.wa_outbox where idempotency_key like 'broadcast:%'
     order by to_wa_id`,
  );
  assert.deepEqual(outbox.map((row) => row.to_wa_id), opted.map((m) => m.waId));
  assert.deepEqual(outbox[0].body.template, {
    name: "december_offer",
    language: { code: "en" },
    components: [{ type: "body", parameters: [{ type: "text", text: "10% off pizza" }] }],
  });
  const [row] = await db.query<{ status: string }>(
    "select status from public.broadcast_campaigns where id = $1",
    [campaign],
  );
  assert.equal(row.status, "done");
});

dbTest("a sender killed while claiming resumes with zero duplicates and zero skips", async (db) => {
  // The messaging port dies on its 4th message of the first run: the process died mid-batch.
  let calls = 0;
  let dying = true;
  const dies: MessagingPort = {
    send(tx, options) {
      calls++;
      if (dying && calls === 4) throw new Error("killed");
      return whatsappMessaging.send(tx, options);
    },
  };
  const { rt, clock, opted, campaign } = await setup(db, { messaging: dies });
  clock.set(MORNING);
  const killed = await sendDue(rt, "run-1", 6);
  assert.equal(killed.ok, false);
  // The claim and the messages roll back together: nobody is half-claimed.
  assert.deepEqual(await sends(db, campaign), []);
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.wa_outbox where idempotency_key like 'broadcast:%'",
  );
  assert.equal(n, 0);
  dying = false;
  const first = await sendDue(rt, "run-2", 6);
  assert.deepEqual(first.data.campaigns.map((c: { queued: number }) => c.queued), [6]);
  const second = await sendDue(rt, "run-3", 6);
  assert.deepEqual(second.data.campaigns.map((c: { queued: number }) => c.queued), [4]);
  assert.equal(second.data.campaigns[0].status, "done");
  const third = await sendDue(rt, "run-4", 6);
  assert.deepEqual(third.data.campaigns, []);
  assert.deepEqual((await sends(db, campaign)).map((s) => s.user_id), opted.map((m) => m.user));
});

/**
 * A first dispatcher that sends three messages and dies on the fourth: before its request
 * leaves (`accepted: false`) or after Meta accepted it but before its wamid was saved
 * (`accepted: true`). Its row stays `sending`.
 */
async function killedOnFourth(
  db: TestDatabase,
  clock: ReturnType<typeof clockAt>,
  graphApi: WhatsAppTransport,
  options: { accepted: boolean },
) {
  let forwarded = 0;
  let died!: () => void;
  const dead = new Promise<void>((resolve) => died = resolve);
  const dying: WhatsAppTransport = {
    async send(to, body, from) {
      if (forwarded === 3) {
        if (options.accepted) await graphApi.send(to, body, from);
        died();
        return await new Promise(() => {});
      }
      forwarded++;
      return await graphApi.send(to, body, from);
    },
  };
  const first = createDispatcher({
    db,
    transport: dying,
    log: memoryLogger(),
    now: clock.now,
    concurrency: 1,
    batchSize: 1,
  });
  void first.drain();
  await dead;
}

dbTest(
  "a dispatcher killed before its request left: never resent blindly, then shown as unknown",
  async (db) => {
    await using graph = await startFakeGraph();
    const { rt, clock, opted, campaign } = await setup(db);
    clock.set(MORNING);
    assert.ok((await sendDue(rt, "run-1", 4)).ok);
    assert.ok((await sendDue(rt, "run-2", 4)).ok);
    const graphApi = graph.adapter();
    await killedOnFourth(db, clock, graphApi, { accepted: false });
    assert.equal(graph.accepted.length, 3);
    const sending = await db.query<{ to_wa_id: string }>(
      "select to_wa_id from public.wa_outbox where status = 'sending'",
    );
    assert.deepEqual(sending.map((row) => row.to_wa_id), [opted[3].waId]);

    // A new process, ten minutes later: the row is not requeued (Meta may have it), the rest go.
    clock.advance(600_000);
    const log = memoryLogger();
    const second = createDispatcher({ db, transport: graphApi, log, now: clock.now });
    assert.equal(await second.recoverStale({ olderThanMs: 300_000 }), 0);
    assert.ok((await sendDue(rt, "run-3", 4)).ok);
    await second.drain();
    const others = opted.filter((_, index) => index !== 3).map((m) => m.waId);
    assert.deepEqual(recipients(graph.accepted), others, JSON.stringify(log.lines));

    // An hour on, no delivery report came: unknown, for staff, and still never resent.
    clock.advance(3_600_000);
    await second.recoverStale({ olderThanMs: 300_000 });
    await second.drain();
    assert.deepEqual(recipients(graph.accepted), others);
    const counted = await sends(db, campaign);
    assert.deepEqual(
      counted.map((s) => s.status),
      opted.map((_, i) => i === 3 ? "unknown" : "sent"),
    );
    const status = await rt.callAs(USER.jean, "broadcast_status", { campaign_id: campaign });
    assert.ok(status.ok, JSON.stringify(status));
    assert.equal(status.data.campaigns[0].counts.unknown, 1);
    assert.equal(status.data.campaigns[0].counts.sent, 9);
  },
);

dbTest(
  "a dispatcher killed after Meta accepted, before the wamid was saved: reconciled from the status webhook, sent once",
  async (db) => {
    await using graph = await startFakeGraph();
    const { rt, clock, opted, campaign } = await setup(db);
    clock.set(MORNING);
    assert.ok((await sendDue(rt, "run-1")).ok);
    const graphApi = graph.adapter();
    await killedOnFourth(db, clock, graphApi, { accepted: true });
    assert.equal(graph.accepted.length, 4);
    const lost = graph.accepted[3];
    assert.equal(lost.to, opted[3].waId);

    // A new process: nothing is resent; everyone else gets theirs.
    clock.advance(600_000);
    const second = createDispatcher({
      db,
      transport: graphApi,
      log: memoryLogger(),
      now: clock.now,
    });
    assert.equal(await second.recoverStale({ olderThanMs: 300_000 }), 0);
    await second.drain();
    assert.deepEqual(recipients(graph.accepted), opted.map((m) => m.waId));

    // Meta's status webhook for the lost message carries its wamid and recipient: reconciled.
    const webhook = createWhatsAppChannel(rt, {
      appSecret: SECRET,
      verifyToken: "v",
      conversation: () => Promise.reject(new Error("no conversation here")),
    });
    const body = new TextEncoder().encode(JSON.stringify(statusDelivery({
      wamid: lost.wamid,
      status: "delivered",
      recipient: lost.to,
    })));
    const response = await webhook.app.request("/wa-webhook", {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(SECRET, body) },
      body,
    });
    assert.equal(response.status, 200);
    const [row] = await db.query<{ status: string; wamid: string }>(
      "select status, wamid from public.wa_outbox where to_wa_id = $1",
      [lost.to],
    );
    assert.deepEqual(row, { status: "delivered", wamid: lost.wamid });
    // Past the bound, recovery leaves the reconciled message alone; nobody got two.
    clock.advance(3_600_000);
    await second.recoverStale({ olderThanMs: 300_000 });
    await second.drain();
    assert.equal(graph.accepted.length, opted.length);
    const counted = await sends(db, campaign);
    assert.deepEqual(
      counted.map((s) => s.status),
      opted.map((_, i) => i === 3 ? "delivered" : "sent"),
    );
  },
);

dbTest(
  "a pair rate limit retries that person later; status webhooks update the counts staff read",
  async (db) => {
    await using graph = await startFakeGraph();
    const { rt, clock, opted, campaign } = await setup(db);
    clock.set(MORNING);
    graph.script(opted[2].waId, { code: 131056 });
    assert.ok((await sendDue(rt, "run-1")).ok);
    const dispatcher = createDispatcher({
      db,
      transport: graph.adapter(),
      log: memoryLogger(),
      now: clock.now,
    });
    await dispatcher.drain();
    assert.equal(recipients(graph.accepted).length, 9);
    clock.advance(10_000);
    await dispatcher.drain();
    assert.deepEqual(recipients(graph.accepted), opted.map((m) => m.waId));

    // Meta's status webhooks, through the webhook: delivered, read and failed reach the counts.
    const webhook = createWhatsAppChannel(rt, {
      appSecret: SECRET,
      verifyToken: "v",
      conversation: () => Promise.reject(new Error("no conversation here")),
    });
    const wamidOf = (waId: string) => graph.accepted.find((m) => m.to === waId)!.wamid;
    const report = async (
      waId: string,
      status: "delivered" | "read" | "failed",
      errors?: Array<{ code: number; title: string }>,
    ) => {
      const body = new TextEncoder().encode(JSON.stringify(statusDelivery({
        wamid: wamidOf(waId),
        status,
        recipient: waId,
        ...(errors ? { errors } : {}),
      })));
      const response = await webhook.app.request("/wa-webhook", {
        method: "POST",
        headers: { "x-hub-signature-256": await signBody(SECRET, body) },
        body,
      });
      assert.equal(response.status, 200);
    };
    await report(opted[0].waId, "delivered");
    await report(opted[1].waId, "read");
    await report(opted[1].waId, "delivered"); // late and out of order: read stands
    await report(opted[3].waId, "failed", [{ code: 131026, title: "Message undeliverable" }]);
    const status = await rt.callAs(USER.jean, "broadcast_status", { campaign_id: campaign });
    assert.ok(status.ok, JSON.stringify(status));
    assert.deepEqual(status.data.campaigns[0].counts, {
      queued: 0,
      sending: 0,
      sent: 7,
      delivered: 1,
      read: 1,
      failed: 1,
      withdrawn: 0,
      unknown: 0,
    });
    assert.equal(status.data.campaigns[0].status, "done");
    assert.equal(status.data.campaigns[0].estimated_reach, 10);
    // A customer cannot read them.
    const customer = await rt.callAs(USER.aline, "broadcast_status", {});
    assert.equal(customer.error.code, "AUTH_ERROR");
  },
);

dbTest(
  "a template Meta paused stops the campaign, withdraws the rest and tells staff",
  async (db) => {
    await using graph = await startFakeGraph();
    const { rt, clock, opted, campaign } = await setup(db);
    clock.set(MORNING);
    graph.script(opted[1].waId, { code: 132015 });
    assert.ok((await sendDue(rt, "run-1", 5)).ok);
    const dispatcher = createDispatcher({
      db,
      transport: graph.adapter(),
      log: memoryLogger(),
      now: clock.now,
      concurrency: 1,
      batchSize: 1,
    });
    await dispatcher.drain();
    // One sent, one refused (paused), the three queued behind it withdrawn.
    assert.deepEqual(recipients(graph.accepted), [opted[0].waId]);
    const [row] = await db.query<{ status: string; stop_reason: string }>(
      "select status, stop_reason from public.broadcast_campaigns where id = $1",
      [campaign],
    );
    assert.equal(row.status, "stopped");
    assert.match(row.stop_reason, /paused/);
    const statuses = (await sends(db, campaign)).map((s) => s.status);
    assert.deepEqual(statuses, ["sent", "failed", "withdrawn", "withdrawn", "withdrawn"]);
    const [template] = await db.query<{ meta_status: string }>(
      "select meta_status from public.broadcast_templates where name = 'december_offer'",
    );
    assert.equal(template.meta_status, "paused");
    const tickets = await db.query<{ summary: string }>(
      "select summary from public.staff_tickets where org_id = $1 and reason = 'Broadcast stopped'",
      [ORG.easymo],
    );
    assert.equal(tickets.length, 1);
    // The sweep sends nothing more of it.
    const after = await sendDue(rt, "run-2");
    assert.deepEqual(after.data.campaigns, []);
    assert.equal((await sends(db, campaign)).length, 5);
  },
);

dbTest("a spam rate limit holds the campaign for an hour, then it resumes", async (db) => {
  await using graph = await startFakeGraph();
  const { rt, clock, opted, campaign } = await setup(db);
  clock.set(MORNING);
  graph.script(opted[0].waId, { code: 131048 });
  assert.ok((await sendDue(rt, "run-1", 3)).ok);
  const dispatcher = createDispatcher({
    db,
    transport: graph.adapter(),
    log: memoryLogger(),
    now: clock.now,
    concurrency: 1,
    batchSize: 1,
  });
  await dispatcher.drain();
  // The first was refused; the two queued behind it wait for the hold.
  assert.deepEqual(recipients(graph.accepted), []);
  const [held] = await db.query<{ backoff_until: Date | null }>(
    "select backoff_until from public.broadcast_campaigns where id = $1",
    [campaign],
  );
  assert.ok(held.backoff_until);
  const holdMs = new Date(held.backoff_until).getTime();
  clock.set(new Date(holdMs - 60_000));
  assert.deepEqual((await sendDue(rt, "run-2", 3)).data.campaigns, []);
  clock.set(new Date(holdMs + 1000));
  assert.deepEqual(
    (await sendDue(rt, "run-3", 20)).data.campaigns.map((c: { queued: number }) => c.queued),
    [7],
  );
  await dispatcher.drain();
  assert.deepEqual(recipients(graph.accepted), opted.slice(1).map((m) => m.waId));
});

dbTest("two senders running at once queue each person once", async (db) => {
  const { rt, clock, opted, campaign } = await setup(db);
  clock.set(MORNING);
  const runs = await Promise.all([sendDue(rt, "host-a", 100), sendDue(rt, "host-b", 100)]);
  for (const run of runs) assert.ok(run.ok, JSON.stringify(run));
  assert.deepEqual((await sends(db, campaign)).map((s) => s.user_id), opted.map((m) => m.user));
  const outbox = await db.query<{ to_wa_id: string }>(
    "select to_wa_id from public.wa_outbox where idempotency_key like 'broadcast:%' order by 1",
  );
  assert.deepEqual(outbox.map((row) => row.to_wa_id), opted.map((m) => m.waId));
});
