import assert from "node:assert/strict";
import { z } from "zod";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { type FakeAnswer, startFakeSlack } from "@testing/notification_servers.ts";
import { startWhatsAppWebhook } from "@testing/whatsapp_webhook.ts";
import { seedTenantFixtures, TENANT_A } from "@testing/tenant_fixtures.ts";
import { messageDelivery } from "@shared/channels/whatsapp/payloads.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { SLACK_SETTINGS } from "@shared/packs/automations/mod.ts";
import { AGENT_CONFIGS } from "../../config/agent_configs.ts";
import { MAX_EVENT_ATTEMPTS, runAutomations } from "./automation_runner.ts";

const URGENT = {
  name: "Urgent messages to Slack",
  trigger: { event: "message_received" },
  condition: { path: "text", op: "contains", value: "urgent", case_insensitive: true },
  actions: [{
    tool: "slack_notify",
    args: { text: "Urgent from {{event.sender_name}} ({{event.sender_phone}}): {{event.text}}" },
  }],
};

/**
 * The bundled agent file with a second tenant, Beaver, that runs other packs: the front desk
 * (messages) and the hand-off (tickets), no ordering or payments.
 */
function withBeaver(): unknown {
  const config = structuredClone(AGENT_CONFIGS) as {
    tenants: Record<string, { agents: Array<{ id: string }> }>;
  };
  config.tenants["beaver-paper"] = {
    agents: [{ id: "concierge_router" }, { id: "support_handoff" }],
  };
  return config;
}

let keys = 0;
const key = () => `test-key-${++keys}`;

/** A webhook, a fake Slack for each tenant, a movable clock. */
async function setUp(db: TestDatabase, options: { slackTimeoutMs?: number } = {}) {
  const slackA = startFakeSlack();
  const slackB = startFakeSlack();
  let now = new Date("2026-11-27T08:00:00Z");
  const clock = {
    get: () => now,
    advance(minutes: number) {
      now = new Date(now.getTime() + minutes * 60_000);
    },
  };
  const webhook = await startWhatsAppWebhook(db, {
    runtime: {
      now: () => now,
      agentConfig: withBeaver(),
      provide: [{
        key: SLACK_SETTINGS,
        value: {
          webhookPrefixes: ["http://127.0.0.1:", "http://hooks.slack.invalid/"],
          timeoutMs: options.slackTimeoutMs ?? 5000,
        },
      }],
    },
  });
  const rt = webhook.rt;
  const setHook = async (user: string, org: string, url: string) =>
    assert.deepEqual(
      await rt.callAs(user, "slack_webhook_set", { url }, { org, idempotencyKey: key() }),
      { ok: true, data: { configured: true } },
    );
  await setHook(USER.jean, ORG.easymo, slackA.url);
  await setHook(USER.paul, ORG.beaver, slackB.url);
  const run = () => runAutomations(rt.platform, { now: clock.get() });
  return {
    rt,
    setHook,
    webhook,
    slackA,
    slackB,
    clock,
    run,
    deploy: (spec: unknown, user: string = USER.jean, org: string = ORG.easymo) =>
      rt.callAs(user, "deploy_automation", spec, { org, idempotencyKey: key() }),
    async close() {
      await webhook.close();
      await slackA.close();
      await slackB.close();
    },
  };
}

function fieldsOf(result: { ok: boolean; error?: { code: string; fields?: { path: string }[] } }) {
  assert.equal(result.ok, false);
  assert.equal(result.error?.code, "VALIDATION_ERROR");
  return (result.error?.fields ?? []).map((field) => field.path);
}

