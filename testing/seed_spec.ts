/**
 * The few Jest words the seeds' example tests use (`describe`, `it`,
 * `expect(…).toBe`, `.toBeDefined`), so a seed's test block is pasted into a
 * `*_test.ts` file unchanged and runs as Deno tests. Each `it` becomes one
 * {@link dbTest} per backend with its own database, inside `around` (which
 * starts what the block's functions call, e.g. a function on loopback).
 *
 * @module
 */
import assert from "node:assert/strict";
import { type Backend, dbTest, type TestDatabase } from "./db.ts";

/** What `expect(actual)` can say about a value. */
export interface Expectation {
  /** The value is `expected` (`Object.is`, as Jest's `toBe`). */
  toBe(expected: unknown): void;
  /** The value is not `undefined`. */
  toBeDefined(): void;
}

/** The Jest words a seed's tests use. */
export interface SeedSpec {
  /** Names a group: its `it`s are named "<group> <case>". */
  describe(name: string, body: () => void): void;
  /** One case: a test per backend, in a fresh database, run inside `around`. */
  it(name: string, fn: () => Promise<void> | void): void;
  /** Assertions about `actual`. */
  expect(actual: unknown): Expectation;
}

/** Options for {@link seedSpec}. */
export interface SeedSpecOptions {
  /** Runs one case: set up what the case calls, `await run()`, then tear it down. */
  around(db: TestDatabase, run: () => Promise<void>, backend: Backend): Promise<void>;
}

/**
 * Jest's words over {@link dbTest}.
 *
 * @example
 * ```ts ignore
 * const { describe, it, expect } = seedSpec({
 *   async around(db, run) {
 *     const server = await start(db);
 *     try {
 *       await run();
 *     } finally {
 *       await server.close();
 *     }
 *   },
 * });
 * describe("momo_charge", () => {
 *   it("should create payment link", async () => {
 *     expect((await momo_charge(params)).ok).toBe(true);
 *   });
 * });
 * ```
 */
export function seedSpec(options: SeedSpecOptions): SeedSpec {
  const groups: string[] = [];
  return {
    describe(name, body) {
      groups.push(name);
      try {
        body();
      } finally {
        groups.pop();
      }
    },
    it(name, fn) {
      dbTest([...groups, name].join(" "), (db, backend) =>
        options.around(db, async () => {
          await fn();
        }, backend));
    },
    expect(actual) {
      return {
        toBe: (expected) => assert.equal(actual, expected),
        toBeDefined: () => assert.notEqual(actual, undefined, "expected a value, got undefined"),
      };
    },
  };
}
