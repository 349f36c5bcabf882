/**
 * The WhatsApp channel's worker: what the `agent` function runs. It claims
 * stored inbound messages (`private.wa_inbound` is the queue; the webhook
 * only stores and wakes it), answers each through the handler (a message a
 * pack's counterpart claims, such as a vendor's reply, to that pack;
 * everything else to the conversation, the LangGraph agent in production),
 * commits replies to the outbox and sends
 * them with the one outbound dispatcher.
 *
 * @module
 */
import type { Runtime } from "@shared/pipeline/platform.ts";
import { purgeIdleBuckets } from "@shared/pipeline/rate_limit.ts";
import { policyAllows } from "@shared/registry/tenant_policy.ts";
import { sweepExpiredFiles } from "@shared/storage/retention_sweep.ts";
import { withInboundMedia } from "./inbound_media.ts";
import { createGraphMediaSource, type MediaSource } from "./media.ts";
import type { ConversationHandler } from "./conversation.ts";
import { createWhatsAppHandler } from "./handler.ts";
import {
  createInboundProcessor,
  type InboundHandler,
  type InboundProcessor,
  type InboundProcessorOptions,
} from "./inbound_processor.ts";
import { stageCredentialsAlert, stageGivenUp } from "./failure_notices.ts";
import { createTenantTransport, type TenantNumbersConfig } from "./tenant_numbers.ts";
import {
  createDispatcher,
  createGraphAdapter,
  createLocalAdapter,
  type Dispatcher,
  type WhatsAppTransport,
} from "./mod.ts";

/** Settings of the worker. */
export interface WhatsAppWorkerConfig {
  /**
   * Each tenant's replies leave from its own business number
   * (`tenant_whatsapp_numbers`) with the token its row names: what deployed
   * functions and the dev server use. Wins over `graph`.
   */
  numbers?: TenantNumbersConfig;
  /**
   * One number's Graph API credentials that every tenant's replies leave
   * from (tests of one tenant); without it and `numbers`, the local recorder.
   */
  graph?: { token: string; phoneNumberId: string; baseUrl?: string };
  /** Answers what no pack's counterpart claims (the LangGraph agent in production). */
  conversation: ConversationHandler;
  /** Retry policy of inbound processing. @default 5 attempts, backoff from 30 s to 1 h */
  retries?: Pick<InboundProcessorOptions, "maxAttempts" | "maxDeferrals" | "backoff">;
  /** How long a rate-limited message waits before its next attempt. @default 60000 */
  rateLimitRetryMs?: number;
  /**
   * How often a started worker runs the packs' sweeps (a paid certificate,
   * expired ride offers) and forgets idle rate buckets; deployed, pg_cron's
   * POST /sweep does. @default 10000
   */
  packSweepIntervalMs?: number;
  /**
   * Where inbound media bytes come from. @default the Graph API's two-step
   * download with the token of the number the message came to (`numbers`) or
   * `graph`'s; without either and this, media messages reach the conversation
   * unsaved
   */
  media?: MediaSource;
}

/** A running worker. */
export interface WhatsAppWorker {
  /** Inbound processing. */
  processor: InboundProcessor;
  /** Outbound sending. */
  dispatcher: Dispatcher;
  /** The transport in use. */
  transport: WhatsAppTransport;
  /**
   * Processes what is pending or abandoned, sends what is due, removes
   * files past their retention (a Storage failure is logged, the rest stands),
   * runs the packs' sweeps (`Pack.sweeps`, e.g. expired ride offers), the
   * platform's sweep (`platform.sweep()`: due pack schedules, expired
   * idempotency keys) and forgets idle rate buckets.
   */
  sweep(): Promise<{
    processed: number;
    sent: number;
    filesRemoved: number;
    bucketsPurged: number;
    /** Pack schedule runs of the platform's sweep. */
    schedules: number;
    /** Expired idempotency keys the platform's sweep purged. */
    keysPurged: number;
  }>;
  /**
   * Starts the background loops (long-running hosts only): inbound
   * recovery, dispatch, and the packs' sweeps with the rate-bucket purge.
   */
  start(): void;
  /** Stops them, waiting for work in progress. */
  stop(): Promise<void>;
}

