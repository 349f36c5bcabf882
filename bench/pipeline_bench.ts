/**
 * What the invoke pipeline costs, measured beside its baselines in the same
 * process. Two reports:
 *
 * - deno bench groups with a baseline (its summary prints the ratio of means);
 * - before them, an interleaved run (contender and baseline alternate call by
 *   call) printing median and mean of each and their ratios, since deno bench
 *   shows no median.
 *
 * Groups:
 *
 * - in-process (per backend): a bare zod parse vs a full pipeline call of a
 *   tool that needs no database (lookup, allowlist, validation, leased rate
 *   token, output check, trace queued and flushed in batches);
 * - rls-read (per backend): a bare primary-key lookup; the same lookup as the
 *   caller in an RLS transaction (`asCaller`) and in one flight
 *   (`openCallerReads`: what the pipeline's reads stand on); and
 *   `search_supabase` through the pipeline doing that lookup (rate token,
 *   caller setup, query and commit).
 *
 * - over a link (Postgres only): the bare read, the one-flight read and
 *   `search_supabase` again, through a TCP link adding a 2 ms round trip
 *   (`testing/latency_link.ts`), about what a deployed function pays to reach
 *   its database. On loopback a round trip costs microseconds, so the ratios
 *   above measure CPU (client and server share this machine's cores); over the
 *   link they show how many round trips each one takes.
 *
 * Run: `deno task bench`; Postgres 15 too when `BENCH_DATABASE_URL` or
 * `TEST_DATABASE_URL` names a server (skipped with a note otherwise).
 *
 * @module
 */
import { z } from "zod";
import { openTestDatabase, testBackends } from "@testing/db.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { TraceSink } from "@shared/pipeline/trace_sink.ts";
import { sampleTrace } from "@testing/traces.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import type { Database } from "@shared/db/types.ts";
import { openPostgres } from "@shared/db/postgres_js.ts";
import { openLatencyLink } from "@testing/latency_link.ts";

const eightFields = z.object({
  sku: z.string().min(1),
  name: z.string().max(200),
  qty: z.int().positive(),
  price: z.number().nonnegative(),
  currency: z.string().length(3),
  venue_id: z.uuid(),
  notes: z.string().max(400).optional(),
  table_no: z.string().max(10).optional(),
});
const args = {
  sku: "BRO-BEEF",
  name: "Beef brochette",
  qty: 2,
  price: 1500,
  currency: "RWF",
  venue_id: "c0000000-0000-4000-8000-000000000002",
  notes: "no onions",
  table_no: "4",
};

const echo = defineTool({
  name: "bench.echo",
  title: "Echo",
  description: "Returns the line total; needs no database.",
  category: "bench",
  input: eightFields,
  output: z.object({ total: z.number() }),
  examples: [{ input: args }],
  sideEffects: "none",
  usesDatabase: false,
  execute: (input) => Promise.resolve({ total: input.qty * input.price }),
});

// Each caller's limit and the tenant's: the bench measures the check, never a refusal.
const UNLIMITED = {
  per_user: { limit: 1e9, window_sec: 1 },
  per_tenant: { limit: 1e9, window_sec: 1 },
};
const claims = { sub: USER.aline, role: "authenticated" as const };
const productId = "d1000000-0000-4000-8000-000000000001";
const searchArgs = {
  table: "products",
  columns: ["id", "sku", "name", "price"],
  filters: [{ column: "id", op: "eq", value: productId }],
  limit: 1,
};

const benchUrl = Deno.env.get("BENCH_DATABASE_URL");
if (benchUrl && !Deno.env.get("TEST_DATABASE_URL")) Deno.env.set("TEST_DATABASE_URL", benchUrl);
const backends = testBackends();
if (!backends.includes("postgres")) {
  console.log("note: Postgres 15 skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)");
}

