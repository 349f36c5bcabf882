/**
 * Processes stored inbound messages after the 200 has gone out, and again
 * after a crash: a message is claimed (status `processing` with a lease,
 * renewed while its handler runs), handled, then marked `done`. A message
 * whose lease ran out — its worker died — is claimed again by the sweep; the
 * claim it superseded no longer handles it. Handlers must be idempotent (tool
 * calls carry idempotency keys derived from the wamid), so a second run has
 * no second effect.
 *
 * A message whose handling throws waits (exponential backoff with jitter,
 * `next_attempt_at`) and is retried up to `maxAttempts` times, then marked
 * `failed` with its reason, never retried again. What a failure owes (a
 * reply to the customer, a staff ticket) is staged by `onFailed` in the very
 * transaction that marks the message failed, as outbound work the outboxes
 * retry: it commits with the mark or not at all, so it is never lost to a
 * failing notification. A message waiting out its backoff does not hold up
 * its sender's later messages. A handler that throws {@link RetryLater} (a
 * rate limit) puts the message off without using up an attempt, at most
 * `maxDeferrals` times.
 *
 * @module
 */
import type { Database, Queryable } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { backoffMs } from "@shared/runtime/backoff.ts";
import { type InboundFlag, type InboundMessage, messageText, parseDelivery } from "./inbound.ts";

/** Handles one message; throwing leaves it for a retry. */
export type InboundHandler = (message: InboundMessage) => Promise<void>;

/**
 * Thrown by a handler when the message should be handled again later
 * without counting as a failure (e.g. a tool answered RATE_LIMIT).
 */
export class RetryLater extends Error {
  /** How long to wait before the next attempt. */
  readonly delayMs: number;

  /** @param reason Why (kept as the message's last error). */
  constructor(reason: string, options: { delayMs: number }) {
    super(reason);
    this.name = "RetryLater";
    this.delayMs = options.delayMs;
  }
}

/** A message that used up its attempts. */
export interface InboundFailure {
  /** Its wamid. */
  wamid: string;
  /** The sender's wa_id. */
  from: string;
  /** What the message says (its text, a tapped title, a caption; empty when none). */
  text: string;
  /** The last error. */
  reason: string;
  /** Attempts made. */
  attempts: number;
  /** The tenant it was stored for; absent for rows stored before tenants were recorded. */
  orgId?: string;
  /** The business number it was sent to. */
  phoneNumberId: string;
}

/** Options for {@link createInboundProcessor}. */
export interface InboundProcessorOptions {
  /** The database. */
  db: Database;
  /** What to do with each message. */
  handle: InboundHandler;
  /** Logs. */
  log: Logger;
  /** How long a claim lasts before the sweep may take it over. @default 60000 */
  leaseMs?: number;
  /** Attempts before a message is marked failed. @default 5 */
  maxAttempts?: number;
  /** Rate-limit deferrals before a message is marked failed. @default 20 */
  maxDeferrals?: number;
  /** Backoff between attempts: `baseMs × 2^(attempt−1)` capped at `maxMs`, jittered. */
  backoff?: { baseMs?: number; maxMs?: number; random?: () => number };
  /**
   * Stages what a message marked failed owes (a reply to its sender, a staff
   * ticket) in `tx`, the transaction that marks it failed: the work commits
   * with the mark, once per message. Throwing rolls the mark back; the
   * message is given up again, and this called again, by a later sweep.
   */
  onFailed?: (failure: InboundFailure, tx: Queryable) => Promise<void>;
  /** Runs after a failure's transaction committed (e.g. sends what `onFailed` staged). */
  afterFailed?: () => Promise<void>;
}

/** Runs inbound messages through the handler. */
export interface InboundProcessor {
  /** Processes these (newly stored) messages. */
  process(wamids: readonly string[]): Promise<void>;
  /** Claims and processes anything pending or abandoned; returns how many. */
  sweep(limit?: number): Promise<number>;
  /** Sweeps every `intervalMs` until stopped. */
  start(intervalMs?: number): void;
  /** Stops the background sweep and waits for work in progress. */
  stop(): Promise<void>;
}

