import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { ModelUnavailableError } from "./model.ts";
import { createModelFailureMonitor, MODEL_FAILURE_REASON } from "./model_failures.ts";

const UNAUTHORIZED = new ModelUnavailableError("Model API answered HTTP 401", {
  reason: "http",
  status: 401,
  code: "invalid_api_key",
});

async function tickets(db: TestDatabase, org: string = ORG.easymo) {
  return await db.query<{ id: string; status: string }>(
    "select id, status from public.staff_tickets where reason = $1 and org_id = $2",
    [MODEL_FAILURE_REASON, org],
  );
}

async function monitorOver(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const clock = { now: new Date("2026-11-23T10:00:00Z") };
  const monitor = createModelFailureMonitor({
    platform: rt.platform,
    threshold: 3,
    windowMs: 10 * 60_000,
    now: () => clock.now,
  });
  const fail = (traceId: string, org: string = ORG.easymo) =>
    monitor.record({
      orgId: org,
      convoId: null,
      traceId,
      agentId: "pharmacy",
      error: UNAUTHORIZED,
    });
  const later = (minutes: number) => {
    clock.now = new Date(clock.now.getTime() + minutes * 60_000);
  };
  return { rt, fail, later };
}

dbTest(
  "a turn re-processed counts once, and failures older than the window do not add up",
  async (db) => {
    const { fail, later } = await monitorOver(db);
    await fail("wamid.a");
    await fail("wamid.a");
    later(11);
    await fail("wamid.b");
    await fail("wamid.c");
    assert.deepEqual(await tickets(db), []);
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.model_failures",
    );
    assert.equal(row.n, 3);
    // Each org counts its own failures.
    await fail("wamid.d", ORG.beaver);
    assert.deepEqual(await tickets(db), []);
    await fail("wamid.e");
    assert.equal((await tickets(db)).length, 1);
    assert.deepEqual(await tickets(db, ORG.beaver), []);
  },
);

dbTest(
  "failures stored in the reverse order of their times still raise the ticket",
  async (db) => {
    // Under load, turns failing at once stamp their time before they insert: the last to be
    // stored may hold the earliest time (seen in CI: three timeouts, no ticket).
    const rt = await createTestRuntime(db);
    const times = ["10:00:03", "10:00:02", "10:00:01"].map((t) => new Date(`2026-11-23T${t}Z`));
    const monitor = createModelFailureMonitor({
      platform: rt.platform,
      threshold: 3,
      windowMs: 10 * 60_000,
      now: () => times.shift()!,
    });
    for (const traceId of ["late", "middle", "early"]) {
      await monitor.record({
        orgId: ORG.easymo,
        convoId: null,
        traceId,
        agentId: "pharmacy",
        error: UNAUTHORIZED,
      });
    }
    assert.equal((await tickets(db)).length, 1);
  },
);

dbTest(
  "failures arriving together raise exactly one ticket; a new one only after it is resolved and the period ends",
  async (db) => {
    const { fail, later } = await monitorOver(db);
    await Promise.all(["t1", "t2", "t3", "t4", "t5", "t6"].map((id) => fail(id)));
    const [ticket, ...more] = await tickets(db);
    assert.ok(ticket);
    assert.deepEqual(more, []);
    // Still failing later: the open ticket stands for it.
    later(70);
    await Promise.all(["t7", "t8", "t9"].map((id) => fail(id)));
    assert.equal((await tickets(db)).length, 1);
    // Resolved, yet it fails again: a new ticket.
    await db.query("update public.staff_tickets set status = 'resolved' where id = $1", [
      ticket.id,
    ]);
    later(1);
    await fail("t10");
    assert.equal((await tickets(db)).length, 2);
  },
);

dbTest(
  "model failures are readable by the org's staff only, and nobody but the server writes them",
  async (db) => {
    const { fail } = await monitorOver(db);
    await fail("wamid.rls");
    const as = (sub: string) => ({ role: "authenticated" as const, sub });
    const read = (sub: string) =>
      db.asCaller(as(sub), (tx) => tx.query("select trace_id from public.model_failures"));
    assert.deepEqual(await read(USER.jean), [{ trace_id: "wamid.rls" }]);
    assert.deepEqual(await read(USER.aline), []);
    assert.deepEqual(await read(USER.paul), []);
    await assert.rejects(
      db.asCaller(as(USER.jean), (tx) =>
        tx.query(
          `insert into public.model_failures (org_id, trace_id, reason) values ($1, 'forged', 'http')`,
          [ORG.easymo],
        )),
      /permission denied/,
    );
  },
);

dbTest("a failure that cannot be counted is logged and never thrown at the turn", async (db) => {
  const { rt } = await monitorOver(db);
  const monitor = createModelFailureMonitor({ platform: rt.platform });
  // An org that does not exist: the insert fails on its foreign key.
  await monitor.record({
    orgId: "f0000000-0000-4000-8000-00000000000f",
    convoId: null,
    traceId: "wamid.x",
    agentId: "pharmacy",
    error: UNAUTHORIZED,
  });
  const events = rt.log.lines.map((line) => line.event);
  assert.ok(events.includes("model_unavailable"));
  assert.ok(events.includes("model_failure_not_recorded"));
});
