import assert from "node:assert/strict";
import { testBackends } from "./db.ts";

// Runs with the environment it sets and puts it back, whatever the test's own environment.
function withEnv(env: Record<string, string | undefined>, fn: () => void): void {
  const saved = Object.keys(env).map((name) => [name, Deno.env.get(name)] as const);
  try {
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
    fn();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
}

Deno.test("testBackends() runs every available engine unless TEST_BACKENDS narrows it", () => {
  const url = "postgres://postgres@127.0.0.1:1/postgres";
  withEnv({ TEST_DATABASE_URL: undefined, TEST_BACKENDS: undefined }, () => {
    assert.deepEqual(testBackends(), ["pglite"]);
  });
  withEnv({ TEST_DATABASE_URL: url, TEST_BACKENDS: undefined }, () => {
    assert.deepEqual(testBackends(), ["pglite", "postgres"]);
  });
  withEnv({ TEST_DATABASE_URL: url, TEST_BACKENDS: "postgres" }, () => {
    assert.deepEqual(testBackends(), ["postgres"]);
  });
  withEnv({ TEST_DATABASE_URL: url, TEST_BACKENDS: " pglite , postgres " }, () => {
    assert.deepEqual(testBackends(), ["pglite", "postgres"]);
  });
});

Deno.test("testBackends() refuses an engine it cannot run, naming it", () => {
  withEnv({ TEST_DATABASE_URL: undefined, TEST_BACKENDS: "postgres" }, () => {
    assert.throws(() => testBackends(), /"postgres".*set TEST_DATABASE_URL/);
  });
  withEnv({ TEST_DATABASE_URL: undefined, TEST_BACKENDS: "mysql" }, () => {
    assert.throws(() => testBackends(), /TEST_BACKENDS's "mysql": available are pglite/);
  });
});
