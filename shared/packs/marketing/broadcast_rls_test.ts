/**
 * The broadcast tables under RLS on both databases, read and written as
 * `authenticated` directly (what PostgREST would run): staff of the org
 * only; a customer or another org's staff sees and writes nothing.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { seedTenantFixtures, TENANT_A, TENANT_B } from "@testing/tenant_fixtures.ts";
import type { JwtClaims } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

const TABLES = [
  "broadcast_templates",
  "marketing_opt_ins",
  "marketing_opt_outs",
  "broadcast_campaigns",
  "broadcast_sends",
];

dbTest("broadcast tables: staff read their own org's rows only, customers none", async (db) => {
  await seedTenantFixtures(db);
  const orgsSeen = (sub: string, table: string) =>
    db.asCaller(as(sub), (tx) =>
      tx.query<{ org_id: string }>(
        `select distinct org_id from public.${table} order by org_id`,
      )).then((rows) => rows.map((row) => row.org_id));
  for (const table of TABLES) {
    assert.deepEqual(await orgsSeen(TENANT_A.staff, table), [TENANT_A.org], table);
    assert.deepEqual(await orgsSeen(TENANT_B.staff, table), [TENANT_B.org], table);
    assert.deepEqual(await orgsSeen(TENANT_A.customer, table), [], table);
    assert.deepEqual(await orgsSeen(TENANT_A.vendor, table), [], table);
  }
});

dbTest("broadcast tables: nobody but the org's staff writes them", async (db) => {
  await seedTenantFixtures(db);
  const outcome = (sub: string, sql: string, params: unknown[]) =>
    db.asCaller(as(sub), (tx) => tx.query(sql, params)).then(
      (rows) => `ok ${rows.length}`,
      (error: { code?: string }) => error.code ?? "error",
    );
  const approve = `insert into public.broadcast_templates (org_id, name, language, meta_status)
                   values ($1, 'sneaky', 'en', 'approved') returning 1`;
  assert.equal(await outcome(TENANT_A.customer, approve, [TENANT_A.org]), "42501");
  assert.equal(await outcome(TENANT_B.staff, approve, [TENANT_A.org]), "42501");
  assert.equal(await outcome(TENANT_A.staff, approve, [TENANT_A.org]), "ok 1");
  // A customer cannot forge their own opt-in proof, nor cancel a campaign.
  assert.equal(
    await outcome(
      TENANT_A.customer,
      `update public.marketing_opt_ins set opted_out_at = null, agreed_text = 'forged'
       where org_id = $1 returning 1`,
      [TENANT_A.org],
    ),
    "ok 0",
  );
  assert.equal(
    await outcome(
      TENANT_B.staff,
      "update public.broadcast_campaigns set status = 'cancelled' where org_id = $1 returning 1",
      [TENANT_A.org],
    ),
    "ok 0",
  );
  // Sends and opt-outs are written by the service only.
  assert.equal(
    await outcome(
      TENANT_A.staff,
      `insert into public.broadcast_sends (campaign_id, org_id, user_id)
       select campaign_id, org_id, $2 from public.broadcast_sends where org_id = $1 limit 1
       returning 1`,
      [TENANT_A.org, TENANT_A.staff],
    ),
    "42501",
  );
});
