import assert from "node:assert/strict";
import { z } from "zod";
import { ToolFailure } from "@shared/contract/mod.ts";
import { STAFF_NOTIFIER } from "@shared/packs/support/mod.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import {
  createNotificationDispatcher,
  type NotificationDispatcherOptions,
} from "./notification_dispatcher.ts";
import { createHttpSmsTransport, createLocalSmsTransport } from "./sms.ts";
import { createLocalSlackTransport, createSlackWebhookTransport } from "./slack.ts";
import { startFakeSlack, startFakeSmsGateway } from "@testing/notification_servers.ts";

const STAFF = ["+250788000101", "+250788000102"];

/** Stages a Slack message through the real channel, then fails: the call rolls back. */
const stagesThenFails = defineTool({
  name: "test.stages_then_fails",
  title: "Stages then fails",
  description: "Records a Slack notification, then fails, so its transaction rolls back.",
  category: "test",
  input: z.object({ ticket_id: z.uuid() }),
  output: z.object({}),
  examples: [{ input: { ticket_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d" } }],
  sideEffects: "writes.ticket",
  async execute(args, ctx) {
    await ctx.services.get(STAFF_NOTIFIER).send(
      "slack",
      { org_id: ctx.org_id!, ticket_id: args.ticket_id, text: "never sent", urgent: true },
      ctx.db,
    );
    throw new ToolFailure("SERVICE_UNAVAILABLE");
  },
});

interface OutboxRow {
  channel: string;
  status: string;
  attempts: number;
  target: string;
  last_error: string | null;
  sent: boolean;
  waits_ms: number;
}

function outbox(db: TestDatabase): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `select channel, status, attempts, target, last_error, sent_at is not null as sent,
            greatest(0, extract(epoch from next_attempt_at - now()) * 1000)::int as waits_ms
       from public.notification_outbox
      order by created_at, channel`,
  );
}

async function raise(
  rt: TestRuntime,
  key: string,
  payload: { priority: string; reason?: string; summary?: string },
  channel = "slack",
): Promise<string> {
  const result = await rt.callAs(USER.aline, "notify_staff", {
    channel,
    payload: { reason: "safety", summary: "Driver behaving badly", ...payload },
  }, { idempotencyKey: key });
  assert.ok(result.ok, JSON.stringify(result));
  return result.data.ticket_id;
}

/** Fake Slack and SMS servers with transports pointing at them, closed after `fn`. */
async function withProviders(
  fn: (providers: {
    slack: ReturnType<typeof startFakeSlack>;
    sms: ReturnType<typeof startFakeSmsGateway>;
    transports: NotificationDispatcherOptions["transports"];
  }) => Promise<void>,
): Promise<void> {
  const slack = startFakeSlack();
  const sms = startFakeSmsGateway({ apiKey: "sms-key" });
  try {
    await fn({
      slack,
      sms,
      transports: {
        slack: createSlackWebhookTransport({ webhookUrl: slack.url }),
        sms: createHttpSmsTransport({
          endpoint: sms.url,
          apiKey: "sms-key",
          sender: "EasyMO",
          to: STAFF,
        }),
      },
    });
  } finally {
    await slack.close();
    await sms.close();
  }
}

dbTest("dispatcher sends an urgent ticket to Slack and SMS after commit", async (db) => {
  const rt = await createTestRuntime(db);
  await withProviders(async ({ slack, sms, transports }) => {
    const ticketId = await raise(rt, "urgent-1", { priority: "urgent" });
    // The tool only staged: nothing left the database during the call.
    assert.equal(slack.received.length + sms.received.length, 0);
    assert.deepEqual((await outbox(db)).map((row) => [row.channel, row.status]), [
      ["slack", "recorded"],
      ["sms", "recorded"],
    ]);

    const log = memoryLogger();
    const dispatcher = createNotificationDispatcher({ db, transports, log });
    assert.deepEqual(await dispatcher.drain(), {
      claimed: 2,
      sent: 2,
      failed: 0,
      retrying: 0,
      deferred: 0,
      unknown: 0,
    });
    assert.equal(slack.received.length, 1);
    assert.equal(
      slack.received[0].text,
      ":rotating_light: *Urgent* [urgent] safety: Driver behaving badly",
    );
    assert.deepEqual(sms.received, [{
      from: "EasyMO",
      to: STAFF,
      text: `EasyMO #${ticketId.slice(0, 8)} [urgent] safety: Driver behaving badly`,
    }]);
    const rows = await outbox(db);
    assert.deepEqual(
      rows.map(({ channel, status, attempts, target, last_error, sent }) => ({
        channel,
        status,
        attempts,
        target,
        last_error,
        sent,
      })),
      [
        {
          channel: "slack",
          status: "sent",
          attempts: 1,
          target: "slack:webhook",
          last_error: null,
          sent: true,
        },
        {
          channel: "sms",
          status: "sent",
          attempts: 1,
          target: "sms:on-call",
          last_error: null,
          sent: true,
        },
      ],
    );
    // Sent rows are never sent again; the log names tickets, never texts or numbers.
    assert.equal((await dispatcher.drain()).claimed, 0);
    assert.equal(slack.received.length + sms.received.length, 2);
    const logged = JSON.stringify(log.lines);
    assert.ok(!logged.includes("Driver behaving badly") && !logged.includes(STAFF[0]));
    assert.ok(!logged.includes(slack.url));
  });
});

dbTest("dispatcher marks a Slack 404 channel_not_found failed without retrying", async (db) => {
  const rt = await createTestRuntime(db);
  await withProviders(async ({ slack, transports }) => {
    await raise(rt, "high-1", { priority: "high" });
    slack.script.push({ status: 404, body: "channel_not_found" });
    const log = memoryLogger();
    const dispatcher = createNotificationDispatcher({ db, transports, log });
    const summary = await dispatcher.drain();
    assert.equal(summary.failed, 1);
    assert.equal((await dispatcher.drain()).claimed, 0);
    assert.equal(slack.received.length, 1);
    const [row] = await outbox(db);
    assert.equal(row.status, "failed");
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, "slack 404 channel_not_found");
    assert.equal(row.sent, false);
    assert.deepEqual(
      log.lines.filter((line) => line.level === "error").map((line) => line.event),
      ["notification_failed"],
    );
  });
});

