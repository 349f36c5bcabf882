import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import type { Queryable } from "@shared/db/types.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { ORG, USER } from "@testing/seed.ts";
import { sampleTrace } from "@testing/traces.ts";
import { TraceSink } from "./trace_sink.ts";

const NO_ORG = "f0000000-0000-4000-8000-00000000000f";

function sinkOver(db: Queryable, options: { maxBatch?: number; maxBuffered?: number } = {}) {
  const log = memoryLogger();
  return { log, sink: new TraceSink({ db, log, intervalMs: 60_000, ...options }) };
}

dbTest("traces: every field is stored as recorded", async (db) => {
  const { sink, log } = sinkOver(db);
  const convo = crypto.randomUUID();
  sink.record(
    sampleTrace({
      trace_id: "wamid.HBgM1",
      agent_id: "waiter",
      convo_id: convo,
      ok: false,
      error_code: "RATE_LIMIT",
      duration_ms: 12.5,
      result: { ok: false, error: { code: "RATE_LIMIT", msg: "Slow down" } },
      over_budget: true,
      replayed: true,
    }),
  );
  await sink.flush();
  const rows = await db.query<Record<string, unknown>>(
    `select tool, org_id, user_id, agent_id, convo_id, ok, error_code, duration_ms, bytes,
       over_budget, replayed from public.tool_calls where trace_id = 'wamid.HBgM1'`,
  );
  assert.deepEqual(rows, [{
    tool: "t.one",
    org_id: ORG.easymo,
    user_id: USER.aline,
    agent_id: "waiter",
    convo_id: convo,
    ok: false,
    error_code: "RATE_LIMIT",
    duration_ms: 12.5,
    bytes: JSON.stringify({ ok: false, error: { code: "RATE_LIMIT", msg: "Slow down" } }).length,
    over_budget: true,
    replayed: true,
  }]);
  assert.deepEqual(log.lines, []);
});

// Text a column can carry as it is, and text with control characters (the column is then
// written element by element): each batch once.
const PLAIN = ["NULL", "a,b", "{x}", 'say "hi"', "back\\slash", " spaced ", "é🙂"];
const CONTROL = [...PLAIN, "nul\0byte", "line\nbreak\t"];

for (const [label, odd] of [["plain", PLAIN], ["control characters", CONTROL]] as const) {
  dbTest(`traces: no one record's values can lose the rest of its batch (${label})`, async (db) => {
    const { sink, log } = sinkOver(db);
    for (const [i, value] of odd.entries()) {
      sink.record(sampleTrace({ trace_id: `odd-${i}`, agent_id: value, tool: value }));
    }
    // An org deleted since the call (or never there), and ids that are not uuids.
    sink.record(sampleTrace({ trace_id: "gone-org", org_id: NO_ORG }));
    sink.record(
      sampleTrace({ trace_id: "odd-ids", org_id: "beaver", user_id: "svc", convo_id: "x" }),
    );
    sink.record(sampleTrace({ trace_id: "ok-row" }));
    await sink.flush();
    assert.deepEqual(log.lines, []);
    const rows = await db.query<
      { trace_id: string; tool: string; agent_id: string; org: string; user_id: string }
    >(
      `select trace_id, tool, agent_id, org_id::text as org, user_id::text from public.tool_calls
       where trace_id like 'odd-%' or trace_id in ('gone-org', 'ok-row') order by id`,
    );
    assert.equal(rows.length, odd.length + 3);
    assert.deepEqual(
      rows.slice(0, odd.length).map((row) => [row.tool, row.agent_id]),
      odd.map((value) => {
        const stored = value.replaceAll("\0", "");
        return [stored, stored];
      }),
    );
    const byTrace = Object.fromEntries(rows.map((row) => [row.trace_id, row]));
    assert.equal(byTrace["gone-org"].org, null);
    assert.deepEqual([byTrace["odd-ids"].org, byTrace["odd-ids"].user_id], [null, null]);
    assert.deepEqual([byTrace["ok-row"].org, byTrace["ok-row"].user_id], [ORG.easymo, USER.aline]);
  });
}

