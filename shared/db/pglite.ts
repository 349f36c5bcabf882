/**
 * The embedded adapter: Postgres in WebAssembly (PGlite), in memory for
 * tests or on disk for the dev server. PGlite has one connection, so
 * transactions run one at a time.
 *
 * @module
 */
import { type Extension, PGlite } from "@electric-sql/pglite";
import { cube } from "@electric-sql/pglite/contrib/cube";
import { earthdistance } from "@electric-sql/pglite/contrib/earthdistance";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import {
  type CallerReads,
  type CallerReadsOptions,
  type Database,
  type JwtClaims,
  type Queryable,
  setCallerScript,
  type Transaction,
  type TransactionOptions,
} from "./types.ts";

/** Options for {@link openPglite}. */
export interface PgliteOptions {
  /** A folder to keep the database in; in memory when absent. */
  dataDir?: string;
  /** A dump (from `dumpDataDir`) to start from, e.g. a migrated template. */
  loadDataDir?: Blob | File;
  /**
   * Postgres's `shared_buffers` (e.g. `"16MB"`). PGlite's 128MB are zeroed at
   * every start; a short-lived test database with ~15MB of data needs less.
   * @default PGlite's 128MB
   */
  sharedBuffers?: string;
  /**
   * Compile each extension's library (pgcrypto's is 3MB of WebAssembly) when
   * a query first calls it, not at start: most test databases never call one.
   * @default false (all compiled at start)
   */
  librariesOnFirstUse?: boolean;
}

// PGlite can create only the contrib extensions handed to its constructor: pgcrypto, which
// Supabase enables in every new project (the bootstrap creates it), and the ones our
// migrations create (cube, earthdistance, pg_trgm). A migration that needs another must add
// it here too, or PGlite refuses it ("extension ... is not available").
const EXTENSIONS = { pgcrypto, cube, earthdistance, pg_trgm };

// Not an extension of Postgres: it only hands Emscripten `noWasmDecoding`, so the extensions'
// `.so` files are unpacked as plain files and Postgres's dlopen compiles one when first called.
const LIBRARIES_ON_FIRST_USE: Extension = {
  name: "libraries-on-first-use",
  setup: (_pg, emscriptenOpts) =>
    Promise.resolve({ emscriptenOpts: { ...emscriptenOpts, noWasmDecoding: true } }),
};

/** Opens an embedded database. */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDatabase> {
  const pg = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: options.librariesOnFirstUse
      ? { ...EXTENSIONS, librariesOnFirstUse: LIBRARIES_ON_FIRST_USE }
      : EXTENSIONS,
    ...(options.sharedBuffers
      ? {
        startParams: [
          ...PGlite.defaultStartParams,
          "-c",
          `shared_buffers=${options.sharedBuffers}`,
        ],
      }
      : {}),
  });
  await pg.waitReady;
  // PGlite ignores role and database settings at start: put extensions on the path,
  // as the bootstrap does for Postgres and Supabase does by default.
  await pg.exec(`set search_path = "$user", public, extensions`);
  return new PgliteDatabase(pg);
}

type PgliteTx = Pick<PGlite, "query" | "exec">;

function wrap(tx: PgliteTx): Transaction {
  return {
    async exec(script: string): Promise<void> {
      await tx.exec(script);
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      const result = await tx.query<T>(text, params as unknown[] | undefined);
      return result.rows;
    },
  };
}

/** A {@link Database} over PGlite. */
export class PgliteDatabase implements Database {
  /** Adapter kind. */
  readonly kind = "pglite" as const;
  readonly #pg: PGlite;

  /** Wraps an open PGlite instance. */
  constructor(pg: PGlite) {
    this.#pg = pg;
  }

  /** The underlying PGlite instance (for dumps in tests). */
  get pglite(): PGlite {
    return this.#pg;
  }

  /** {@inheritDoc Database.query} */
  async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
    const result = await this.#pg.query<T>(text, params as unknown[] | undefined);
    return result.rows;
  }

  /** {@inheritDoc Database.exec} */
  async exec(script: string): Promise<void> {
    await this.#pg.exec(script);
  }

  /** {@inheritDoc Database.transaction} */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#pg.transaction((tx) => fn(wrap(tx)));
  }

  /** {@inheritDoc Database.asCaller} */
  asCaller<T>(
    claims: JwtClaims,
    fn: (tx: Queryable) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T> {
    return this.#pg.transaction(async (tx) => {
      await tx.exec(setCallerScript(claims, options));
      return await fn(wrap(tx));
    });
  }

  /** {@inheritDoc Database.asService} */
  asService<T>(
    fn: (tx: Queryable) => Promise<T>,
    options?: TransactionOptions & { claims?: Omit<JwtClaims, "role"> },
  ): Promise<T> {
    return this.asCaller({ ...options?.claims, role: "service_role" }, fn, options);
  }

  /** {@inheritDoc Database.openCallerReads} */
  openCallerReads(claims: JwtClaims, options: CallerReadsOptions = {}): CallerReads {
    const pg = this.#pg;
    const setCaller = setCallerScript(claims, options);
    let before: Promise<Record<string, unknown>[]> | null = null;
    let last: Promise<unknown> = Promise.resolve();
    let ended = false;
    // One connection shared by every call, and no round trips to save: `before`
    // runs first inside the first transaction, so no other call's statements
    // come between it and the guard (its effect then commits with that
    // transaction, and rolls back with it).
    const read = <T>(text: string | null, params?: readonly unknown[]) => {
      const first = !before && options.before;
      let answer!: (rows: Record<string, unknown>[]) => void;
      let refuse!: (error: unknown) => void;
      if (first) {
        before = new Promise((resolve, reject) => [answer, refuse] = [resolve, reject]);
        before.catch(() => {});
      }
      const rows = pg.transaction(async (tx) => {
        if (first) {
          try {
            answer(
              (await tx.query<Record<string, unknown>>(first.text, [
                ...(first.params ?? []),
              ])).rows,
            );
          } catch (error) {
            refuse(error);
            throw error;
          }
          if (options.guard) await tx.query(options.guard.text, [...(options.guard.params ?? [])]);
        }
        if (text === null) {
          await tx.exec("set transaction read only");
          return [];
        }
        await tx.exec(`set transaction read only; ${setCaller}`);
        return (await tx.query<T>(text, params as unknown[] | undefined)).rows;
      });
      last = rows.catch(() => {});
      return rows;
    };
    return {
      query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
        if (ended) return Promise.reject(new Error("these reads have ended"));
        return read<T>(text, params);
      },
      before() {
        if (!options.before) return null;
        if (!before) read(null).catch(() => {});
        return before;
      },
      async end() {
        ended = true;
        await last;
      },
    };
  }

  /** {@inheritDoc Database.close} */
  async close(): Promise<void> {
    if (!this.#pg.closed) await this.#pg.close();
  }
}