dbTest(
  "the urgent automation fires once per message, also when the webhook is re-delivered",
  async (db) => {
    const t = await setUp(db);
    try {
      const deployed = await t.deploy(URGENT);
      assert.equal(deployed.ok, true, JSON.stringify(deployed));
      const delivery = messageDelivery(
        { from: "250788123456", name: "Aline", wamid: "wamid.URGENT1" },
        { text: "URGENT my order is wrong" },
      );
      assert.equal(await t.webhook.post(delivery), 200);
      await t.webhook.settle();
      assert.equal((await t.run()).runs, 1);
      assert.deepEqual(t.slackA.received.map((m) => m.text), [
        "Urgent from Aline (+250788123456): URGENT my order is wrong",
      ]);
      // The same webhook again (Meta re-delivers until it gets a 200 in time): nothing more.
      assert.equal(await t.webhook.post(delivery), 200);
      await t.webhook.settle();
      await t.run();
      // A message without the word: none.
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "hello, my order?" });
      assert.equal((await t.run()).runs, 0);
      assert.equal(t.slackA.received.length, 1);
      assert.equal(
        t.slackB.received.length,
        0,
        "Beaver's Slack hears nothing of EasyMO's customers",
      );
      const runs = await t.rt.callAs(USER.jean, "automation_runs", {}, { org: ORG.easymo });
      assert.equal(runs.data.runs.length, 1);
      assert.equal(runs.data.runs[0].status, "succeeded");
      assert.deepEqual(runs.data.runs[0].results, [{ tool: "slack_notify", code: "OK" }]);
      const events = await db.query(
        "select event, source_key from public.automation_events where source_key = 'wamid.URGENT1'",
      );
      assert.equal(events.length, 1);
    } finally {
      await t.close();
    }
  },
);

dbTest("two runners at once run each action once", async (db) => {
  const t = await setUp(db);
  try {
    assert.equal((await t.deploy(URGENT)).ok, true);
    for (const n of [1, 2, 3]) {
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: `urgent ${n}` });
    }
    // A pass drains batch after batch, up to its limit; the rest waits for the next.
    const small = { now: t.clock.get(), batch: 1, maxBatches: 2 };
    assert.equal((await runAutomations(t.rt.platform, small)).events, 2);
    await db.query(
      "update public.automation_events set processed_at = null, locked_until = null",
    );
    await Promise.all([t.run(), t.run(), t.run()]);
    await t.run();
    assert.deepEqual(t.slackA.received.map((m) => m.text).sort(), [
      "Urgent from Aline (+250788123456): urgent 1",
      "Urgent from Aline (+250788123456): urgent 2",
      "Urgent from Aline (+250788123456): urgent 3",
    ]);
  } finally {
    await t.close();
  }
});

dbTest("deploy_automation names every problem's field with VALIDATION_ERROR", async (db) => {
  const t = await setUp(db);
  try {
    assert.deepEqual(fieldsOf(await t.deploy({ ...URGENT, owner: "me" })), [""]);
    assert.deepEqual(
      fieldsOf(await t.deploy({ ...URGENT, trigger: { event: "message_recieved" } })),
      ["trigger.event"],
    );
    assert.deepEqual(
      fieldsOf(await t.deploy({ ...URGENT, condition: { ...URGENT.condition, path: "body" } })),
      ["condition.path"],
    );
    assert.deepEqual(
      fieldsOf(await t.deploy({ ...URGENT, condition: { ...URGENT.condition, op: "like" } })),
      ["condition.op"],
    );
    assert.deepEqual(
      fieldsOf(
        await t.deploy({
          ...URGENT,
          actions: [{ tool: "slack_notify", args: { text: "From {{event.sender}}" } }],
        }),
      ),
      ["actions.0.args.text"],
    );
    assert.deepEqual(
      fieldsOf(await t.deploy({ ...URGENT, actions: [{ tool: "no_such_tool", args: {} }] })),
      ["actions.0.tool"],
    );
    // Internal tools (service-only plumbing) are not for automations.
    const internal = t.rt.platform.list().find((tool) => tool.internal)!;
    assert.deepEqual(
      fieldsOf(await t.deploy({ ...URGENT, actions: [{ tool: internal.name, args: {} }] })),
      ["actions.0.tool"],
    );
    assert.deepEqual(
      fieldsOf(
        await t.deploy({
          ...URGENT,
          actions: [{ tool: "slack_notify", args: { text: "x", colour: "red" } }],
        }),
      ),
      ["actions.0.args"],
    );
    assert.deepEqual(
      fieldsOf(
        await t.deploy({
          name: "bad cron",
          trigger: { schedule: { cron: "61 * * * *" } },
          actions: [{ tool: "slack_notify", args: { text: "tick {{event.scheduled_at}}" } }],
        }),
      ),
      ["trigger.schedule.cron"],
    );
    const customer = await t.rt.callAs(USER.aline, "deploy_automation", URGENT, {
      org: ORG.easymo,
      idempotencyKey: key(),
    });
    assert.equal(customer.error.code, "AUTH_ERROR");
    // Nor may a customer write into the staff channel, or point it elsewhere.
    for (
      const [tool, args] of [["slack_notify", { text: "hi" }], ["slack_webhook_set", {
        url: "http://127.0.0.1:1/services/x",
      }]] as const
    ) {
      const refused = await t.rt.callAs(USER.aline, tool, args, {
        org: ORG.easymo,
        idempotencyKey: key(),
      });
      assert.equal(refused.error.code, "AUTH_ERROR", tool);
    }
    assert.equal(t.slackA.received.length, 0);
  } finally {
    await t.close();
  }
});

