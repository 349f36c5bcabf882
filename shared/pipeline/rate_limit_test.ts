import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import type { Queryable } from "@shared/db/types.ts";
import { ORG, USER } from "@testing/seed.ts";
import {
  admitCall,
  type BucketKey,
  type CallLimits,
  callLimits,
  DEFAULT_TENANT_CEILING,
  LeasedRateLimiter,
  purgeIdleBuckets,
  takeTokens,
} from "./rate_limit.ts";

const perMinute = (limit: number) => ({ limit, windowSec: 60 });
const keyOf = (subject: string, tool = "t.one"): BucketKey => ({
  orgId: ORG.easymo,
  tool,
  subject,
});

async function tokensOf(db: Queryable, subject: string, tool = "t.one"): Promise<number> {
  const [row] = await db.query<{ tokens: number }>(
    "select tokens from private.rate_buckets where org_id = $1 and tool = $2 and subject = $3",
    [ORG.easymo, tool, subject],
  );
  return Math.floor(Number(row.tokens));
}

dbTest("rate buckets: one user's exhausted limit leaves the other user served", async (db) => {
  const limits: CallLimits = { perUser: perMinute(2), perTenant: perMinute(10) };
  const granted = [];
  for (let i = 0; i < 3; i++) granted.push(await takeTokens(db, keyOf(USER.aline), limits));
  assert.deepEqual(granted, [1, 1, 0]);
  assert.equal(await takeTokens(db, keyOf(USER.jean), limits), 1);
  // Another tool is another bucket.
  assert.equal(await takeTokens(db, keyOf(USER.aline, "t.two"), limits), 1);
});

dbTest("rate buckets: the tenant limit caps all users; a refusal takes nothing", async (db) => {
  const limits: CallLimits = { perUser: perMinute(2), perTenant: perMinute(3) };
  assert.equal(await takeTokens(db, keyOf(USER.aline), limits), 1);
  assert.equal(await takeTokens(db, keyOf(USER.aline), limits), 1);
  // Aline's own bucket is empty: refused, and the tenant keeps its last token.
  assert.equal(await takeTokens(db, keyOf(USER.aline), limits), 0);
  assert.equal(await tokensOf(db, ""), 1);
  assert.equal(await takeTokens(db, keyOf(USER.jean), limits), 1);
  // Now the tenant is empty: Jean is refused and keeps the token left in his bucket.
  assert.equal(await takeTokens(db, keyOf(USER.jean), limits), 0);
  assert.equal(await tokensOf(db, USER.jean), 1);
  assert.equal(await takeTokens(db, keyOf(USER.grace), limits), 0);
});

dbTest("rate buckets: a batch is granted only as far as both buckets go", async (db) => {
  const limits: CallLimits = { perUser: perMinute(5), perTenant: perMinute(8) };
  assert.equal(await takeTokens(db, keyOf(USER.aline), limits, 10), 5);
  assert.equal(await takeTokens(db, keyOf(USER.jean), limits, 10), 3);
  assert.equal(await takeTokens(db, keyOf(USER.grace), limits, 10), 0);
});

dbTest("rate buckets: refill at limit per window", async (db) => {
  const limits: CallLimits = { perUser: perMinute(2), perTenant: perMinute(10) };
  await takeTokens(db, keyOf(USER.aline), limits, 2);
  assert.equal(await takeTokens(db, keyOf(USER.aline), limits), 0);
  // Thirty seconds later, one of the two tokens per minute is back.
  await db.query("update private.rate_buckets set updated_at = updated_at - interval '30 seconds'");
  assert.equal(await takeTokens(db, keyOf(USER.aline), limits, 2), 1);
});

