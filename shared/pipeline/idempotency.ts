/**
 * The idempotency ledger (`private.idempotency_keys`). A side-effecting call
 * claims its key in the same transaction that performs the effect and stores
 * the result, so the effect and its record commit together or not at all:
 *
 * - a retry after commit finds the stored result and replays it;
 * - a concurrent duplicate blocks on the key's unique index until the first
 *   commits, then replays; if the first rolled back, it runs instead;
 * - the same key with other arguments is a CONFLICT;
 * - a crash or timeout rolls the claim back with the effect, so a retry runs.
 *
 * Effects outside the database (WhatsApp, payments) are staged in outbox rows
 * inside the same transaction and sent after commit, keyed by this key.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { ToolResult } from "@shared/contract/mod.ts";

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL = "24 hours";

/** The longest key accepted (Stripe's limit). */
export const MAX_KEY_LENGTH = 255;

/** Identifies one claim. */
export interface LedgerEntry {
  /** `org:user` of the caller: keys never collide across callers. */
  scope: string;
  /** The caller's idempotency key. */
  key: string;
  /** Tool name. */
  tool: string;
  /** Hash of tool and canonical arguments. */
  fingerprint: string;
}

/** What an existing key holds for this call. */
export type ClaimOutcome =
  | { kind: "replay"; result: ToolResult }
  | { kind: "mismatch" };

// An expired key is reclaimed in place; a live one is left alone (no row returned).
const CLAIM_SQL = `
  insert into private.idempotency_keys as k (scope, key, tool, fingerprint, expires_at)
  values ($1, $2, $3, $4, now() + interval '${IDEMPOTENCY_TTL}')
  on conflict (scope, key) do update
    set tool = excluded.tool, fingerprint = excluded.fingerprint, response = null,
        created_at = now(), expires_at = excluded.expires_at
    where k.expires_at < now()
  returning true as claimed`;

const READ_SQL =
  "select fingerprint, response from private.idempotency_keys where scope = $1 and key = $2";

/**
 * Claims `entry` on `tx`, which must still be the connecting role. Blocks
 * while another transaction holds the same key. True when this call owns it.
 */
export async function claimKey(tx: Queryable, entry: LedgerEntry): Promise<boolean> {
  const rows = await tx.query(CLAIM_SQL, [entry.scope, entry.key, entry.tool, entry.fingerprint]);
  return rows.length > 0;
}

/**
 * Reads a key someone else committed (as the connecting role, in a statement
 * after the claim so its snapshot sees that commit).
 */
export async function readKey(tx: Queryable, entry: LedgerEntry): Promise<ClaimOutcome> {
  const [row] = await tx.query<{ fingerprint: string; response: ToolResult | null }>(READ_SQL, [
    entry.scope,
    entry.key,
  ]);
  if (!row || row.fingerprint !== entry.fingerprint || !row.response) return { kind: "mismatch" };
  return { kind: "replay", result: row.response };
}

/** Stores the result of a claimed key, in the claiming transaction. */
export async function completeKey(
  tx: Queryable,
  entry: LedgerEntry,
  result: ToolResult,
): Promise<void> {
  await tx.query(
    "update private.idempotency_keys set response = $3 where scope = $1 and key = $2",
    [entry.scope, entry.key, result],
  );
}

/**
 * Records a failed call's result after its transaction rolled back, so a
 * retry replays the same error. Does nothing when another call holds the key.
 */
export async function recordFailure(
  db: Queryable,
  entry: LedgerEntry,
  result: ToolResult,
): Promise<void> {
  await db.query(
    `insert into private.idempotency_keys (scope, key, tool, fingerprint, response, expires_at)
     values ($1, $2, $3, $4, $5, now() + interval '${IDEMPOTENCY_TTL}')
     on conflict (scope, key) do nothing`,
    [entry.scope, entry.key, entry.tool, entry.fingerprint, result],
  );
}

/** Options for {@link purgeExpiredKeys}. */
export interface PurgeKeysOptions {
  /**
   * The time to judge expiry at. A key goes only when it has expired by this
   * clock and by the database's (which set its expiry), so an injected clock
   * ahead of the database never takes a live key. @default the database's now()
   */
  now?: Date;
  /** The most keys one statement deletes, so no statement holds many row locks. @default 1000 */
  batchSize?: number;
  /** The most statements one purge runs; what is left waits for the next. @default 10 */
  maxBatches?: number;
}

// One batch: the oldest expired keys a claim is not holding (skip locked: a key being reclaimed
// is left to its claim), deleted by primary key.
// The batch is picked once (a materialized CTE): as a join's inner side, a LIMIT … SKIP LOCKED
// subquery may be rescanned by a nested loop, each rescan finding rows the last one did not, so
// one "batch of 10" deleted 25 once the planner chose that loop.
const PURGE_SQL = `
  with expired as materialized (
    select scope, key from private.idempotency_keys
     where expires_at < least($1::timestamptz, now())
     order by expires_at
     limit $2
       for update skip locked
  )
  delete from private.idempotency_keys k
   using expired
   where k.scope = expired.scope and k.key = expired.key
  returning 1`;

/**
 * Deletes expired keys in batches of `batchSize`, each its own statement,
 * until a batch comes back short or `maxBatches` ran; returns how many went.
 * A claim reclaims an expired key in place, so purging is only about the
 * table's size: the platform's sweep runs it once per period.
 *
 * @throws {RangeError} when `batchSize` or `maxBatches` is not a positive whole number.
 */
export async function purgeExpiredKeys(
  db: Queryable,
  options: PurgeKeysOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 1000;
  const maxBatches = options.maxBatches ?? 10;
  for (const [name, value] of [["batchSize", batchSize], ["maxBatches", maxBatches]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(
        `Cannot purge idempotency keys as ${name} must be a positive whole number: ` +
          `current value is ${value}`,
      );
    }
  }
  // Without a clock of its own, the database's alone decides (infinity leaves least() to now()).
  const now = options.now?.toISOString() ?? "infinity";
  let purged = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const rows = await db.query(PURGE_SQL, [now, batchSize]);
    purged += rows.length;
    if (rows.length < batchSize) break;
  }
  return purged;
}
