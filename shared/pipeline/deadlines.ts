/**
 * Hard deadlines of the calls in flight, on one shared timer. Arming and
 * clearing a timer costs more than the whole in-process pipeline (about 5 µs
 * in Deno), so a call only adds an entry to a set; the one timer is armed for
 * the earliest deadline and re-armed only when a call brings an earlier one.
 * The timer is unref'd: a process with nothing else to do does not wait for it.
 *
 * @module
 */

/** One registered deadline; pass it back to {@link Deadlines.clear}. */
export interface Deadline {
  /** When it expires, in `performance.now()` milliseconds. */
  readonly at: number;
  /** Called once when the deadline passes before being cleared. */
  readonly expire: () => void;
}

/** The deadlines of calls in flight. */
export class Deadlines {
  readonly #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedAt = Infinity;

  /**
   * Calls `expire` after `ms` milliseconds unless cleared first. `now` is
   * `performance.now()` when the caller has just read it (a read is ~0.1 µs).
   */
  add(ms: number, expire: () => void, now: number = performance.now()): Deadline {
    const deadline: Deadline = { at: now + ms, expire };
    this.#pending.add(deadline);
    if (deadline.at < this.#armedAt) this.#arm(deadline.at);
    return deadline;
  }

  /** Forgets a deadline (the call finished in time); the shared timer stays as it is. */
  clear(deadline: Deadline): void {
    this.#pending.delete(deadline);
  }

  /** How many deadlines are pending (for tests). */
  get size(): number {
    return this.#pending.size;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    const timer = setTimeout(this.#tick, Math.max(0, at - performance.now()));
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const deadline of this.#pending) {
      if (deadline.at <= now) {
        this.#pending.delete(deadline);
        try {
          deadline.expire();
        } catch {
          // An abort listener's failure must not keep the other deadlines from firing.
        }
      } else if (deadline.at < next) {
        next = deadline.at;
      }
    }
    if (next !== Infinity) this.#arm(next);
  };
}