interface ClaimedRow {
  wamid: string;
  org_id: string | null;
  phone_number_id: string;
  profile_name: string | null;
  message: Record<string, unknown>;
  sent_at: string | Date;
  received_at: string | Date;
  flags: InboundFlag[] | null;
  attempts: number;
}

/** Builds a processor. */
export function createInboundProcessor(options: InboundProcessorOptions): InboundProcessor {
  const { db, handle, log } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const maxDeferrals = options.maxDeferrals ?? 20;
  const backoff = {
    baseMs: options.backoff?.baseMs ?? 30_000,
    maxMs: options.backoff?.maxMs ?? 3_600_000,
    random: options.backoff?.random ?? Math.random,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  const inFlight = new Set<Promise<unknown>>();
  // One sender's messages run one at a time, in order, even across deliveries.
  const senderChains = new Map<string, Promise<void>>();

  function inSenderOrder(from: string, work: () => Promise<void>): Promise<void> {
    const next = (senderChains.get(from) ?? Promise.resolve()).then(work);
    const settled = next.catch(() => {});
    senderChains.set(from, settled);
    settled.then(() => {
      if (senderChains.get(from) === settled) senderChains.delete(from);
    });
    return next;
  }

  // Claims the given messages, or every sender's next ones; a sender's messages come back
  // in the order they were written (WhatsApp's timestamp), whatever order they arrived in.
  async function claim(
    filter: { wamids?: readonly string[]; senders?: readonly string[] },
    limit: number,
  ): Promise<ClaimedRow[]> {
    return await db.query<ClaimedRow>(
      `with due as (
         select wamid from private.wa_inbound
         where ($1::text[] is null or wamid = any($1::text[]))
           and ($2::text[] is null or from_wa_id = any($2::text[]))
           and ((status = 'pending' and (next_attempt_at is null or next_attempt_at <= now()))
             or (status = 'processing' and locked_until < now()))
           and attempts < $5
         order by sent_at, received_at
         limit $3
         for update skip locked)
       update private.wa_inbound i set status = 'processing', attempts = attempts + 1,
              locked_until = now() + make_interval(secs => $4::float8 / 1000)
       from due where i.wamid = due.wamid
       returning i.wamid, i.org_id, i.phone_number_id, i.profile_name, i.message, i.sent_at,
                 i.received_at, i.flags, i.attempts`,
      [filter.wamids ?? null, filter.senders ?? null, limit, leaseMs, maxAttempts],
    ).then((rows) => {
      hold(rows);
      return rows.sort((a, b) =>
        Date.parse(String(a.sent_at)) - Date.parse(String(b.sent_at)) ||
        Date.parse(String(a.received_at)) - Date.parse(String(b.received_at))
      );
    });
  }

  async function runOne(row: ClaimedRow): Promise<void> {
    const parsed = storedMessage(row);
    // The time and repairs the webhook stored stand, whatever the raw timestamp says.
    const message = parsed && {
      ...parsed,
      sentAt: new Date(row.sent_at),
      ...(row.flags?.length ? { flags: row.flags } : {}),
    };
    // A row may wait in its sender's queue after its claim, and a sweep may have taken it
    // over meanwhile: handle it only if it is still this claim's.
    if (!(await renew([row])).has(row.wamid)) {
      release(row);
      log.info("wa_inbound_superseded", { wamid: row.wamid, attempt: row.attempts });
      return;
    }
    try {
      if (!message) throw new Error("stored message no longer parses");
      await handle(message);
      await db.query(
        `update private.wa_inbound set status = 'done', processed_at = now(), locked_until = null,
                next_attempt_at = null, last_error = null
         where wamid = $1`,
        [row.wamid],
      );
    } catch (error) {
      const deferred = error instanceof RetryLater;
      log[deferred ? "warn" : "error"]("wa_inbound_failed", {
        wamid: row.wamid,
        error: String(error).slice(0, 300),
        deferred,
      });
      // A deferral gives its attempt back; a failure waits longer after each attempt. A message
      // given up is marked failed in the transaction that stages what its failure owes.
      const reason = String(error).slice(0, 500);
      await markFailed(row.wamid, async (tx) => {
        const [after] = await tx.query<{ status: string; attempts: number; from_wa_id: string }>(
          `update private.wa_inbound
         set attempts = attempts - $4::int,
             deferrals = deferrals + $4::int,
             status = case
               when $4::int = 1 and deferrals + 1 >= $6 then 'failed'
               when $4::int = 0 and attempts >= $2 then 'failed'
               else 'pending' end,
             next_attempt_at = now() + make_interval(secs => $5::float8 / 1000),
             locked_until = null, last_error = left($3, 500)
         where wamid = $1
         returning status, attempts, from_wa_id`,
          [
            row.wamid,
            maxAttempts,
            deferred ? `deferred: ${error.message}` : String(error),
            deferred ? 1 : 0,
            deferred ? error.delayMs : backoffMs(row.attempts, backoff),
            maxDeferrals,
          ],
        );
        if (after?.status !== "failed") return null;
        return {
          wamid: row.wamid,
          from: after.from_wa_id,
          text: message ? messageText(message.content) : "",
          reason,
          attempts: after.attempts,
          ...(row.org_id ? { orgId: row.org_id } : {}),
          phoneNumberId: row.phone_number_id,
        };
      });
    } finally {
      release(row);
    }
  }

  // Claimed rows not yet finished (wamid → attempt): their leases are renewed every third of
  // a lease, while they wait in their sender's queue and while their handler runs, so a long
  // turn (a document read under load) is never taken over and answered twice.
  const held = new Map<string, number>();
  let renewer: ReturnType<typeof setInterval> | undefined;
  let renewing = false;

  function hold(rows: readonly ClaimedRow[]): void {
    for (const row of rows) held.set(row.wamid, row.attempts);
    if (held.size && renewer === undefined) {
      renewer = setInterval(renewHeld, Math.max(50, Math.floor(leaseMs / 3)));
    }
  }

  function release(row: ClaimedRow): void {
    if (held.get(row.wamid) === row.attempts) held.delete(row.wamid);
    if (!held.size && renewer !== undefined) {
      clearInterval(renewer);
      renewer = undefined;
    }
  }

  async function renewHeld(): Promise<void> {
    if (renewing || !held.size) return;
    renewing = true;
    try {
      await renew([...held].map(([wamid, attempts]) => ({ wamid, attempts })));
    } catch (error) {
      log.warn("wa_inbound_lease_renewal_failed", { error: String(error).slice(0, 300) });
    } finally {
      renewing = false;
    }
  }

  // Extends the leases of claims still held (same attempt, still processing); returns the
  // wamids it renewed.
  async function renew(
    claims: ReadonlyArray<Pick<ClaimedRow, "wamid" | "attempts">>,
  ): Promise<Set<string>> {
    const renewed = await db.query<{ wamid: string }>(
      `update private.wa_inbound i
       set locked_until = now() + make_interval(secs => $3::float8 / 1000)
       from unnest($1::text[], $2::int[]) as h(wamid, attempts)
       where i.wamid = h.wamid and i.attempts = h.attempts and i.status = 'processing'
       returning i.wamid`,
      [claims.map((claim) => claim.wamid), claims.map((claim) => claim.attempts), leaseMs],
    );
    return new Set(renewed.map((row) => row.wamid));
  }

  // Runs `mark` (which marks one message, and says whether it gave it up) in a transaction
  // with `onFailed`'s staging. When that transaction fails, the row keeps its claim: it is
  // given up again when the lease has run out (`giveUpAbandoned`), with nothing lost.
  async function markFailed(
    wamid: string,
    mark: (tx: Queryable) => Promise<InboundFailure | null>,
  ): Promise<void> {
    let failure: InboundFailure | null;
    try {
      failure = await db.transaction(async (tx) => {
        const failed = await mark(tx);
        if (failed) await options.onFailed?.(failed, tx);
        return failed;
      });
    } catch (error) {
      log.error("wa_inbound_failure_not_recorded", {
        wamid,
        error: String(error).slice(0, 300),
      });
      return;
    }
    if (!failure) return;
    // Never the customer's words in a log line.
    const { text: _text, ...fields } = failure;
    log.error("wa_inbound_gave_up", fields);
    await options.afterFailed?.().catch((error) =>
      log.warn("wa_inbound_after_failed_failed", { wamid, error: String(error).slice(0, 300) })
    );
  }

  // A worker that died on its last attempt left the message `processing`: give it up.
  async function giveUpAbandoned(): Promise<void> {
    const rows = await db.query<{ wamid: string }>(
      `select wamid from private.wa_inbound
       where status = 'processing' and locked_until < now() and attempts >= $1`,
      [maxAttempts],
    );
    for (const { wamid } of rows) {
      await markFailed(wamid, async (tx) => {
        const [row] = await tx.query<
          Pick<
            ClaimedRow,
            "org_id" | "phone_number_id" | "profile_name" | "message" | "attempts"
          > & {
            from_wa_id: string;
            last_error: string;
          }
        >(
          `update private.wa_inbound
           set status = 'failed', locked_until = null,
               last_error = coalesce(last_error, 'processing never finished')
           where wamid = $1 and status = 'processing' and locked_until < now() and attempts >= $2
           returning from_wa_id, attempts, last_error, org_id, phone_number_id, profile_name,
                     message`,
          [wamid, maxAttempts],
        );
        if (!row) return null;
        const stored = storedMessage(row);
        return {
          wamid,
          from: row.from_wa_id,
          text: stored ? messageText(stored.content) : "",
          reason: row.last_error,
          attempts: row.attempts,
          ...(row.org_id ? { orgId: row.org_id } : {}),
          phoneNumberId: row.phone_number_id,
        };
      });
    }
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  async function processRows(rows: ClaimedRow[]): Promise<void> {
    // One sender's messages in order; different senders side by side.
    const bySender = new Map<string, ClaimedRow[]>();
    for (const row of rows) {
      const from = String(row.message.from);
      bySender.set(from, [...(bySender.get(from) ?? []), row]);
    }
    await Promise.all(
      [...bySender.entries()].map(([from, queue]) =>
        inSenderOrder(from, async () => {
          for (const row of queue) await runOne(row);
        })
      ),
    );
  }

  const processor: InboundProcessor = {
    process(wamids) {
      if (!wamids.length) return Promise.resolve();
      // Per sender, in turn: claim that sender's stored messages in written order.
      return track(
        db.query<{ from_wa_id: string }>(
          "select distinct from_wa_id from private.wa_inbound where wamid = any($1::text[])",
          [wamids],
        ).then((senders) =>
          Promise.all(senders.map(({ from_wa_id }) =>
            inSenderOrder(from_wa_id, async () => {
              for (const row of await claim({ senders: [from_wa_id] }, 100)) await runOne(row);
            })
          ))
        ).then(() => {}),
      );
    },
    async sweep(limit = 50) {
      await track(giveUpAbandoned());
      const rows = await track(claim({}, limit));
      await track(processRows(rows));
      return rows.length;
    },
    start(intervalMs = 5_000) {
      if (running) return;
      running = true;
      const tick = async () => {
        try {
          await processor.sweep();
        } catch (error) {
          log.error("wa_inbound_sweep_failed", { error: String(error) });
        }
        if (running) timer = setTimeout(tick, intervalMs);
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
  return processor;
}

// A stored message as the webhook parsed it; undefined when it no longer parses.
function storedMessage(
  row: Pick<ClaimedRow, "org_id" | "phone_number_id" | "profile_name" | "message">,
): InboundMessage | undefined {
  const delivery = parseDelivery({
    object: "whatsapp_business_account",
    entry: [{
      id: row.phone_number_id,
      changes: [{
        field: "messages",
        value: {
          metadata: { phone_number_id: row.phone_number_id },
          contacts: row.profile_name
            ? [{ wa_id: row.message.from, profile: { name: row.profile_name } }]
            : [],
          messages: [row.message],
        },
      }],
    }],
  });
  const message = delivery?.messages[0];
  return message && row.org_id ? { ...message, orgId: row.org_id } : message;
}
