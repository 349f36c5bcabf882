/**
 * Prepares a database the way `supabase db reset` would: the Supabase
 * compatibility bootstrap (roles, `auth` schema) where missing, then every
 * migration in `supabase/migrations` in order, recorded in the same table the
 * Supabase CLI uses, then optionally `supabase/seed.sql`.
 *
 * @module
 */
import type { Database } from "./types.ts";

const SUPABASE_DIR = new URL("../../supabase/", import.meta.url);

/** One migration file. */
export interface Migration {
  /** The timestamp prefix, e.g. `20261122000100`. */
  version: string;
  /** The rest of the file name, without `.sql`. */
  name: string;
  /** The SQL. */
  sql: string;
}

/** Reads the migrations folder, sorted by version. */
export async function readMigrations(dir = new URL("migrations/", SUPABASE_DIR)): Promise<
  Migration[]
> {
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const match = /^(\d+)_(.+)\.sql$/.exec(entry.name);
    if (!entry.isFile || !match) continue;
    const sql = await Deno.readTextFile(new URL(entry.name, dir));
    migrations.push({ version: match[1], name: match[2], sql });
  }
  return migrations.sort((a, b) => a.version.localeCompare(b.version));
}

/** Reads the bootstrap script that makes plain Postgres look like Supabase's. */
export function readBootstrap(): Promise<string> {
  return Deno.readTextFile(new URL("bootstrap/supabase_compat.sql", SUPABASE_DIR));
}

/** Reads `supabase/seed.sql`. */
export function readSeed(): Promise<string> {
  return Deno.readTextFile(new URL("seed.sql", SUPABASE_DIR));
}

/** Applies migrations not yet recorded; returns the versions applied now. */
export async function applyMigrations(
  db: Database,
  migrations?: Migration[],
): Promise<string[]> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key, statements text[], name text
    );`);
  const done = new Set(
    (await db.query<{ version: string }>(
      "select version from supabase_migrations.schema_migrations",
    )).map((row) => row.version),
  );
  const applied: string[] = [];
  for (const migration of migrations ?? await readMigrations()) {
    if (done.has(migration.version)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query(
        "insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)",
        [migration.version, migration.name],
      );
    });
    applied.push(migration.version);
  }
  return applied;
}

/** Options for {@link prepareDatabase}. */
export interface PrepareOptions {
  /** Also load `supabase/seed.sql` when the database has no orgs yet. @default false */
  seed?: boolean;
}

/** Bootstrap, migrations and (optionally) seed data, each only where needed. */
export async function prepareDatabase(
  db: Database,
  options: PrepareOptions = {},
): Promise<{ applied: string[]; seeded: boolean }> {
  await db.exec(await readBootstrap());
  const applied = await applyMigrations(db);
  let seeded = false;
  if (options.seed) {
    const [{ count }] = await db.query<{ count: number }>(
      "select count(*)::int as count from public.orgs",
    );
    if (count === 0) {
      await db.transaction((tx) => readSeed().then((sql) => tx.exec(sql)));
      seeded = true;
    }
  }
  return { applied, seeded };
}

/**
 * The seed's times count from seeding: its drivers are available for half a
 * day. A copy of a seeded database opened later (a test database made from a
 * template built days ago, the dev server's data folder on another day) starts
 * that half day again from now, so nothing depends on the date the copy was
 * made. Only the seed's own drivers (their fixed ids) are touched.
 */
export async function restartSeedClock(db: Database): Promise<void> {
  await db.exec(
    `update public.drivers set available_until = now() + interval '12 hours'
     where id::text like 'f0000000-0000-4000-8000-0000000000%' and available_until is not null`,
  );
}