dbTest(
  "tenants are apart: B never runs on A's events and cannot deploy with A's tools",
  async (db) => {
    const t = await setUp(db);
    try {
      // A run-time tool of EasyMO's only.
      t.rt.platform.register(
        defineTool({
          name: "easymo_crm_note",
          title: "CRM note",
          description: "EasyMO's own CRM.",
          category: "crm",
          input: z.strictObject({ note: z.string() }),
          output: z.object({ saved: z.boolean() }),
          examples: [{ input: { note: "hi" } }],
          sideEffects: "writes.note",
          usesDatabase: false,
          execute: () => Promise.resolve({ saved: true }),
        }),
        { tenantId: ORG.easymo },
      );
      const withCrm = {
        ...URGENT,
        name: "crm",
        actions: [{ tool: "easymo_crm_note", args: { note: "{{event.text}}" } }],
      };
      assert.deepEqual(fieldsOf(await t.deploy(withCrm, USER.paul, ORG.beaver)), [
        "actions.0.tool",
      ]);
      assert.equal((await t.deploy(withCrm)).ok, true);
      assert.equal((await t.deploy(URGENT)).ok, true);
      // Beaver's own urgent rule: EasyMO's customer writing "urgent" must not reach it.
      assert.equal((await t.deploy(URGENT, USER.paul, ORG.beaver)).ok, true);
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent please" });
      assert.equal((await t.run()).runs, 2);
      assert.equal(t.slackA.received.length, 1);
      assert.equal(t.slackB.received.length, 0);
      const runsA = await t.rt.callAs(USER.jean, "automation_runs", {}, { org: ORG.easymo });
      assert.deepEqual(runsA.data.runs.map((r: { status: string }) => r.status), [
        "succeeded",
        "succeeded",
      ]);
      // Beaver's staff see none of EasyMO's automations or runs, and cannot pause them.
      const mine = await t.rt.callAs(USER.jean, "automation_list", {}, { org: ORG.easymo });
      const theirs = await t.rt.callAs(USER.paul, "automation_list", {}, { org: ORG.beaver });
      assert.deepEqual(theirs.data.automations.map((a: { name: string }) => a.name), [URGENT.name]);
      const easymoUrgent = mine.data.automations.find((a: { name: string }) =>
        a.name === URGENT.name
      );
      const paused = await t.rt.callAs(
        USER.paul,
        "automation_pause",
        { automation_id: easymoUrgent.id },
        { org: ORG.beaver, idempotencyKey: key() },
      );
      assert.equal(paused.error.code, "NOT_FOUND");
      const runs = await t.rt.callAs(USER.paul, "automation_runs", {}, { org: ORG.beaver });
      assert.deepEqual(runs.data.runs, []);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "deploy_automation offers a tenant only the events of the packs it uses",
  async (db) => {
    const t = await setUp(db);
    try {
      const onEvent = (event: string, condition: Record<string, unknown>) => ({
        name: `on ${event}`,
        trigger: { event },
        condition,
        actions: [{ tool: "slack_notify", args: { text: "{{event.status_to}}" } }],
      });
      const orderPaid = onEvent("order_status_changed", {
        path: "status_to",
        op: "equals",
        value: "paid",
      });
      const charged = onEvent("payment_status_changed", { path: "status_to", op: "exists" });
      // EasyMO runs the waiters and shops (commerce's tools) and the payments agent.
      assert.equal((await t.deploy(orderPaid)).ok, true);
      assert.equal((await t.deploy(charged)).ok, true);
      // Beaver runs neither: both are another pack's events, refused at the field, and the
      // message lists only Beaver's own.
      for (const spec of [orderPaid, charged]) {
        const refused = await t.deploy(spec, USER.paul, ORG.beaver);
        assert.deepEqual(fieldsOf(refused), ["trigger.event"]);
        const [said, offered] = refused.error.fields[0].message.split(": one of ");
        assert.match(said, /not an event of this tenant's services/);
        assert.deepEqual(offered.split(", ").sort(), [
          "message_received",
          "ticket_created",
          "ticket_updated",
        ]);
      }
      // Its own packs' events deploy.
      const ticket = {
        name: "new tickets",
        trigger: { event: "ticket_created" },
        actions: [{ tool: "slack_notify", args: { text: "{{event.summary}}" } }],
      };
      assert.equal((await t.deploy(ticket, USER.paul, ORG.beaver)).ok, true);
      assert.equal((await t.deploy(URGENT, USER.paul, ORG.beaver)).ok, true);
      const saved = await db.query<{ name: string }>(
        "select name from public.automations where org_id = $1 order by name",
        [ORG.beaver],
      );
      assert.deepEqual(saved.map((row) => row.name), [URGENT.name, "new tickets"].sort());
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a failing action is recorded for staff and does not stop the other automations",
  async (db) => {
    const t = await setUp(db);
    try {
      assert.equal((await t.deploy(URGENT)).ok, true);
      assert.equal((await t.deploy({ ...URGENT, name: "second" })).ok, true);
      t.slackA.script.push({ status: 404, body: "channel_not_found" });
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent!" });
      const pass = await t.run();
      assert.deepEqual({ runs: pass.runs, failed: pass.failed }, { runs: 2, failed: 1 });
      assert.equal(t.slackA.received.length, 2, "both posted; Slack refused the first");
      const failed = await t.rt.callAs(USER.jean, "automation_runs", { status: "failed" }, {
        org: ORG.easymo,
      });
      assert.equal(failed.data.runs.length, 1);
      assert.deepEqual(failed.data.runs[0].results, [{ tool: "slack_notify", code: "NOT_FOUND" }]);
      assert.match(failed.data.runs[0].error, /slack_notify.*NOT_FOUND.*channel_not_found/);
    } finally {
      await t.close();
    }
  },
);

dbTest("a paused automation does not run until resumed", async (db) => {
  const t = await setUp(db);
  try {
    const deployed = await t.deploy(URGENT);
    const id = deployed.data.id;
    const call = (tool: string) =>
      t.rt.callAs(USER.jean, tool, { automation_id: id }, {
        org: ORG.easymo,
        idempotencyKey: key(),
      });
    assert.equal((await call("automation_pause")).data.status, "paused");
    await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent while paused" });
    await t.run();
    assert.equal(t.slackA.received.length, 0);
    assert.equal((await call("automation_resume")).data.status, "active");
    await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent again" });
    await t.run();
    assert.deepEqual(t.slackA.received.map((m) => m.text), [
      "Urgent from Aline (+250788123456): urgent again",
    ]);
    assert.equal((await call("automation_delete")).data.deleted, true);
    assert.equal((await call("automation_delete")).error.code, "NOT_FOUND");
  } finally {
    await t.close();
  }
});

dbTest(
  "automation_test renders the actions against a sample event without running them",
  async (db) => {
    const t = await setUp(db);
    try {
      const id = (await t.deploy(URGENT)).data.id;
      const sample = {
        message_id: "wamid.X",
        text: "Urgent: refund",
        sender_phone: "+250788000001",
        sender_name: "Aline",
        language: "en",
        conversation_id: TENANT_A.conversation,
        agent: null,
      };
      const tried = await t.rt.callAs(USER.jean, "automation_test", {
        automation_id: id,
        event: sample,
      }, {
        org: ORG.easymo,
      });
      assert.equal(tried.data.matched, true);
      assert.deepEqual(tried.data.actions[0].args, {
        text: "Urgent from Aline (+250788000001): Urgent: refund",
      });
      const calm = await t.rt.callAs(
        USER.jean,
        "automation_test",
        { automation_id: id, event: { ...sample, text: "thanks" } },
        { org: ORG.easymo },
      );
      assert.equal(calm.data.matched, false);
      const bad = await t.rt.callAs(
        USER.jean,
        "automation_test",
        { automation_id: id, event: { ...sample, language: "de" } },
        { org: ORG.easymo },
      );
      assert.deepEqual(fieldsOf(bad), ["event.language"]);
      assert.equal(t.slackA.received.length, 0);
    } finally {
      await t.close();
    }
  },
);

dbTest("a scheduled automation runs once per slot by the injected clock", async (db) => {
  const t = await setUp(db);
  try {
    const deployed = await t.deploy({
      name: "quarter-hourly",
      trigger: { schedule: { every_minutes: 15 } },
      actions: [{
        tool: "slack_notify",
        args: { text: "Check the queue ({{event.scheduled_at}})" },
      }],
    });
    assert.equal(deployed.data.next_run_at, "2026-11-27T08:15:00.000Z");
    await t.run();
    assert.equal(t.slackA.received.length, 0);
    t.clock.advance(15);
    await Promise.all([t.run(), t.run()]);
    await t.run();
    assert.deepEqual(t.slackA.received.map((m) => m.text), [
      "Check the queue (2026-11-27T08:15:00.000Z)",
    ]);
    t.clock.advance(16);
    await t.run();
    assert.equal(t.slackA.received.at(-1)?.text, "Check the queue (2026-11-27T08:30:00.000Z)");
    assert.equal(t.slackA.received.length, 2);
  } finally {
    await t.close();
  }
});

dbTest("a cron schedule reads the tenant's clock and fires on either day field", async (db) => {
  const t = await setUp(db);
  try {
    // Friday 27 November 2026, 10:00 in Kigali (EasyMO's zone). 09:00 on the 1st, the 15th or
    // a Monday: Monday the 30th, then Tuesday the 1st (standard cron: either day field).
    const deployed = await t.deploy({
      name: "morning digest",
      trigger: { schedule: { cron: "0 9 1,15 * 1" } },
      actions: [{ tool: "slack_notify", args: { text: "Digest ({{event.scheduled_at}})" } }],
    });
    assert.equal(deployed.data.next_run_at, "2026-11-30T07:00:00.000Z");
    t.clock.advance(3 * 24 * 60 - 61);
    await t.run();
    assert.equal(t.slackA.received.length, 0);
    t.clock.advance(1);
    await Promise.all([t.run(), t.run()]);
    assert.deepEqual(t.slackA.received.map((m) => m.text), [
      "Digest (2026-11-30T07:00:00.000Z)",
    ]);
    const [row] = await db.query<{ next_run_at: Date | string }>(
      "select next_run_at from public.automations where org_id = $1 and name = 'morning digest'",
      [ORG.easymo],
    );
    assert.equal(new Date(row.next_run_at).toISOString(), "2026-12-01T07:00:00.000Z");
  } finally {
    await t.close();
  }
});

dbTest(
  "order and payment status changes raise their events once, and automations run on them",
  async (db) => {
    await seedTenantFixtures(db);
    const t = await setUp(db);
    try {
      const deployed = await t.deploy({
        name: "paid",
        trigger: { event: "payment_status_changed" },
        condition: { path: "status_to", op: "equals", value: "settled" },
        actions: [{
          tool: "slack_notify",
          args: { text: "Paid {{event.amount}} RWF ({{event.charge_id}})" },
        }],
      });
      assert.equal(deployed.ok, true, JSON.stringify(deployed));
      await db.query(
        "update public.payments set status = 'settled', settled_at = now(), settled_by = 'callback' where id = $1",
        [
          TENANT_A.payment,
        ],
      );
      const [{ amount }] = await db.query<{ amount: string }>(
        "select amount::text from public.payments where id = $1",
        [TENANT_A.payment],
      );
      await t.run();
      assert.deepEqual(t.slackA.received.map((m) => m.text), [
        `Paid ${amount} RWF (${TENANT_A.payment})`,
      ]);
      await db.query("update public.orders set status = 'cancelled' where id = $1", [
        TENANT_A.order,
      ]);
      const events = await db.query<{ event: string; payload: Record<string, unknown> }>(
        "select event, payload from public.automation_events where org_id = $1 order by occurred_at",
        [ORG.easymo],
      );
      const order = events.find((e) => e.event === "order_status_changed");
      assert.equal(order?.payload.status_to, "cancelled");
      // The fixtures' hand-off ticket raised ticket_created when it was opened.
      assert.ok(
        events.some((e) => e.event === "ticket_created" && e.payload.ticket_id === TENANT_A.ticket),
      );
      // The same status written again (a replayed transaction) raises nothing more.
      await db.query("update public.orders set status = 'cancelled' where id = $1", [
        TENANT_A.order,
      ]);
      const [{ n }] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.automation_events where event = 'order_status_changed'",
      );
      assert.equal(n, 1);
      // Every event the triggers wrote fits its pack's payload schema.
      const schemas = new Map(
        t.rt.platform.packs.flatMap((pack) => pack.events ?? []).map((e) => [e.name, e.payload]),
      );
      for (const event of events) {
        const parsed = schemas.get(event.event)?.safeParse(event.payload);
        assert.equal(
          parsed?.success,
          true,
          `${event.event}: ${JSON.stringify(parsed?.error?.issues)}`,
        );
      }
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a run cut short is finished by the next pass without repeating the actions it made",
  async (db) => {
    const t = await setUp(db);
    try {
      assert.equal((await t.deploy(URGENT)).ok, true);
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent: crash" });
      await t.run();
      assert.equal(t.slackA.received.length, 1);
      // As if the runner died after the action and before it marked the run and the event done.
      await db.query("update public.automation_runs set status = 'running', results = '[]'");
      await db.query(
        "update public.automation_events set processed_at = null, locked_until = null",
      );
      const pass = await t.run();
      assert.equal(pass.runs, 1);
      assert.equal(t.slackA.received.length, 1, "the action's key replays its first answer");
      const runs = await t.rt.callAs(USER.jean, "automation_runs", {}, { org: ORG.easymo });
      assert.deepEqual(runs.data.runs.map((r: { status: string }) => r.status), ["succeeded"]);
      // Thirty days on, the processed event is gone from the outbox; its run stays for staff.
      t.clock.advance(31 * 24 * 60);
      await t.run();
      assert.deepEqual(await db.query("select id from public.automation_events"), []);
      const kept = await t.rt.callAs(USER.jean, "automation_runs", {}, { org: ORG.easymo });
      assert.equal(kept.data.runs.length, 1);
      assert.equal(kept.data.runs[0].event_id, null);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "an outage is tried again on a later pass, and recorded as failed after the last attempt",
  async (db) => {
    const t = await setUp(db);
    try {
      assert.equal((await t.deploy(URGENT)).ok, true);
      t.slackA.script.push({ status: 503, body: "service_unavailable" });
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent 1" });
      assert.deepEqual(await t.run(), { events: 1, runs: 1, failed: 1 });
      const running = await t.rt.callAs(USER.jean, "automation_runs", {}, { org: ORG.easymo });
      assert.equal(running.data.runs[0].status, "running");
      assert.match(running.data.runs[0].error, /SERVICE_UNAVAILABLE.*service_unavailable/);
      // Within the lease nothing is tried; after it, the run is finished.
      assert.equal((await t.run()).events, 0);
      t.clock.advance(3);
      assert.deepEqual(await t.run(), { events: 1, runs: 1, failed: 0 });
      const done = await t.rt.callAs(USER.jean, "automation_runs", {}, { org: ORG.easymo });
      assert.equal(done.data.runs[0].status, "succeeded");
      assert.equal(t.slackA.received.length, 2, "Slack refused the first post and took the second");

      // Slack down for good: the last attempt records the failure and lets the event go.
      for (let i = 0; i < MAX_EVENT_ATTEMPTS; i++) {
        t.slackA.script.push({
          status: 503,
          body: "down",
        });
      }
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent 2" });
      for (let i = 0; i < MAX_EVENT_ATTEMPTS; i++) {
        await t.run();
        t.clock.advance(3);
      }
      assert.equal((await t.run()).events, 0);
      const failed = await t.rt.callAs(USER.jean, "automation_runs", { status: "failed" }, {
        org: ORG.easymo,
      });
      assert.equal(failed.data.runs.length, 1);
      assert.deepEqual(failed.data.runs[0].results, [
        { tool: "slack_notify", code: "SERVICE_UNAVAILABLE" },
      ]);
    } finally {
      await t.close();
    }
  },
);

dbTest("slack_notify reads Slack's answers through the one classifier", async (db) => {
  const t = await setUp(db);
  try {
    const notify = (idempotencyKey = key()) =>
      t.rt.callAs(USER.jean, "slack_notify", { text: "Hello staff" }, {
        org: ORG.easymo,
        idempotencyKey,
      });
    const answers: Array<[FakeAnswer, string]> = [
      [{ status: 200, body: "ok" }, "OK"],
      // Any 2xx took it (the transport and the tool used to disagree here).
      [{ status: 204 }, "OK"],
      [
        { status: 400, body: "invalid_payload" },
        "VALIDATION_ERROR: Slack refused the message: invalid_payload",
      ],
      // A revoked token is final, not an outage to retry.
      [
        { status: 401, body: "invalid_token" },
        "NOT_FOUND: Slack refused the webhook: invalid_token",
      ],
      [{ status: 404, body: "no_service" }, "NOT_FOUND: Slack refused the webhook: no_service"],
      [
        { status: 410, body: "channel_is_archived" },
        "NOT_FOUND: Slack refused the webhook: channel_is_archived",
      ],
      [
        { status: 429, body: "rate_limited", headers: { "Retry-After": "30" } },
        "RATE_LIMIT: Slack asked us to slow down: rate_limited",
      ],
      [
        { status: 503, body: "<html>busy</html>" },
        "SERVICE_UNAVAILABLE: Slack could not take the message: HTTP 503",
      ],
    ];
    for (const [answer, expected] of answers) {
      t.slackA.script.push(answer);
      const result = await notify();
      const got = result.ok ? "OK" : `${result.error.code}: ${result.error.msg}`;
      assert.equal(got, expected, JSON.stringify(answer));
      if (answer.status === 429) assert.deepEqual(result.error.details, { retry_after_ms: 30_000 });
      if (result.ok) assert.deepEqual(result.data, { sent: true, delivery: "delivered" });
    }
    assert.equal(t.slackA.received.length, answers.length);
  } finally {
    await t.close();
  }
});

dbTest(
  "a Slack post that got no answer is recorded as unknown and never posted again",
  async (db) => {
    const t = await setUp(db, { slackTimeoutMs: 300 });
    try {
      assert.equal((await t.deploy(URGENT)).ok, true);
      // Slack takes the request and never answers.
      t.slackA.script.push({ status: 200, body: "ok", hang: true });
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent please" });
      assert.deepEqual(await t.run(), { events: 1, runs: 1, failed: 1 });
      assert.equal(t.slackA.received.length, 1);
      const unknown = await t.rt.callAs(USER.jean, "automation_runs", { status: "unknown" }, {
        org: ORG.easymo,
      });
      assert.equal(unknown.data.runs.length, 1);
      assert.deepEqual(unknown.data.runs[0].results, [{ tool: "slack_notify", code: "UNKNOWN" }]);
      assert.match(unknown.data.runs[0].error, /may have been done/);
      assert.notEqual(unknown.data.runs[0].finished_at, null);
      // Past the lease, later passes find nothing to retry: Slack got it once.
      t.clock.advance(3);
      await Promise.all([t.run(), t.run()]);
      t.clock.advance(10);
      assert.deepEqual(await t.run(), { events: 0, runs: 0, failed: 0 });
      assert.equal(t.slackA.received.length, 1);

      // Called directly: the unknown answer is kept under its key, so a retry posts nothing.
      t.slackA.script.push({ status: 200, body: "ok", hang: true });
      const callKey = key();
      const call = () =>
        t.rt.callAs(USER.jean, "slack_notify", { text: "Hello" }, {
          org: ORG.easymo,
          idempotencyKey: callKey,
        });
      const first = await call();
      assert.deepEqual(first, { ok: true, data: { sent: false, delivery: "unknown" } });
      assert.deepEqual(await call(), first);
      assert.equal(t.slackA.received.length, 2);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a Slack post that certainly did not arrive (refused, unresolvable) is tried again",
  async (db) => {
    const t = await setUp(db);
    try {
      // Nothing listens on this port: the connection is refused.
      const gone = Deno.serve(
        { port: 0, hostname: "127.0.0.1", onListen: () => {} },
        () => new Response("ok"),
      );
      const port = gone.addr.port;
      await gone.shutdown();
      for (
        const url of [
          `http://127.0.0.1:${port}/services/T/B/x`,
          "http://hooks.slack.invalid/services/T/B/x",
        ]
      ) {
        await t.setHook(USER.jean, ORG.easymo, url);
        const refused = await t.rt.callAs(USER.jean, "slack_notify", { text: "Hello" }, {
          org: ORG.easymo,
          idempotencyKey: key(),
        });
        assert.equal(
          refused.ok ? "OK" : `${refused.error.code}: ${refused.error.msg}`,
          "SERVICE_UNAVAILABLE: Slack could not be reached",
          url,
        );
      }
      // An automation's run waits for a later pass, which posts once Slack is back.
      assert.equal((await t.deploy(URGENT)).ok, true);
      await t.webhook.say({ from: "250788123456", name: "Aline" }, { text: "urgent please" });
      assert.deepEqual(await t.run(), { events: 1, runs: 1, failed: 1 });
      const running = await t.rt.callAs(USER.jean, "automation_runs", {}, { org: ORG.easymo });
      assert.equal(running.data.runs[0].status, "running");
      await t.setHook(USER.jean, ORG.easymo, t.slackA.url);
      t.clock.advance(3);
      assert.deepEqual(await t.run(), { events: 1, runs: 1, failed: 0 });
      assert.equal(t.slackA.received.length, 1);
    } finally {
      await t.close();
    }
  },
);
