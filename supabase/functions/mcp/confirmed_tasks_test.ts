// A deferred tool that needs confirmation, called as an MCP task over real HTTP with the SDK
// client: the person confirms before anything is queued (in the client when it can ask, else
// with the token the failed task hands back, as a direct call does), the task keeps the
// pipeline's token for its run, and nothing ever runs unconfirmed.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { USER } from "@testing/seed.ts";
import type { Database } from "@shared/db/types.ts";
import { payoutTool } from "@testing/mcp_payout_tool.ts";
import { resumeDeferredCalls } from "@shared/pipeline/deferred_calls.ts";
import { createMcpApp } from "./app.ts";

async function setup(db: Database) {
  const paid: number[] = [];
  const rt = await createTestRuntime(db, { tools: [payoutTool(paid, { deferred: true })] });
  // The background runs are awaited by the test, not left to the instance.
  const runs: Promise<unknown>[] = [];
  const app = createMcpApp({
    ...rt,
    resourceUrl: "https://project.example/functions/v1/mcp",
    authorizationServer: "https://project.example/auth/v1",
    pollIntervalMs: 60_000,
    background: (work) => runs.push(work()),
  });
  const server = serveFunction("mcp", (request) => app.fetch(request));
  const clients: Client[] = [];
  return {
    rt,
    paid,
    settle: () => Promise.all(runs),
    async connect(elicit?: () => ElicitResult) {
      const client = new Client(
        { name: "easymo-test", version: "1.0.0" },
        { capabilities: elicit ? { elicitation: {} } : {} },
      );
      if (elicit) client.setRequestHandler(ElicitRequestSchema, () => elicit());
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${await rt.tokenFor(USER.jean)}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(runs);
      for (const client of clients) await client.close();
      await app.close();
      await server.close();
      await rt.platform.close();
    },
  };
}

function start(client: Client, amount: number, key: string, confirmation?: string) {
  return client.request({
    method: "tools/call",
    params: {
      name: "mcp_test_deferred_payout",
      arguments: { amount },
      task: { ttl: 600_000 },
      _meta: { idempotency_key: key, ...(confirmation ? { confirmation } : {}) },
    },
  }, CreateTaskResultSchema);
}

function structured(result: unknown) {
  // deno-lint-ignore no-explicit-any
  return (result as CallToolResult).structuredContent as any;
}

const taskRows = (db: Database) =>
  db.query<{ status: string; confirmation: string | null }>(
    "select status, confirmation from public.tool_tasks where tool = 'mcp_test_deferred_payout'",
  );

dbTest(
  "a confirmed deferred tool asks in the client before its task is queued, and runs once confirmed",
  async (db) => {
    const s = await setup(db);
    try {
      const asked: string[] = [];
      let answer: ElicitResult = { action: "decline" };
      const client = await s.connect(() => {
        asked.push("asked");
        return answer;
      });
      // Declined: no task row, nothing paid; the task failed as CANCELLED.
      const declined = await start(client, 500, "payout-1");
      assert.equal(declined.task.status, "failed");
      assert.match(declined.task.statusMessage ?? "", /^CANCELLED/);
      assert.deepEqual(await taskRows(db), []);
      // Accepted: the task is queued with the pipeline's token and runs in the background.
      answer = { action: "accept", content: { confirm: true } };
      const created = await start(client, 700, "payout-2");
      assert.notEqual(created.task.status, "failed", JSON.stringify(created));
      assert.equal(asked.length, 2);
      await s.settle();
      const result = structured(
        await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema),
      );
      assert.deepEqual(result, { ok: true, data: { paid: 700 } });
      assert.deepEqual(s.paid, [700]);
      // Once run, the token is not kept.
      assert.deepEqual(await taskRows(db), [{ status: "completed", confirmation: null }]);
    } finally {
      await s.close();
    }
  },
);

dbTest(
  "a client that cannot ask gets the read-back and token as the failed task; the token then queues it",
  async (db) => {
    const s = await setup(db);
    try {
      const client = await s.connect();
      const first = await start(client, 900, "payout-3");
      assert.equal(first.task.status, "failed");
      assert.match(first.task.statusMessage ?? "", /^CONFIRMATION_REQUIRED/);
      const why = structured(
        await client.experimental.tasks.getTaskResult(first.task.taskId, CallToolResultSchema),
      );
      assert.equal(why.error.code, "CONFIRMATION_REQUIRED");
      assert.equal(why.error.confirmation.summary, "Pay out 900 RWF");
      assert.deepEqual(await taskRows(db), []);
      await s.settle();
      assert.deepEqual(s.paid, []);
      // A forged token is queued but never runs: the pipeline refuses it at the run.
      const forged = await start(client, 900, "payout-4", "forged.token");
      assert.notEqual(forged.task.status, "failed");
      await s.settle();
      const refused = structured(
        await client.experimental.tasks.getTaskResult(forged.task.taskId, CallToolResultSchema),
      );
      assert.equal(refused.ok, false);
      assert.deepEqual(s.paid, []);
      // The token bound to other arguments (another amount) does not run it either.
      const other = await start(client, 901, "payout-3", why.error.confirmation.token);
      await s.settle();
      const mismatch = structured(
        await client.experimental.tasks.getTaskResult(other.task.taskId, CallToolResultSchema),
      );
      assert.equal(mismatch.ok, false);
      assert.deepEqual(s.paid, []);
      // The token with the same arguments and key: queued, run, paid once.
      const confirmed = await start(client, 900, "payout-5", undefined);
      assert.equal(confirmed.task.status, "failed", "a new key asks again");
      const token = structured(
        await client.experimental.tasks.getTaskResult(confirmed.task.taskId, CallToolResultSchema),
      ).error.confirmation.token;
      const queued = await start(client, 900, "payout-5", token);
      assert.notEqual(queued.task.status, "failed", JSON.stringify(queued));
      await s.settle();
      const done = structured(
        await client.experimental.tasks.getTaskResult(queued.task.taskId, CallToolResultSchema),
      );
      assert.deepEqual(done, { ok: true, data: { paid: 900 } });
      assert.deepEqual(s.paid, [900]);
    } finally {
      await s.close();
    }
  },
);

dbTest(
  "a confirmed task whose instance stopped is run by the sweep with its kept token",
  async (db) => {
    const s = await setup(db);
    try {
      const client = await s.connect(() => ({ action: "accept", content: { confirm: true } }));
      // As if the instance stopped before running it: the row is left queued.
      await db.exec(
        `create function public.test_hold_task() returns trigger language plpgsql as $$
         begin
           if new.status = 'working' and new.tool = 'mcp_test_deferred_payout' then
             return null;
           end if;
           return new;
         end $$;
         create trigger tool_tasks_hold before update on public.tool_tasks
           for each row execute function public.test_hold_task();`,
      );
      const created = await start(client, 300, "payout-6");
      await s.settle();
      assert.deepEqual(s.paid, []);
      const [row] = await taskRows(db);
      assert.equal(row.status, "queued");
      assert.ok(row.confirmation, "the token is kept with the queued task");
      await db.exec("drop trigger tool_tasks_hold on public.tool_tasks");
      assert.equal(await resumeDeferredCalls(s.rt.platform, { now: s.rt.platform.now() }), 1);
      assert.deepEqual(s.paid, [300]);
      const result = structured(
        await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema),
      );
      assert.deepEqual(result, { ok: true, data: { paid: 300 } });
    } finally {
      await s.close();
    }
  },
);