/**
 * Builds the worker on a runtime. Each message is answered for the tenant
 * the webhook stored it for (the owner of the number it was sent to).
 */
export function createWhatsAppWorker(
  runtime: Runtime,
  config: WhatsAppWorkerConfig,
): WhatsAppWorker {
  const { platform } = runtime;
  const transport = config.numbers
    ? createTenantTransport(platform.tenants, config.numbers)
    : config.graph
    ? createGraphAdapter(config.graph)
    : createLocalAdapter();
  const sends = config.numbers !== undefined || config.graph !== undefined;
  const dispatcher = createDispatcher({
    db: platform.db,
    transport,
    log: platform.log,
    // Meta's one-message-per-6-s pair limit does not apply when nothing leaves the machine.
    pairIntervalMs: sends ? undefined : 0,
  });
  // Send what a turn queued straight away; the dispatch loop (or the sweep) retries the rest.
  const kick = async () => {
    await dispatcher.dispatchDue().catch((error) =>
      platform.log.error("wa_dispatch_failed", { error: String(error) })
    );
  };
  // Staged tickets are opened by the notification dispatcher: open them now, not on its next
  // round (a failure stays staged and is retried there).
  const openTickets = async () => {
    await platform.notifications.drain().catch((error) =>
      platform.log.error("notification_dispatch_failed", { error: String(error) })
    );
  };
  // The packs' sweeps in the background: each run starts a pause after the last one ended,
  // so a slow sweep never queues more behind it.
  let packSweeps: ReturnType<typeof setTimeout> | undefined;
  let packSweeping = Promise.resolve();
  let sweepingPacks = false;
  const schedulePackSweeps = () => {
    packSweeps = setTimeout(() => {
      packSweeping = runPackSweeps().then(kick).then(async () => {
        await purgeRateBuckets();
      }).finally(() => {
        if (sweepingPacks) schedulePackSweeps();
      });
    }, config.packSweepIntervalMs ?? 10_000);
  };
  // Rate buckets idle for a day are full again: forgetting them keeps the table to the callers
  // of the last day. A failure is logged; the next run goes on.
  const purgeRateBuckets = () =>
    purgeIdleBuckets(platform.db).catch((error) => {
      platform.log.error("rate_buckets_purge_failed", { error: String(error).slice(0, 300) });
      return 0;
    });
  // The packs' own sweeps (expired ride offers, ...), for every tenant whose policy enables
  // them (one that cannot use rides has no ride offers to expire): one failing is logged, the
  // rest run.
  const runPackSweeps = async () => {
    const tools = platform.packs.flatMap((pack) => pack.sweeps ?? []);
    await platform.tenants.fresh();
    for (const tenant of platform.tenants.list()) {
      for (const tool of tools) {
        if (!policyAllows(tenant.policy, tool)) continue;
        const result = await platform.call({
          tool,
          args: {},
          caller: { claims: { role: "service_role" }, org_id: tenant.id },
          idempotencyKey: `sweep:${tool}:${crypto.randomUUID()}`,
        }).catch((error) => ({ ok: false as const, error: { code: String(error), msg: "" } }));
        if (!result.ok) {
          platform.log.error("pack_sweep_failed", {
            tool,
            org: tenant.id,
            code: result.error.code,
          });
        }
      }
    }
  };
  // Where a message's media comes from: the token of the number it was sent to.
  const mediaSourceFor = (phoneNumberId: string): MediaSource | undefined => {
    if (config.media) return config.media;
    if (config.numbers) {
      const number = platform.tenants.byPhoneNumberId(phoneNumberId);
      const token = number && config.numbers.secrets(number.tokenSecretName);
      return token
        ? createGraphMediaSource({
          token,
          baseUrl: config.numbers.baseUrl,
          fetch: config.numbers.fetch,
        })
        : undefined;
    }
    return config.graph
      ? createGraphMediaSource({ token: config.graph.token, baseUrl: config.graph.baseUrl })
      : undefined;
  };
  // One handler per tenant and number, built on its first message.
  const handlers = new Map<string, InboundHandler>();
  const handlerFor = (orgId: string, phoneNumberId: string): InboundHandler => {
    const key = `${orgId}:${phoneNumberId}`;
    const known = handlers.get(key);
    if (known) return known;
    const handler = createWhatsAppHandler({
      platform,
      orgId,
      conversation: config.conversation,
      onQueued: kick,
      rateLimitRetryMs: config.rateLimitRetryMs,
    });
    const source = mediaSourceFor(phoneNumberId);
    const handle = source
      ? withInboundMedia(handler, {
        db: platform.db,
        orgId,
        source,
        files: platform.files,
        log: platform.log,
        onQueued: kick,
        onCredentialsRefused: async (refusal) => {
          await stageCredentialsAlert(platform.db, { orgId, refusal });
          await openTickets();
        },
      })
      : handler;
    handlers.set(key, handle);
    return handle;
  };
  // The tenant the webhook stored a message for; rows stored before tenants were recorded
  // fall back to the number's owner.
  const orgOf = (message: { orgId?: string; phoneNumberId: string }) =>
    message.orgId ?? platform.tenants.byPhoneNumberId(message.phoneNumberId)?.orgId;
  const processor = createInboundProcessor({
    db: platform.db,
    log: platform.log,
    ...config.retries,
    // A message given up: its sender is told and staff get a ticket, both staged as outbound
    // work in the transaction that marks it failed.
    onFailed: async (failure, tx) => {
      const orgId = orgOf(failure);
      if (!orgId) {
        platform.log.error("wa_inbound_no_tenant", { phone_number_id: failure.phoneNumberId });
        return;
      }
      await stageGivenUp(tx, { orgId, failure });
    },
    afterFailed: async () => {
      await kick();
      await openTickets();
    },
    handle: async (message) => {
      // A brand or number an operator changed since the last load is read before answering.
      await platform.tenants.fresh();
      const orgId = orgOf(message);
      if (!orgId) throw new Error(`no tenant owns the number ${message.phoneNumberId}`);
      await handlerFor(orgId, message.phoneNumberId)(message);
    },
  });
  return {
    processor,
    dispatcher,
    transport,
    async sweep() {
      const processed = await processor.sweep();
      // Tickets staged and not yet opened (notify_staff failed before) are retried here too.
      await openTickets();
      await dispatcher.recoverStale({ olderThanMs: 300_000 });
      const { sent } = await dispatcher.drain();
      const filesRemoved = await sweepExpiredFiles({ db: platform.db, files: platform.files })
        .catch((error) => {
          platform.log.error("storage_retention_sweep_failed", { error: String(error) });
          return 0;
        });
      await runPackSweeps();
      // The platform's own periodic work (the packs' due schedules, expired idempotency keys):
      // deployed, pg_cron's POST /agent/sweep is what runs it.
      const platformSweep = await platform.sweep();
      // What the packs' sweeps and schedules queued (a rider told nobody answered) leaves now.
      const { sent: sentAfter } = await dispatcher.drain();
      const bucketsPurged = await purgeRateBuckets();
      return {
        processed,
        sent: sent + sentAfter,
        filesRemoved,
        bucketsPurged,
        schedules: platformSweep.schedules,
        keysPurged: platformSweep.keysPurged,
      };
    },
    start() {
      processor.start();
      dispatcher.start({ intervalMs: 1000 });
      if (!sweepingPacks) {
        sweepingPacks = true;
        schedulePackSweeps();
      }
    },
    async stop() {
      sweepingPacks = false;
      clearTimeout(packSweeps);
      await packSweeping;
      await processor.stop();
      await dispatcher.stop();
    },
  };
}
