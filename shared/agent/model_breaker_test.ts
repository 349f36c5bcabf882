import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { ModelUnavailableError } from "./model.ts";
import {
  countsAgainstEndpoint,
  createModelBreaker,
  type ModelBreakerOptions,
  modelBreakerOptionsFromEnv,
} from "./model_breaker.ts";

const OPENAI = { orgId: ORG.easymo, endpoint: "https://api.openai.com/v1" };

function breakerOver(db: TestDatabase, options: Partial<ModelBreakerOptions> = {}) {
  const clock = { now: new Date("2026-11-26T08:00:00Z") };
  const make = () =>
    createModelBreaker({
      db,
      threshold: 3,
      cooldownMs: 60_000,
      probeMs: 20_000,
      now: () => clock.now,
      ...options,
    });
  const later = (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  return { breaker: make(), another: make(), later };
}

dbTest(
  "the breaker opens after three failed turns in a row, and an answer in between resets the count",
  async (db) => {
    const { breaker } = breakerOver(db);
    assert.equal(await breaker.gate(OPENAI), "closed");
    assert.deepEqual(await breaker.failed(OPENAI), { open: false, opened: false, failures: 1 });
    await breaker.failed(OPENAI);
    // The model answered: the two failures were no outage.
    assert.equal(await breaker.succeeded(OPENAI), false);
    await breaker.failed(OPENAI);
    await breaker.failed(OPENAI);
    assert.equal(await breaker.gate(OPENAI), "closed");
    assert.deepEqual(await breaker.failed(OPENAI), { open: true, opened: true, failures: 3 });
    assert.equal(await breaker.gate(OPENAI), "open");
  },
);

dbTest("an open breaker is per org and endpoint, and every instance sees it", async (db) => {
  const { breaker, another } = breakerOver(db);
  for (let i = 0; i < 3; i++) await breaker.failed(OPENAI);
  // Another function instance, with nothing in memory, reads it from the database.
  assert.equal(await another.gate(OPENAI), "open");
  assert.equal(await another.gate({ ...OPENAI, orgId: ORG.beaver }), "closed");
  assert.equal(await another.gate({ ...OPENAI, endpoint: "http://127.0.0.1:8080/v1" }), "closed");
  // No API role can read or change it.
  const as = { role: "authenticated" as const, sub: USER.jean };
  await assert.rejects(
    db.asCaller(as, (tx) => tx.query("select * from private.model_breakers")),
    /permission denied/,
  );
});

dbTest(
  "after the cool-down one turn probes: its answer closes the breaker, its failure opens another cool-down",
  async (db) => {
    const { breaker, another, later } = breakerOver(db);
    for (let i = 0; i < 3; i++) await breaker.failed(OPENAI);
    later(59_000);
    assert.equal(await another.gate(OPENAI), "open");
    later(1_000);
    // The cool-down is over: exactly one of the instances gets the probe.
    const gates = await Promise.all([breaker.gate(OPENAI), another.gate(OPENAI)]);
    assert.deepEqual(gates.sort(), ["open", "probe"]);
    // The probe fails: a new cool-down, counted from now.
    assert.deepEqual(await breaker.failed(OPENAI), { open: true, opened: false, failures: 4 });
    later(30_000);
    assert.equal(await another.gate(OPENAI), "open");
    later(30_000);
    assert.equal(await another.gate(OPENAI), "probe");
    // A probe that never reports (its instance died) is taken over once its time is up.
    assert.equal(await breaker.gate(OPENAI), "open");
    later(20_000);
    assert.equal(await breaker.gate(OPENAI), "probe");
    // This probe is answered: closed for everyone, the count starts again.
    assert.equal(await breaker.succeeded(OPENAI), true);
    assert.equal(await another.gate(OPENAI), "closed");
    assert.equal(await breaker.gate(OPENAI), "closed");
    assert.deepEqual(await breaker.failed(OPENAI), { open: false, opened: false, failures: 1 });
  },
);

dbTest(
  "an instance that found the breaker open skips the database until the cool-down ends",
  async (db) => {
    const { breaker, later } = breakerOver(db);
    for (let i = 0; i < 3; i++) await breaker.failed(OPENAI);
    // Closed behind its back (another instance's probe was answered).
    await db.query("update private.model_breakers set opened_at = null, retry_at = null");
    assert.equal(await breaker.gate(OPENAI), "open");
    later(60_000);
    assert.equal(await breaker.gate(OPENAI), "closed");
  },
);

Deno.test("countsAgainstEndpoint: what the endpoint did counts, what the request or caller did does not", () => {
  const error = (reason: ModelUnavailableError["reason"], status?: number) =>
    new ModelUnavailableError("failed", { reason, status });
  assert.equal(countsAgainstEndpoint(error("timeout")), true);
  assert.equal(countsAgainstEndpoint(error("connection")), true);
  assert.equal(countsAgainstEndpoint(error("invalid_response")), true);
  assert.equal(countsAgainstEndpoint(error("http", 503)), true);
  assert.equal(countsAgainstEndpoint(error("http", 429)), true);
  assert.equal(countsAgainstEndpoint(error("http", 401)), true);
  assert.equal(countsAgainstEndpoint(error("http", 400)), false);
  assert.equal(countsAgainstEndpoint(error("http", 422)), false);
  assert.equal(countsAgainstEndpoint(error("aborted")), false);
});

Deno.test("modelBreakerOptionsFromEnv reads the threshold and cool-down, and refuses bad values", () => {
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
  assert.deepEqual(
    modelBreakerOptionsFromEnv(
      env({ MODEL_BREAKER_THRESHOLD: "5", MODEL_BREAKER_COOLDOWN_MS: "30000" }),
    ),
    { threshold: 5, cooldownMs: 30_000 },
  );
  assert.throws(
    () => modelBreakerOptionsFromEnv(env({ MODEL_BREAKER_THRESHOLD: "0" })),
    /MODEL_BREAKER_THRESHOLD must be a whole number \(1-999\): current value is 0/,
  );
  assert.throws(
    () => modelBreakerOptionsFromEnv(env({ MODEL_BREAKER_COOLDOWN_MS: "1m" })),
    /MODEL_BREAKER_COOLDOWN_MS must be milliseconds/,
  );
  assert.throws(
    () => createModelBreaker({ db: { query: () => Promise.resolve([]) }, threshold: 0 }),
    RangeError,
  );
});