dbTest(
  "dispatcher records a Slack timeout after the request went out as unknown, never posted twice",
  async (db) => {
    const rt = await createTestRuntime(db);
    const slack = startFakeSlack();
    try {
      await raise(rt, "hang-1", { priority: "high" });
      // Slack takes the request and answers only when the server closes: the POST times out.
      slack.script.push({ status: 200, body: "ok", hang: true });
      const log = memoryLogger();
      const dispatcher = createNotificationDispatcher({
        db,
        transports: {
          slack: createSlackWebhookTransport({ webhookUrl: slack.url, timeoutMs: 300 }),
        },
        log,
        // Were it retried, it would be due again at once.
        retryDelayMs: () => 0,
      });
      const summary = await dispatcher.drain();
      assert.equal(summary.unknown, 1, JSON.stringify(summary));
      assert.equal(summary.retrying, 0);
      const [row] = await outbox(db);
      assert.equal(row.status, "unknown");
      assert.equal(row.attempts, 1);
      assert.equal(row.sent, false);
      assert.match(
        row.last_error ?? "",
        /^slack timeout after 300 ms: no answer, it may have been posted/,
      );
      assert.ok(!(row.last_error ?? "").includes(new URL(slack.url).pathname));
      // The org's staff read it as themselves (RLS): unknown, and why.
      const seen = await db.asCaller(
        { sub: USER.jean, role: "authenticated" },
        (tx) => tx.query<{ status: string }>("select status from public.notification_outbox"),
      );
      assert.deepEqual(seen, [{ status: "unknown" }]);
      // Due or not, it is never claimed again: Slack got it once at most.
      await db.query("update public.notification_outbox set next_attempt_at = now()");
      assert.equal((await dispatcher.drain()).claimed, 0);
      assert.equal(slack.received.length, 1);
      assert.deepEqual(
        log.lines.filter((line) => line.level !== "info").map((line) => line.event),
        ["notification_unknown"],
      );
    } finally {
      await slack.close();
    }
  },
);

