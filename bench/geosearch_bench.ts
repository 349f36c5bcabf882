/**
 * `maps_geosearch` (kind driver) through the pipeline against the bare
 * indexed query giving the same answer, on Postgres 15 with 100,000
 * generated drivers around Kigali. Prints, before deno bench's own groups,
 * an interleaved run (contender and baseline alternate call by call) with
 * p50/p95 of each and their ratios (goal: p95 at most 2× bare), and
 * EXPLAIN (ANALYZE) of the bare query showing the GiST index.
 *
 * Run: `TEST_DATABASE_URL=postgres://… deno bench -A bench/geosearch_bench.ts`
 * (skipped with a note without a Postgres server).
 *
 * @module
 */
import assert from "node:assert/strict";
import { openTestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

const DRIVERS = 100_000;
const REMERA = { lat: -1.9557, lng: 30.1123 };
const RADIUS = 2000;
const LIMIT = 10;
const ROUNDS = 400;

/** The bare query: the index box, the exact chord, availability, rounding, nearest first. */
const BARE_SQL = `
  select d.id, round(private.earth_metres((select private.earth_point($1, $2)),
           private.earth_point(round(l.lat::numeric, 3)::float8, round(l.lng::numeric, 3)::float8)))::int
           as distance
  from private.driver_locations l join public.drivers d on d.id = l.driver_id
  where l.earth operator(extensions.<@) extensions.cube_enlarge((select private.earth_point($1, $2)), $3, 3)
    and extensions.cube_distance(l.earth, (select private.earth_point($1, $2)))
        <= 2 * 6378168 * sin($3 / (2 * 6378168.0))
    and d.org_id = $4 and d.is_active and d.available_until > now() and d.vehicle_type = 'moto'
  order by extensions.cube_distance(l.earth, (select private.earth_point($1, $2))), d.id
  limit $5`;

const url = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
if (!url) {
  console.log("geosearch_bench: set TEST_DATABASE_URL to a Postgres 15 server; skipped");
} else {
  if (!Deno.env.get("TEST_DATABASE_URL")) Deno.env.set("TEST_DATABASE_URL", url);
  const db = await openTestDatabase("postgres");
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into public.drivers (id, org_id, display_name, phone, vehicle_type, plate, available_until)
       select gen_random_uuid(), $1, 'Bench driver ' || n, '+25079' || lpad(n::text, 7, '0'),
              case when n % 3 = 0 then 'cab' else 'moto' end,
              'R' || chr(65 + n % 26) || chr(65 + (n / 26) % 26) || ' ' || lpad((n % 1000)::text, 3, '0')
                || ' ' || chr(65 + (n / 676) % 26),
              now() + interval '2 hours'
       from generate_series(1, $2::int) as n`,
      [ORG.easymo, DRIVERS],
    );
    // Every round must run the search: the default limits would answer most with RATE_LIMIT.
    await tx.query("update public.orgs set tool_policy = $2 where id = $1", [
      ORG.easymo,
      {
        rate_limits: {
          maps_geosearch: {
            per_user: { limit: 1e9, window_sec: 1 },
            per_tenant: { limit: 1e9, window_sec: 1 },
          },
        },
      },
    ]);
    // Spread over greater Kigali (about 28 × 33 km); a fixed seed keeps runs comparable.
    await tx.query("select setseed(0.42)");
    await tx.query(
      `insert into private.driver_locations (driver_id, lat, lng)
       select d.id, -1.85 - random() * 0.25, 29.95 + random() * 0.30
       from public.drivers d where d.display_name like 'Bench driver %'`,
    );
  });
  await db.exec("analyze public.drivers; analyze private.driver_locations");
  const rt = await createTestRuntime(db);
  const bareParams = [REMERA.lat, REMERA.lng, RADIUS, ORG.easymo, LIMIT];
  const bare = () => db.query<{ id: string; distance: number }>(BARE_SQL, bareParams);
  const args = {
    ...REMERA,
    radius: RADIUS,
    kind: "driver",
    filters: { vehicle_type: "moto" },
    limit: LIMIT,
  };
  const tool = () => rt.callAs(USER.aline, "maps_geosearch", args);

  // The same answer.
  const fromTool = await tool();
  assert.ok(fromTool.ok, JSON.stringify(fromTool));
  const expected = await bare();
  assert.deepEqual(
    fromTool.data.results.map((r: { id: string; distance: number }) => [r.id, r.distance]),
    expected.map((r) => [r.id, r.distance]),
  );

  const plan = await db.query<Record<string, string>>(
    `explain (analyze, costs off, timing off, summary off) ${BARE_SQL}`,
    bareParams,
  );
  console.log(`\nEXPLAIN (ANALYZE) of the bare query, ${DRIVERS} drivers:`);
  console.log(plan.map((row) => `  ${Object.values(row)[0]}`).join("\n"));
  assert.match(plan.map((r) => Object.values(r)[0]).join("\n"), /driver_locations_earth_idx/);

  for (let i = 0; i < 30; i++) await Promise.all([bare(), tool()]);
  const times = { bare: [] as number[], tool: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    for (
      const [name, run]
        of (i % 2 ? [["bare", bare], ["tool", tool]] : [["tool", tool], ["bare", bare]]) as [
          "bare" | "tool",
          () => Promise<unknown>,
        ][]
    ) {
      const start = performance.now();
      const answer = await run();
      times[name].push(performance.now() - start);
      if (name === "tool") assert.ok((answer as { ok: boolean }).ok, JSON.stringify(answer));
    }
  }
  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))];
  const row = (name: "bare" | "tool") =>
    `${name.padEnd(5)} p50 ${pct(times[name], 0.5).toFixed(2)} ms  p95 ${
      pct(times[name], 0.95).toFixed(2)
    } ms`;
  console.log(
    `\nmaps_geosearch (driver, ${RADIUS} m, limit ${LIMIT}) vs bare, ${ROUNDS} interleaved rounds:`,
  );
  console.log(`  ${row("bare")}\n  ${row("tool")}`);
  console.log(
    `  ratio p50 ${(pct(times.tool, 0.5) / pct(times.bare, 0.5)).toFixed(2)}×  p95 ${
      (pct(times.tool, 0.95) / pct(times.bare, 0.95)).toFixed(2)
    }× (goal p95 ≤ 2×)\n`,
  );

  Deno.bench({ name: "bare indexed query", group: "geosearch-100k", baseline: true }, async () => {
    await bare();
  });
  Deno.bench({ name: "maps_geosearch through the pipeline", group: "geosearch-100k" }, async () => {
    const answer = await tool();
    if (!answer.ok) throw new Error(JSON.stringify(answer));
  });
  globalThis.addEventListener("unload", () => {
    void db.dispose();
  });
}
