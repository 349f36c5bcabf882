import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { openPostgres } from "./postgres_js.ts";
import type { Database } from "./types.ts";

const caller = { sub: USER.aline, role: "authenticated" as const };
const SESSION_SQL = "select current_user as who, " +
  "coalesce(current_setting('request.jwt.claims', true), '') as claims, " +
  "current_setting('statement_timeout') as timeout, " +
  "current_setting('transaction_read_only') as read_only";

// A pool of one connection, so the statement after a call surely reuses its connection.
function oneConnection(db: TestDatabase): Database {
  return db.url ? openPostgres(db.url, { max: 1 }) : db;
}

async function assertConnectingRole(db: Database): Promise<void> {
  const [session] = await db.query<Record<string, string>>(SESSION_SQL);
  assert.equal(session.who, "postgres");
  assert.equal(session.claims, "");
  assert.equal(session.timeout, "0");
  assert.equal(session.read_only, "off");
}

dbTest("openCallerReads() runs each query as the caller under RLS, read-only", async (db) => {
  const reads = db.openCallerReads(caller, { statementTimeoutMs: 2_000 });
  const [session] = await reads.query<Record<string, string>>(SESSION_SQL);
  assert.equal(session.who, "authenticated");
  assert.equal(JSON.parse(session.claims).sub, USER.aline);
  assert.equal(session.timeout, "2s");
  assert.equal(session.read_only, "on");
  // RLS applies: Aline sees only her tenants' orgs.
  const orgs = await reads.query<{ id: string }>("select id from public.orgs order by id");
  assert.deepEqual(orgs.map((org) => org.id), [ORG.easymo]);
  // A write fails: the transaction is read-only.
  await assert.rejects(reads.query("update public.orgs set name = name"), /read-only/);
  await reads.end();
  await assert.rejects(reads.query("select 1"), /ended/);
});

dbTest(
  "openCallerReads() never leaves the caller's role or claims on the connection after a failing or timed-out query",
  async (db, backend) => {
    const pool = oneConnection(db);
    try {
      const reads = pool.openCallerReads(caller, { statementTimeoutMs: 50 });
      // Sent without waiting, all three in one flight: a failure, a timeout, a good query.
      const failing = reads.query("select 1 / 0");
      const slow = reads.query("select pg_sleep(2)");
      const fine = reads.query<{ who: string }>("select current_user as who");
      await assert.rejects(failing, /division by zero/);
      if (backend === "postgres") await assert.rejects(slow, /statement timeout/);
      else await slow.catch(() => {}); // PGlite does not enforce statement_timeout
      assert.deepEqual(await fine, [{ who: "authenticated" }]);
      // Ended before a query is answered: the connection is given back only after its commit.
      const abandoned = pool.openCallerReads(caller, { statementTimeoutMs: 50 });
      abandoned.query("select pg_sleep(0.02)").catch(() => {});
      await Promise.all([reads.end(), abandoned.end()]);
      await assertConnectingRole(pool);
    } finally {
      if (pool !== db) await pool.close();
    }
  },
);

dbTest(
  "openCallerReads() runs `before` as the connecting role and a failing guard stops the first query",
  async (db) => {
    const reads = db.openCallerReads(caller, {
      before: { text: "select current_user as who, $1::int as n", params: [7] },
      guard: { text: "select 1 / 0" },
    });
    // Postgres reports the aborted transaction, PGlite the guard's own error.
    await assert.rejects(reads.query("select 1"), /division by zero|transaction is aborted/);
    assert.deepEqual(await reads.before(), [{ who: "postgres", n: 7 }]);
    // Only the first query's transaction runs the guard.
    assert.deepEqual(await reads.query("select current_user as who"), [{ who: "authenticated" }]);
    await reads.end();
    // Without any query, before() sends the statement on its own.
    const idle = db.openCallerReads(caller, { before: { text: "select 2 as n" } });
    assert.deepEqual(await idle.before(), [{ n: 2 }]);
    await idle.end();
    await assertConnectingRole(db);
  },
);

