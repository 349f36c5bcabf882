/**
 * The networked adapter: postgres.js against any Postgres reachable by URL
 * (`DATABASE_URL`, or `SUPABASE_DB_URL` inside Supabase's runtime).
 *
 * @module
 */
import postgres from "postgres";
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

/** Options for {@link openPostgres}. */
export interface PostgresOptions {
  /** Pool size. @default 10 */
  max?: number;
  /**
   * Use prepared statements. Must be false behind Supabase's transaction
   * pooler (port 6543). @default true unless the URL's port is 6543
   */
  prepare?: boolean;
  /** The sessions' `application_name` (how `pg_stat_activity` names them). */
  applicationName?: string;
}

type Sql = postgres.Sql;
type TxSql = postgres.TransactionSql;
type Reserved = postgres.ReservedSql;
type Params = postgres.ParameterOrJSON<never>[];

// A statement with parameters, prepared once per connection. postgres.js does
// not prepare `unsafe` text by default, and an unprepared statement with
// parameters costs a round trip of its own (Parse and Describe, then wait for
// the parameter types before Bind) and keeps every statement pipelined behind
// it waiting too. The texts are the platform's own (search_supabase's vary
// only by table, columns and filter shape), and a connection's prepared
// statements go with it at its max_lifetime. Behind a transaction pooler the
// pool is opened with `prepare: false`, which overrides this.
function statement(sql: Sql | TxSql | Reserved, text: string, params?: readonly unknown[]) {
  return sql.unsafe(text, (params ?? []) as Params, { prepare: true });
}

// `onError` sees every failed statement, even one whose error the caller swallowed.
function wrap(sql: Sql | TxSql | Reserved, onError?: (error: unknown) => void): Transaction {
  return {
    async exec(script: string): Promise<void> {
      try {
        await sql.unsafe(script);
      } catch (error) {
        onError?.(error);
        throw error;
      }
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      try {
        // execute() sends it now, not a microtask later when `await` calls then(): statements
        // go out in the order they were made (a call's rate-limit take before its transaction).
        const rows = await statement(sql, text, params).execute();
        // A plain array, as PGlite returns: postgres.js's Result subclass carries extra fields.
        return Array.from(rows) as unknown as T[];
      } catch (error) {
        onError?.(error);
        throw error;
      }
    },
  };
}

/** Opens a pool to the Postgres at `url`. */
export function openPostgres(url: string, options: PostgresOptions = {}): PostgresDatabase {
  const port = new URL(url).port;
  const sql = postgres(url, {
    max: options.max ?? 10,
    prepare: options.prepare ?? port !== "6543",
    onnotice: () => {},
    ...(options.applicationName
      ? { connection: { application_name: options.applicationName } }
      : {}),
    // Dates and bigints come back as strings so JSON results look the same on both adapters.
    types: {
      bigint: { to: 20, from: [20], serialize: String, parse: Number },
    },
  });
  return new PostgresDatabase(sql);
}

/** A {@link Database} over a postgres.js pool. */
export class PostgresDatabase implements Database {
  /** Adapter kind. */
  readonly kind = "postgres" as const;
  readonly #sql: Sql;

  /** Wraps a postgres.js pool. */
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  /** {@inheritDoc Database.query} */
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
    return wrap(this.#sql).query<T>(text, params);
  }

  /** {@inheritDoc Database.exec} */
  async exec(script: string): Promise<void> {
    // No parameters: the simple protocol runs several statements at once.
    await this.#sql.unsafe(script);
  }

