import assert from "node:assert/strict";
import type { Queryable } from "@shared/db/types.ts";
import { dbTest } from "@testing/db.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { ORG } from "@testing/seed.ts";
import { createDispatcher, type DispatcherOptions } from "./dispatcher.ts";
import { createGraphAdapter } from "./graph_adapter.ts";
import { createLocalAdapter } from "./local_adapter.ts";
import { templateMessage, textMessage, type WhatsAppMessage } from "./messages.ts";
import { applyStatus, enqueueMessage } from "./outbox.ts";
import { type FakeGraph, type FakeOutcome, startFakeGraph } from "@testing/graph_server.ts";
import { recordInbound } from "./window.ts";

const ALINE = "250788123456";
const ERIC = "250788000111";
const NINA = "250722333444";
const TEMPLATE = templateMessage({ name: "stock_check", language: "en" });
const HOUR = 60 * 60 * 1000;

/** A clock the test moves by hand; `sleep` moves it too. Starts ahead of the database's now(). */
function manualClock() {
  let ms = Math.ceil(Date.now() / 1000) * 1000 + 60_000;
  return {
    now: () => new Date(ms),
    advance: (by: number) => {
      ms += by;
    },
    sleeps: [] as number[],
  };
}

interface Harness {
  dispatcher: ReturnType<typeof createDispatcher>;
  graph: FakeGraph;
  clock: ReturnType<typeof manualClock>;
  log: ReturnType<typeof memoryLogger>;
}

