/**
 * The composer: a list of steps becomes one handler, each step getting the
 * call and the rest of the chain as `next`, as in Hono's `compose.ts`. A
 * step answers itself (a refusal) or returns what `next` answers, and may
 * wrap it (a deadline, a transaction, a trace).
 *
 * The chain is linked once, when it is composed: a call allocates nothing
 * here, and a step that never waits returns its answer without a promise, so
 * a refusal settles synchronously (docs/performance.md).
 *
 * @module
 */

/** The rest of the chain after a step. */
export type Next<C, R> = (call: C) => R | Promise<R>;

/** One step: answers the call, or hands it to `next`. */
export type Step<C, R> = (call: C, next: Next<C, R>) => R | Promise<R>;

/**
 * Links steps into one handler, first step outermost.
 *
 * @param steps The steps, in the order a call meets them; the last one must answer.
 * @returns The handler; calling `next` past the last step throws.
 * @throws {RangeError} When there are no steps.
 * @throws {TypeError} When a step is not a function.
 *
 * @example Usage
 * ```ts
 * import { compose } from "@shared/pipeline/compose.ts";
 *
 * const run = compose<number[], string>([
 *   (log, next) => { log.push(1); return next(log); },
 *   (log) => `ran ${log.length}`,
 * ]);
 * run([]); // "ran 1"
 * ```
 */
export function compose<C, R>(steps: readonly Step<C, R>[]): Next<C, R> {
  if (steps.length === 0) {
    throw new RangeError("Cannot compose a pipeline as it has no steps: current value is 0");
  }
  let next: Next<C, R> = function end(): never {
    throw new Error("Cannot finish the call as the last step called next()");
  };
  for (let index = steps.length - 1; index >= 0; index--) {
    const step = steps[index];
    if (typeof step !== "function") {
      throw new TypeError(
        `Cannot compose a pipeline as step ${index} is not a function: current value is ${typeof step}`,
      );
    }
    next = link(step, next);
  }
  return next;
}

// One closure per step, made once; it carries the step's name for stack traces.
function link<C, R>(step: Step<C, R>, after: Next<C, R>): Next<C, R> {
  const run = (call: C) => step(call, after);
  Object.defineProperty(run, "name", { value: step.name || "step" });
  return run;
}
