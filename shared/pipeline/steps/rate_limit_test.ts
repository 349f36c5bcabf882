import assert from "node:assert/strict";
import { ok, type ToolResult } from "@shared/contract/mod.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { dbTest } from "@testing/db.ts";
import { answering, callFor, tenantsWith, testTool } from "@testing/pipeline_calls.ts";
import { ORG, USER } from "@testing/seed.ts";
import { NO_DATABASE } from "../call.ts";
import { LeasedRateLimiter } from "../rate_limit.ts";
import { rateLimitStep } from "./rate_limit.ts";

const policy = {
  rate_limits: {
    "test.step": {
      per_user: { limit: 2, window_sec: 3600 },
      per_tenant: { limit: 50, window_sec: 3600 },
    },
  },
};

function codeOf(answer: ToolResult): string {
  return answer.ok ? "ok" : answer.error.code;
}

dbTest(
  "rateLimitStep() passes a no-database call while its user has tokens, then RATE_LIMIT",
  async (db) => {
    const step = rateLimitStep({
      tenants: tenantsWith(policy),
      rateLimiter: new LeasedRateLimiter({ db }),
      log: memoryLogger(),
    });
    const tool = testTool();
    const next = answering();
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(codeOf(await step(callFor(tool), next)));
    assert.deepEqual(codes, ["ok", "ok", "RATE_LIMIT"]);
    assert.equal(next.calls.length, 2);
    const jean = callFor(tool, { claims: { sub: USER.jean, role: "authenticated" } });
    assert.equal(codeOf(await step(jean, next)), "ok", "another user's bucket is their own");
  },
);

Deno.test("rateLimitStep() sets the call's buckets and limits, and leaves database tools' tokens to their flight", () => {
  const step = rateLimitStep({
    tenants: tenantsWith(policy),
    // Any token taken here would fail: this limiter has no database.
    rateLimiter: new LeasedRateLimiter({ db: NO_DATABASE }),
    tenantCeiling: { limit: 7, windowSec: 1 },
    log: memoryLogger(),
  });
  const reader = testTool({ usesDatabase: true });
  const next = answering();
  for (let i = 0; i < 4; i++) {
    const call = callFor(reader);
    assert.deepEqual(step(call, next), ok({ reached: true }), "no token taken here");
    assert.deepEqual(call.rate?.bucket, {
      orgId: ORG.easymo,
      tool: "test.step",
      subject: USER.aline,
    });
    assert.equal(call.rate?.limits.perUser.limit, 2);
  }
  const other = callFor(testTool({ name: "test.other" }), { claims: { role: "service_role" } });
  step(other, next);
  assert.equal(other.rate?.bucket.subject, "role:service_role");
  assert.equal(other.rate?.limits.perTenant.limit, 7, "the ceiling when nothing else is set");
  assert.deepEqual(
    other.rate?.limits.perUser,
    other.rate?.limits.perTenant,
    "no user: tenant only",
  );
});

Deno.test("rateLimitStep() answers a lease that failed as the failure, never calling on", async () => {
  const log = memoryLogger();
  const step = rateLimitStep({
    tenants: tenantsWith(policy),
    // The database is unreachable: the lease's round trip fails.
    rateLimiter: { take: () => Promise.reject(new Error("connection refused")) },
    log,
  });
  const next = answering();
  const answer = await step(callFor(testTool()), next);
  assert.equal(codeOf(answer), "INTERNAL_ERROR");
  assert.equal(next.calls.length, 0);
  assert.deepEqual(log.lines.map((line) => line.event), ["tool_failed"]);
});
