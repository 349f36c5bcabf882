import assert from "node:assert/strict";
import type { Database } from "@shared/db/types.ts";
import { openPostgres } from "@shared/db/postgres_js.ts";
import { dbTest, leaseTestDatabase, runsOnPglite, testBackends } from "./db.ts";
import { makeResettable } from "./db_reset.ts";

// Every row of every table outside the system schemas, and every
// sequence's state: two databases with the same fingerprint hold the same data.
async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string; kind: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name, c.relkind::text as kind
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'S') and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_%'
      order by 1`,
  );
  const print: Record<string, string> = {};
  for (const { name, kind } of tables) {
    const [{ rows }] = await db.query<{ rows: string }>(
      kind === "S"
        ? `select last_value::text || ' ' || is_called::text as rows from ${name}`
        : `select coalesce(string_agg(t::text, '|' order by t::text), '') as rows from ${name} t`,
    );
    print[name] = rows;
  }
  return print;
}

// Writes of every kind a play makes: new rows (an identity column among them), a seed row changed,
// seed rows deleted (cascading to their children), a sequence moved, a trigger's writes.
async function scribble(db: Database): Promise<void> {
  const [org] = await db.query<{ id: string }>("select id from public.orgs order by id limit 1");
  await db.query(
    "insert into public.analytics_events (org_id, event) values ($1, 'test.one'), ($1, 'test.two')",
    [org.id],
  );
  await db.exec(
    "update public.places set name = 'Renamed' where slug = (select min(slug) from public.places)",
  );
  await db.exec("delete from public.property_viewing_hours");
  await db.exec("delete from public.venue_hours");
  await db.exec("select nextval('public.messages_seq_seq')");
}

dbTest(
  "reset() puts back every row and sequence a use changed, and only those tables",
  async (db) => {
    const seeded = await fingerprint(db);
    const resetter = await makeResettable(db);
    // Nothing changed yet: nothing to refill.
    assert.deepEqual(await resetter.reset(), []);
    await scribble(db);
    assert.notDeepEqual(await fingerprint(db), seeded);
    assert.ok((await resetter.countsDiffer()).includes('"public"."analytics_events"'));
    const refilled = await resetter.reset();
    assert.ok(refilled.includes('"public"."places"'), refilled.join());
    assert.ok(!refilled.includes('"public"."tariffs"'), refilled.join());
    assert.deepEqual(await fingerprint(db), seeded);
    assert.deepEqual(await resetter.countsDiffer(), []);
    // A second use after the reset is put back as well.
    await scribble(db);
    await resetter.reset();
    assert.deepEqual(await fingerprint(db), seeded);
  },
);

dbTest("catalogChanged() tells a schema or role change apart from data writes", async (db) => {
  const resetter = await makeResettable(db);
  await scribble(db);
  await resetter.reset();
  assert.equal(await resetter.catalogChanged(), false);
  await db.exec("create table public.reset_probe (id int)");
  assert.equal(await resetter.catalogChanged(), true);
});

const pgliteOnly = {
  ignore: !runsOnPglite(),
  sanitizeOps: false,
  sanitizeResources: false,
};

// The PGlite instance behind a leased database: the same one means the database was reused.
const instance = (db: Database) => (db as unknown as { pglite: unknown }).pglite;

Deno.test(
  "leaseTestDatabase() hands the same PGlite database out again, as seeded, its session as opened",
  pgliteOnly,
  async () => {
    const first = await leaseTestDatabase("pglite");
    const seeded = await fingerprint(first);
    const [opened] = await first.query(
      "select current_user, current_setting('search_path') as path",
    );
    await scribble(first);
    await first.exec(
      "set role authenticated; set search_path = public; select set_config('test.left', 'x', false)",
    );
    await first.dispose();
    const second = await leaseTestDatabase("pglite");
    try {
      // (Compared by identity: a failed assert.equal would print both WebAssembly instances.)
      assert.ok(instance(second) === instance(first), "not the same database");
      // The drivers' availability starts again from now at each lease (restartSeedClock).
      const { "public.drivers": _drivers, ...rest } = await fingerprint(second);
      const { "public.drivers": _before, ...expected } = seeded;
      assert.deepEqual(rest, expected);
      const [session] = await second.query(
        "select current_user, current_setting('search_path') as path",
      );
      assert.deepEqual(session, opened);
      const [{ left }] = await second.query<{ left: string | null }>(
        "select nullif(current_setting('test.left', true), '') as left",
      );
      assert.equal(left, null);
    } finally {
      await second.dispose();
    }
  },
);

Deno.test(
  "leaseTestDatabase() closes a database whose schema a use changed, and opens a fresh one",
  pgliteOnly,
  async () => {
    const first = await leaseTestDatabase("pglite");
    await first.exec("create table public.reset_probe (id int)");
    await first.dispose();
    const second = await leaseTestDatabase("pglite");
    try {
      assert.ok(instance(second) !== instance(first), "the changed database was reused");
      const [{ found }] = await second.query<{ found: string | null }>(
        "select to_regclass('public.reset_probe')::text as found",
      );
      assert.equal(found, null);
    } finally {
      await second.dispose();
    }
  },
);

const postgresOnly = {
  ignore: !testBackends().includes("postgres"),
  sanitizeOps: false,
  sanitizeResources: false,
};

Deno.test(
  "leaseTestDatabase() hands the same Postgres database out again, as seeded, no session of the last use left on it",
  postgresOnly,
  async () => {
    const first = await leaseTestDatabase("postgres");
    const seeded = await fingerprint(first);
    await scribble(first);
    // A session the test opened itself (a child process, a pool from the URL), left open,
    // holding a lock and a setting: ended before the rows go back.
    const stray = openPostgres(first.url!, { max: 1 });
    await stray.exec("select set_config('test.left', 'x', false); select pg_advisory_lock(42)");
    // Another test process makes a database meanwhile (a row in the server's shared
    // pg_database): no change to this one's catalog.
    const other = `${first.url!.split("/").pop()}_other`;
    const admin = openPostgres(Deno.env.get("TEST_DATABASE_URL")!, { max: 1 });
    await admin.exec(`create database "${other}" template template0`);
    await first.dispose();
    // Given back as seeded (not left for the next lease to put back).
    const look = openPostgres(first.url!, { max: 1 });
    try {
      const { "public.drivers": _drivers, ...given } = await fingerprint(look);
      const { "public.drivers": _before, ...expected } = seeded;
      assert.deepEqual(given, expected);
    } finally {
      await look.close();
    }
    const second = await leaseTestDatabase("postgres");
    try {
      assert.equal(second.url, first.url, "not the same database");
      const { "public.drivers": _drivers, ...rest } = await fingerprint(second);
      const { "public.drivers": _before, ...expected } = seeded;
      assert.deepEqual(rest, expected);
      const sessions = await second.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()
            and query like '%test.left%'`,
      );
      assert.deepEqual(sessions, [{ n: 0 }]);
      const [{ locked }] = await second.query<{ locked: boolean }>(
        "select pg_try_advisory_lock(42) as locked",
      );
      assert.equal(locked, true, "the ended session's lock is still held");
    } finally {
      await second.dispose();
      await stray.close().catch(() => {});
      await admin.exec(`drop database if exists "${other}"`);
      await admin.close();
    }
  },
);