  /** {@inheritDoc Database.transaction} */
  async transaction<T>(
    fn: (tx: Transaction) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T> {
    return await this.#sql.begin(async (tx) => {
      if (options?.statementTimeoutMs) {
        await statement(tx, "select set_config('statement_timeout', $1, true)", [
          String(options.statementTimeoutMs),
        ]);
      }
      return await fn(wrap(tx));
    }) as T;
  }

  /** {@inheritDoc Database.asCaller} */
  async asCaller<T>(
    claims: JwtClaims,
    fn: (tx: Queryable) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T> {
    return await this.#sql.begin(async (tx) => {
      // execute() sends it now, and the caller's first query is pipelined behind it on the
      // same connection. A failure still aborts the commit.
      const setup = tx.unsafe(setCallerScript(claims, options)).execute();
      const result = await fn(wrap(tx));
      await setup;
      return result;
    }) as T;
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
    return new PipelinedReads(this.#sql, claims, options);
  }

  /**
   * Runs `script` once on each of `sessions` sessions of the pool, held together: postgres.js
   * hands out its idle open sessions before it opens new ones, so with `sessions` as many as are
   * open, each gets it once. For a caller that keeps a pool's sessions between uses and puts their
   * state back in between (the test harness).
   */
  async onEachSession(script: string, sessions: number): Promise<void> {
    const held = await Promise.all(Array.from({ length: sessions }, () => this.#sql.reserve()));
    try {
      await Promise.all(held.map((session) => session.unsafe(script)));
    } finally {
      for (const session of held) session.release();
    }
  }

  /** {@inheritDoc Database.close} */
  async close(): Promise<void> {
    await this.#sql.end({ timeout: 5 });
  }
}

// Statements are sent with execute() and never awaited in between: postgres.js
// writes everything issued in one tick to the reserved connection as one flight.
class PipelinedReads implements CallerReads {
  readonly #sql: Sql;
  // The caller setup as literals, to share one message with `begin`.
  readonly #becomeCaller: string;
  readonly #options: CallerReadsOptions;
  #connection: Promise<Reserved> | null = null;
  #before: Promise<Record<string, unknown>[]> | null = null;
  // The answer to the last statement sent: answers come in order, so once it
  // has arrived the connection is idle, outside any transaction.
  #last: Promise<unknown> = Promise.resolve();
  #ended = false;
  #guarded = false;

  constructor(sql: Sql, claims: JwtClaims, options: CallerReadsOptions) {
    this.#sql = sql;
    this.#becomeCaller = setCallerScript(claims, options);
    this.#options = options;
  }

  async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
    if (this.#ended) throw new Error("these reads have ended");
    const connection = await this.#reserve();
    if (this.#ended) throw new Error("these reads have ended");
    const before = this.#sendBefore(connection);
    const guard = this.#guarded ? undefined : this.#options.guard;
    this.#guarded = true;
    if (guard?.params?.length) {
      connection.unsafe("begin read only").execute().catch(ignore);
      statement(connection, guard.text, guard.params).execute().catch(ignore);
      connection.unsafe(this.#becomeCaller).execute().catch(ignore);
    } else {
      // Without parameters the simple protocol takes several statements in one message.
      const script = guard
        ? `begin read only; ${guard.text}; ${this.#becomeCaller}`
        : `begin read only; ${this.#becomeCaller}`;
      connection.unsafe(script).execute().catch(ignore);
    }
    const rows = statement(connection, text, params).execute();
    rows.catch(ignore);
    // After a failure the transaction is aborted and this commit answers ROLLBACK.
    this.#last = connection.unsafe("commit").execute().catch(ignore);
    // The answer to `before` arrives ahead of the rows, so waiting for it costs nothing.
    if (before) await before.catch(ignore);
    return Array.from(await rows) as unknown as T[];
  }

  before(): Promise<Record<string, unknown>[]> | null {
    if (!this.#options.before) return null;
    return this.#before ?? this.#reserve().then((connection) => this.#sendBefore(connection)!);
  }

  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const connection = await this.#connection?.catch(() => null);
    if (!connection) return;
    await this.#last;
    connection.release();
  }

  #reserve(): Promise<Reserved> {
    this.#connection ??= this.#sql.reserve();
    return this.#connection;
  }

  // Sends `before` once, as the connecting role outside any transaction.
  #sendBefore(connection: Reserved): Promise<Record<string, unknown>[]> | null {
    const before = this.#options.before;
    if (!before || this.#before) return this.#before;
    const rows = statement(connection, before.text, before.params).execute();
    this.#before = rows.then((result) => Array.from(result) as Record<string, unknown>[]);
    this.#last = this.#before.catch(ignore);
    return this.#before;
  }
}

function ignore(): void {}
