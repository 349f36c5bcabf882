import assert from "node:assert/strict";
import { ok, ToolFailure, type ToolResult } from "@shared/contract/mod.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { dbTest } from "@testing/db.ts";
import { answering, callFor, testTool } from "@testing/pipeline_calls.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { Call } from "../call.ts";
import { Deadlines } from "../deadlines.ts";
import { LeasedRateLimiter } from "../rate_limit.ts";
import { callerReadsStep } from "./caller_reads.ts";

const reader = testTool({ usesDatabase: true });

function readCall(tool = reader, perUser = 100, overrides: Parameters<typeof callFor>[1] = {}) {
  const call = callFor(tool, overrides);
  call.rate = {
    bucket: {
      orgId: ORG.easymo,
      tool: tool.name,
      subject: call.context.user_id ?? `role:${call.request.caller.claims.role}`,
    },
    limits: {
      perUser: { limit: perUser, windowSec: 3600 },
      perTenant: { limit: 1000, windowSec: 3600 },
    },
  };
  return call;
}

// Who the tool's queries run as.
async function whoAmI(call: Call): Promise<ToolResult> {
  const [row] = await call.db.query<{ role: string; sub: string }>(
    "select current_user as role, current_setting('request.jwt.claim.sub', true) as sub",
  );
  return ok(row);
}

function codeOf(answer: ToolResult): string {
  return answer.ok ? "ok" : answer.error.code;
}

dbTest(
  "callerReadsStep() runs a read-only tool's queries as the caller, a service tool's as the service role",
  async (db) => {
    const step = callerReadsStep({
      db,
      rateLimiter: new LeasedRateLimiter({ db }),
      deadlines: new Deadlines(),
      log: memoryLogger(),
    });
    const call = readCall();
    assert.deepEqual(
      await step(call, (next) => whoAmI(next)),
      ok({ role: "authenticated", sub: USER.aline }),
    );
    assert.equal(call.idempotencyKey, null);
    const service = readCall(testTool({ usesDatabase: true, auth: "service" }));
    assert.deepEqual(
      await step(service, (next) => whoAmI(next)),
      ok({ role: "service_role", sub: USER.aline }),
    );
  },
);

dbTest(
  "callerReadsStep() answers RATE_LIMIT when the flight's token is refused, whatever the query saw",
  async (db) => {
    const step = callerReadsStep({
      db,
      rateLimiter: new LeasedRateLimiter({ db }),
      deadlines: new Deadlines(),
      log: memoryLogger(),
    });
    const next = answering(() => ok({ n: 1 }));
    assert.equal(codeOf(await step(readCall(reader, 1), next)), "ok");
    assert.equal(codeOf(await step(readCall(reader, 1), next)), "RATE_LIMIT");
  },
);

dbTest(
  "callerReadsStep() passes a tool's ToolFailure through and answers TIMEOUT past the deadline",
  async (db) => {
    const log = memoryLogger();
    const step = callerReadsStep({
      db,
      rateLimiter: new LeasedRateLimiter({ db }),
      deadlines: new Deadlines(),
      log,
    });
    const refused = await step(
      readCall(),
      answering(() => Promise.reject(new ToolFailure("NOT_FOUND", "No such product"))),
    );
    assert.deepEqual(refused, { ok: false, error: { code: "NOT_FOUND", msg: "No such product" } });

    const slow = readCall(testTool({ usesDatabase: true, timeoutMs: 30 }));
    const answer = await step(slow, async (call) => {
      // Waits far past the deadline unless aborted; the next query is then refused.
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        call.signal!.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
      await call.db.query("select 1");
      return ok({});
    });
    assert.equal(codeOf(answer), "TIMEOUT");
    assert.ok(log.lines.some((line) => line.event === "tool_timeout"));
  },
);

Deno.test("callerReadsStep() hands tools that write or use no database on untouched", () => {
  const step = callerReadsStep({
    db: undefined as never,
    rateLimiter: undefined as never,
    deadlines: new Deadlines(),
    log: memoryLogger(),
  });
  for (const tool of [testTool(), testTool({ sideEffects: "writes.analytics" })]) {
    const next = answering();
    assert.deepEqual(step(callFor(tool), next), ok({ reached: true }));
    assert.equal(next.calls.length, 1);
  }
});