dbTest("openCallerReads() hands claims with quotes and backslashes over intact", async (db) => {
  const claims = { ...caller, email: "o'brien\\'; reset role; --@x.rw", note: "E'\\x00\"" };
  const reads = db.openCallerReads(claims);
  const [row] = await reads.query<{ claims: string; who: string }>(
    "select current_setting('request.jwt.claims') as claims, current_user as who",
  );
  await reads.end();
  assert.deepEqual(JSON.parse(row.claims), claims);
  assert.equal(row.who, "authenticated");
});

dbTest(
  "openCallerReads() gives auth.uid() the user id, and nothing for a subject that is none",
  async (db) => {
    const uid = async (sub: string) => {
      const reads = db.openCallerReads({ sub, role: "authenticated" });
      try {
        const [row] = await reads.query<{ sub: string }>(
          "select current_setting('request.jwt.claim.sub') as sub",
        );
        return row.sub;
      } finally {
        await reads.end();
      }
    };
    assert.equal(await uid(USER.aline), USER.aline);
    // A NUL cannot travel in a statement (PGlite refused the whole message): it stays in the JSON.
    assert.equal(await uid(`${USER.aline}\0`), "");
    assert.equal(await uid("o'brien"), "");
  },
);

dbTest(
  "transactions commit all or nothing and leave no role behind",
  async (db, backend) => {
    const pool = oneConnection(db);
    try {
      // A failed statement the work swallowed still rolls everything back, with its error.
      await assert.rejects(
        pool.transaction(async (tx) => {
          await tx.query(
            "insert into public.tool_calls (tool, trace_id, ok, duration_ms) values ('t', 'swallowed', true, 1)",
          );
          await tx.query("select 1 / 0").catch(() => {});
          return "done";
        }),
        /division by zero|rolled back/, // postgres.js: the statement's error; PGlite: the rollback
      );
      // A caller the database refuses to become runs nothing, and nothing as the connecting role.
      await assert.rejects(
        pool.asCaller({ role: "no_such_role" as "anon" }, (tx) =>
          tx.query(
            "insert into public.tool_calls (tool, trace_id, ok, duration_ms) values ('t', 'as-owner', true, 1)",
          )),
      );
      await assert.rejects(
        pool.asCaller(caller, (tx) => tx.query("select pg_sleep(2)"), { statementTimeoutMs: 50 })
          .then(() => {
            if (backend === "pglite") {
              throw new Error("statement timeout"); // PGlite has none
            }
          }),
        /statement timeout/,
      );
      const written = await pool.query("select trace_id from public.tool_calls where tool = 't'");
      assert.deepEqual(written, []);
      await assertConnectingRole(pool);
      assert.equal(
        await pool.transaction(async (tx) => (await tx.query("select 1 as n")).length),
        1,
      );
    } finally {
      if (pool !== db) await pool.close();
    }
  },
);

const slowRead = defineTool({
  name: "test.slow_read",
  title: "Slow read",
  description: "Reads for longer than its timeout.",
  category: "test",
  input: z.object({ fail: z.boolean() }),
  output: z.object({ n: z.number() }),
  examples: [{ input: { fail: false } }],
  sideEffects: "none",
  latencyBudgetMs: 10,
  timeoutMs: 100,
  async execute(input, ctx) {
    await ctx.db.query(input.fail ? "select 1 / 0" : "select pg_sleep(1)");
    return { n: 1 };
  },
});

dbTest(
  "a pipelined read that fails or times out leaves the next call on its connection as the connecting role",
  async (db, backend) => {
    const pool = oneConnection(db);
    const rt = await createTestRuntime(pool, { tools: [slowRead] });
    try {
      const failed = await rt.callAs(USER.aline, "test.slow_read", { fail: true });
      assert.equal(failed.ok, false);
      assert.notEqual(failed.error.code, "RATE_LIMIT");
      if (backend === "postgres") {
        const timedOut = await rt.callAs(USER.aline, "test.slow_read", { fail: false });
        assert.equal(timedOut.error.code, "TIMEOUT");
      }
      await assertConnectingRole(pool);
      await rt.platform.traces.flush();
    } finally {
      if (pool !== db) await rt.platform.close();
    }
  },
);
