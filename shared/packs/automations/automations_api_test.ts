/**
 * The `automations` schema as the Data API (PostgREST) serves it to staff
 * clients, on both databases, read as each role directly (what PostgREST
 * runs after `set role`): staff read their own org's rules and runs only, a
 * customer none, another org's staff none, an anonymous caller nothing at
 * all; the views are read-only.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { seedTenantFixtures, TENANT_A, TENANT_B } from "@testing/tenant_fixtures.ts";
import type { JwtClaims } from "@shared/db/types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });
const ANON: JwtClaims = { role: "anon" };

// A run of each org's fixture automation, and a service of each org beside a shared one.
async function seedRuns(db: TestDatabase) {
  await db.query(
    `insert into public.automation_runs (org_id, automation_id, trigger_key, status, started_at)
     select org_id, id, 'schedule:2026-11-27T08:00:00.000Z', 'unknown', now()
     from public.automations where org_id in ($1, $2)`,
    [TENANT_A.org, TENANT_B.org],
  );
  for (
    const [org, name] of [[null, "shared_probe"], [TENANT_A.org, "a_probe"], [
      TENANT_B.org,
      "b_probe",
    ]]
  ) {
    await db.query(
      `with s as (
         insert into public.services (org_id, name, title, kind, content_hash)
         values ($1, $2, $2, 'tenant_api', 'h') returning id, org_id, name)
       insert into automations.service_capabilities (service_id, org_id, service_name, content_hash)
       select id, org_id, name, 'h' from s`,
      [org, name],
    );
  }
}

/** What `claims` reads of a relation: its org ids, or the SQLSTATE it is refused with. */
function reader(db: TestDatabase) {
  return (claims: JwtClaims, relation: string, column = "org_id") =>
    db.asCaller(claims, (tx) =>
      tx.query<{ value: string | null }>(
        `select distinct ${column}::text as value from ${relation} order by 1`,
      )).then(
        (rows) => rows.map((row) => row.value ?? "shared"),
        (error: { code?: string }) => `refused ${error.code ?? "?"}`,
      );
}

dbTest(
  "the automations schema: staff read their own org's rules and runs, others nothing",
  async (db) => {
    await seedTenantFixtures(db);
    await seedRuns(db);
    const read = reader(db);
    for (const relation of ["automations.rules", "automations.runs"]) {
      assert.deepEqual(await read(as(TENANT_A.staff), relation), [TENANT_A.org], relation);
      assert.deepEqual(await read(as(TENANT_B.staff), relation), [TENANT_B.org], relation);
      // A customer of the org is a member, not staff: nothing.
      assert.deepEqual(await read(as(TENANT_A.customer), relation), [], relation);
      // Anonymous callers have no usage on the schema (PostgREST answers 401/403).
      assert.deepEqual(await read(ANON, relation), "refused 42501", relation);
    }
    // The runs carry their status (the unknown delivery staff must check).
    const runs = await db.asCaller(
      as(TENANT_A.staff),
      (tx) =>
        tx.query<{ status: string; name: string }>(
          `select r.status, a.name from automations.runs r join automations.rules a
       on a.id = r.automation_id`,
        ),
    );
    assert.deepEqual(runs, [{ status: "unknown", name: "probe automation" }]);
    // The capabilities: members read the shared rows and their own org's; anon nothing.
    const services = (claims: JwtClaims) =>
      read(claims, "automations.service_capabilities", "service_name");
    assert.deepEqual(await services(as(TENANT_A.staff)), ["a_probe", "shared_probe"]);
    assert.deepEqual(await services(as(TENANT_B.customer)), ["b_probe", "shared_probe"]);
    assert.equal(await services(ANON), "refused 42501");
  },
);

