/**
 * Exponential backoff with jitter, as a pure function of the attempt number.
 *
 * @module
 */

/** Options for {@link backoffMs}. */
export interface BackoffOptions {
  /** The delay after the first attempt, before jitter. */
  baseMs: number;
  /** The longest delay. */
  maxMs: number;
  /** A number in [0, 1). */
  random: () => number;
}

/**
 * The delay before retrying after `attempt` failed attempts: `baseMs × 2^(attempt−1)`,
 * capped at `maxMs`, then "equal jitter" (half fixed, half random) so a burst
 * of failures does not retry in lockstep and no delay is ever zero.
 *
 * @param attempt Attempts made so far, from 1.
 * @param options Base, cap and random source.
 * @returns Milliseconds to wait.
 */
export function backoffMs(attempt: number, options: BackoffOptions): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const capped = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.round(capped / 2 + options.random() * (capped / 2));
}
