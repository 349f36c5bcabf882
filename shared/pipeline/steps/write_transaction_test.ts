import assert from "node:assert/strict";
import { ok, ToolFailure, type ToolResult } from "@shared/contract/mod.ts";
import type { ToolServices } from "@shared/registry/define_tool.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { answering, callFor, testTool } from "@testing/pipeline_calls.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { Call } from "../call.ts";
import { Deadlines } from "../deadlines.ts";
import { writeTransactionStep } from "./write_transaction.ts";

const writer = testTool({ sideEffects: "writes.analytics", usesDatabase: true });

function writeCall(key: string, fingerprint = "f1", perUser = 100): Call {
  return callFor(writer, {
    idempotencyKey: key,
    set: {
      scope: `${ORG.easymo}:${USER.aline}`,
      fingerprint,
      rate: {
        bucket: { orgId: ORG.easymo, tool: writer.name, subject: USER.aline },
        limits: {
          perUser: { limit: perUser, windowSec: 3600 },
          perTenant: { limit: 1000, windowSec: 3600 },
        },
      },
    },
  });
}

function stepOn(db: TestDatabase) {
  const log = memoryLogger();
  const services = {} as ToolServices;
  return { log, step: writeTransactionStep({ db, deadlines: new Deadlines(), services, log }) };
}

// The tool's write, as the caller, then its answer (or its failure).
function writing(event: string, failure?: Error) {
  const calls: Call[] = [];
  const next = async (call: Call): Promise<ToolResult> => {
    calls.push(call);
    await call.db.query(
      "insert into public.analytics_events (org_id, event, user_id) values ($1, $2, $3)",
      [call.context.org_id, event, call.context.user_id],
    );
    if (failure) throw failure;
    return ok({ event, key: call.idempotencyKey });
  };
  return Object.assign(next, { calls });
}

async function events(db: TestDatabase, event: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.analytics_events where event = $1",
    [event],
  );
  return row.n;
}

function codeOf(answer: ToolResult): string {
  return answer.ok ? "ok" : answer.error.code;
}

dbTest(
  "writeTransactionStep() commits the tool's writes with its key, and replays the answer for the same key",
  async (db) => {
    const { step } = stepOn(db);
    const next = writing("step_written");
    const first = writeCall("k-1");
    assert.deepEqual(await step(first, next), ok({ event: "step_written", key: "k-1" }));
    assert.equal(first.replayed, false);
    assert.equal(await events(db, "step_written"), 1);

    const again = writeCall("k-1");
    assert.deepEqual(await step(again, next), ok({ event: "step_written", key: "k-1" }));
    assert.equal(again.replayed, true);
    assert.equal(next.calls.length, 1, "the replay does not run the tool");
    assert.equal(await events(db, "step_written"), 1);
  },
);

dbTest(
  "writeTransactionStep() answers CONFLICT for a used key with other arguments",
  async (db) => {
    const { step } = stepOn(db);
    const next = writing("step_conflict");
    assert.equal(codeOf(await step(writeCall("k-2", "f1"), next)), "ok");
    const other = await step(writeCall("k-2", "f2"), next);
    assert.equal(codeOf(other), "CONFLICT");
    assert.equal(next.calls.length, 1);
  },
);

dbTest(
  "writeTransactionStep() rolls a failed call back; a caller's mistake is replayed, our failure runs again",
  async (db) => {
    const { step, log } = stepOn(db);
    const refused = writing("step_refused", new ToolFailure("VALIDATION_ERROR", "No such size"));
    assert.equal(codeOf(await step(writeCall("k-3"), refused)), "VALIDATION_ERROR");
    assert.equal(codeOf(await step(writeCall("k-3"), refused)), "VALIDATION_ERROR");
    assert.equal(refused.calls.length, 1, "the stored failure is replayed");
    assert.equal(await events(db, "step_refused"), 0);

    const crashed = writing("step_crashed", new Error("secret=1"));
    assert.equal(codeOf(await step(writeCall("k-4"), crashed)), "INTERNAL_ERROR");
    assert.equal(codeOf(await step(writeCall("k-4"), crashed)), "INTERNAL_ERROR");
    assert.equal(crashed.calls.length, 2, "a transient failure leaves the key free");
    assert.equal(await events(db, "step_crashed"), 0);
    assert.ok(log.lines.every((line) => line.event === "tool_failed"));
  },
);

dbTest(
  "writeTransactionStep() answers RATE_LIMIT past the caller's limit and leaves that key unused",
  async (db) => {
    const { step } = stepOn(db);
    const next = writing("step_limited");
    assert.equal(codeOf(await step(writeCall("k-5", "f1", 1), next)), "ok");
    assert.equal(codeOf(await step(writeCall("k-6", "f1", 1), next)), "RATE_LIMIT");
    assert.equal(next.calls.length, 1);
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from private.idempotency_keys where key = 'k-6'",
    );
    assert.equal(row.n, 0);
  },
);

Deno.test("writeTransactionStep() hands tools that write nothing on untouched", () => {
  // No database: the step must not touch one for these.
  const { step } = stepOn(undefined as never);
  for (const tool of [testTool(), testTool({ usesDatabase: true })]) {
    const next = answering();
    assert.deepEqual(step(callFor(tool), next), ok({ reached: true }));
    assert.equal(next.calls.length, 1);
  }
});
