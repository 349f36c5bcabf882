/**
 * Test databases: every test gets its own, already bootstrapped, migrated
 * and seeded. PGlite always; Debian's Postgres too when `TEST_DATABASE_URL`
 * names a server (CI sets it). Both start from a template built once per
 * schema version, so a fresh database costs a copy, not a migration run.
 *
 * @module
 */
import { openPglite, type PgliteDatabase } from "@shared/db/pglite.ts";
import { openPostgres, type PostgresDatabase } from "@shared/db/postgres_js.ts";
import {
  prepareDatabase,
  readBootstrap,
  readMigrations,
  readSeed,
  restartSeedClock,
} from "@shared/db/migrate.ts";
import type { CallerReads, Database } from "@shared/db/types.ts";
import { sha256Hex } from "@shared/runtime/canonical.ts";
import { makeResettable, type Resetter } from "./db_reset.ts";

/** Which engines the tests run on. */
export type Backend = "pglite" | "postgres";

/** A database that is dropped when the test ends. */
export interface TestDatabase extends Database {
  /** Its URL on Postgres (absent on PGlite). */
  url?: string;
  /** Closes and drops it. */
  dispose(): Promise<void>;
}

const TEMPLATE_DIR = new URL("../.data/test-templates/", import.meta.url);

/**
 * The engines to run database tests on: PGlite, and Postgres too when
 * `TEST_DATABASE_URL` is set; `TEST_BACKENDS` (e.g. `postgres`) narrows
 * that, so CI can run each engine's half in its own job (Postgres at
 * today's date, PGlite with the clock a year ahead) instead of PGlite twice.
 *
 * @throws {RangeError} when `TEST_BACKENDS` names an unknown engine, or
 *   Postgres without `TEST_DATABASE_URL`.
 */
export function testBackends(): Backend[] {
  const available: Backend[] = Deno.env.get("TEST_DATABASE_URL")
    ? ["pglite", "postgres"]
    : ["pglite"];
  const wanted = Deno.env.get("TEST_BACKENDS")?.split(",").map((name) => name.trim())
    .filter(Boolean);
  if (!wanted?.length) return available;
  for (const name of wanted) {
    if (!available.includes(name as Backend)) {
      throw new RangeError(
        `Cannot run database tests on TEST_BACKENDS's "${name}": available are ${
          available.join(", ")
        }${name === "postgres" ? " (set TEST_DATABASE_URL)" : ""}`,
      );
    }
  }
  return available.filter((backend) => wanted.includes(backend));
}

/**
 * Whether the tests run on PGlite here: the scenario suites play on PGlite
 * only, so a run narrowed to Postgres skips them (and CI's split of the
 * suite, scripts/ci/split_tests.ts, leaves them out of its Postgres job).
 */
export function runsOnPglite(): boolean {
  return testBackends().includes("pglite");
}

let schemaHash: Promise<string> | undefined;
function currentSchemaHash(): Promise<string> {
  schemaHash ??= (async () => {
    const parts = [
      "checkpointed in a fresh WAL segment cut to its used pages, without template0 or template1",
      await readBootstrap(),
      await readSeed(),
    ];
    for (const migration of await readMigrations()) parts.push(migration.version, migration.sql);
    return (await sha256Hex(parts.join("\n--\n"))).slice(0, 12);
  })();
  return schemaHash;
}

// Read once per test process: every PGlite test starts from the same bytes.
let pgliteTemplateBlob: Promise<Blob> | undefined;
function pgliteTemplate(): Promise<Blob> {
  pgliteTemplateBlob ??= readOrBuildPgliteTemplate();
  return pgliteTemplateBlob;
}

async function readOrBuildPgliteTemplate(): Promise<Blob> {
  const hash = await currentSchemaHash();
  const path = new URL(`${hash}.tar`, TEMPLATE_DIR);
  const ready = await readTemplate(path);
  if (ready) return ready;
  // One builder at a time across test processes and workers (as Postgres's advisory lock does
  // below): at CI's start every worker's first database test wanted the template, and each built
  // its own (~6s of CPU each). The others wait on the lock, not a poll, then read the file.
  await Deno.mkdir(TEMPLATE_DIR, { recursive: true });
  const lock = await Deno.open(new URL(`${hash}.lock`, TEMPLATE_DIR), {
    create: true,
    write: true,
  });
  try {
    await lock.lock(true);
    return await readTemplate(path) ?? await buildPgliteTemplate(path);
  } finally {
    await lock.unlock();
    lock.close();
  }
}

