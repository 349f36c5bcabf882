/**
 * Token-bucket rate limiting per tenant and tool, in process memory: the
 * check costs a map lookup and no I/O. Each process of a scaled-out
 * deployment limits on its own, so the effective ceiling is per instance.
 *
 * @module
 */

/** A limit: `limit` calls per `windowSec` seconds, with bursts up to `limit`. */
export interface RateLimit {
  /** Calls allowed per window. */
  limit: number;
  /** Window length in seconds. */
  windowSec: number;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** Options for {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Milliseconds clock, injectable for tests. @default performance.now */
  now?: () => number;
  /** Buckets kept before idle ones are dropped. @default 10000 */
  maxBuckets?: number;
}

/** Token buckets keyed by a string such as `org:tool`. */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;
  readonly #maxBuckets: number;

  /** Creates a limiter. */
  constructor(options: RateLimiterOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#maxBuckets = options.maxBuckets ?? 10_000;
  }

  /** Takes one token for `key`; false when the bucket is empty. */
  take(key: string, limit: RateLimit): boolean {
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= this.#maxBuckets) this.#evictFull(now, limit);
      bucket = { tokens: limit.limit, updatedMs: now };
      this.#buckets.set(key, bucket);
    } else {
      const refill = ((now - bucket.updatedMs) / 1000) * (limit.limit / limit.windowSec);
      bucket.tokens = Math.min(limit.limit, bucket.tokens + refill);
      bucket.updatedMs = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  // Buckets idle for a whole window are full again, so forgetting them changes nothing.
  #evictFull(now: number, limit: RateLimit): void {
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.updatedMs > limit.windowSec * 1000) this.#buckets.delete(key);
    }
    if (this.#buckets.size >= this.#maxBuckets) {
      this.#buckets.delete(this.#buckets.keys().next().value!);
    }
  }
}