/** Median and mean of contender and baseline, alternating call by call. */
async function interleaved(
  label: string,
  iterations: number,
  baseline: () => unknown,
  contender: () => unknown,
): Promise<void> {
  const base: number[] = [];
  const cont: number[] = [];
  for (let i = 0; i < iterations; i++) {
    // A synchronous baseline is not awaited: that would add a microtask to it.
    let start = performance.now();
    const pending = baseline();
    if (pending instanceof Promise) await pending;
    base.push(performance.now() - start);
    start = performance.now();
    await contender();
    cont.push(performance.now() - start);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  const [bm, cm, ba, ca] = [median(base), median(cont), mean(base), mean(cont)];
  console.log(
    `${label}: median ${us(cm)} vs ${us(bm)} = ${(cm / bm).toFixed(2)}x; ` +
      `mean ${us(ca)} vs ${us(ba)} = ${(ca / ba).toFixed(2)}x`,
  );
}

/**
 * What writing one trace row costs the database (five batches of 1,000, as
 * the pipeline sends them). On PGlite this runs on the caller's thread, so it
 * is part of every call's mean there.
 */
async function traceRowCost(db: Database, backend: string): Promise<void> {
  const sink = new TraceSink({ db, log: memoryLogger(), intervalMs: 60_000, maxBatch: 1_000_000 });
  const costs: number[] = [];
  for (let batch = 0; batch < 5; batch++) {
    for (let i = 0; i < 1000; i++) {
      sink.record(sampleTrace({ tool: "bench.echo", duration_ms: 0.004 }));
    }
    const start = performance.now();
    await sink.flush();
    costs.push(performance.now() - start);
  }
  // Milliseconds per batch of 1,000 rows are microseconds per row.
  const median = costs.sort((a, b) => a - b)[2];
  const where = backend === "pglite"
    ? "on the caller's thread, so part of every call's mean above"
    : "by the server, off the caller's thread";
  console.log(
    `trace row write [${backend}]: median ${median.toFixed(1)} µs per row ` +
      `(batches of 1,000; ${where})`,
  );
}

/** The reads again through a link with a 2 ms round trip (see the module comment). */
async function overALink(url: string, lookup: string): Promise<void> {
  const target = new URL(url);
  const link = openLatencyLink({ targetPort: Number(target.port), roundTripMs: 2 });
  target.port = String(link.port);
  const remote = openPostgres(target.href, { max: 4 });
  const rt = await createTestRuntime(remote, { traceIntervalMs: 250 });
  const bare = () => remote.query(lookup, [productId]);
  const label = (what: string) => `${what} vs bare pk lookup, 2 ms round trip [postgres]`;
  await interleaved("warm-up [postgres, 2 ms round trip]", 50, bare, bare);
  await interleaved(label("RLS-scoped pk lookup in one flight"), 300, bare, async () => {
    const reads = remote.openCallerReads(claims, { statementTimeoutMs: 4_000 });
    await reads.query(lookup, [productId]);
    void reads.end();
  });
  await interleaved(label("search_supabase through the pipeline"), 300, bare, async () => {
    const result = await rt.callAs(USER.aline, "search_supabase", searchArgs);
    if (!result.ok) throw new Error(JSON.stringify(result));
  });
  await interleaved(label("RLS-scoped pk lookup, asCaller"), 300, bare, () => {
    return remote.asCaller(claims, (tx) => tx.query(lookup, [productId]));
  });
  await rt.platform.close();
  await link.close();
}

for (const backend of backends) {
  const db = await openTestDatabase(backend);
  await db.query(
    `update public.orgs set tool_policy = $2 where id = $1`,
    [ORG.easymo, { rate_limits: { "bench.echo": UNLIMITED, search_supabase: UNLIMITED } }],
  );
  await db.query(
    `insert into public.products (id, org_id, business_id, sku, name, price, qty)
     values ($1, $2, 'c0000000-0000-4000-8000-000000000002', 'BENCH', 'Bench item', 100, 1)`,
    [productId, ORG.easymo],
  );
  // Traces flush on the production interval, so their batched insert is part of the cost.
  const rt = await createTestRuntime(db, { tools: [echo], traceIntervalMs: 250 });
  const lookup = "select id, sku, name, price from public.products where id = $1";

  const callEcho = async () => {
    const result = await rt.callAs(USER.aline, "bench.echo", args);
    if (!result.ok) throw new Error(JSON.stringify(result));
  };
  const bareLookup = () => db.query(lookup, [productId]);
  const callSearch = async () => {
    const result = await rt.callAs(USER.aline, "search_supabase", searchArgs);
    if (!result.ok) throw new Error(JSON.stringify(result));
  };
  // Warm up (prepared statements on every pooled connection, leases), then report medians.
  await interleaved(`warm-up [${backend}]`, 2_000, bareLookup, callSearch);
  await interleaved(`warm-up [${backend}]`, 20_000, () => eightFields.safeParse(args), callEcho);
  await interleaved(
    `no-database pipeline call vs zod safeParse [${backend}]`,
    50_000,
    () => eightFields.safeParse(args),
    callEcho,
  );
  await traceRowCost(db, backend);
  await interleaved(
    `RLS-scoped pk lookup in one flight, no pipeline, vs bare pk lookup [${backend}]`,
    3_000,
    bareLookup,
    async () => {
      const reads = db.openCallerReads(claims, { statementTimeoutMs: 4_000 });
      await reads.query(lookup, [productId]);
      void reads.end();
    },
  );
  await interleaved(
    `search_supabase through the pipeline vs bare pk lookup [${backend}]`,
    3_000,
    bareLookup,
    callSearch,
  );
  if (db.url) await overALink(db.url, lookup);

  Deno.bench(`zod safeParse, 8 fields [${backend}]`, {
    group: `in-process-${backend}`,
    baseline: true,
  }, () => {
    eightFields.safeParse(args);
  });
  Deno.bench(`pipeline call, no-database tool, 8 fields [${backend}]`, {
    group: `in-process-${backend}`,
  }, callEcho);

  Deno.bench(
    `bare pk lookup [${backend}]`,
    { group: `rls-read-${backend}`, baseline: true },
    async () => {
      await db.query(lookup, [productId]);
    },
  );
  Deno.bench(`RLS-scoped pk lookup, asCaller [${backend}]`, {
    group: `rls-read-${backend}`,
  }, async () => {
    await db.asCaller(claims, (tx) => tx.query(lookup, [productId]));
  });
  // The floor under the pipeline: the same lookup as the caller in one flight, no pipeline.
  Deno.bench(`RLS-scoped pk lookup, one flight [${backend}]`, {
    group: `rls-read-${backend}`,
  }, async () => {
    const reads = db.openCallerReads(claims, { statementTimeoutMs: 4_000 });
    await reads.query(lookup, [productId]);
    void reads.end();
  });
  Deno.bench(`search_supabase through the pipeline [${backend}]`, {
    group: `rls-read-${backend}`,
  }, callSearch);
}