async function readTemplate(path: URL): Promise<Blob | undefined> {
  try {
    return new Blob([await Deno.readFile(path)]);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    return undefined;
  }
}

async function buildPgliteTemplate(path: URL): Promise<Blob> {
  const db = await openPglite();
  await prepareDatabase(db, { seed: true });
  // Each test starts from this dump: a checkpoint leaves no WAL to replay at start, and
  // template0 and template1 (which no test copies: PGlite runs one database) are half the
  // files to unpack; each opens ~25% faster.
  for (const template of ["template0", "template1"]) {
    await db.exec(`update pg_database set datistemplate = false where datname = '${template}'`);
    await db.exec(`drop database ${template}`);
  }
  await cutWal(db);
  const dump = await db.pglite.dumpDataDir("none");
  await db.close();
  // Written aside, then renamed: a reader never sees half a file.
  const temp = new URL(`${crypto.randomUUID()}.tmp`, TEMPLATE_DIR);
  await Deno.writeFile(temp, new Uint8Array(await dump.arrayBuffer()));
  await Deno.rename(temp, path);
  return dump;
}

// Half the dump was WAL: the 16MB segment the migrations filled, which every test unpacked. After
// a switch to a new segment and a checkpoint in it, no older segment is needed at start, and the new
// one holds a few hundred bytes: it is cut to its used pages (Postgres extends it as it writes; a
// test that writes past it, checkpoints and writes again passes). The dump halves (~35MB to ~18MB)
// and each test database opens about a third faster.
async function cutWal(db: PgliteDatabase): Promise<void> {
  await db.exec("select pg_switch_wal()");
  await db.exec("checkpoint");
  const [{ current, lsn }] = await db.query<{ current: string; lsn: string }>(
    "select pg_walfile_name(pg_current_wal_lsn()) as current, pg_current_wal_lsn()::text as lsn",
  );
  const segmentBytes = 16 * 1024 * 1024;
  const offset = Number(BigInt(`0x${lsn.split("/")[1]}`) % BigInt(segmentBytes));
  const fs = db.pglite.Module.FS;
  const dir = "/pglite/data/pg_wal";
  for (const name of fs.readdir(dir)) {
    if (/^[0-9A-F]{24}$/.test(name) && name !== current) fs.unlink(`${dir}/${name}`);
  }
  const page = 8192;
  fs.truncate(`${dir}/${current}`, Math.ceil((offset + 1) / page) * page);
}

