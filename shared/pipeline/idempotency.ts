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

/** Deletes expired keys; returns how many. Run from a periodic job. */
export async function purgeExpiredKeys(db: Queryable): Promise<number> {
  const rows = await db.query(
    "delete from private.idempotency_keys where expires_at < now() returning 1",
  );
  return rows.length;
}