dbTest("dispatcher retries a Slack 500 after a backoff, then sends", async (db) => {
  const rt = await createTestRuntime(db);
  await withProviders(async ({ slack, transports }) => {
    await raise(rt, "high-2", { priority: "high" });
    slack.script.push({ status: 500, body: "" });
    const dispatcher = createNotificationDispatcher({ db, transports, log: memoryLogger() });
    assert.equal((await dispatcher.dispatchDue()).retrying, 1);
    let [row] = await outbox(db);
    assert.equal(row.status, "recorded");
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, "slack 500");
    assert.ok(row.waits_ms > 3000, `waits ${row.waits_ms} ms`);
    // Not due yet: nothing is sent again.
    assert.equal((await dispatcher.dispatchDue()).claimed, 0);
    assert.equal(slack.received.length, 1);
    // Time passes.
    await db.query("update public.notification_outbox set next_attempt_at = now()");
    assert.equal((await dispatcher.dispatchDue()).sent, 1);
    assert.equal(slack.received.length, 2);
    [row] = await outbox(db);
    assert.deepEqual([row.status, row.attempts, row.last_error, row.sent], [
      "sent",
      2,
      null,
      true,
    ]);
  });
});

dbTest("dispatcher gives up after maxAttempts", async (db) => {
  const rt = await createTestRuntime(db);
  await withProviders(async ({ slack, transports }) => {
    await raise(rt, "high-3", { priority: "high" });
    slack.script.push({ status: 500, body: "" }, { status: 503, body: "" });
    const dispatcher = createNotificationDispatcher({
      db,
      transports,
      log: memoryLogger(),
      maxAttempts: 2,
      retryDelayMs: () => 0,
    });
    const summary = await dispatcher.drain();
    assert.deepEqual([summary.retrying, summary.failed, summary.sent], [1, 1, 0]);
    const [row] = await outbox(db);
    assert.deepEqual([row.status, row.attempts, row.last_error], [
      "failed",
      2,
      "slack 503 (gave up after 2 attempts)",
    ]);
    assert.equal(slack.received.length, 2);

    // A row whose leases kept running out (a dispatcher dying mid-send) is given up unsent.
    await raise(rt, "high-4", { priority: "high" });
    await db.query(
      "update public.notification_outbox set attempts = 2 where status = 'recorded'",
    );
    assert.equal((await dispatcher.drain()).failed, 1);
    const [, abandoned] = await outbox(db);
    assert.deepEqual([abandoned.status, abandoned.attempts, abandoned.last_error], [
      "failed",
      3,
      "abandoned after 2 attempts",
    ]);
    assert.equal(slack.received.length, 2);
  });
});

dbTest("a rolled-back tool call leaves nothing to send", async (db) => {
  const rt = await createTestRuntime(db, { tools: [stagesThenFails] });
  await withProviders(async ({ slack, sms, transports }) => {
    const missingConvo = await rt.callAs(USER.aline, "notify_staff", {
      channel: "slack",
      payload: {
        convo_id: "9f000000-0000-4000-8000-000000000000",
        reason: "safety",
        summary: "Driver behaving badly",
        priority: "urgent",
      },
    }, { idempotencyKey: "rollback-1" });
    assert.equal(missingConvo.ok, false);
    assert.equal(missingConvo.error.code, "NOT_FOUND");
    // A failure after the row was staged rolls the row back with the call.
    const ticketId = await raise(rt, "inbox-1", { priority: "low" }, "inbox");
    const staged = await rt.callAs(USER.aline, "test.stages_then_fails", {
      ticket_id: ticketId,
    }, { idempotencyKey: "rollback-2" });
    assert.equal(staged.ok, false);
    assert.equal(staged.error.code, "SERVICE_UNAVAILABLE");

    assert.deepEqual(await outbox(db), []);
    const dispatcher = createNotificationDispatcher({ db, transports, log: memoryLogger() });
    assert.equal((await dispatcher.drain()).claimed, 0);
    assert.equal(slack.received.length + sms.received.length, 0);
  });
});

