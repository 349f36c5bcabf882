import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import type { JwtClaims } from "./types.ts";
import { ORG, USER } from "@testing/seed.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

async function seedTickets(db: Parameters<Parameters<typeof dbTest>[1]>[0]) {
  await db.query(
    `insert into public.staff_tickets (org_id, requester_user_id, channel, reason, summary)
     values ($1, $2, 'inbox', 'easymo issue', 's'), ($3, $4, 'inbox', 'beaver issue', 's')`,
    [ORG.easymo, USER.aline, ORG.beaver, USER.nina],
  );
}

dbTest("RLS: staff see their own org's tickets and nothing of another org", async (db) => {
  await seedTickets(db);
  const reasons = (sub: string) =>
    db.asCaller(
      as(sub),
      (tx) =>
        tx.query<{ reason: string }>("select reason from public.staff_tickets order by reason"),
    )
      .then((rows) => rows.map((row) => row.reason));
  assert.deepEqual(await reasons(USER.jean), ["easymo issue"]);
  assert.deepEqual(await reasons(USER.paul), ["beaver issue"]);
  // A customer sees only tickets they raised.
  assert.deepEqual(await reasons(USER.aline), ["easymo issue"]);
  assert.deepEqual(await reasons(USER.eric), []);
});

dbTest("RLS: a user cannot write into another org or act as someone else", async (db) => {
  const refused = async (sub: string, sql: string, params: unknown[]) => {
    await assert.rejects(
      db.asCaller(as(sub), (tx) => tx.query(sql, params)),
      (error: { code?: string }) => error.code === "42501",
    );
  };
  const insertTicket =
    `insert into public.staff_tickets (org_id, requester_user_id, channel, reason, summary)
     values ($1, $2, 'inbox', 'r', 's')`;
  await refused(USER.nina, insertTicket, [ORG.easymo, USER.nina]);
  await refused(USER.aline, insertTicket, [ORG.easymo, USER.jean]);
  await refused(
    USER.aline,
    "insert into public.analytics_events (org_id, event) values ($1, 'x')",
    [
      ORG.beaver,
    ],
  );
});

dbTest("RLS: updates outside the caller's rights change no rows", async (db) => {
  await seedTickets(db);
  const updated = (sub: string) =>
    db.asCaller(
      as(sub),
      (tx) => tx.query("update public.staff_tickets set status = 'resolved' returning id"),
    );
  // A customer and another org's staff change nothing; the org's staff do.
  assert.equal((await updated(USER.aline)).length, 0);
  assert.equal((await updated(USER.paul)).length, 1);
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.staff_tickets where status = 'resolved'",
  );
  assert.equal(n, 1);
});

dbTest("RLS: orgs, members and profiles are visible only within the caller's orgs", async (db) => {
  const slugs = await db.asCaller(
    as(USER.nina),
    (tx) => tx.query<{ slug: string }>("select slug from public.orgs"),
  );
  assert.deepEqual(slugs.map((row) => row.slug), ["beaver-paper"]);
  const phones = await db.asCaller(
    as(USER.paul),
    (tx) => tx.query<{ phone: string }>("select phone from public.profiles order by phone"),
  );
  assert.deepEqual(phones.map((row) => row.phone), ["+250788000010", "+250788000011"]);
  const anon = await db.asCaller(
    { role: "anon" },
    (tx) => tx.query("select 1 from public.businesses"),
  );
  assert.equal(anon.length, 0);
});

dbTest("RLS: the idempotency ledger is out of callers' reach", async (db) => {
  await assert.rejects(
    db.asCaller(as(USER.jean), (tx) => tx.query("select * from private.idempotency_keys")),
    (error: { code?: string }) => error.code === "42501",
  );
});

dbTest("asService() bypasses RLS for service tools", async (db) => {
  await seedTickets(db);
  const rows = await db.asService((tx) => tx.query("select 1 from public.staff_tickets"));
  assert.equal(rows.length, 2);
});

dbTest(
  "RLS: tenant fences read the membership views, which show only the caller's rows",
  async (db) => {
    // A policy calling the helper functions costs a third of a primary-key read per statement
    // (20261124001500_tenant_fences_as_views.sql); new tables must fence with the views too.
    const calling = await db.query<{ policy: string }>(
      `select c.relname || '.' || p.polname as policy
     from pg_policy p join pg_class c on c.oid = p.polrelid
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and concat(pg_get_expr(p.polqual, p.polrelid), ' ',
       pg_get_expr(p.polwithcheck, p.polrelid)) ~ 'private\\.my_(staff_)?org_ids\\(\\)'`,
    );
    assert.deepEqual(calling, []);
    const views = (sub: string) =>
      db.asCaller(as(sub), async (tx) => ({
        member: (await tx.query<{ org_id: string }>(
          "select org_id from private.my_memberships order by org_id",
        )).map((row) => row.org_id),
        staff: (await tx.query<{ org_id: string }>(
          "select org_id from private.my_staff_memberships",
        )).map((row) => row.org_id),
      }));
    assert.deepEqual(await views(USER.jean), { member: [ORG.easymo], staff: [ORG.easymo] });
    assert.deepEqual(await views(USER.paul), { member: [ORG.beaver], staff: [ORG.beaver] });
    assert.deepEqual((await views(USER.aline)).staff, []);
    // An anonymous caller may not read them at all.
    await assert.rejects(
      db.asCaller({ role: "anon" }, (tx) => tx.query("select * from private.my_memberships")),
      (error: { code?: string }) => error.code === "42501",
    );
  },
);
