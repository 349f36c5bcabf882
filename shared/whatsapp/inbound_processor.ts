/**
 * Processes stored inbound messages after the 200 has gone out, and again
 * after a crash: a message is claimed (status `processing` with a lease),
 * handled, then marked `done`. A message whose lease ran out — its worker
 * died — is claimed again by the sweep. Handlers must be idempotent (tool
 * calls carry idempotency keys derived from the wamid), so a second run has
 * no second effect.
 *
 * @module
 */
import type { Database } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { type InboundMessage, parseDelivery } from "./inbound.ts";

/** Handles one message; throwing leaves it for a retry. */
export type InboundHandler = (message: InboundMessage) => Promise<void>;

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
  phone_number_id: string;
  profile_name: string | null;
  message: Record<string, unknown>;
  sent_at: string | Date;
  received_at: string | Date;
}

/** Builds a processor. */
export function createInboundProcessor(options: InboundProcessorOptions): InboundProcessor {
  const { db, handle, log } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 5;
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
           and (status = 'pending' or (status = 'processing' and locked_until < now()))
         order by sent_at, received_at
         limit $3
         for update skip locked)
       update private.wa_inbound i set status = 'processing', attempts = attempts + 1,
              locked_until = now() + make_interval(secs => $4::float8 / 1000)
       from due where i.wamid = due.wamid
       returning i.wamid, i.phone_number_id, i.profile_name, i.message, i.sent_at, i.received_at`,
      [filter.wamids ?? null, filter.senders ?? null, limit, leaseMs],
    ).then((rows) =>
      rows.sort((a, b) =>
        Date.parse(String(a.sent_at)) - Date.parse(String(b.sent_at)) ||
        Date.parse(String(a.received_at)) - Date.parse(String(b.received_at))
      )
    );
  }

  async function runOne(row: ClaimedRow): Promise<void> {
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
    try {
      if (!message) throw new Error("stored message no longer parses");
      await handle(message);
      await db.query(
        `update private.wa_inbound set status = 'done', processed_at = now(), locked_until = null,
                last_error = null
         where wamid = $1`,
        [row.wamid],
      );
    } catch (error) {
      log.error("wa_inbound_failed", { wamid: row.wamid, error: String(error) });
      await db.query(
        `update private.wa_inbound
         set status = case when attempts >= $2 then 'failed' else 'pending' end,
             locked_until = null, last_error = left($3, 500)
         where wamid = $1`,
        [row.wamid, maxAttempts, String(error)],
      );
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
      clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
  return processor;
}