dbTest("dispatcher defers the rest of a channel on 429 Retry-After", async (db) => {
  const rt = await createTestRuntime(db);
  await withProviders(async ({ slack, transports }) => {
    await raise(rt, "rl-1", { priority: "high", reason: "first" });
    await raise(rt, "rl-2", { priority: "high", reason: "second" });
    slack.script.push({ status: 429, body: "rate_limited", headers: { "Retry-After": "60" } });
    const dispatcher = createNotificationDispatcher({ db, transports, log: memoryLogger() });
    const summary = await dispatcher.drain();
    assert.deepEqual([summary.claimed, summary.retrying, summary.deferred], [2, 1, 1]);
    assert.equal(slack.received.length, 1);
    const rows = await outbox(db);
    assert.deepEqual(rows.map((row) => [row.status, row.attempts]), [
      ["recorded", 1],
      ["recorded", 0],
    ]);
    for (const row of rows) assert.ok(row.waits_ms > 55_000, `waits ${row.waits_ms} ms`);
    // The channel stays paused in this process even if rows come due.
    await db.query("update public.notification_outbox set next_attempt_at = now()");
    assert.equal((await dispatcher.dispatchDue()).claimed, 0);
  });
});

dbTest("a channel without a transport stays recorded and is logged once", async (db) => {
  const rt = await createTestRuntime(db);
  await withProviders(async ({ slack, transports }) => {
    await raise(rt, "partial-1", { priority: "urgent" });
    const log = memoryLogger();
    const dispatcher = createNotificationDispatcher({
      db,
      transports: { slack: transports.slack },
      log,
    });
    assert.equal((await dispatcher.drain()).sent, 1);
    await raise(rt, "partial-2", { priority: "urgent" });
    assert.equal((await dispatcher.drain()).sent, 1);
    assert.equal(slack.received.length, 2);
    assert.deepEqual((await outbox(db)).map((row) => [row.channel, row.status]), [
      ["slack", "sent"],
      ["sms", "recorded"],
      ["slack", "sent"],
      ["sms", "recorded"],
    ]);
    const warnings = log.lines.filter((line) => line.event === "notification_channel_unconfigured");
    assert.deepEqual(warnings, [{
      level: "warn",
      event: "notification_channel_unconfigured",
      channel: "sms",
      waiting: 1,
    }]);
  });
});

dbTest("concurrent dispatchers never send a row twice", async (db) => {
  const rt = await createTestRuntime(db);
  await withProviders(async ({ slack, transports }) => {
    for (const key of ["c1", "c2", "c3", "c4", "c5"]) {
      await raise(rt, key, { priority: "high", reason: key });
    }
    const make = () =>
      createNotificationDispatcher({ db, transports, log: memoryLogger(), batchSize: 2 });
    const [a, b] = await Promise.all([make().drain(), make().drain()]);
    assert.equal(a.sent + b.sent, 5);
    assert.equal(slack.received.length, 5);
    const reasons = slack.received.map((message) => message.text?.split(":")[0]).sort();
    assert.deepEqual(reasons, ["[high] c1", "[high] c2", "[high] c3", "[high] c4", "[high] c5"]);
  });
});

dbTest("local transports mark rows sent with target local", async (db) => {
  const rt = await createTestRuntime(db);
  await raise(rt, "local-1", { priority: "urgent" });
  const dispatcher = createNotificationDispatcher({
    db,
    transports: { slack: createLocalSlackTransport(), sms: createLocalSmsTransport() },
    log: memoryLogger(),
  });
  dispatcher.start({ intervalMs: 5 });
  for (let i = 0; i < 200 && (await outbox(db)).some((row) => row.status !== "sent"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await dispatcher.stop();
  assert.deepEqual((await outbox(db)).map((row) => [row.channel, row.status, row.target]), [
    ["slack", "sent", "local"],
    ["sms", "sent", "local"],
  ]);
});

Deno.test("createNotificationDispatcher checks its options", () => {
  const db = { query: () => Promise.resolve([]) };
  const log = memoryLogger();
  assert.throws(
    () => createNotificationDispatcher({ db, transports: {}, log, maxAttempts: 0 }),
    TypeError,
  );
  assert.throws(
    () =>
      createNotificationDispatcher({
        db,
        transports: { sms: createLocalSlackTransport() },
        log,
      }),
    TypeError,
  );
});
