/**
 * A call's deadline (private to the steps that run tools): the tool's work
 * races its timeout on the shared timer, and queries after the deadline are
 * refused.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Deadlines } from "../deadlines.ts";
import { Timeout } from "./_failure.ts";

/**
 * Settles with `work`, or rejects with Timeout (and aborts the call) when
 * its deadline passes first; the deadline rides on the shared timer.
 */
export function withDeadline<T>(
  deadlines: Deadlines,
  work: Promise<T>,
  ms: number,
  controller: AbortController,
  now?: number,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline = deadlines.add(ms, () => {
      controller.abort();
      reject(new Timeout());
    }, now);
    work.then(
      (value) => {
        deadlines.clear(deadline);
        resolve(value);
      },
      (error) => {
        deadlines.clear(deadline);
        reject(error);
      },
    );
  });
}

/** `tx` refusing every query once the call's deadline has passed. */
export function guard(tx: Queryable, signal: AbortSignal): Queryable {
  return {
    query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      if (signal.aborted) return Promise.reject(new Timeout());
      return tx.query<T>(text, params);
    },
  };
}
