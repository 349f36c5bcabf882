/**
 * What the invoke pipeline costs, measured beside its baselines in the same
 * run (deno bench prints each group's ratio to its baseline):
 *
 * - in-process: a bare zod parse vs a full pipeline call of a tool that
 *   needs no database (lookup, allowlist, validation, rate limit, output
 *   check, trace queued);
 * - rls-read (per backend): a bare primary-key lookup, the same lookup in an
 *   RLS transaction as the caller, and `search_supabase` through the
 *   pipeline doing that lookup.
 *
 * Run: `deno task bench` (Postgres 15 too when TEST_DATABASE_URL is set).
 *
 * @module
 */
import { z } from "zod";
import { openTestDatabase, testBackends } from "@testing/db.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

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

const UNLIMITED = { limit: 1e9, window_sec: 1 };
const claims = { sub: USER.aline, role: "authenticated" as const };
const productId = "d1000000-0000-4000-8000-000000000001";

for (const backend of testBackends()) {
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

  if (backend === "pglite") {
    Deno.bench("zod safeParse, 8 fields", { group: "in-process", baseline: true }, () => {
      eightFields.safeParse(args);
    });
    Deno.bench("pipeline call, no-database tool, 8 fields", { group: "in-process" }, async () => {
      const result = await rt.callAs(USER.aline, "bench.echo", args);
      if (!result.ok) throw new Error(JSON.stringify(result));
    });
  }

  Deno.bench(
    `bare pk lookup [${backend}]`,
    { group: `rls-read-${backend}`, baseline: true },
    async () => {
      await db.query(lookup, [productId]);
    },
  );
  Deno.bench(`RLS-scoped pk lookup [${backend}]`, { group: `rls-read-${backend}` }, async () => {
    await db.asCaller(claims, (tx) => tx.query(lookup, [productId]));
  });
  Deno.bench(`search_supabase through the pipeline [${backend}]`, {
    group: `rls-read-${backend}`,
  }, async () => {
    const result = await rt.callAs(USER.aline, "search_supabase", {
      table: "products",
      columns: ["id", "sku", "name", "price"],
      filters: [{ column: "id", op: "eq", value: productId }],
      limit: 1,
    });
    if (!result.ok) throw new Error(JSON.stringify(result));
  });
}
