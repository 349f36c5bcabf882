/**
 * Rate limits per user and per tenant, shared by every instance through
 * Postgres (`private.rate_buckets`, `private.take_rate_tokens`). A call
 * needs a token from its caller's bucket (org, tool, user) and from the
 * tenant's bucket (org, tool); a refused call takes neither.
 *
 * How the check is paid for:
 *
 * - **Read-only tools that use the database** spend a leased token when the
 *   key's lease has one ({@link LeasedRateLimiter.tryTake}, no I/O); else the
 *   take ({@link takeTokensStatement}, a batch the size a lease would take)
 *   goes in the same flight as the call's first query, on the same held
 *   connection, as the connecting role and autocommitted just before the
 *   call's transaction: no extra round trip, and no bucket row stays locked
 *   while the tool runs. The take leaves its grant in the session and
 *   {@link RATE_GRANT_GUARD} aborts the call's transaction when it granted
 *   nothing, so a refused caller's query never runs; the pipeline answers
 *   from the take's own result ({@link LeasedRateLimiter.credit} keeps the
 *   rest of the batch).
 * - **Side-effecting tools** take their token in one statement of their own,
 *   sent together with the call's transaction (on postgres.js it runs on a
 *   second pooled connection while the transaction claims its key and sets
 *   the caller, so it adds no round trip). It is not inside the transaction
 *   on purpose: the tenant's bucket row would then stay locked until the
 *   tool commits, queueing every call of that tenant and tool behind the
 *   slowest one. The same statement checks the idempotency ledger: a
 *   completed call with the same arguments is replayed and takes no token,
 *   so a retry is answered even while the caller is limited.
 * - **Tools without a database** (pure computation, outside APIs) lease
 *   tokens in batches into a process-local counter ({@link LeasedRateLimiter}):
 *   one round trip per batch, the count still held in Postgres. A batch
 *   starts at one token and doubles while a key stays busy, up to what its
 *   limits refill in one lease period, so a quiet caller never strands more
 *   than one token and a hot one pays a round trip per many calls; that
 *   round trip starts while a quarter of the batch is left, so no call of a
 *   busy key waits for it. Unused tokens of an expired lease are given back.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Queryable, Statement } from "@shared/db/types.ts";
import type { LedgerEntry } from "./idempotency.ts";

/** A limit: `limit` calls per `windowSec` seconds, with bursts up to `limit`. */
export interface RateLimit {
  /** Calls allowed per window. */
  limit: number;
  /** Window length in seconds. */
  windowSec: number;
}

/** The two limits a call must pass. */
export interface CallLimits {
  /** The caller's own bucket. */
  perUser: RateLimit;
  /** The bucket the whole tenant shares. */
  perTenant: RateLimit;
}

/** Which buckets a call draws from. */
export interface BucketKey {
  /** The tenant. */
  orgId: string;
  /** The tool. */
  tool: string;
  /** The caller: a user id, or a role for callers without one. Never empty. */
  subject: string;
}

/** The answer for a call about to run. */
export type Admission =
  | { kind: "granted" }
  | { kind: "limited" }
  | { kind: "replay"; result: ToolResult };

const TAKE_SQL = "select private.take_rate_tokens($1, $2, $3, $4, $5, $6, $7, $8) as granted";

// A completed call with the same key and arguments takes no token: CASE runs
// the (volatile) take only when the ledger has no stored result.
const ADMIT_SQL = `
  with done as (
    select response from private.idempotency_keys
    where scope = $8 and key = $9 and fingerprint = $10
      and response is not null and expires_at > now())
  select (select response from done) as replay,
    case when exists (select 1 from done) then 0
         else private.take_rate_tokens($1, $2, $3, $4, $5, $6, $7, 1) end as granted`;

// The same take, leaving its grant in the session for {@link RATE_GRANT_GUARD}
// (migration 20261123000500_pipelined_reads.sql).
const TAKE_INTO_SESSION_SQL =
  "select set_config('easymo.rate_grant', private.take_rate_tokens($1, $2, $3, $4, $5, $6, $7, $8)::text, false)::int as granted";

/**
 * The take of up to `want` tokens as a statement to send ahead of a read-only
 * call's transaction in the same flight (as the connecting role, outside the
 * transaction, so no bucket row stays locked while the tool runs). Its one row
 * has `granted`.
 */
