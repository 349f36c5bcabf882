/**
 * The outbox dispatcher: claims due messages from `public.wa_outbox` and
 * hands them to a {@link WhatsAppTransport}, one business number per
 * dispatcher.
 *
 * - **Claim.** One statement takes due rows (`queued`, `next_attempt_at <=
 *   now`) with `for update skip locked`, sets them `sending` and counts the
 *   attempt, so several workers never take the same row. Messages to one
 *   recipient go out in the order they were queued: a row is not claimed
 *   while an older message to the same wa_id is still queued or sending.
 * - **Pair rate.** No two messages to the same wa_id closer than
 *   `pairIntervalMs` (Meta allows about one per 6 s): the claim checks the
 *   recipient's last `sent_at` and pushes a too-early row's
 *   `next_attempt_at` to when it may go, without counting an attempt.
 *   Other recipients are not held up.
 * - **Throughput.** A token bucket of `perNumberPerSecond` (Meta's default
 *   80/s per business number) caps how many rows a round claims; a 130429
 *   from Meta empties it. The bucket lives in process memory: run one
 *   dispatcher per business number, or split the rate between processes.
 * - **24-hour window.** A free-form message whose recipient has not written
 *   in 24 hours (per `wa_contacts.last_inbound_at`; never, when there is no
 *   contact) is sent as its fallback template up front. Without a fallback it
 *   is tried anyway: Meta is the authority and answers 131047.
 * - **Meta's codes.** 131047 → send the fallback template now (or fail);
 *   130429 → requeue with exponential backoff and jitter; 131056 → requeue
 *   after `pairIntervalMs`; 131026 → failed; 131048/131049 → failed, with a
 *   warning for staff; 131000, network errors and timeouts → retry with
 *   backoff; any retry past `maxAttempts` → failed. Auth errors (190, 10,
 *   200) are logged as errors and retried, so a bad token does not fail the
 *   whole queue at once.
 *
 * **Delivery is at least once, or at most once and reconciled.** The row is
 * committed `sending` before the Graph call and its wamid right after Meta's
 * answer, but a crash between the two leaves it `sending`. The Graph API has
 * no idempotency key, so {@link Dispatcher.recoverStale} cannot know whether
 * Meta accepted it: an ordinary message is requeued and sent again (at least
 * once); an `at_most_once` one (a broadcast) is never resent: a status webhook
 * for its recipient reconciles it (`applyStatus` with the recipient), and when
 * none came within `unconfirmedAfterMs` it is marked `unconfirmed` (failed,
 * not resent; its campaign send reads `unknown` for staff). Choose
 * `olderThanMs` well above the transport's timeout, or a slow send is
 * duplicated (or, for a broadcast, waits for its report).
 *
 * Log lines carry outbox ids and codes, never recipients or message text.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { backoffMs } from "@shared/runtime/backoff.ts";
import { OutboxLoop } from "@shared/runtime/outbox_loop.ts";
import { TokenBucket } from "@shared/runtime/token_bucket.ts";
import { isStaffAlertCode, WA_ERROR } from "./error_codes.ts";
import type { MessageBody, MessageKind, TemplateBody } from "./messages.ts";
import type { SendRejected, SendResult, WhatsAppTransport } from "./transport.ts";
import { isWindowOpen } from "./window.ts";

/** Options for {@link createDispatcher}. */
export interface DispatcherOptions {
  /** The database, as the connecting role or `service_role`. */
  db: Queryable;
  /** Where messages go: the Graph API adapter, or the local adapter. */
  transport: WhatsAppTransport;
  /** Structured logger. */
  log: Logger;
  /** The clock; every timestamp the dispatcher writes or compares comes from it. @default () => new Date() */
  now?: () => Date;
  /** Waits while the token bucket refills (tests advance their clock instead). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** Random numbers in [0, 1) for backoff jitter. @default Math.random */
  random?: () => number;
  /** Messages per second for the business number. @default 80 */
  perNumberPerSecond?: number;
  /** The shortest gap between two messages to one recipient, in ms. @default 6000 */
  pairIntervalMs?: number;
  /** Attempts before a retryable failure becomes `failed`. @default 8 */
  maxAttempts?: number;
  /** The first retry delay, doubled per attempt. @default 2000 */
  backoffBaseMs?: number;
  /** The longest retry delay. @default 600000 (10 minutes) */
  backoffMaxMs?: number;
  /** Rows claimed per round at most. @default 50 */
  batchSize?: number;
  /** Sends in flight at once within a round. @default 10 */
  concurrency?: number;
}