dbTest("purgeIdleBuckets() forgets buckets idle for over a day, in batches", async (db) => {
  const limits: CallLimits = { perUser: perMinute(2), perTenant: perMinute(10) };
  const users = [USER.aline, USER.jean, USER.grace, USER.eric];
  for (const user of users) await takeTokens(db, keyOf(user), limits);
  for (const user of users) await takeTokens(db, keyOf(user, "t.two"), limits);
  // Ten buckets: the tenant's and four callers' for each tool. Jean's and the tenant's were
  // last used two days ago, Aline's 23 hours ago.
  await db.query(
    `update private.rate_buckets set updated_at = now() - interval '2 days'
     where subject in ($1, '')`,
    [USER.jean],
  );
  await db.query(
    "update private.rate_buckets set updated_at = now() - interval '23 hours' where subject = $1",
    [USER.aline],
  );
  // Four are idle. One batch of three a run: three go now, the last one next run.
  assert.equal(await purgeIdleBuckets(db, { batch: 3, maxBatches: 1 }), 3);
  assert.equal(await purgeIdleBuckets(db, { batch: 3, maxBatches: 1 }), 1);
  assert.equal(await purgeIdleBuckets(db), 0);
  const left = await db.query<{ tool: string; subject: string }>(
    "select tool, subject from private.rate_buckets order by tool, subject",
  );
  assert.deepEqual(
    left,
    ["t.one", "t.two"].flatMap((tool) =>
      [USER.aline, USER.eric, USER.grace].sort().map((subject) => ({ tool, subject }))
    ),
  );
  // A forgotten bucket comes back full: Jean's limit of two is his again.
  assert.equal(await takeTokens(db, keyOf(USER.jean), limits, 5), 2);
});

dbTest("rate buckets: N concurrent takes against a limit of K grant exactly K", async (db) => {
  const limits: CallLimits = { perUser: perMinute(100), perTenant: perMinute(7) };
  const users = [USER.aline, USER.jean, USER.grace, USER.eric];
  const granted = await Promise.all(
    Array.from({ length: 40 }, (_, i) => takeTokens(db, keyOf(users[i % users.length]), limits)),
  );
  assert.equal(granted.reduce((sum, n) => sum + n, 0), 7);
});

dbTest("rate buckets: invalid limits are refused by the database", async (db) => {
  await assert.rejects(
    takeTokens(db, keyOf(USER.aline), { perUser: perMinute(0), perTenant: perMinute(1) }),
  );
  await assert.rejects(
    takeTokens(db, keyOf(""), { perUser: perMinute(1), perTenant: perMinute(1) }),
  );
});

dbTest("admitCall replays a completed call without taking a token", async (db) => {
  const limits: CallLimits = { perUser: perMinute(1), perTenant: perMinute(10) };
  const entry = {
    scope: `${ORG.easymo}:${USER.aline}`,
    key: "k1",
    tool: "t.one",
    fingerprint: "f",
  };
  const stored = { ok: true, data: { id: 1 } };
  await db.query(
    `insert into private.idempotency_keys (scope, key, tool, fingerprint, response)
     values ($1, $2, $3, $4, $5)`,
    [entry.scope, entry.key, entry.tool, entry.fingerprint, stored],
  );
  assert.deepEqual(await admitCall(db, keyOf(USER.aline), limits, entry), {
    kind: "replay",
    result: stored,
  });
  // Other arguments under that key are not a replay: they need a token.
  const other = { ...entry, fingerprint: "g" };
  assert.deepEqual(await admitCall(db, keyOf(USER.aline), limits, other), { kind: "granted" });
  assert.deepEqual(await admitCall(db, keyOf(USER.aline), limits, other), { kind: "limited" });
  // Still a replay while limited.
  assert.equal((await admitCall(db, keyOf(USER.aline), limits, entry)).kind, "replay");
});

dbTest("leased tokens: concurrent takes in two instances pass exactly the limit", async (db) => {
  const limits: CallLimits = { perUser: perMinute(1000), perTenant: perMinute(9) };
  const instances = [new LeasedRateLimiter({ db }), new LeasedRateLimiter({ db })];
  const taken = await Promise.all(
    Array.from({ length: 50 }, (_, i) => instances[i % 2].take(keyOf(USER.aline), limits)),
  );
  assert.equal(taken.filter(Boolean).length, 9);
  assert.equal(await instances[0].take(keyOf(USER.aline), limits), false);
});

