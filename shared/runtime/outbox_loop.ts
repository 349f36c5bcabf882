/**
 * The loop every outbox sender runs (WhatsApp messages, staff
 * notifications): rounds of "claim due rows, send each through a transport,
 * settle it" until nothing is due, a background loop whose runs never
 * overlap, and a stop that waits for the run in progress. What a round
 * claims, how it sends and how it settles a row (backoff, Retry-After, give
 * up after max attempts, pause on 429) belongs to the sender; this module
 * owns when rounds run.
 *
 * @module
 */

/** What a round reports: numeric counts (rows claimed among them), summed over a drain. */
export interface RoundSummary {
  /** Rows the round claimed; 0 ends a drain. */
  claimed: number;
}

/** Options for {@link OutboxLoop}. */
export interface OutboxLoopOptions<S extends RoundSummary> {
  /** One round: claim due rows and settle each; `claimed: 0` when nothing was due. */
  round(): Promise<S>;
  /** A summary of nothing. */
  empty(): S;
  /**
   * The field of a summary that says, when nothing could be claimed, how
   * many ms until a round may claim again (a throttle): a drain waits it out
   * and keeps the last round's value rather than a sum.
   */
  waitField?: keyof S & string;
  /** Run before each background run (e.g. requeue rows a crashed sender left). */
  beforeRun?(): Promise<unknown>;
  /** Told when a background run throws; the loop goes on. */
  onError(error: unknown): void;
  /** Waits while throttled (tests advance their clock instead). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
}

/** Options for {@link OutboxLoop.start}. */
export interface OutboxLoopStartOptions {
  /** The pause between the end of one run and the start of the next, in ms. */
  intervalMs: number;
}

/**
 * Adds a round's counts to a running total; `waitField` takes the round's
 * value instead.
 */
export function addRound<S extends RoundSummary>(total: S, round: S, waitField?: keyof S): void {
  const sums = total as unknown as Record<string, number>;
  for (const [key, value] of Object.entries(round as unknown as Record<string, number>)) {
    sums[key] = key === waitField ? value : sums[key] + value;
  }
}

/** Runs an outbox's rounds: on demand, until drained, or in the background. */
export class OutboxLoop<S extends RoundSummary> {
  readonly #options: OutboxLoopOptions<S>;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #inflight = new Set<Promise<unknown>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;

  /** Creates a stopped loop. */
  constructor(options: OutboxLoopOptions<S>) {
    this.#options = options;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Whether the background loop is on. */
  get running(): boolean {
    return this.#running;
  }

  /** Tracks work outside the loop's rounds, so {@link stop} and {@link drain} wait for it too. */
  track<T>(run: Promise<T>): Promise<T> {
    const settled = run.catch(() => {});
    this.#inflight.add(settled);
    void settled.finally(() => this.#inflight.delete(settled));
    return run;
  }

  /** One round, tracked so {@link stop} and {@link drain} wait for it. */
  round(): Promise<S> {
    return this.track(this.#options.round());
  }

  /**
   * Waits for the round in progress, then runs rounds until nothing is due,
   * waiting out throttles. Rows requeued for later are not waited for.
   */
  async drain(): Promise<S> {
    await Promise.all(this.#inflight);
    return await this.#rounds();
  }

  async #rounds(): Promise<S> {
    const { waitField } = this.#options;
    const total = this.#options.empty();
    for (;;) {
      const round = await this.round();
      addRound(total, round, waitField);
      if (round.claimed > 0) continue;
      const waitMs = waitField ? Number(round[waitField]) : 0;
      if (waitMs > 0) {
        await this.#sleep(waitMs);
        continue;
      }
      return total;
    }
  }

  /**
   * Starts the background loop: `beforeRun`, drain, pause `intervalMs`,
   * repeat; runs never overlap.
   *
   * @throws {TypeError} when it is already running.
   * @throws {RangeError} when `intervalMs` is negative.
   */
  start(options: OutboxLoopStartOptions): void {
    if (this.#running) throw new TypeError("Cannot start the outbox loop as it is already running");
    const { intervalMs } = options;
    if (!Number.isFinite(intervalMs) || intervalMs < 0) {
      throw new RangeError(
        `Cannot start the outbox loop as intervalMs must be at least 0: current value is ${intervalMs}`,
      );
    }
    this.#running = true;
    const tick = async () => {
      this.#timer = undefined;
      await this.track(this.#run());
      if (this.#running) this.#timer = setTimeout(tick, intervalMs);
    };
    this.#timer = setTimeout(tick, 0);
  }

  async #run(): Promise<void> {
    try {
      await this.#options.beforeRun?.();
      await this.#rounds();
    } catch (error) {
      this.#options.onError(error);
    }
  }

  /** Stops the background loop and waits for the run in progress. */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.all(this.#inflight);
  }
}