/** What one or more rounds did. */
export interface DispatchSummary {
  /** Rows claimed (sent, failed, retried or deferred). */
  claimed: number;
  /** Accepted by WhatsApp (status `sent`). */
  sent: number;
  /** Given up (status `failed`). */
  failed: number;
  /** Requeued after an error, with a later `next_attempt_at`. */
  retried: number;
  /** Requeued by the pair-rate gate without an attempt. */
  deferred: number;
  /** When nothing could be claimed for want of tokens: ms until the next token. */
  throttledMs: number;
}

/** Options for {@link Dispatcher.dispatchDue} and {@link Dispatcher.drain}. */
export interface DispatchOptions {
  /** Rows claimed per round at most. @default the dispatcher's batchSize */
  limit?: number;
}

/** Options for {@link Dispatcher.recoverStale}. */
export interface RecoverStaleOptions {
  /** Requeue rows that have been `sending` for longer than this (at-most-once rows excepted). */
  olderThanMs: number;
  /**
   * Mark an at-most-once row unconfirmed when it has been `sending`, with no
   * status webhook reconciling it, for longer than this.
   * @default 1 hour (Meta's status webhooks normally follow within seconds)
   */
  unconfirmedAfterMs?: number;
}

/** How long an at-most-once row left `sending` waits for a status webhook: an hour. */
export const UNCONFIRMED_AFTER_MS = 3_600_000;

/** Options for {@link Dispatcher.start}. */
export interface StartOptions {
  /** The pause between the end of one run and the start of the next. */
  intervalMs: number;
  /**
   * Each run first requeues rows `sending` for longer than this (a crashed
   * worker's); 0 turns recovery off. @default 300000 (5 minutes)
   */
  staleAfterMs?: number;
}

/** Sends queued WhatsApp messages. */
export interface Dispatcher {
  /** One round: claim due rows (as many as tokens allow) and send them. */
  dispatchDue(options?: DispatchOptions): Promise<DispatchSummary>;
  /**
   * Rounds until nothing is due, waiting for tokens when throttled. Rows
   * requeued for later (backoff, pair rate) are not waited for.
   */
  drain(options?: DispatchOptions): Promise<DispatchSummary>;
  /**
   * Requeues ordinary rows left `sending` by a crash and marks at-most-once
   * ones unconfirmed past their bound; returns how many were requeued.
   */
  recoverStale(options: RecoverStaleOptions): Promise<number>;
  /** Starts a background loop: recover, drain, pause `intervalMs`, repeat; runs never overlap. */
  start(options: StartOptions): void;
  /** Stops the loop and waits for the current run to finish. */
  stop(): Promise<void>;
  /** Whether the background loop is on. */
  readonly running: boolean;
}

interface ClaimedRow {
  id: string;
  org_id: string;
  to_wa_id: string;
  kind: MessageKind;
  body: MessageBody;
  fallback_template: TemplateBody | null;
  attempts: number;
  last_error_code: number | null;
  last_inbound_at: Date | string | null;
  phone_number_id: string | null;
  deferred: boolean;
}

type Outcome = "sent" | "failed" | "retried";

// Meta's auth and permission errors: our configuration, not the message.
const AUTH_CODES = new Set([10, 190, 200]);

function emptySummary(): DispatchSummary {
  return { claimed: 0, sent: 0, failed: 0, retried: 0, deferred: 0, throttledMs: 0 };
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(
      `Cannot create the dispatcher as ${name} must be a positive integer: current value is ${value}`,
    );
  }
  return value;
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `Cannot create the dispatcher as ${name} must be at least 0: current value is ${value}`,
    );
  }
  return value;
}

