import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { purgeExpiredKeys } from "./idempotency.ts";

// A fixed time before any test runs: the purge judges by the earlier of this and the database's.
const T0 = new Date("2026-01-05T12:00:00Z");
const HOUR = 60 * 60 * 1000;

async function addKeys(
  db: TestDatabase,
  prefix: string,
  count: number,
  expiresAt: Date,
): Promise<void> {
  await db.query(
    `insert into private.idempotency_keys (scope, key, tool, fingerprint, expires_at)
     select 'test:scope', $1 || n, 'a_tool', 'f', $2::timestamptz
       from generate_series(1, $3::int) n`,
    [prefix, expiresAt.toISOString(), count],
  );
}

async function keysLeft(db: TestDatabase): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    "select key from private.idempotency_keys where scope = 'test:scope' order by key",
  );
  return rows.map((row) => row.key);
}

dbTest("purgeExpiredKeys() deletes expired keys in batches and leaves live ones", async (db) => {
  await addKeys(db, "old", 25, new Date(T0.getTime() - HOUR));
  await addKeys(db, "live", 3, new Date(T0.getTime() + HOUR));
  // Two batches of ten: twenty go, five wait for the next purge.
  assert.equal(await purgeExpiredKeys(db, { now: T0, batchSize: 10, maxBatches: 2 }), 20);
  assert.equal((await keysLeft(db)).filter((key) => key.startsWith("old")).length, 5);
  assert.equal(await purgeExpiredKeys(db, { now: T0, batchSize: 10, maxBatches: 2 }), 5);
  assert.deepEqual(await keysLeft(db), ["live1", "live2", "live3"]);
  assert.equal(await purgeExpiredKeys(db, { now: T0 }), 0);
  await assert.rejects(() => purgeExpiredKeys(db, { batchSize: 0 }), RangeError);
});

dbTest(
  "purgeExpiredKeys() never takes a key the database holds live, however far ahead the clock",
  async (db) => {
    // Claimed now by the database's clock (24 hours to live), judged by a clock years ahead.
    await db.query(
      `insert into private.idempotency_keys (scope, key, tool, fingerprint)
       values ('test:scope', 'claimed', 'a_tool', 'f')`,
    );
    assert.equal(await purgeExpiredKeys(db, { now: new Date("2100-01-01T00:00:00Z") }), 0);
    assert.deepEqual(await keysLeft(db), ["claimed"]);
  },
);

dbTest(
  "the platform's sweep purges expired keys once per period, by the platform's clock",
  async (db) => {
    let now = T0;
    const rt = await createTestRuntime(db, { now: () => now });
    try {
      await addKeys(db, "old", 3, new Date(T0.getTime() - HOUR));
      await addKeys(db, "live", 1, new Date(T0.getTime() + HOUR));
      assert.equal((await rt.platform.sweep()).keysPurged, 3);
      assert.deepEqual(await keysLeft(db), ["live1"]);

      // Expired since, but the purge is not due again within its period (ten minutes).
      await addKeys(db, "later", 1, new Date(T0.getTime() - HOUR));
      now = new Date(T0.getTime() + 9 * 60_000);
      assert.equal((await rt.platform.sweep()).keysPurged, 0);
      assert.deepEqual(await keysLeft(db), ["later1", "live1"]);

      // Past the period it runs again; the live key outlives its hour only by the clock.
      now = new Date(T0.getTime() + 10 * 60_000);
      assert.equal((await rt.platform.sweep()).keysPurged, 1);
      assert.deepEqual(await keysLeft(db), ["live1"]);
      now = new Date(T0.getTime() + 2 * HOUR);
      assert.equal((await rt.platform.sweep()).keysPurged, 1);
      assert.deepEqual(await keysLeft(db), []);
    } finally {
      await rt.platform.traces.flush();
    }
  },
);