dbTest("traces: a full batch is written without waiting for the timer", async (db) => {
  const { sink } = sinkOver(db, { maxBatch: 3 });
  for (let i = 0; i < 7; i++) sink.record(sampleTrace({ trace_id: `batch-${i}` }));
  // Two batches of three went on their own; flush sends the seventh.
  await sink.flush();
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.tool_calls where trace_id like 'batch-%'",
  );
  assert.equal(n, 7);
});

dbTest("traces: an org's traces go with the org", async (db) => {
  const [org] = await db.query<{ id: string }>(
    "insert into public.orgs (slug, name) values ('short-lived', 'Short lived') returning id",
  );
  const { sink } = sinkOver(db);
  sink.record(sampleTrace({ trace_id: "short-1", org_id: org.id }));
  sink.record(sampleTrace({ trace_id: "kept-1" }));
  await sink.flush();
  await db.query("delete from public.orgs where id = $1", [org.id]);
  const rows = await db.query<{ trace_id: string }>(
    "select trace_id from public.tool_calls where trace_id in ('short-1', 'kept-1')",
  );
  assert.deepEqual(rows, [{ trace_id: "kept-1" }]);
});

dbTest(
  "traces: a failed write is logged with what it dropped; the next batch lands",
  async (db) => {
    let down = true;
    const flaky: Queryable = {
      query: (text, params) =>
        down ? Promise.reject(new Error("connection refused")) : db.query(text, params),
    };
    const { sink, log } = sinkOver(flaky);
    sink.record(sampleTrace({ trace_id: "lost-1" }));
    sink.record(sampleTrace({ trace_id: "lost-2" }));
    await sink.flush();
    assert.deepEqual(log.lines.map((line) => [line.level, line.event, line.dropped]), [
      ["error", "trace_flush_failed", 2],
    ]);
    down = false;
    sink.record(sampleTrace({ trace_id: "landed-1" }));
    await sink.flush();
    const rows = await db.query<{ trace_id: string }>(
      "select trace_id from public.tool_calls where trace_id in ('lost-1', 'lost-2', 'landed-1')",
    );
    assert.deepEqual(rows, [{ trace_id: "landed-1" }]);
  },
);

dbTest("traces: while writes lag, batches beyond the cap are dropped and logged", async (db) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const slow: Queryable = {
    query: async (text, params) => {
      await held;
      return await db.query(text, params);
    },
  };
  const { sink, log } = sinkOver(slow, { maxBatch: 2, maxBuffered: 4 });
  for (let i = 0; i < 8; i++) sink.record(sampleTrace({ trace_id: `lag-${i}` }));
  // Two batches wait (four records): the third and fourth are over the cap.
  assert.deepEqual(log.lines.map((line) => [line.event, line.dropped]), [
    ["trace_dropped", 2],
    ["trace_dropped", 2],
  ]);
  release();
  await sink.flush();
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.tool_calls where trace_id like 'lag-%'",
  );
  assert.equal(n, 4);
});

dbTest("traces: a result JSON cannot hold is recorded with size 0, not thrown", async (db) => {
  const { sink, log } = sinkOver(db);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  sink.record(sampleTrace({ trace_id: "big", result: { ok: true, data: { n: 10n } } }));
  sink.record(sampleTrace({ trace_id: "cyclic", result: cyclic }));
  await sink.flush();
  assert.deepEqual(log.lines, []);
  const rows = await db.query<{ trace_id: string; bytes: number }>(
    "select trace_id, bytes from public.tool_calls where trace_id in ('big', 'cyclic') order by id",
  );
  assert.deepEqual(rows, [{ trace_id: "big", bytes: 0 }, { trace_id: "cyclic", bytes: 0 }]);
});
