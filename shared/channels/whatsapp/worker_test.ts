import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { startTestStorage } from "@testing/storage.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { createWhatsAppWorker } from "./worker.ts";
import type { Queryable } from "@shared/db/types.ts";
import { ORG } from "@testing/seed.ts";
import { policyAllows } from "@shared/registry/tenant_policy.ts";

// Whose search_supabase buckets are kept.
async function rateBuckets(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ subject: string }>(
    // The packs' sweeps the worker runs take tokens of their own tools.
    "select subject from private.rate_buckets where tool = 'search_supabase' order by subject",
  );
  return rows.map((row) => row.subject);
}

// Buckets of callers (and the tenant) gone quiet two days ago or more, and one busy an hour ago.
async function idleBuckets(db: Queryable): Promise<void> {
  await db.query(
    `insert into private.rate_buckets (org_id, tool, subject, tokens, updated_at)
     select $1, 'search_supabase', subject, 1, now() - age::interval
     from (values ('', '2 days'), ('gone-1', '2 days'), ('gone-2', '3 days'),
                  ('recent', '1 hour')) as b(subject, age)`,
    [ORG.easymo],
  );
}

dbTest(
  "the worker's sweep, and a started worker on its own, forget idle rate buckets",
  async (db) => {
    const rt = await createTestRuntime(db);
    const worker = createWhatsAppWorker(rt, {
      conversation: () => Promise.reject(new Error("no messages in this test")),
      packSweepIntervalMs: 20,
    });
    try {
      // POST /sweep (pg_cron, deployed).
      await idleBuckets(db);
      assert.equal((await worker.sweep()).bucketsPurged, 3);
      assert.deepEqual(await rateBuckets(db), ["recent"]);
      // A long-running host's loop.
      await db.query("delete from private.rate_buckets where tool = 'search_supabase'");
      await idleBuckets(db);
      worker.start();
      for (let waited = 0; (await rateBuckets(db)).length > 1 && waited < 400; waited++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.deepEqual(await rateBuckets(db), ["recent"]);
    } finally {
      await worker.stop();
    }
  },
);

dbTest("a started worker runs the packs' sweeps on its own; stop() ends them", async (db) => {
  const storage = await startTestStorage(db);
  const rt = await createTestRuntime(db, { provide: [{ key: FILE_STORE, value: storage.files }] });
  const sweeps = rt.platform.packs.flatMap((pack) => pack.sweeps ?? []);
  assert.ok(sweeps.length >= 2, `the packs declare sweeps: ${sweeps}`);
  const worker = createWhatsAppWorker(rt, {
    conversation: () => Promise.reject(new Error("no messages in this test")),
    packSweepIntervalMs: 20,
  });
  const calls = async () => {
    await rt.platform.traces.flush();
    const rows = await db.query<{ tool: string; ok: boolean }>(
      "select tool, ok from public.tool_calls where tool = any($1) order by id",
      [sweeps],
    );
    return rows;
  };
  try {
    worker.start();
    let seen = await calls();
    for (let waited = 0; new Set(seen.map((row) => row.tool)).size < sweeps.length; waited++) {
      if (waited > 400) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = await calls();
    }
    // Every pack's sweep ran, without anyone calling POST /sweep, and each answered ok.
    assert.deepEqual(new Set(seen.map((row) => row.tool)), new Set(sweeps));
    assert.ok(seen.every((row) => row.ok), JSON.stringify(seen));
    // A tenant whose policy leaves a sweep's tool out (Beaver runs no rides) is not swept by it.
    const beaver = rt.platform.tenants.get(ORG.beaver)!;
    const refused = sweeps.filter((tool) => !policyAllows(beaver.policy, tool));
    assert.ok(refused.includes("ride_offers_sweep"), JSON.stringify(refused));
    const [beaverCalls] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.tool_calls where tool = any($1) and org_id = $2",
      [refused, ORG.beaver],
    );
    assert.equal(beaverCalls.n, 0);
    await worker.stop();
    const after = (await calls()).length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await calls()).length, after, "no sweep runs after stop()");
  } finally {
    await worker.stop();
    await storage.close();
  }
});