export function takeTokensStatement(key: BucketKey, limits: CallLimits, want: number): Statement {
  return { text: TAKE_INTO_SESSION_SQL, params: [...bucketParams(key, limits), want] };
}

/**
 * Run inside the call's transaction after {@link takeTokensStatement}: aborts
 * it when the take granted nothing, so a refused call's query never runs.
 */
export const RATE_GRANT_GUARD: Statement = { text: "select private.require_rate_grant()" };

const RETURN_SQL = "select private.return_rate_tokens($1, $2, $3, $4, $5, $6)";

function bucketParams(key: BucketKey, limits: CallLimits): unknown[] {
  return [
    key.orgId,
    key.tool,
    key.subject,
    limits.perUser.limit,
    limits.perUser.windowSec,
    limits.perTenant.limit,
    limits.perTenant.windowSec,
  ];
}

/**
 * Takes up to `want` tokens from both buckets at once, as the connecting
 * role and outside any tool transaction; returns how many were granted
 * (0 when either bucket is empty).
 */
export async function takeTokens(
  db: Queryable,
  key: BucketKey,
  limits: CallLimits,
  want = 1,
): Promise<number> {
  const [row] = await db.query<{ granted: number }>(TAKE_SQL, [
    ...bucketParams(key, limits),
    want,
  ]);
  return Number(row.granted);
}

/**
 * Admits a side-effecting call: its stored result when the ledger holds a
 * completed call with the same key and arguments (no token taken), else one
 * token from both buckets or `limited`. One statement.
 */
export async function admitCall(
  db: Queryable,
  key: BucketKey,
  limits: CallLimits,
  entry: LedgerEntry,
): Promise<Admission> {
  const [row] = await db.query<{ replay: ToolResult | null; granted: number }>(ADMIT_SQL, [
    ...bucketParams(key, limits),
    entry.scope,
    entry.key,
    entry.fingerprint,
  ]);
  if (row.replay) return { kind: "replay", result: row.replay };
  return Number(row.granted) > 0 ? { kind: "granted" } : { kind: "limited" };
}

/** Gives back tokens taken in advance and not used. */
export async function returnTokens(
  db: Queryable,
  key: BucketKey,
  limits: CallLimits,
  count: number,
): Promise<void> {
  await db.query(RETURN_SQL, [
    key.orgId,
    key.tool,
    key.subject,
    limits.perUser.limit,
    limits.perTenant.limit,
    count,
  ]);
}

/** Options for {@link purgeIdleBuckets}. */
export interface PurgeIdleBucketsOptions {
  /** The most buckets one statement deletes (it locks what it deletes). @default 10000 */
  batch?: number;
  /** The most batches in one run; the next run goes on. @default 10 */
  maxBatches?: number;
}

/**
 * Deletes buckets idle for more than a day, the longest window a limit may
 * have: such a bucket is full, so forgetting it changes no answer (the next
 * take creates it full). Runs in batches (`private.purge_idle_rate_buckets`)
 * until one comes back short or `maxBatches` ran; returns how many it
 * deleted. A periodic job calls it (the `agent` function's sweep).
 */
export async function purgeIdleBuckets(
  db: Queryable,
  options: PurgeIdleBucketsOptions = {},
): Promise<number> {
  const batch = options.batch ?? 10_000;
  const maxBatches = options.maxBatches ?? 10;
  let purged = 0;
  for (let round = 0; round < maxBatches; round++) {
    const [row] = await db.query<{ purged: number }>(
      "select private.purge_idle_rate_buckets($1) as purged",
      [batch],
    );
    purged += Number(row.purged);
    if (Number(row.purged) < batch) break;
  }
  return purged;
}

/** Options for {@link LeasedRateLimiter}. */
export interface LeasedRateLimiterOptions {
  /** The database holding the buckets (used as the connecting role). */
  db: Queryable;
  /** How long leased tokens may be spent before the rest is given back. @default 1000 */
  leaseMs?: number;
  /** The largest batch leased at once (a key gets it only if its limits refill that many in a lease period). @default 16384 */
  maxBatch?: number;
  /** Leases kept before expired ones are given back and dropped. @default 10000 */
  maxLeases?: number;
  /** Milliseconds clock, injectable for tests. @default performance.now */
  now?: () => number;
  /** Told when giving tokens back failed (they are then lost until the bucket refills). */
  onReturnFailed?: (error: unknown) => void;
}

