import assert from "node:assert/strict";
import type { ToolResult } from "@shared/contract/mod.ts";
import { canonicalJson, sha256Hex } from "@shared/runtime/canonical.ts";
import { answering, callFor, testTool } from "@testing/pipeline_calls.ts";
import { ORG, USER } from "@testing/seed.ts";
import { MAX_KEY_LENGTH } from "../idempotency.ts";
import { idempotencyKeyStep, keyProblem } from "./idempotency_key.ts";

const writer = testTool({ sideEffects: "writes.analytics", usesDatabase: true });

Deno.test("idempotencyKeyStep() hands an ungated call on at once, without a fingerprint", () => {
  const next = answering();
  const call = callFor(testTool(), { args: { n: 2 } });
  const answer = idempotencyKeyStep()(call, next);
  assert.equal(answer instanceof Promise, false);
  assert.equal(next.calls.length, 1);
  assert.equal(call.fingerprint, "");
});

Deno.test("idempotencyKeyStep() scopes and fingerprints a gated call before handing it on", async () => {
  const next = answering();
  const call = callFor(writer, { args: { n: 2 }, idempotencyKey: "order-1" });
  await idempotencyKeyStep()(call, next);
  assert.equal(next.calls.length, 1);
  assert.equal(call.scope, `${ORG.easymo}:${USER.aline}`);
  assert.equal(call.fingerprint, await sha256Hex(`test.step\n${canonicalJson({ n: 2 })}`));

  const confirmed = callFor(testTool({ confirmRequired: true }), {
    claims: { role: "service_role" },
  });
  await idempotencyKeyStep()(confirmed, next);
  assert.equal(confirmed.scope, `${ORG.easymo}:service_role`, "no user: the role is the scope");
  assert.equal(next.calls.length, 2, "a confirmed tool that writes nothing needs no key");
});

Deno.test("idempotencyKeyStep() answers VALIDATION_ERROR on idempotency_key for a missing or bad key", () => {
  const next = answering();
  for (const key of [undefined, null, "", "has space", "é", "k".repeat(MAX_KEY_LENGTH + 1)]) {
    const answer = idempotencyKeyStep()(callFor(writer, { idempotencyKey: key }), next);
    assert.equal(answer instanceof Promise, false, String(key));
    const result = answer as ToolResult;
    assert.equal(result.ok, false);
    if (result.ok) continue;
    assert.equal(result.error.code, "VALIDATION_ERROR");
    assert.deepEqual(result.error.fields?.map((field) => field.path), ["idempotency_key"]);
  }
  assert.equal(next.calls.length, 0);
});

Deno.test("keyProblem() accepts 1 to MAX_KEY_LENGTH printable ASCII characters", () => {
  assert.equal(keyProblem("a"), null);
  assert.equal(keyProblem("~".repeat(MAX_KEY_LENGTH)), null);
  assert.match(keyProblem(null)!, /required/);
  assert.match(keyProblem("tab\there")!, /printable ASCII/);
});