dbTest("the automations schema's views are read-only, even for staff", async (db) => {
  await seedTenantFixtures(db);
  await seedRuns(db);
  const write = (sql: string) =>
    db.asCaller(as(TENANT_A.staff), (tx) => tx.query(sql, [TENANT_A.org])).then(
      () => "ok",
      (error: { code?: string }) => error.code ?? "error",
    );
  assert.equal(
    await write(
      `insert into automations.rules (org_id, name, trigger, event, actions)
       values ($1, 'sneaky', '{"event": "message_received"}', 'message_received', '[]')`,
    ),
    "42501",
  );
  assert.equal(
    await write("update automations.runs set status = 'succeeded' where org_id = $1"),
    "42501",
  );
  assert.equal(await write("delete from automations.rules where org_id = $1"), "42501");
});

dbTest(
  "staff cannot make or change a rule through the table: only deploy_automation's checked save",
  async (db) => {
    await seedTenantFixtures(db);
    const write = (sql: string) =>
      db.asCaller(as(TENANT_A.staff), (tx) => tx.query(sql, [TENANT_A.org])).then(
        () => "ok",
        (error: { code?: string }) => error.code ?? "error",
      );
    // Another pack's event, an action no check saw: refused whatever the values.
    assert.equal(
      await write(
        `insert into public.automations (org_id, name, trigger, event, actions)
         values ($1, 'sneaky', '{"event": "video_job_finished"}', 'video_job_finished',
                 '[{"tool": "payment_settle", "args": {}}]')`,
      ),
      "42501",
    );
    for (
      const set of [
        `trigger = '{"event": "video_job_finished"}', event = 'video_job_finished'`,
        `actions = '[{"tool": "payment_settle", "args": {}}]'`,
        `condition = '{"path": "text", "op": "exists"}'`,
        `name = 'renamed'`,
      ]
    ) {
      assert.equal(await write(`update public.automations set ${set} where org_id = $1`), "42501");
    }
    // Pausing, resuming and deleting their own org's rules stays theirs.
    assert.equal(
      await write(
        "update public.automations set status = 'paused', updated_at = now() where org_id = $1",
      ),
      "ok",
    );
    const [rule] = await db.query<{ status: string; actions: unknown }>(
      "select status, actions from public.automations where org_id = $1",
      [TENANT_A.org],
    );
    assert.deepEqual(rule, { status: "paused", actions: [] });
    assert.equal(await write("delete from public.automations where org_id = $1"), "ok");
  },
);

dbTest(
  "the Slack webhook is kept and read through its functions by the org's staff only",
  async (db) => {
    await seedTenantFixtures(db);
    const call = (claims: JwtClaims, sql: string, params: unknown[]) =>
      db.asCaller(claims, (tx) => tx.query<{ url: string | null }>(sql, params)).then(
        (rows) => rows[0]?.url ?? null,
        (error: { code?: string }) => `refused ${error.code ?? "?"}`,
      );
    const put = (claims: JwtClaims, org: string, url: string) =>
      call(claims, "select 'kept' as url from private.slack_webhook_put($1, $2, now())", [
        org,
        url,
      ]);
    const read = (claims: JwtClaims, org: string) =>
      call(claims, "select private.slack_webhook_url($1) as url", [org]);
    const hook = "https://hooks.slack.com/services/T1/B1/secret";
    assert.equal(await put(as(TENANT_A.customer), TENANT_A.org, hook), "refused 42501");
    assert.equal(await put(as(TENANT_B.staff), TENANT_A.org, hook), "refused 42501");
    assert.equal(await put(ANON, TENANT_A.org, hook), "refused 42501");
    assert.equal(await put(as(TENANT_A.staff), TENANT_A.org, hook), "kept");
    assert.equal(await read(as(TENANT_A.staff), TENANT_A.org), hook);
    assert.equal(await read({ role: "service_role" }, TENANT_A.org), hook);
    // Anyone else learns nothing, not even that one is set.
    assert.equal(await read(as(TENANT_A.customer), TENANT_A.org), null);
    assert.equal(await read(as(TENANT_B.staff), TENANT_A.org), null);
    assert.equal(await read(ANON, TENANT_A.org), "refused 42501");
    // And the table itself stays closed to callers.
    assert.equal(
      await call(as(TENANT_A.staff), "select url from private.slack_webhooks", []),
      "refused 42501",
    );
  },
);