let templateReady: Promise<string> | undefined;
async function postgresTemplate(adminUrl: string): Promise<string> {
  templateReady ??= (async () => {
    const name = `easymo_tpl_${await currentSchemaHash()}`;
    const admin = openPostgres(adminUrl, { max: 1 });
    try {
      // One builder at a time across test processes.
      await admin.query("select pg_advisory_lock(hashtext($1))", [name]);
      const [exists] = await admin.query("select 1 from pg_database where datname = $1", [name]);
      if (!exists) {
        await admin.exec(`create database "${name}_build"`).catch(() => {});
        const build = openPostgres(withDatabase(adminUrl, `${name}_build`), { max: 1 });
        try {
          await prepareDatabase(build, { seed: true });
        } finally {
          await build.close();
        }
        await admin.exec(`alter database "${name}_build" rename to "${name}"`);
      }
      await admin.query("select pg_advisory_unlock(hashtext($1))", [name]);
    } finally {
      await admin.close();
    }
    return name;
  })();
  return await templateReady;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

// A test database holds ~15MB and most never call an extension's library: each start zeroes
// 16MB of buffers, not 128MB, and compiles pgcrypto only if a query calls it (~30% less CPU
// per database, hundreds of which a suite run opens).
const LEAN = { sharedBuffers: "16MB", librariesOnFirstUse: true } as const;

/** A fresh, seeded database on `backend`. */
export async function openTestDatabase(backend: Backend = "pglite"): Promise<TestDatabase> {
  if (backend === "pglite") {
    const db = await openPglite({ loadDataDir: await pgliteTemplate(), ...LEAN });
    // The template may have been seeded days ago: its times start again from now.
    await restartSeedClock(db);
    return Object.assign(db, { dispose: () => db.close() });
  }
  const adminUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const db = await copyPostgresDatabase(await postgresTemplate(adminUrl), {
    adminUrl,
    prefix: "easymo_t",
    max: 20,
  });
  await restartSeedClock(db);
  return db;
}

// PGlite databases a lease gave back, put back to their seeded state, for the next lease.
const idle: { db: TestDatabase; resetter: Resetter }[] = [];

/**
 * A database that looks fresh: seeded, as {@link openTestDatabase} opens it.
 * On PGlite, its `dispose()` puts the data and the session back in place
 * ({@link makeResettable}: the tables the use changed, refilled; settings
 * reset) and keeps the database for the next lease in this process: a few
 * milliseconds where a fresh open costs ~0.45 CPU-seconds. A use that changed
 * the catalog (created a table, altered a role, set a database setting…) or
 * left the session unusable gets its database closed instead. On Postgres the
 * test gets a pool of its own over a leased copy ({@link leasePostgres}).
 *
 * @throws {Error} from `dispose()` when the reset left a table's row count
 *   unlike the seed's (a reset that misses a change must fail, not leak it).
 */
export async function leaseTestDatabase(backend: Backend = "pglite"): Promise<TestDatabase> {
  if (backend !== "pglite") return await leasePostgres();
  let lease = idle.pop();
  if (lease) {
    // A write that landed after the last use gave it back (a late timer) is put back too.
    if ((await lease.resetter.changedTables()).length) await lease.resetter.reset();
    await restartSeedClock(lease.db);
  } else {
    const db = await openTestDatabase("pglite");
    lease = { db, resetter: await makeResettable(db) };
  }
  const { db, resetter } = lease;
  let given = false;
  const dispose = async () => {
    if (given) return;
    given = true;
    let differ: string[] | undefined;
    try {
      await resetter.resetSession();
      if (!(await resetter.catalogChanged())) {
        await resetter.reset();
        differ = await resetter.countsDiffer();
      }
    } catch {
      // Left inside a transaction, or closed: not reused.
      differ = undefined;
    }
    if (differ?.length === 0) {
      idle.push({ db, resetter });
      return;
    }
    await db.dispose();
    if (differ) throw new Error(`the reset left other row counts in ${differ.join(", ")}`);
  };
  // The database itself for everything but dispose (its methods keep their own `this`).
  return new Proxy(db, {
    get(target, key) {
      if (key === "dispose") return dispose;
      // Closed by its user, it goes back to no pool.
      if (key === "close") {
        return () => {
          given = true;
          return target.close();
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

// Postgres databases a lease gave back, put back to their seeded state, for the next lease.
const idlePostgres: PostgresLease[] = [];

/** A leased Postgres database: its name, URL, and the connection that resets it. */
interface PostgresLease {
  name: string;
  url: string;
  /** One session of its own for the reset (never handed to a test: nothing a test sets stays on it). */
  keeper: PostgresDatabase;
  resetter: Resetter;
  /** The tests' pool, kept with its sessions between leases (absent until the first). */
  pool?: PostgresDatabase;
}

// Postgres 15 copies a template through its write-ahead log by default: for a test database of
// ~16 MB, copying its files costs the server ~0.18 CPU-s where the log costs ~0.45 (measured, five
// copies each, the checkpoint a file copy asks for included).
const COPY_FILES = "strategy = file_copy";

// A leased database's name: the prefix, then when it was made (seconds), so a sweep can tell an
// abandoned one (no session on it, made long ago) from one another process has just made.
const LEASED = "easymo_l_";
const ABANDONED_AFTER_S = 120;

/**
 * A Postgres database that looks fresh: a copy of the template, reused by
 * the next lease of this process once its data is put back to the seed (a
 * copy costs the server a 16 MB file copy, ~0.3–0.6 CPU-seconds on CI's
 * disk; the reset, a few tables' rows). The tests of one lease share a pool
 * whose idle sessions are kept between them, their session state put back;
 * when a test ends, its calls under way are waited for, later ones refused,
 * and every other session on the database ended (a child process's, a pool
 * opened from `url`, one left in a transaction), so no session state
 * outlives the test; a catalog change, or a reset that leaves other row
 * counts, drops the database instead.
 */
async function leasePostgres(): Promise<TestDatabase> {
  const adminUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  let lease = idlePostgres.pop();
  if (lease) {
    try {
      // A write that landed after the last use gave it back (a late timer) is put back too.
      if ((await lease.resetter.changedTables()).length) await lease.resetter.reset();
    } catch {
      // Its session is gone (the server ended it): a fresh copy instead.
      await lease.keeper.close().catch(() => {});
      lease = undefined;
    }
  }
  if (!lease) {
    const template = await postgresTemplate(adminUrl);
    const name = `${LEASED}${Math.floor(Date.now() / 1000)}_${
      crypto.randomUUID().replaceAll("-", "").slice(0, 12)
    }`;
    const admin = openPostgres(adminUrl, { max: 1 });
    try {
      // Each test file's module ends with its lease idle (nothing runs after a file's last test):
      // the next new copy drops those, once no session is left on them.
      await sweepAbandoned(admin);
      await admin.exec(`create database "${name}" template "${template}" ${COPY_FILES}`);
    } finally {
      await admin.close();
    }
    const url = withDatabase(adminUrl, name);
    const keeper = openPostgres(url, { max: 1 });
    await restartSeedClock(keeper);
    lease = { name, url, keeper, resetter: await makeResettable(keeper) };
  }
  await restartSeedClock(lease.keeper);
  const held = lease;
  const pool = held.pool ??= openPostgres(held.url, { max: 20, applicationName: held.name });
  // The test's calls still under way: dispose waits for them (as closing a pool did), and a
  // call made after dispose is refused, so no late write lands after the rows went back.
  const running = new Set<Promise<unknown>>();
  // Caller reads the test opened and has not ended: each holds one of the pool's sessions.
  const unended = new Set<CallerReads>();
  let given = false;
  const track = <T>(call: () => Promise<T>): Promise<T> => {
    if (given) return Promise.reject(new Error("this test's database was given back"));
    const promise = call();
    running.add(promise);
    const settle = () => running.delete(promise);
    promise.then(settle, settle);
    return promise;
  };
  const settled = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...running]),
      new Promise((resolve) => timer = setTimeout(resolve, SETTLE_MS)),
    ]);
    clearTimeout(timer);
  };
  const db: TestDatabase = {
    kind: "postgres",
    url: held.url,
    query: (text, params) => track(() => pool.query(text, params)),
    exec: (script) => track(() => pool.exec(script)),
    transaction: (fn, options) => track(() => pool.transaction(fn, options)),
    asCaller: (claims, fn, options) => track(() => pool.asCaller(claims, fn, options)),
    asService: (fn, options) => track(() => pool.asService(fn, options)),
    openCallerReads(claims, options) {
      if (given) throw new Error("this test's database was given back");
      const reads = pool.openCallerReads(claims, options);
      unended.add(reads);
      const end = reads.end.bind(reads);
      return Object.assign(reads, {
        end: () => track(() => end().finally(() => unended.delete(reads))),
      });
    },
    // Closed by its user: the pool goes (the next lease opens another); the data still goes back.
    async close() {
      given = true;
      await settled();
      if (held.pool === pool) held.pool = undefined;
      await pool.close();
    },
    async dispose() {
      if (given && held.pool === pool) return;
      given = true;
      await settled();
      let differ: string[] | undefined;
      try {
        // The pool's sessions stay for the next test only when all are idle and none is held
        // (a session's first queries cost the server ~0.1-0.2 CPU-s: its caches and compiled
        // functions start empty, and a test opens several). Otherwise the pool closes from its
        // own side, as it did after every test (ending a session under its client's feet makes
        // the client throw outside any test).
        const [{ kept, busy }] = await held.keeper.query<{ kept: number; busy: number }>(
          `select count(*)::int as kept, count(*) filter (where state <> 'idle')::int as busy
             from pg_stat_activity
            where datname = current_database() and application_name = $1`,
          [held.name],
        );
        if (held.pool === pool && (busy || unended.size)) {
          held.pool = undefined;
          await pool.close().catch(() => {});
        }
        // Every other session on it ends, its transaction rolled back, before the rows go back
        // (a child process's, a pool opened from the URL).
        await held.keeper.query(
          `select pg_terminate_backend(pid, 5000) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()
              and application_name <> $1`,
          [held.name],
        );
        // The kept sessions' settings, locks and listeners go back.
        if (held.pool === pool && kept) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          try {
            await Promise.race([
              pool.onEachSession(SESSION_RESET, kept),
              new Promise((_, reject) =>
                timer = setTimeout(() => reject(new Error("sessions held")), SETTLE_MS)
              ),
            ]);
          } catch {
            held.pool = undefined;
            await pool.close().catch(() => {});
          } finally {
            clearTimeout(timer);
          }
        }
        if (!(await held.resetter.catalogChanged())) {
          await held.resetter.reset();
          differ = await held.resetter.countsDiffer();
        }
      } catch {
        differ = undefined;
      }
      if (differ?.length === 0) {
        idlePostgres.push(held);
        return;
      }
      if (held.pool === pool) held.pool = undefined;
      await pool.close().catch(() => {});
      await held.keeper.close().catch(() => {});
      const admin = openPostgres(adminUrl, { max: 1 });
      try {
        await admin.exec(`drop database if exists "${held.name}" with (force)`);
      } finally {
        await admin.close();
      }
      if (differ) throw new Error(`the reset left other row counts in ${differ.join(", ")}`);
    },
  };
  return db;
}

// How long a given-back test database waits for the test's calls still under way (as long as
// closing a pool waited).
const SETTLE_MS = 5000;

// A kept session's state put back between tests: settings (the role included), listeners,
// advisory locks and cached plans. Prepared statements stay: the pool's client keeps their names.
const SESSION_RESET =
  "set session authorization default; reset all; unlisten *; select pg_advisory_unlock_all(); discard plans";

/**
 * Drops the leased databases a test process left behind (it ended with them idle): no session
 * on them, made over {@link ABANDONED_AFTER_S} seconds ago (a live lease keeps its reset session).
 */
async function sweepAbandoned(admin: PostgresDatabase): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const rows = await admin.query<{ datname: string }>(
    `select d.datname from pg_database d
      where d.datname like '${LEASED}%'
        and not exists (select 1 from pg_stat_activity a where a.datname = d.datname)`,
  );
  for (const { datname } of rows) {
    const made = Number(datname.slice(LEASED.length).split("_")[0]);
    if (!(now - made > ABANDONED_AFTER_S)) continue;
    await admin.exec(`drop database if exists "${datname}"`).catch(() => {});
  }
}

