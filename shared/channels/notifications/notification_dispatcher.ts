/**
 * Sends staged staff notifications after commit. Tools stage a row in
 * `notification_outbox` (`status = 'recorded'`) inside their transaction
 * (`stagedNotifier`, `staged_notifier.ts`); nothing leaves the database there.
 * This dispatcher, running as the connecting role, then:
 *
 * 1. claims due rows (`status = 'recorded' and next_attempt_at <= now()`)
 *    with `for update skip locked`, counting the attempt and pushing
 *    `next_attempt_at` out by a lease, in one statement that commits before
 *    anything is sent, so concurrent dispatchers never take the same row and
 *    a crashed one's rows come back when the lease ends;
 * 2. hands each row to its channel's {@link NotificationTransport}, outside
 *    any transaction;
 * 3. marks it `sent` (`sent_at`, the transport's target), or `failed` when
 *    the failure is final or `maxAttempts` is reached, or `unknown` when the
 *    request went out and no answer came (it may have been delivered: never
 *    sent again, `last_error` says so), or schedules a retry
 *    (`next_attempt_at`, `last_error`) with exponential backoff, or the
 *    provider's `Retry-After`.
 *
 * Delivery is at least once: a crash between a send and its mark resends
 * the message after the lease. A channel with no transport is left alone
 * (its rows stay `recorded`) and logged once.
 *
 * The `inbox` channel is a staged staff ticket (`inbox_tickets.ts`): its
 * transport opens it through `notify_staff`, and the row keeps the ticket's id.
 *
 * Columns used besides the core ones: `attempts`, `last_error`, `sent_at`,
 * `next_attempt_at` (migration `20261122000400_admin_inbox.sql`),
 * `ticket_request` (`20261126000600_inbox_ticket_outbox.sql`).
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { OutboxLoop } from "@shared/runtime/outbox_loop.ts";
import { TokenBucket } from "@shared/runtime/token_bucket.ts";
import {
  type NotificationChannel,
  type NotificationTransport,
  scrub,
  type SendResult,
  type TicketRequest,
} from "./notification_transport.ts";

const CHANNELS: readonly NotificationChannel[] = ["slack", "sms", "inbox"];

/** The longest `Retry-After` obeyed: a provider asking for more gets asked again then. */
const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Options for {@link createNotificationDispatcher}. */
export interface NotificationDispatcherOptions {
  /** The database as the connecting role (the `Database`, not a caller's transaction). */
  db: Queryable;
  /** One transport per channel; a channel without one is not sent. */
  transports: {
    slack?: NotificationTransport;
    sms?: NotificationTransport;
    /** Opens staged tickets (`inbox_tickets.ts`). */
    inbox?: NotificationTransport;
  };
  /** Where sends, failures and unconfigured channels are reported. */
  log: Logger;
  /** Attempts per row before it is marked failed. @default 5 */
  maxAttempts?: number;
  /** Rows claimed per run. @default 20 */
  batchSize?: number;
  /**
   * How long a claimed row is left alone before another run may take it
   * (a crashed dispatcher). Longer than a transport's timeout. @default 60000
   */
  leaseMs?: number;
  /**
   * Delay before attempt `attempt + 1` after a retryable failure without
   * `Retry-After`. @default 5 s × 4^(attempt − 1), at most 10 min, ±20 %
   */
  retryDelayMs?: (attempt: number) => number;
  /** Sends per second per channel; a provider's Retry-After pauses its channel. @default 20 */
  perChannelPerSecond?: number;
}

/** What one run (or a drain) did. */
export interface DispatchSummary {
  /** Rows claimed. */
  claimed: number;
  /** Rows marked sent. */
  sent: number;
  /** Rows marked failed (final failure or attempts exhausted). */
  failed: number;
  /** Rows scheduled for another attempt. */
  retrying: number;
  /** Rows put back untried because their channel is rate limited. */
  deferred: number;
  /** Rows marked unknown: sent without an answer, maybe delivered, never sent again. */
  unknown: number;
}

/** The dispatcher. */
export interface NotificationDispatcher {
  /** Claims and sends up to `limit` due rows (default `batchSize`). */
  dispatchDue(options?: { limit?: number }): Promise<DispatchSummary>;
  /**
   * Drains, pauses `intervalMs` (default 2000), repeats, until stopped.
   *
   * @throws {TypeError} when it is already running.
   */
  start(options?: { intervalMs?: number }): void;
  /** Stops the loop and waits for a run in progress. */
  stop(): Promise<void>;
  /**
   * Waits for a run in progress, then runs until nothing is due (rows
   * waiting for a later retry stay). For shutdown and tests.
   */
  drain(): Promise<DispatchSummary>;
}