// Claims due rows in one statement. Rows whose recipient got a message less
// than the pair interval ago stay queued, moved to when they may go. A row is
// due by the dispatcher's clock or the database's: a message queued a moment
// ago carries the database's `now()`, which the worker's clock (another
// machine, or the same one read a microsecond later but truncated to the
// millisecond) may not have reached yet.
const CLAIM_SQL = `
  with due as (
    select o.id
      from public.wa_outbox o
     where o.status = 'queued'
       and o.next_attempt_at <= greatest($1::timestamptz, now())
       and not exists (
         select 1 from public.wa_outbox older
          where older.to_wa_id = o.to_wa_id
            and older.status in ('queued', 'sending')
            and older.seq < o.seq)
     order by o.next_attempt_at, o.seq
     limit $2
     for update of o skip locked
  ),
  -- Materialised: each claimed row's gate is computed once, not planned and run again for every
  -- column of the update that reads it (half of what a claim cost on PGlite, planning included).
  -- The recipient's contact row, read here once: their window and the number they wrote to.
  gate as materialized (
    select due.id,
           (select max(p.sent_at) from public.wa_outbox p
             where p.org_id = x.org_id and p.to_wa_id = x.to_wa_id)
             + $3::double precision * interval '1 millisecond' as not_before,
           c.last_inbound_at, c.phone_number_id
      from due join public.wa_outbox x on x.id = due.id
      left join public.wa_contacts c on c.org_id = x.org_id and c.wa_id = x.to_wa_id
  )
  update public.wa_outbox o set
    status = case when gate.not_before > $1::timestamptz then 'queued' else 'sending' end,
    attempts = o.attempts + case when gate.not_before > $1::timestamptz then 0 else 1 end,
    next_attempt_at = case when gate.not_before > $1::timestamptz
                        then gate.not_before else o.next_attempt_at end,
    updated_at = $1::timestamptz
    from gate
   where o.id = gate.id
  returning o.id, o.org_id, o.to_wa_id, o.kind, o.body, o.fallback_template, o.attempts, o.last_error_code,
            coalesce(gate.not_before > $1::timestamptz, false) as deferred,
            gate.last_inbound_at, gate.phone_number_id`;

class OutboxDispatcher implements Dispatcher {
  readonly #db: Queryable;
  readonly #transport: WhatsAppTransport;
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #pairIntervalMs: number;
  readonly #maxAttempts: number;
  readonly #backoffBaseMs: number;
  readonly #backoffMaxMs: number;
  readonly #batchSize: number;
  readonly #concurrency: number;
  readonly #bucket: TokenBucket;
  readonly #loop: OutboxLoop<DispatchSummary>;
  #staleAfterMs = 0;