/**
 * A fresh database with nothing applied (no bootstrap, no migrations, no seed),
 * for tests of the preparation itself. On Postgres it is copied from `template0`,
 * so nothing another test left in `template1` comes with it.
 */
export async function openBlankDatabase(backend: Backend = "pglite"): Promise<TestDatabase> {
  if (backend === "pglite") {
    const db = await openPglite();
    return Object.assign(db, { dispose: () => db.close() });
  }
  const adminUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  return await copyPostgresDatabase("template0", { adminUrl, prefix: "easymo_b", max: 1 });
}

/** A new database copied from `template` on the server at `adminUrl`, dropped on dispose. */
async function copyPostgresDatabase(
  template: string,
  options: { adminUrl: string; prefix: string; max: number },
): Promise<TestDatabase> {
  const name = `${options.prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = openPostgres(options.adminUrl, { max: 1 });
  await admin.exec(`create database "${name}" template "${template}" ${COPY_FILES}`);
  const url = withDatabase(options.adminUrl, name);
  const db = openPostgres(url, { max: options.max });
  return Object.assign(db, {
    url,
    async dispose() {
      await db.close();
      await admin.exec(`drop database if exists "${name}" with (force)`);
      await admin.close();
    },
  });
}

/**
 * Registers `fn` as one test per backend, each with a database that looks
 * fresh: a leased one ({@link leaseTestDatabase}, put back to the seed after
 * each test; on Postgres with its sessions ended).
 */
export function dbTest(
  name: string,
  fn: (db: TestDatabase, backend: Backend) => Promise<void>,
): void {
  for (const backend of testBackends()) {
    Deno.test({
      name: `${name} [${backend}]`,
      sanitizeOps: false,
      sanitizeResources: false,
      async fn() {
        const db = await leaseTestDatabase(backend);
        try {
          await fn(db, backend);
        } finally {
          await db.dispose();
        }
      },
    });
  }
}