interface ClaimedRow {
  id: string;
  org_id: string;
  ticket_id: string | null;
  channel: NotificationChannel;
  body: string;
  attempts: number;
  urgent: boolean;
  created_at: string | Date;
  ticket_request: TicketRequest | null;
}

const CLAIM_SQL = `
  with due as (
    select o.id
      from public.notification_outbox o
     where o.status = 'recorded'
       and o.next_attempt_at <= now()
       and o.channel = any($1::text[])
     order by o.next_attempt_at, o.created_at
     limit $2
     for update skip locked
  )
  update public.notification_outbox o
     set attempts = o.attempts + 1,
         next_attempt_at = now() + $3::double precision * interval '1 millisecond'
    from due
   where o.id = due.id
  returning o.id, o.org_id, o.ticket_id, o.channel, o.body, o.attempts, o.created_at,
    o.ticket_request,
    coalesce((select t.priority = 'urgent' from public.staff_tickets t where t.id = o.ticket_id),
             false) as urgent`;

const MARK_SENT_SQL = `
  update public.notification_outbox
     set status = 'sent', sent_at = now(), last_error = null, target = coalesce($2, target),
         ticket_id = coalesce($3::uuid, ticket_id)
   where id = $1 and status = 'recorded'`;

const MARK_FAILED_SQL = `
  update public.notification_outbox
     set status = 'failed', last_error = $2
   where id = $1 and status = 'recorded'`;

const MARK_UNKNOWN_SQL = `
  update public.notification_outbox
     set status = 'unknown', last_error = $2
   where id = $1 and status = 'recorded'`;

const MARK_RETRY_SQL = `
  update public.notification_outbox
     set last_error = $2, next_attempt_at = now() + $3::double precision * interval '1 millisecond'
   where id = $1 and status = 'recorded'`;

const RELEASE_SQL = `
  update public.notification_outbox
     set attempts = greatest(attempts - 1, 0),
         next_attempt_at = now() + $2::double precision * interval '1 millisecond'
   where id = $1 and status = 'recorded'`;

const WAITING_SQL = `
  select channel, count(*)::int as waiting
    from public.notification_outbox
   where status = 'recorded' and channel = any($1::text[])
   group by channel`;