interface Lease {
  key: BucketKey;
  limits: CallLimits;
  tokens: number;
  expiresMs: number;
  batch: number;
  /** Fewer tokens left than this starts the next batch ahead (a quarter of the last). */
  refillAt: number;
  pending: Promise<number> | null;
}

/**
 * Process-local spending of tokens leased in batches from the shared
 * buckets, for calls that otherwise touch no database.
 */
export class LeasedRateLimiter {
  readonly #db: Queryable;
  readonly #leaseMs: number;
  readonly #maxBatch: number;
  readonly #maxLeases: number;
  readonly #now: () => number;
  readonly #onReturnFailed: (error: unknown) => void;
  readonly #leases = new Map<string, Lease>();

  /** Creates a limiter over `options.db`. */
  constructor(options: LeasedRateLimiterOptions) {
    this.#db = options.db;
    this.#leaseMs = options.leaseMs ?? 1000;
    this.#maxBatch = options.maxBatch ?? 16_384;
    this.#maxLeases = options.maxLeases ?? 10_000;
    this.#now = options.now ?? (() => performance.now());
    this.#onReturnFailed = options.onReturnFailed ?? (() => {});
  }

  /**
   * Takes one token for `key`: `true` at once when a lease has one left,
   * else a promise of whether a new lease granted one. `now` is the time on
   * the limiter's clock when the caller has just read it.
   */
  take(key: BucketKey, limits: CallLimits, now: number = this.#now()): boolean | Promise<boolean> {
    const id = `${key.orgId}\n${key.tool}\n${key.subject}`;
    const lease = this.#leases.get(id);
    if (lease && lease.tokens > 0 && now < lease.expiresMs) {
      lease.tokens -= 1;
      // A busy key asks for its next batch while a quarter of this one is left, so no call
      // waits for that round trip; a failed or refused take is met again on the slow path.
      if (lease.tokens < lease.refillAt && lease.pending === null) {
        lease.pending = this.#lease(lease);
        lease.pending.catch(() => {});
      }
      return true;
    }
    return this.#takeSlow(id, key, limits);
  }

  /** Takes one leased token when one is at hand; never waits and never asks Postgres. */
  tryTake(key: BucketKey): boolean {
    const lease = this.#leases.get(`${key.orgId}\n${key.tool}\n${key.subject}`);
    if (lease && lease.tokens > 0 && this.#now() < lease.expiresMs) {
      lease.tokens -= 1;
      return true;
    }
    return false;
  }

