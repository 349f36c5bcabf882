/**
 * A token bucket on an injectable millisecond clock: `rate` tokens per
 * second, holding at most `capacity`. Unlike a plain limiter it can go into
 * debt (a send that must happen now), be emptied (Meta said "slow down") and
 * be paused for a while (a provider's Retry-After). Every outbox sender
 * throttles with it.
 *
 * @module
 */

/** Options for {@link TokenBucket}. */
export interface TokenBucketOptions {
  /** Tokens added per second (and the capacity). */
  perSecond: number;
  /** Milliseconds clock. */
  now: () => number;
}

/** A token bucket, starting full. */
export class TokenBucket {
  readonly #rate: number;
  readonly #capacity: number;
  readonly #now: () => number;
  #tokens: number;
  #updatedMs: number;

  /**
   * Creates a full bucket.
   *
   * @param options Rate and clock.
   * @throws {RangeError} When the rate is not a positive number.
   */
  constructor(options: TokenBucketOptions) {
    if (!(options.perSecond > 0) || !Number.isFinite(options.perSecond)) {
      throw new RangeError(
        `Cannot create a token bucket as perSecond must be positive: current value is ${options.perSecond}`,
      );
    }
    this.#rate = options.perSecond / 1000;
    this.#capacity = options.perSecond;
    this.#now = options.now;
    this.#tokens = this.#capacity;
    this.#updatedMs = this.#now();
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#updatedMs);
    this.#tokens = Math.min(this.#capacity, this.#tokens + elapsed * this.#rate);
    this.#updatedMs = now;
  }

  /** Whole tokens available now. */
  available(): number {
    this.#refill();
    return Math.max(0, Math.floor(this.#tokens));
  }

  /** Milliseconds until at least one whole token is available (0 when one is). */
  waitMs(): number {
    this.#refill();
    return this.#tokens >= 1 ? 0 : Math.ceil((1 - this.#tokens) / this.#rate);
  }

  /** Takes `count` tokens, going into debt if there are not enough. */
  take(count = 1): void {
    this.#refill();
    this.#tokens -= count;
  }

  /**
   * Holds the bucket empty for `ms` (a provider's Retry-After), or longer
   * if it is already further in debt.
   */
  pause(ms: number): void {
    this.#refill();
    this.#tokens = Math.min(this.#tokens, 1 - Math.max(0, ms) * this.#rate);
  }

  /** Empties the bucket, so sending pauses until it refills. */
  empty(): void {
    this.#refill();
    this.#tokens = Math.min(this.#tokens, 0);
  }
}