  constructor(options: DispatcherOptions) {
    this.#db = options.db;
    this.#transport = options.transport;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
    this.#sleep = options.sleep ??
      ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#random = options.random ?? Math.random;
    this.#pairIntervalMs = nonNegative(options.pairIntervalMs ?? 6000, "pairIntervalMs");
    this.#maxAttempts = positiveInt(options.maxAttempts ?? 8, "maxAttempts");
    this.#backoffBaseMs = nonNegative(options.backoffBaseMs ?? 2000, "backoffBaseMs");
    this.#backoffMaxMs = nonNegative(options.backoffMaxMs ?? 600_000, "backoffMaxMs");
    this.#batchSize = positiveInt(options.batchSize ?? 50, "batchSize");
    this.#concurrency = positiveInt(options.concurrency ?? 10, "concurrency");
    this.#bucket = new TokenBucket({
      perSecond: positiveInt(options.perNumberPerSecond ?? 80, "perNumberPerSecond"),
      now: () => this.#now().getTime(),
    });
    this.#loop = new OutboxLoop({
      round: () => this.#round({}),
      empty: emptySummary,
      waitField: "throttledMs",
      sleep: this.#sleep,
      beforeRun: async () => {
        if (this.#staleAfterMs > 0) await this.recoverStale({ olderThanMs: this.#staleAfterMs });
      },
      onError: (error) =>
        this.#log.error("wa.dispatcher.run_failed", {
          error: error instanceof Error ? error.message : String(error),
        }),
    });
  }

  get running(): boolean {
    return this.#loop.running;
  }

  dispatchDue(options: DispatchOptions = {}): Promise<DispatchSummary> {
    return this.#loop.track(this.#round(options));
  }

  async #round(options: DispatchOptions): Promise<DispatchSummary> {
    const summary = emptySummary();
    const limit = Math.min(options.limit ?? this.#batchSize, this.#bucket.available());
    if (limit < 1) {
      summary.throttledMs = this.#bucket.waitMs();
      return summary;
    }
    const rows = await this.#db.query<ClaimedRow>(CLAIM_SQL, [
      this.#now(),
      limit,
      this.#pairIntervalMs,
    ]);
    summary.claimed = rows.length;
    const sendable = rows.filter((row) => !row.deferred);
    summary.deferred = rows.length - sendable.length;
    await forEachLimited(sendable, this.#concurrency, async (row) => {
      summary[await this.#process(row)] += 1;
    });
    return summary;
  }

  async drain(options: DispatchOptions = {}): Promise<DispatchSummary> {
    if (options.limit === undefined) return await this.#loop.drain();
    // A drain with its own round size: the same rounds, each claiming at most `limit`.
    const rounds = new OutboxLoop({
      round: () => this.#round(options),
      empty: emptySummary,
      waitField: "throttledMs",
      sleep: this.#sleep,
      onError: () => {},
    });
    return await this.#loop.track(rounds.drain());
  }

  async recoverStale(options: RecoverStaleOptions): Promise<number> {
    const olderThanMs = options.olderThanMs;
    if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
      throw new RangeError(
        `Cannot recover stale messages as olderThanMs must be at least 0: current value is ${olderThanMs}`,
      );
    }
    const now = this.#now();
    const rows = await this.#db.query<{ id: string }>(
      `update public.wa_outbox set status = 'queued', next_attempt_at = $1::timestamptz,
              updated_at = $1::timestamptz
        where status = 'sending' and not at_most_once
          and updated_at < $1::timestamptz - $2::double precision * interval '1 millisecond'
       returning id`,
      [now, olderThanMs],
    );
    // At most once: never resent. No status webhook reconciled it in time: unconfirmed, for staff.
    const unconfirmedAfterMs = options.unconfirmedAfterMs ?? UNCONFIRMED_AFTER_MS;
    const unconfirmed = await this.#db.query<{ id: string }>(
      `update public.wa_outbox set status = 'failed', unconfirmed = true, last_error_code = null,
              last_error = 'Unconfirmed: the sending process stopped mid-send and no delivery ' ||
                           'report came; not resent, so it is never sent twice',
              updated_at = $1::timestamptz
        where status = 'sending' and at_most_once and wamid is null
          and updated_at < $1::timestamptz - $2::double precision * interval '1 millisecond'
       returning id`,
      [now, Math.max(olderThanMs, unconfirmedAfterMs)],
    );
    if (unconfirmed.length > 0) {
      this.#log.warn("wa.outbox.unconfirmed", {
        count: unconfirmed.length,
        ids: unconfirmed.map((r) => r.id),
      });
    }
    if (rows.length > 0) {
      this.#log.warn("wa.outbox.recovered_stale", {
        count: rows.length,
        ids: rows.map((r) => r.id),
      });
    }
    return rows.length;
  }

  start(options: StartOptions): void {
    if (this.#loop.running) {
      throw new TypeError("Cannot start the dispatcher as it is already running");
    }
    const intervalMs = nonNegative(options.intervalMs, "intervalMs");
    this.#staleAfterMs = options.staleAfterMs ?? 300_000;
    this.#loop.start({ intervalMs });
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #send(row: ClaimedRow, body: MessageBody): Promise<SendResult> {
    this.#bucket.take();
    try {
      // The row's tenant, and the number the recipient wrote to, pick the number it leaves from.
      return await this.#transport.send(row.to_wa_id, body, {
        orgId: row.org_id,
        ...(row.phone_number_id ? { phoneNumberId: row.phone_number_id } : {}),
      });
    } catch (error) {
      this.#log.error("wa.transport.threw", {
        error: error instanceof Error ? error.message : String(error),
      });
      return { ok: false, code: WA_ERROR.transport, title: "Transport error", retryable: true };
    }
  }

  async #process(row: ClaimedRow): Promise<Outcome> {
    const fallback = row.kind === "template" ? null : row.fallback_template;
    let usedTemplate = false;
    let body = row.body;
    if (fallback) {
      const reEngaged = row.last_error_code === WA_ERROR.reEngagement;
      if (reEngaged || !isWindowOpen(row.last_inbound_at, this.#now())) {
        this.#log.info("wa.outbox.template_chosen", {
          id: row.id,
          reason: reEngaged ? "re_engagement" : "window_closed",
        });
        body = { type: "template", template: fallback.template };
        usedTemplate = true;
      }
    }
    let result = await this.#send(row, body);
    let reEngagement: SendRejected | undefined;
    if (!result.ok && result.code === WA_ERROR.reEngagement && fallback && !usedTemplate) {
      reEngagement = result;
      this.#log.info("wa.outbox.template_chosen", { id: row.id, reason: "re_engagement" });
      result = await this.#send(row, { type: "template", template: fallback.template });
    }
    if (result.ok) {
      await this.#db.query(
        `update public.wa_outbox set status = 'sent', wamid = $2, sent_at = $3::timestamptz,
                updated_at = $3::timestamptz,
                last_error_code = coalesce($4::int, last_error_code),
                last_error = coalesce($5::text, last_error),
                sent_as_template = $6
          where id = $1 and status in ('sending', 'queued')`,
        [
          row.id,
          result.wamid,
          this.#now(),
          reEngagement?.code ?? null,
          reEngagement ? errorText(reEngagement) : null,
          usedTemplate || reEngagement !== undefined,
        ],
      );
      return "sent";
    }
    return await this.#handleRejection(row, result);
  }

  async #handleRejection(row: ClaimedRow, result: SendRejected): Promise<Outcome> {
    const { code } = result;
    const fields = { id: row.id, code, attempts: row.attempts };
    let retry = result.retryable;
    if (AUTH_CODES.has(code)) {
      this.#log.error("wa.transport.auth_error", fields);
      this.#bucket.empty();
      retry = true;
    }
    if (!retry || row.attempts >= this.#maxAttempts) {
      await this.#fail(row, result);
      if (isStaffAlertCode(code)) {
        this.#log.warn("wa.outbox.alert_staff", { ...fields, title: result.title });
      } else {
        this.#log.warn("wa.outbox.failed", { ...fields, title: result.title });
      }
      return "failed";
    }
    let delayMs: number;
    if (code === WA_ERROR.pairRate) {
      delayMs = this.#pairIntervalMs;
    } else {
      if (code === WA_ERROR.throughput) this.#bucket.empty();
      delayMs = backoffMs(row.attempts, {
        baseMs: this.#backoffBaseMs,
        maxMs: this.#backoffMaxMs,
        random: this.#random,
      });
    }
    delayMs = Math.max(delayMs, result.retryAfterMs ?? 0);
    const now = this.#now();
    await this.#db.query(
      `update public.wa_outbox set status = 'queued', next_attempt_at = $2::timestamptz,
              last_error_code = $3, last_error = $4, updated_at = $5::timestamptz
        where id = $1 and status = 'sending'`,
      [row.id, new Date(now.getTime() + delayMs), code, errorText(result), now],
    );
    this.#log.info("wa.outbox.retry", { ...fields, delayMs });
    return "retried";
  }

  async #fail(row: ClaimedRow, result: SendRejected): Promise<void> {
    await this.#db.query(
      `update public.wa_outbox set status = 'failed', last_error_code = $2, last_error = $3,
              updated_at = $4::timestamptz
        where id = $1 and status = 'sending'`,
      [row.id, result.code, errorText(result), this.#now()],
    );
  }
}

function errorText(result: SendRejected): string {
  const text = result.details ? `${result.title}: ${result.details}` : result.title;
  return text.slice(0, 1000);
}

async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Creates a dispatcher for one business number.
 *
 * @param options Database, transport, logger, and optional clock, limits and backoff.
 * @returns The dispatcher; call {@link Dispatcher.start} for a background loop, or
 *   {@link Dispatcher.drain} to send what is due now.
 * @throws {RangeError} When a limit is not a positive number.
 *
 * @example Sending locally: nothing leaves the machine
 * ```ts ignore
 * const dispatcher = createDispatcher({ db, transport: createLocalAdapter(), log });
 * dispatcher.start({ intervalMs: 1000 });
 * // …
 * await dispatcher.stop();
 * ```
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  return new OutboxDispatcher(options);
}