  /**
   * How many tokens a call that takes its own (see {@link takeTokensStatement})
   * should ask for: what a new lease for the key would take.
   */
  batchFor(key: BucketKey, limits: CallLimits): number {
    const lease = this.#leases.get(`${key.orgId}\n${key.tool}\n${key.subject}`);
    return Math.min(lease?.batch ?? 1, this.#batchCap(limits));
  }

  /**
   * Records the answer of a take of `want` tokens that a call sent itself:
   * one token is the call's, the rest become the key's lease.
   */
  credit(key: BucketKey, limits: CallLimits, want: number, granted: number): void {
    const lease = this.#leaseOf(`${key.orgId}\n${key.tool}\n${key.subject}`, key, limits);
    const now = this.#now();
    if (lease.tokens > 0 && now >= lease.expiresMs) this.#giveBack(lease);
    if (granted > 1) {
      lease.tokens += granted - 1;
      lease.expiresMs = now + this.#leaseMs;
    }
    lease.batch = granted === want ? Math.min(want * 2, this.#maxBatch) : 1;
  }

  async #takeSlow(id: string, key: BucketKey, limits: CallLimits): Promise<boolean> {
    for (;;) {
      const lease = this.#leaseOf(id, key, limits);
      const now = this.#now();
      if (lease.tokens > 0 && now < lease.expiresMs) {
        lease.tokens -= 1;
        return true;
      }
      if (lease.tokens > 0) this.#giveBack(lease);
      if (!lease.pending) lease.pending = this.#lease(lease);
      if ((await lease.pending) === 0) return false;
    }
  }

  // The key's lease (a new, empty one at first), with the limits of this call: they follow
  // the tenant policy, which may have changed since the lease was made.
  #leaseOf(id: string, key: BucketKey, limits: CallLimits): Lease {
    let lease = this.#leases.get(id);
    if (!lease) {
      if (this.#leases.size >= this.#maxLeases) this.#dropExpired();
      lease = { key, limits, tokens: 0, expiresMs: 0, batch: 1, refillAt: 0, pending: null };
      this.#leases.set(id, lease);
    }
    lease.limits = limits;
    return lease;
  }

  #lease(lease: Lease): Promise<number> {
    const want = Math.min(lease.batch, this.#batchCap(lease.limits));
    return takeTokens(this.#db, lease.key, lease.limits, want).then(
      (granted) => {
        lease.pending = null;
        lease.tokens += granted;
        lease.refillAt = granted >> 2;
        lease.expiresMs = this.#now() + this.#leaseMs;
        // A busy key earns bigger batches; a partly refused one starts small again.
        lease.batch = granted === want ? Math.min(want * 2, this.#maxBatch) : 1;
        return granted;
      },
      (error) => {
        lease.pending = null;
        throw error;
      },
    );
  }

  // No more than the buckets refill in one lease period, so tokens parked in
  // one instance are soon replaced for the others.
  #batchCap(limits: CallLimits): number {
    const refill = (limit: { limit: number; windowSec: number }) =>
      Math.floor(limit.limit * this.#leaseMs / (limit.windowSec * 1000));
    return Math.max(1, Math.min(this.#maxBatch, refill(limits.perUser), refill(limits.perTenant)));
  }

  #giveBack(lease: Lease): void {
    const count = lease.tokens;
    lease.tokens = 0;
    returnTokens(this.#db, lease.key, lease.limits, count).catch(this.#onReturnFailed);
  }

  #dropExpired(): void {
    const now = this.#now();
    for (const [id, lease] of this.#leases) {
      if (lease.pending || now < lease.expiresMs) continue;
      if (lease.tokens > 0) this.#giveBack(lease);
      this.#leases.delete(id);
    }
  }
}

/**
 * The deployment's ceiling on one tool's calls by all of a tenant's callers
 * together, unless the tool or the tenant says otherwise: a thousand a
 * second. It protects the deployment, not from customers: normal traffic of
 * many customers (50 messages a second, a few calls each) stays far below it.
 */
export const DEFAULT_TENANT_CEILING: Readonly<RateLimit> = { limit: 1000, windowSec: 1 };

/** A tool's limits in a tenant's policy (`orgs.tool_policy.rate_limits`). */
export interface PolicyToolLimits {
  /** Each caller's. */
  per_user?: { limit: number; window_sec: number };
  /** All of the tenant's callers together. */
  per_tenant?: { limit: number; window_sec: number };
}

/** Options for {@link callLimits}. */
export interface CallLimitsOptions {
  /** The tenant policy's entry for the tool. */
  policy?: PolicyToolLimits;
  /** The tenant policy's entry for every tool (`"*"`): its `per_tenant` is the tenant's ceiling. */
  policyAll?: PolicyToolLimits;
  /** The deployment's ceiling. @default DEFAULT_TENANT_CEILING */
  ceiling?: RateLimit;
}

/**
 * The limits of a call: the caller's is the policy's `per_user` for the
 * tool, else the tool's own; the tenant's is the policy's `per_tenant` for
 * the tool, else the tool's own (a shared capacity such as an OCR engine),
 * else the policy's ceiling for every tool (`"*"`), else the deployment's.
 *
 * @example A tenant's customers share only the ceiling
 * ```ts
 * import assert from "node:assert/strict";
 * import { callLimits } from "@shared/pipeline/rate_limit.ts";
 *
 * const tool = { perUser: { limit: 120, windowSec: 60 }, perTenant: null };
 * assert.deepEqual(callLimits(tool).perTenant, { limit: 1000, windowSec: 1 });
 * ```
 */
export function callLimits(
  tool: { perUser: RateLimit; perTenant: RateLimit | null },
  options: CallLimitsOptions = {},
): CallLimits {
  const { policy, policyAll } = options;
  const fromPolicy = (limit: { limit: number; window_sec: number }) => ({
    limit: limit.limit,
    windowSec: limit.window_sec,
  });
  const perUser = policy?.per_user ? fromPolicy(policy.per_user) : { ...tool.perUser };
  const perTenant = policy?.per_tenant
    ? fromPolicy(policy.per_tenant)
    : tool.perTenant
    ? { ...tool.perTenant }
    : policyAll?.per_tenant
    ? fromPolicy(policyAll.per_tenant)
    : { ...(options.ceiling ?? DEFAULT_TENANT_CEILING) };
  return { perUser, perTenant };
}