Deno.test(
  "leaseTestDatabase() drops a Postgres database whose schema a use changed, and copies a fresh one",
  postgresOnly,
  async () => {
    const first = await leaseTestDatabase("postgres");
    await first.exec("create table public.reset_probe (id int)");
    await first.dispose();
    const second = await leaseTestDatabase("postgres");
    try {
      assert.notEqual(second.url, first.url, "the changed database was reused");
      const [{ found }] = await second.query<{ found: string | null }>(
        "select to_regclass('public.reset_probe')::text as found",
      );
      assert.equal(found, null);
    } finally {
      await second.dispose();
    }
  },
);

Deno.test(
  "leaseTestDatabase() keeps the Postgres pool's idle sessions for the next lease, their settings, role and locks put back",
  postgresOnly,
  async () => {
    const first = await leaseTestDatabase("postgres");
    const [{ pid }] = await first.query<{ pid: number }>("select pg_backend_pid() as pid");
    await first.exec(
      "select set_config('test.kept', 'x', false); set role authenticated; select pg_advisory_lock(43)",
    );
    await first.dispose();
    // Refused once given back: no late write lands after the rows went back.
    await assert.rejects(first.query("select 1"), /given back/);
    const second = await leaseTestDatabase("postgres");
    try {
      assert.equal(second.url, first.url, "not the same database");
      const [state] = await second.query<
        { pid: number; kept: string | null; role: string; locks: number }
      >(
        `select pg_backend_pid() as pid, nullif(current_setting('test.kept', true), '') as kept,
                current_user::text as role,
                (select count(*)::int from pg_locks
                  where locktype = 'advisory' and pid = pg_backend_pid()) as locks`,
      );
      assert.deepEqual(state, { pid, kept: null, role: "postgres", locks: 0 });
    } finally {
      await second.dispose();
    }
  },
);

Deno.test(
  "leaseTestDatabase() closes the Postgres pool a test left inside a transaction, and the next lease works",
  postgresOnly,
  async () => {
    const first = await leaseTestDatabase("postgres");
    const [{ pid }] = await first.query<{ pid: number }>("select pg_backend_pid() as pid");
    // Caller reads never ended: their session is held, inside a read-only transaction.
    const reads = first.openCallerReads({ role: "anon" });
    await reads.query("select 1");
    await first.dispose();
    const second = await leaseTestDatabase("postgres");
    try {
      const [{ now }] = await second.query<{ now: number }>("select pg_backend_pid() as now");
      assert.notEqual(now, pid, "a session of the closed pool was handed out");
      const [{ open }] = await second.query<{ open: number }>(
        `select count(*)::int as open from pg_stat_activity
          where datname = current_database() and state like 'idle in transaction%'`,
      );
      assert.equal(open, 0);
    } finally {
      await second.dispose();
    }
  },
);
