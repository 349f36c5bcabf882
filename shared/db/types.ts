/**
 * The database interface every part of the platform uses: plain queries,
 * transactions, a transaction as the caller (RLS applies) and an explicit
 * service transaction. Two adapters implement it: PGlite and postgres.js.
 *
 * @module
 */

/** A Postgres role a request can run as, as PostgREST names them. */
export type DbRole = "anon" | "authenticated" | "service_role";

/** JWT claims applied to a transaction, the PostgREST way. */
export interface JwtClaims {
  /** The user id (`auth.uid()`), absent for anonymous callers. */
  sub?: string;
  /** The role the transaction runs as. */
  role: DbRole;
  /** Any further claims (email, phone, app metadata …). */
  [claim: string]: unknown;
}

/**
 * Something that can run a parameterised statement and return its rows.
 * Pass `json`/`jsonb` parameters as values (objects, arrays), not as JSON
 * text: both adapters serialise them, so a string would be stored as a JSON
 * string.
 */
export interface Queryable {
  /** Runs one statement with `$1…$n` parameters and returns the rows. */
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

/** A transaction: queries plus multi-statement scripts. */
export interface Transaction extends Queryable {
  /** Runs a script of several statements without parameters. */
  exec(script: string): Promise<void>;
}

/** Options for a transaction. */
export interface TransactionOptions {
  /**
   * Per-statement timeout in milliseconds, applied with `statement_timeout`
   * for the transaction only (Postgres enforces it; PGlite may not).
   */
  statementTimeoutMs?: number;
}

/** The database handle. */
export interface Database extends Queryable {
  /** Which adapter this is. */
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in a transaction as the connecting (owner) role. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` in a transaction with `role` and `request.jwt.claims` set from
   * `claims` in one statement, so row-level security applies to every query.
   */
  asCaller<T>(
    claims: JwtClaims,
    fn: (tx: Queryable) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T>;
  /** Runs `fn` as `service_role` (bypasses RLS): only for `auth: 'service'` tools and jobs. */
  asService<T>(
    fn: (tx: Queryable) => Promise<T>,
    options?: TransactionOptions & { claims?: Omit<JwtClaims, "role"> },
  ): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /** Closes the connection(s). */
  close(): Promise<void>;
}

/** The statement that switches a transaction to the caller, PostgREST style. */
export const SET_CALLER_SQL =
  "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), " +
  "set_config('statement_timeout', $3, true)";

/** Parameters for {@link SET_CALLER_SQL}. */
export function callerParams(claims: JwtClaims, options?: TransactionOptions): string[] {
  return [claims.role, JSON.stringify(claims), String(options?.statementTimeoutMs ?? 0)];
}