dbTest("leased tokens: batches grow for a busy key; the rest is given back", async (db) => {
  let now = 0;
  const hour = 3_600_000;
  const limiter = new LeasedRateLimiter({ db, now: () => now, leaseMs: hour });
  // 6000 a day refill 250 per hour-long lease: batches may grow to 250 (the clock barely refills).
  const daily = { limit: 6000, windowSec: 86_400 };
  const limits: CallLimits = { perUser: daily, perTenant: daily };
  for (let i = 0; i < 40; i++) assert.equal(await limiter.take(keyOf(USER.aline), limits), true);
  // 1 + 2 + 4 + 8 + 16 + 32 = 63 tokens leased for 40 calls, in six round trips.
  assert.equal(await tokensOf(db, USER.aline), 6000 - 63);
  // A call within the lease costs no round trip: it answers synchronously.
  assert.equal(limiter.take(keyOf(USER.aline), limits), true);
  // After the lease expires, the 22 unused tokens go back and a batch of 64 is leased.
  now += 2 * hour;
  assert.equal(await limiter.take(keyOf(USER.aline), limits), true);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(await tokensOf(db, USER.aline), 6000 - 63 + 22 - 64);
  assert.equal(await tokensOf(db, ""), 6000 - 63 + 22 - 64);
});

Deno.test("callLimits: the policy wins, then the tool's own, then the ceiling", () => {
  const tool = { perUser: perMinute(120), perTenant: null };
  assert.deepEqual(callLimits(tool), {
    perUser: perMinute(120),
    perTenant: DEFAULT_TENANT_CEILING,
  });
  assert.deepEqual(callLimits(tool, { ceiling: { limit: 50, windowSec: 1 } }).perTenant, {
    limit: 50,
    windowSec: 1,
  });
  // A tool whose cost is a shared capacity caps the tenant itself.
  assert.deepEqual(callLimits({ ...tool, perTenant: perMinute(120) }).perTenant, perMinute(120));
  // The tenant's ceiling for every tool, under the tool's own and the tool's entry.
  const all = { per_tenant: { limit: 30, window_sec: 60 } };
  assert.deepEqual(callLimits(tool, { policyAll: all }).perTenant, perMinute(30));
  assert.deepEqual(
    callLimits({ ...tool, perTenant: perMinute(120) }, { policyAll: all }).perTenant,
    perMinute(120),
  );
  assert.deepEqual(
    callLimits(tool, {
      policy: { per_user: { limit: 3, window_sec: 10 }, per_tenant: { limit: 50, window_sec: 60 } },
      policyAll: all,
    }),
    { perUser: { limit: 3, windowSec: 10 }, perTenant: perMinute(50) },
  );
  // A policy naming only the tenant's limit leaves the caller's to the tool.
  assert.deepEqual(callLimits(tool, { policy: { per_tenant: { limit: 2, window_sec: 1 } } }), {
    perUser: perMinute(120),
    perTenant: { limit: 2, windowSec: 1 },
  });
});

dbTest(
  "leased tokens: a busy key's next batch is asked for ahead, so no call waits",
  async (db) => {
    // The limiter's round trips, watched, so the calls below can be spread by them and not by a
    // guess at how long one takes (a fixed 50 ms pause failed on a loaded machine).
    const inFlight = new Set<Promise<unknown>>();
    const watched = new Proxy(db, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== "query" || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const sent: Promise<unknown> = value.apply(target, args);
          inFlight.add(sent);
          sent.finally(() => inFlight.delete(sent)).catch(() => {});
          return sent;
        };
      },
    });
    const landed = () => Promise.allSettled([...inFlight]);
    const limiter = new LeasedRateLimiter({ db: watched, leaseMs: 60_000 });
    const limits: CallLimits = { perUser: perMinute(100_000), perTenant: perMinute(100_000) };
    const key = keyOf(USER.aline);
    // Grow the batches (1, 2, 4, … 128): the first calls wait for their round trips.
    for (let i = 0; i < 255; i++) assert.equal(await limiter.take(key, limits), true);
    await landed();
    // From here every call is answered at once: when fewer than a quarter of a batch is left,
    // the next batch is already on its way, and it lands before the rest is spent.
    let waited = 0;
    for (let i = 0; i < 512; i++) {
      const taken = limiter.take(key, limits);
      if (taken instanceof Promise) {
        waited++;
        assert.equal(await taken, true);
      } else {
        assert.equal(taken, true);
        // Calls spread over time, as real ones are: every eighth call comes after the round trip
        // of a batch asked for ahead (if one was), so a batch asked early enough lands in time.
        if (i % 8 === 0) await landed();
      }
    }
    assert.equal(waited, 0);
  },
);