/** The default retry delay: 5 s, 20 s, 80 s, 320 s, then 10 min, each ±20 %. */
export function defaultRetryDelayMs(attempt: number): number {
  const base = Math.min(600_000, 5000 * 4 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

function emptySummary(): DispatchSummary {
  return { claimed: 0, sent: 0, failed: 0, retrying: 0, deferred: 0, unknown: 0 };
}

/**
 * Builds a dispatcher over the outbox.
 *
 * @throws {TypeError} when `maxAttempts` or `batchSize` is not a positive integer, or a
 * transport is registered under another channel's name.
 */
export function createNotificationDispatcher(
  options: NotificationDispatcherOptions,
): NotificationDispatcher {
  const { db, log } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? 60_000;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  for (const [name, value] of [["maxAttempts", maxAttempts], ["batchSize", batchSize]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new TypeError(
        `Cannot create the notification dispatcher as ${name} must be a positive integer: current value is ${value}`,
      );
    }
  }
  const transports = new Map<NotificationChannel, NotificationTransport>();
  for (const channel of CHANNELS) {
    const transport = options.transports[channel];
    if (!transport) continue;
    if (transport.channel !== channel) {
      throw new TypeError(
        `Cannot use the ${transport.channel} transport for the ${channel} channel`,
      );
    }
    transports.set(channel, transport);
  }
  const unconfigured = new Set(CHANNELS.filter((channel) => !transports.has(channel)));
  // One bucket per channel; a provider's Retry-After pauses it.
  const buckets = new Map(
    [...transports.keys()].map((channel) => [
      channel,
      new TokenBucket({ perSecond: options.perChannelPerSecond ?? 20, now: Date.now }),
    ]),
  );

  async function warnUnconfigured(): Promise<void> {
    if (unconfigured.size === 0) return;
    const rows = await db.query<{ channel: NotificationChannel; waiting: number }>(
      WAITING_SQL,
      [[...unconfigured]],
    );
    for (const row of rows) {
      if (row.waiting === 0 || !unconfigured.delete(row.channel)) continue;
      log.warn("notification_channel_unconfigured", {
        channel: row.channel,
        waiting: row.waiting,
      });
    }
  }

  async function send(
    transport: NotificationTransport,
    row: ClaimedRow,
  ): Promise<SendResult> {
    try {
      return await transport.send({
        text: row.body,
        urgent: row.urgent,
        ticketId: row.ticket_id,
        orgId: row.org_id,
        ...(row.ticket_request ? { ticketRequest: row.ticket_request } : {}),
      });
    } catch (error) {
      // A transport should not throw; if one does, treat it as transient.
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return { ok: false, retryable: true, reason: `transport threw ${scrub(message, [])}` };
    }
  }

  async function settle(
    row: ClaimedRow,
    result: SendResult,
    summary: DispatchSummary,
  ): Promise<void> {
    const fields = {
      id: row.id,
      channel: row.channel,
      ticket_id: row.ticket_id,
      attempt: row.attempts,
    };
    if (result.ok) {
      await db.query(MARK_SENT_SQL, [row.id, result.target ?? null, result.ticketId ?? null]);
      summary.sent++;
      log.info("notification_sent", fields);
      return;
    }
    if (result.unknown) {
      // It may have been delivered: never sent again; staff see the row as unknown.
      await db.query(MARK_UNKNOWN_SQL, [row.id, result.reason]);
      summary.unknown++;
      log.warn("notification_unknown", { ...fields, reason: result.reason });
      return;
    }
    if (!result.retryable || row.attempts >= maxAttempts) {
      const reason = result.retryable
        ? `${result.reason} (gave up after ${row.attempts} attempts)`
        : result.reason;
      await db.query(MARK_FAILED_SQL, [row.id, reason]);
      summary.failed++;
      log.error("notification_failed", { ...fields, reason });
      return;
    }
    const delay = result.retryAfterMs === undefined
      ? retryDelayMs(row.attempts)
      : Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS);
    await db.query(MARK_RETRY_SQL, [row.id, result.reason, delay]);
    summary.retrying++;
    log.warn("notification_retry", { ...fields, reason: result.reason, delay_ms: delay });
  }

  async function runChannel(
    channel: NotificationChannel,
    rows: ClaimedRow[],
    summary: DispatchSummary,
  ): Promise<void> {
    const transport = transports.get(channel)!;
    // One at a time per channel: providers rate-limit per webhook or account.
    for (const [index, row] of rows.entries()) {
      // Claimed more often than allowed: earlier runs died mid-send (leases ran out).
      buckets.get(channel)!.take();
      const result: SendResult = row.attempts > maxAttempts
        ? { ok: false, retryable: false, reason: `abandoned after ${row.attempts - 1} attempts` }
        : await send(transport, row);
      try {
        await settle(row, result, summary);
      } catch (error) {
        // The row keeps its lease and is tried again when it ends.
        log.error("notification_mark_failed", {
          id: row.id,
          channel,
          error: (error as Error).message,
        });
      }
      if (!result.ok && result.retryAfterMs !== undefined) {
        const pause = Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS);
        buckets.get(channel)!.pause(pause);
        for (const rest of rows.slice(index + 1)) {
          try {
            await db.query(RELEASE_SQL, [rest.id, pause]);
            summary.deferred++;
          } catch (error) {
            log.error("notification_mark_failed", {
              id: rest.id,
              channel,
              error: (error as Error).message,
            });
          }
        }
        return;
      }
    }
  }

  async function dispatchDue(runOptions: { limit?: number } = {}): Promise<DispatchSummary> {
    const summary = emptySummary();
    await warnUnconfigured();
    const channels = [...buckets].filter(([, bucket]) => bucket.waitMs() === 0)
      .map(([channel]) => channel);
    if (channels.length === 0) return summary;
    const rows = await db.query<ClaimedRow>(CLAIM_SQL, [
      channels,
      runOptions.limit ?? batchSize,
      leaseMs,
    ]);
    summary.claimed = rows.length;
    const byChannel = new Map<NotificationChannel, ClaimedRow[]>();
    for (const row of rows.sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at))) {
      byChannel.set(row.channel, [...(byChannel.get(row.channel) ?? []), row]);
    }
    await Promise.all(
      [...byChannel].map(([channel, channelRows]) => runChannel(channel, channelRows, summary)),
    );
    return summary;
  }

  const loop = new OutboxLoop({
    round: () => dispatchDue(),
    empty: emptySummary,
    onError: (error) =>
      log.error("notification_dispatch_failed", { error: (error as Error).message }),
  });

  return {
    dispatchDue: (runOptions) => loop.track(dispatchDue(runOptions)),
    start: (startOptions = {}) => loop.start({ intervalMs: startOptions.intervalMs ?? 2000 }),
    stop: () => loop.stop(),
    drain: () => loop.drain(),
  };
}
