/**
 * The database interface every part of the platform uses: plain queries,
 * transactions, a transaction as the caller (RLS applies) and an explicit
 * service transaction. Two adapters implement it: PGlite and postgres.js.
 *
 * @module
 */
import { isUuid } from "@shared/contract/uuid.ts";

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

/** One statement and its parameters. */
export interface Statement {
  /** SQL with `$1…$n` placeholders. */
  text: string;
  /** Values for the placeholders. */
  params?: readonly unknown[];
}

/** Options for {@link Database.openCallerReads}. */
export interface CallerReadsOptions extends TransactionOptions {
  /**
   * Sent once, as the connecting role in its own implicit transaction, just
   * before the first query's transaction and in the same flight (the pipeline
   * takes rate-limit tokens this way). Its rows come from
   * {@link CallerReads.before}.
   */
  before?: Statement;
  /**
   * Run as the connecting role inside the first query's transaction, after
   * `before` and before the caller is set; when it fails, that transaction
   * aborts and its query does not run.
   */
  guard?: Statement;
}

/** Read-only queries as a caller, each in its own transaction of one flight. */
export interface CallerReads extends Queryable {
  /**
   * The rows of `options.before`: sent with the first query, or now when no
   * query was made. Null without `before`.
   */
  before(): Promise<Record<string, unknown>[]> | null;
  /**
   * Waits until every statement sent has answered, then gives the connection
   * back. Never rejects; queries after it are refused.
   */
  end(): Promise<void>;
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
  /**
   * Reads as the caller at the cost of one round trip per query: each query
   * runs in its own read-only transaction, `begin read only; <guard>; set
   * caller; query; commit`, sent in one flight on a connection held for the
   * call (postgres.js pipelines statements sent without waiting). Under read
   * committed each statement takes its own snapshot anyway, so splitting a
   * read-only call into one transaction per query changes no answer; a write
   * fails. Role, claims and statement timeout are transaction-local and every
   * flight ends with its commit, so the connection never carries them past the
   * query, whether it fails or times out.
   */
  openCallerReads(claims: JwtClaims, options?: CallerReadsOptions): CallerReads;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /** Closes the connection(s). */
  close(): Promise<void>;
}

/**
 * The commands that switch a transaction to the caller, PostgREST style:
 * `set local` with literal values, so they can share one simple-protocol
 * message with `begin` (a parameterised statement cannot). Utility commands
 * skip the parser's analysis and the planner a `select set_config(…)` goes
 * through on every call, which cost a quarter of a primary-key read.
 * `auth.uid()` (Supabase's definition, and ours) reads
 * `request.jwt.claim.sub` first: given it, every fence skips parsing the
 * claims' JSON. A subject that is not a user id is left to the claims, where
 * `auth.uid()` refuses it as before.
 */
export function setCallerScript(claims: JwtClaims, options?: TransactionOptions): string {
  const sub = isUuid(claims.sub) ? claims.sub : "";
  return `set local role ${identifier(claims.role)}; ` +
    `set local request.jwt.claims = ${literal(JSON.stringify(claims))}; ` +
    `set local request.jwt.claim.sub = ${literal(sub)}; ` +
    `set local statement_timeout = ${literal(String(options?.statementTimeoutMs ?? 0))}`;
}

/**
 * An escape-string literal (as PQescapeLiteral writes it): right whatever
 * standard_conforming_strings says. The caller keeps NUL out (Postgres text
 * cannot hold it).
 */
export function literal(value: string): string {
  return `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** A quoted identifier: a name is one whatever it holds. */
export function identifier(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}
