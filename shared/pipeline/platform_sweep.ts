/**
 * The platform's periodic work, independent of any channel: the packs'
 * schedules that are due (`Pack.schedules`, at most once per period per
 * tenant) and the purge of expired idempotency keys (once per
 * `purgeEveryMs`, in short batches). Both read the platform's clock, the one
 * tools see, so a test moves them with an injected clock.
 *
 * Who calls it: the WhatsApp worker's sweep (`POST /agent/sweep`, which
 * pg_cron calls deployed), and a long-running host's loop
 * (`PlatformOptions.sweepIntervalMs`: the dev server). Running it from more
 * than one place is safe: a schedule's idempotency key names its period.
 *
 * @module
 */
import type { Logger } from "@shared/runtime/log.ts";
import { purgeExpiredKeys, type PurgeKeysOptions } from "./idempotency.ts";
import { runPackSchedules } from "./pack_schedules.ts";
import type { Platform, PlatformSweepSummary } from "./platform.ts";

export type { PlatformSweepSummary };

/** Options for {@link createPlatformSweeper}. */
export interface PlatformSweeperOptions {
  /** The clock: picks each schedule's period and judges the keys' expiry. */
  now: () => Date;
  /** Logs failures. */
  log: Logger;
  /** Least time between two purges of expired keys. @default 600000 (10 minutes) */
  purgeEveryMs?: number;
  /** Batch limits of one purge. @default 10 batches of 1,000 keys */
  purge?: Pick<PurgeKeysOptions, "batchSize" | "maxBatches">;
  /**
   * More work the root runs on every sweep after the schedules (the tenants' automations),
   * each by the same clock; one that throws is logged by name and the rest runs. @default none
   */
  tasks?: ReadonlyArray<{ name: string; run(at: Date): Promise<unknown> }>;
}

/** The platform's sweep, with a loop for long-running hosts. */
export interface PlatformSweeper {
  /** Runs what is due now. Never throws: a failing part is logged and the rest runs. */
  sweep(): Promise<PlatformSweepSummary>;
  /** Sweeps every `intervalMs` (each run starts that long after the last one ended). */
  start(options: { intervalMs: number }): void;
  /** Stops the loop, waiting for the run in progress. */
  stop(): Promise<void>;
}

/**
 * Builds the sweeper of a platform; `platform` is read on each sweep, so the
 * root can build the sweeper before the platform object it belongs to.
 *
 * @throws {RangeError} when `purgeEveryMs` is not a positive number.
 */
export function createPlatformSweeper(
  platform: () => Platform,
  options: PlatformSweeperOptions,
): PlatformSweeper {
  const { now, log } = options;
  const purgeEveryMs = options.purgeEveryMs ?? 600_000;
  if (!(purgeEveryMs > 0)) {
    throw new RangeError(
      `Cannot create the platform sweeper as purgeEveryMs must be positive: current value is ${purgeEveryMs}`,
    );
  }
  let lastPurge: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let looping = false;

  async function sweep(): Promise<PlatformSweepSummary> {
    const at = now();
    const summary: PlatformSweepSummary = { schedules: 0, schedulesFailed: 0, keysPurged: 0 };
    const current = platform();
    try {
      // A tenant an operator added since the last load gets its schedules now, not at a restart.
      await current.tenants.fresh();
      const runs = await runPackSchedules(current, { now: at });
      summary.schedules = runs.length;
      summary.schedulesFailed = runs.filter((run) => !run.result.ok).length;
    } catch (error) {
      log.error("pack_schedules_failed", { error: String(error).slice(0, 300) });
    }
    for (const task of options.tasks ?? []) {
      try {
        await task.run(at);
      } catch (error) {
        log.error("sweep_task_failed", { task: task.name, error: String(error).slice(0, 300) });
      }
    }
    // Once per period by this clock: the keys are only about the table's size (a claim
    // reclaims an expired key in place), so a purge every few minutes is plenty.
    if (lastPurge === undefined || at.getTime() - lastPurge >= purgeEveryMs) {
      try {
        summary.keysPurged = await purgeExpiredKeys(current.db, { ...options.purge, now: at });
        lastPurge = at.getTime();
      } catch (error) {
        log.error("idempotency_purge_failed", { error: String(error).slice(0, 300) });
      }
    }
    return summary;
  }

  function schedule(intervalMs: number): void {
    timer = setTimeout(() => {
      running = sweep().finally(() => {
        if (looping) schedule(intervalMs);
      });
    }, intervalMs);
  }

  return {
    sweep,
    start({ intervalMs }) {
      if (!(intervalMs > 0)) {
        throw new RangeError(
          `Cannot start the platform sweep as intervalMs must be positive: current value is ${intervalMs}`,
        );
      }
      if (looping) return;
      looping = true;
      schedule(intervalMs);
    },
    async stop() {
      looping = false;
      clearTimeout(timer);
      await running;
    },
  };
}