async function harness(
  db: Queryable,
  options: Partial<DispatcherOptions> & { responses?: Record<string, FakeOutcome[]> } = {},
): Promise<Harness & AsyncDisposable> {
  const graph = await startFakeGraph({ responses: options.responses });
  const clock = manualClock();
  const log = memoryLogger();
  const dispatcher = createDispatcher({
    db,
    transport: graph.adapter(),
    log,
    now: clock.now,
    sleep: (ms) => {
      clock.sleeps.push(ms);
      clock.advance(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    ...options,
  });
  return {
    dispatcher,
    graph,
    clock,
    log,
    [Symbol.asyncDispose]: async () => {
      await dispatcher.stop();
      await graph.close();
    },
  };
}

function queue(
  db: Queryable,
  key: string,
  to: string,
  options: { message?: WhatsAppMessage; fallback?: boolean } = {},
): Promise<string> {
  return enqueueMessage(db, {
    orgId: ORG.easymo,
    to,
    message: options.message ?? textMessage(`message ${key}`),
    idempotencyKey: key,
    ...(options.fallback ? { fallbackTemplate: TEMPLATE } : {}),
  });
}

/** The recipient wrote to us `agoMs` before the clock's time. */
function wroteAgo(db: Queryable, h: Harness, waId: string, agoMs: number): Promise<Date> {
  return recordInbound(db, {
    waId,
    orgId: ORG.easymo,
    at: new Date(h.clock.now().getTime() - agoMs),
  });
}

interface OutboxRow {
  status: string;
  wamid: string | null;
  attempts: number;
  next_attempt_at: Date;
  sent_at: Date | null;
  last_error_code: number | null;
}

async function row(db: Queryable, id: string): Promise<OutboxRow> {
  const [found] = await db.query<OutboxRow>(
    `select status, wamid, attempts, next_attempt_at, sent_at, last_error_code
       from public.wa_outbox where id = $1`,
    [id],
  );
  return found;
}

dbTest("dispatcher sends a due message and stores Meta's wamid", async (db) => {
  await using h = await harness(db);
  await wroteAgo(db, h, ALINE, HOUR);
  const id = await queue(db, "happy", ALINE, { fallback: true });
  const summary = await h.dispatcher.drain();
  assert.deepEqual(summary, {
    claimed: 1,
    sent: 1,
    failed: 0,
    retried: 0,
    deferred: 0,
    throttledMs: 0,
  });
  const sent = await row(db, id);
  assert.equal(sent.status, "sent");
  assert.equal(sent.attempts, 1);
  assert.equal(sent.wamid, h.graph.accepted[0].wamid);
  assert.deepEqual(sent.sent_at, h.clock.now());
  // Inside the window: the free-form message itself went out.
  assert.deepEqual(h.graph.accepted[0].body, {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: ALINE,
    ...textMessage("message happy").body,
  });
  // Statuses now find it.
  assert.equal(
    await applyStatus(db, { wamid: sent.wamid!, status: "delivered", at: h.clock.now() }),
    true,
  );
  // Nothing left: a second drain does nothing.
  assert.equal((await h.dispatcher.drain()).claimed, 0);
});

dbTest("dispatcher resends as the fallback template on 131047", async (db) => {
  await using h = await harness(db, {
    responses: { [ALINE]: [{ code: 131047 }], [ERIC]: [{ code: 131047 }] },
  });
  // Our record says the window is open, Meta disagrees.
  await wroteAgo(db, h, ALINE, HOUR);
  await wroteAgo(db, h, ERIC, HOUR);
  const withFallback = await queue(db, "re-1", ALINE, { fallback: true });
  const without = await queue(db, "re-2", ERIC);
  const summary = await h.dispatcher.drain();
  assert.equal(summary.sent, 1);
  assert.equal(summary.failed, 1);

  const aline = h.graph.requests.filter((r) => (r.body as { to: string }).to === ALINE);
  assert.deepEqual(aline.map((r) => (r.body as { type: string }).type), ["text", "template"]);
  const sent = await row(db, withFallback);
  assert.equal(sent.status, "sent");
  assert.equal(sent.wamid, aline[1].wamid);
  assert.equal(sent.last_error_code, 131047);
  assert.deepEqual(h.graph.accepted[0].body.template, TEMPLATE.body.template);

  const failed = await row(db, without);
  assert.equal(failed.status, "failed");
  assert.equal(failed.last_error_code, 131047);
});

dbTest("dispatcher chooses the template up front when the window is closed", async (db) => {
  await using h = await harness(db);
  await wroteAgo(db, h, ALINE, 25 * HOUR);
  const closed = await queue(db, "closed", ALINE, { fallback: true });
  // Never wrote to us at all: no window either.
  const stranger = await queue(db, "stranger", NINA, { fallback: true });
  // Open window: the message itself.
  await wroteAgo(db, h, ERIC, 23 * HOUR);
  const open = await queue(db, "open", ERIC, { fallback: true });
  await h.dispatcher.drain();

  assert.equal(h.graph.requests.length, 3, "no free-form attempt outside the window");
  const typeFor = (to: string) => h.graph.accepted.find((m) => m.to === to)?.body.type;
  assert.equal(typeFor(ALINE), "template");
  assert.equal(typeFor(NINA), "template");
  assert.equal(typeFor(ERIC), "text");
  for (const id of [closed, stranger, open]) assert.equal((await row(db, id)).status, "sent");
  assert.ok(h.log.lines.some((l) => l.event === "wa.outbox.template_chosen"));
});

dbTest("dispatcher backs off on 130429 and succeeds later", async (db) => {
  await using h = await harness(db, { responses: { [ALINE]: [{ code: 130429 }] } });
  const id = await queue(db, "busy", ALINE);
  const first = await h.dispatcher.dispatchDue();
  assert.equal(first.retried, 1);
  let current = await row(db, id);
  assert.equal(current.status, "queued");
  assert.equal(current.attempts, 1);
  assert.equal(current.last_error_code, 130429);
  // Attempt 1, base 2000 ms, jitter 0.5: 1000 + 0.5 × 1000.
  assert.equal(current.next_attempt_at.getTime() - h.clock.now().getTime(), 1500);
  // Meta said slow down: the bucket is empty, nothing is claimed until it refills.
  assert.ok((await h.dispatcher.dispatchDue()).throttledMs > 0);

  h.clock.advance(1000);
  assert.equal((await h.dispatcher.drain()).claimed, 0, "not due yet");
  h.clock.advance(500);
  assert.equal((await h.dispatcher.drain()).sent, 1);
  current = await row(db, id);
  assert.equal(current.status, "sent");
  assert.equal(current.attempts, 2);
});

dbTest("dispatcher requeues a 131056 after the pair interval; others proceed", async (db) => {
  await using h = await harness(db, { responses: { [ALINE]: [{ code: 131056 }] } });
  const a = await queue(db, "pair-a", ALINE);
  const e = await queue(db, "pair-e", ERIC);
  const summary = await h.dispatcher.drain();
  assert.equal(summary.sent, 1);
  assert.equal(summary.retried, 1);
  assert.equal((await row(db, e)).status, "sent");
  const waiting = await row(db, a);
  assert.equal(waiting.status, "queued");
  assert.equal(waiting.next_attempt_at.getTime() - h.clock.now().getTime(), 6000);

  h.clock.advance(6000);
  assert.equal((await h.dispatcher.drain()).sent, 1);
  assert.equal((await row(db, a)).status, "sent");
});

dbTest("dispatcher marks 131026 failed without retrying", async (db) => {
  await using h = await harness(db, { responses: { [ALINE]: [{ code: 131026 }] } });
  const id = await queue(db, "gone", ALINE);
  assert.equal((await h.dispatcher.drain()).failed, 1);
  h.clock.advance(HOUR);
  assert.equal((await h.dispatcher.drain()).claimed, 0);
  const failed = await row(db, id);
  assert.equal(failed.status, "failed");
  assert.equal(failed.attempts, 1);
  assert.equal(failed.last_error_code, 131026);
  assert.equal(h.graph.requests.length, 1);
});

dbTest("dispatcher fails 131048 and 131049 without retry and warns staff", async (db) => {
  await using h = await harness(db, {
    responses: { [ALINE]: [{ code: 131048 }], [ERIC]: [{ code: 131049 }] },
  });
  const a = await queue(db, "spam", ALINE);
  const e = await queue(db, "eco", ERIC);
  assert.equal((await h.dispatcher.drain()).failed, 2);
  assert.equal((await row(db, a)).last_error_code, 131048);
  assert.equal((await row(db, e)).last_error_code, 131049);
  const alerts = h.log.lines.filter((l) => l.event === "wa.outbox.alert_staff");
  assert.deepEqual(alerts.map((l) => [l.level, l.code]).sort(), [
    ["warn", 131048],
    ["warn", 131049],
  ]);
  // Logs carry ids and codes, never the recipient.
  assert.ok(!JSON.stringify(h.log.lines).includes(ALINE));
});

dbTest("dispatcher retries network errors and gives up after maxAttempts", async (db) => {
  const graph = await startFakeGraph();
  try {
    let calls = 0;
    const flaky: typeof fetch = (input, init) => {
      calls += 1;
      return calls === 1 ? Promise.reject(new TypeError("connection reset")) : fetch(input, init);
    };
    const clock = manualClock();
    const dispatcher = createDispatcher({
      db,
      transport: createGraphAdapter({
        token: graph.token,
        phoneNumberId: graph.phoneNumberId,
        baseUrl: graph.baseUrl,
        fetch: flaky,
      }),
      log: memoryLogger(),
      now: clock.now,
      random: () => 0,
    });
    const id = await queue(db, "flaky", ALINE);
    assert.equal((await dispatcher.drain()).retried, 1);
    const retrying = await row(db, id);
    assert.equal(retrying.status, "queued");
    assert.equal(retrying.last_error_code, 0);
    clock.advance(1000);
    assert.equal((await dispatcher.drain()).sent, 1);
    assert.equal((await row(db, id)).attempts, 2);
  } finally {
    await graph.close();
  }

  // Nothing answers: after maxAttempts the message fails.
  const clock = manualClock();
  const dead = createDispatcher({
    db,
    transport: createGraphAdapter({
      token: "t",
      phoneNumberId: "1",
      fetch: () => Promise.reject(new TypeError("connection refused")),
    }),
    log: memoryLogger(),
    now: clock.now,
    maxAttempts: 3,
    random: () => 0,
  });
  const id = await queue(db, "dead", ERIC);
  const outcomes: string[] = [];
  for (let i = 0; i < 3; i++) {
    const summary = await dead.drain();
    outcomes.push(summary.failed ? "failed" : summary.retried ? "retried" : "none");
    clock.advance(HOUR);
  }
  assert.deepEqual(outcomes, ["retried", "retried", "failed"]);
  const failed = await row(db, id);
  assert.equal(failed.status, "failed");
  assert.equal(failed.attempts, 3);
});

dbTest("dispatcher keeps two messages to one user pairIntervalMs apart, in order", async (db) => {
  await using h = await harness(db);
  const [first, second] = await db.transaction(async (tx) => [
    await queue(tx, "seq-1", ALINE),
    await queue(tx, "seq-2", ALINE),
  ]);
  const other = await queue(db, "seq-other", ERIC);

  const round = await h.dispatcher.drain();
  assert.equal(round.sent, 2, "the first to Aline and the one to Eric");
  // The second to Aline waits for the first, then is pushed back by the pair gate.
  assert.equal(round.deferred, 1);
  assert.equal((await row(db, other)).status, "sent");
  const a = await row(db, first);
  assert.equal(a.status, "sent");
  const deferred = await row(db, second);
  assert.equal(deferred.status, "queued");
  assert.equal(deferred.attempts, 0, "a deferral is not an attempt");
  assert.equal(deferred.next_attempt_at.getTime() - a.sent_at!.getTime(), 6000);
  h.clock.advance(5999);
  assert.equal((await h.dispatcher.drain()).claimed, 0);

  h.clock.advance(1);
  assert.equal((await h.dispatcher.drain()).sent, 1);
  const b = await row(db, second);
  assert.ok(b.sent_at!.getTime() - a.sent_at!.getTime() >= 6000);
  const toAline = h.graph.accepted.filter((m) => m.to === ALINE);
  assert.deepEqual(toAline.map((m) => m.wamid), [a.wamid, b.wamid]);
});

dbTest(
  "dispatcher sends a user's messages queued in one transaction in the order queued",
  async (db) => {
    // Queued within the same millisecond (PGlite's clock ticks in milliseconds), so only the
    // queue's own order can tell them apart.
    await using h = await harness(db, { pairIntervalMs: 0 });
    const keys = Array.from({ length: 12 }, (_, i) => `burst-${String(i).padStart(2, "0")}`);
    await db.transaction(async (tx) => {
      for (const key of keys) await queue(tx, key, ALINE);
    });
    for (let round = 0; round < keys.length; round++) await h.dispatcher.drain();
    const sent = h.graph.accepted.filter((m) => m.to === ALINE)
      .map((m) => (m.body as { text?: { body?: string } }).text?.body);
    assert.deepEqual(sent, keys.map((key) => `message ${key}`));
  },
);

dbTest(
  "dispatcher sends a message just queued even when its clock lags the database's",
  async (db) => {
    // The worker's clock a little behind the database's (another machine, or a millisecond
    // truncated): the row carries the database's now(), and is due all the same.
    await using h = await harness(db, { now: () => new Date(Date.now() - 5_000) });
    const id = await queue(db, "lagging-clock", ALINE);
    assert.equal((await h.dispatcher.drain()).sent, 1);
    assert.equal((await row(db, id)).status, "sent");
  },
);

dbTest("dispatcher holds a user's later message while an earlier one backs off", async (db) => {
  await using h = await harness(db, {
    pairIntervalMs: 0,
    responses: { [ALINE]: [{ code: 131000 }] },
  });
  const first = await queue(db, "fifo-1", ALINE);
  const second = await queue(db, "fifo-2", ALINE);
  const round = await h.dispatcher.drain();
  assert.equal(round.claimed, 1);
  assert.equal(round.retried, 1);
  assert.equal((await row(db, second)).status, "queued");
  h.clock.advance(HOUR);
  await h.dispatcher.drain();
  await h.dispatcher.drain();
  const toAline = h.graph.accepted.filter((m) => m.to === ALINE);
  assert.deepEqual(toAline.map((m) => m.wamid), [
    (await row(db, first)).wamid,
    (await row(db, second)).wamid,
  ]);
});

dbTest("dispatcher stays within perNumberPerSecond", async (db) => {
  await using h = await harness(db, { perNumberPerSecond: 2 });
  const recipients = [
    "250788000001",
    "250788000002",
    "250788000003",
    "250788000004",
    "250788000005",
  ];
  for (const [i, to] of recipients.entries()) await queue(db, `rate-${i}`, to);
  const start = h.clock.now().getTime();
  const summary = await h.dispatcher.drain();
  assert.equal(summary.sent, 5);
  const times = (await db.query<{ sent_at: Date }>(
    "select sent_at from public.wa_outbox order by sent_at",
  )).map((r) => r.sent_at.getTime() - start);
  // A burst of 2, then one every 500 ms.
  assert.deepEqual(times, [0, 0, 500, 1000, 1500]);
  assert.ok(h.clock.sleeps.length >= 3);
});

dbTest("dispatcher after a 131047 status webhook sends the fallback template", async (db) => {
  await using h = await harness(db);
  await wroteAgo(db, h, ALINE, HOUR);
  const id = await queue(db, "async-re", ALINE, { fallback: true });
  await h.dispatcher.drain();
  const { wamid } = await row(db, id);
  assert.equal(
    await applyStatus(db, {
      wamid: wamid!,
      status: "failed",
      at: h.clock.now(),
      errors: [{ code: 131047, title: "Re-engagement message" }],
    }),
    true,
  );
  h.clock.advance(6000);
  assert.equal((await h.dispatcher.drain()).sent, 1);
  assert.deepEqual(h.graph.accepted.map((m) => m.body.type), ["text", "template"]);
  const resent = await row(db, id);
  assert.equal(resent.status, "sent");
  assert.equal(resent.wamid, h.graph.accepted[1].wamid);
});

dbTest("dispatcher with the local adapter marks messages sent", async (db) => {
  const dispatcher = createDispatcher({ db, transport: createLocalAdapter(), log: memoryLogger() });
  const id = await queue(db, "local", ALINE);
  assert.equal((await dispatcher.drain()).sent, 1);
  const sent = await row(db, id);
  assert.equal(sent.status, "sent");
  assert.match(sent.wamid!, /^wamid\.local\./);
});

dbTest("recoverStale() requeues rows a crashed worker left sending", async (db) => {
  await using h = await harness(db);
  const stale = await queue(db, "stale", ALINE);
  const fresh = await queue(db, "fresh", ERIC);
  const now = h.clock.now().getTime();
  await db.query(
    "update public.wa_outbox set status = 'sending', attempts = 1, updated_at = $2 where id = $1",
    [stale, new Date(now - 10 * 60_000)],
  );
  await db.query(
    "update public.wa_outbox set status = 'sending', attempts = 1, updated_at = $2 where id = $1",
    [fresh, new Date(now - 1000)],
  );
  assert.equal(await h.dispatcher.recoverStale({ olderThanMs: 5 * 60_000 }), 1);
  assert.equal((await row(db, fresh)).status, "sending");
  assert.equal((await h.dispatcher.drain()).sent, 1);
  const resent = await row(db, stale);
  assert.equal(resent.status, "sent");
  assert.equal(resent.attempts, 2);
  assert.ok(h.log.lines.some((l) => l.event === "wa.outbox.recovered_stale"));
});

dbTest("start() runs the loop in the background until stop()", async (db) => {
  const log = memoryLogger();
  const dispatcher = createDispatcher({ db, transport: createLocalAdapter(), log });
  dispatcher.start({ intervalMs: 5 });
  assert.equal(dispatcher.running, true);
  assert.throws(() => dispatcher.start({ intervalMs: 5 }), TypeError);
  try {
    const id = await queue(db, "loop", ALINE);
    let status = "queued";
    for (let i = 0; i < 400 && status !== "sent"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await row(db, id)).status;
    }
    assert.equal(status, "sent");
  } finally {
    await dispatcher.stop();
  }
  assert.equal(dispatcher.running, false);
  // Stopped: a new message stays queued.
  const later = await queue(db, "after-stop", ERIC);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal((await row(db, later)).status, "queued");
  assert.deepEqual(log.lines.filter((l) => l.level === "error"), []);
});

Deno.test("createDispatcher() rejects nonsensical limits", () => {
  const base = {
    db: { query: () => Promise.resolve([]) },
    transport: createLocalAdapter(),
    log: memoryLogger(),
  };
  assert.throws(() => createDispatcher({ ...base, perNumberPerSecond: 0 }), RangeError);
  assert.throws(() => createDispatcher({ ...base, maxAttempts: 1.5 }), RangeError);
  assert.throws(() => createDispatcher({ ...base, pairIntervalMs: -1 }), RangeError);
});

dbTest("two dispatchers draining at once send each message once", async (db) => {
  const sends = new Map<string, number>();
  const counting = {
    send(to: string) {
      sends.set(to, (sends.get(to) ?? 0) + 1);
      return Promise.resolve({ ok: true as const, wamid: `wamid.count.${crypto.randomUUID()}` });
    },
  };
  const recipients = Array.from({ length: 30 }, (_, i) => `2507880${String(i).padStart(5, "0")}`);
  for (const [i, to] of recipients.entries()) await queue(db, `both-${i}`, to);
  const make = () =>
    createDispatcher({ db, transport: counting, log: memoryLogger(), batchSize: 7 });
  const [a, b] = await Promise.all([make().drain(), make().drain()]);
  assert.equal(a.sent + b.sent, 30);
  assert.deepEqual([...sends.values()].filter((count) => count !== 1), []);
  assert.equal(sends.size, 30);
});
