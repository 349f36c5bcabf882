// A confirmation asked through elicitation when the client's answer lands on another instance
// than the one that asked (a load balancer moving the session's POSTs): two apps over one
// database behind a router that sends every client answer to the other instance.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { payoutTool } from "@testing/mcp_payout_tool.ts";
import { createMcpApp, type McpApp } from "./app.ts";

const paid: number[] = [];
const payout = payoutTool(paid);

/** Instance A serves every request but the client's answers, which go to instance B. */
async function twoInstances(db: TestDatabase, options: { elicitationTimeoutMs?: number } = {}) {
  const rt = await createTestRuntime(db, { tools: [payout] });
  const other = await createTestRuntime(db, { tools: [payout] });
  const app = (runtime: typeof rt): McpApp =>
    createMcpApp({
      ...runtime,
      resourceUrl: "https://project.example/functions/v1/mcp",
      authorizationServer: "https://project.example/auth/v1",
      pollIntervalMs: 60_000,
      answerPollMs: 20,
      elicitationTimeoutMs: options.elicitationTimeoutMs,
    });
  const a = app(rt);
  const b = app(other);
  let answersToB = 0;
  const server = serveFunction("mcp", async (request) => {
    if (request.method !== "POST") return await a.fetch(request);
    const text = await request.text();
    const message = JSON.parse(text);
    const isAnswer = !("method" in message) && ("result" in message || "error" in message);
    if (isAnswer) answersToB++;
    return await (isAnswer ? b : a).fetch(
      new Request(request.url, { method: "POST", headers: request.headers, body: text }),
    );
  });
  return {
    rt,
    url: server.url,
    answersToB: () => answersToB,
    async connect(elicit: () => Promise<ElicitResult>) {
      const client = new Client(
        { name: "easymo-test", version: "1.0.0" },
        { capabilities: { elicitation: {} } },
      );
      client.setRequestHandler(ElicitRequestSchema, () => elicit());
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${await rt.tokenFor(USER.jean)}` } },
        }),
      );
      return client;
    },
    async close() {
      await a.close();
      await b.close();
      await server.close();
      await other.platform.close();
      await rt.platform.close();
    },
  };
}

function structured(result: unknown) {
  // deno-lint-ignore no-explicit-any
  return (result as CallToolResult).structuredContent as any;
}

dbTest(
  "mcp: a confirmation answered through another instance reaches the instance that asked",
  async (db) => {
    const setup = await twoInstances(db);
    paid.length = 0;
    const client = await setup.connect(() =>
      Promise.resolve({ action: "accept", content: { confirm: true } })
    );
    try {
      const result = structured(
        await client.callTool({
          name: "mcp_test_payout",
          arguments: { amount: 500 },
          _meta: { idempotency_key: "payout-across-1" },
        }),
      );
      assert.deepEqual(result, { ok: true, data: { paid: 500 } });
      assert.deepEqual(paid, [500]);
      // The answer went to B, was kept there and picked up (and deleted) by A.
      assert.equal(setup.answersToB(), 1);
      const [{ count }] = await db.query<{ count: number }>(
        "select count(*)::int as count from private.mcp_responses",
      );
      assert.equal(count, 0);
      // A decline through B is a decline: nothing is paid.
      const declining = await setup.connect(() => Promise.resolve({ action: "decline" }));
      try {
        const declined = structured(
          await declining.callTool({
            name: "mcp_test_payout",
            arguments: { amount: 700 },
            _meta: { idempotency_key: "payout-across-2" },
          }),
        );
        assert.equal(declined.error.code, "CANCELLED");
        assert.deepEqual(paid, [500]);
      } finally {
        await declining.close();
      }
    } finally {
      await client.close();
      await setup.close();
    }
  },
);

dbTest(
  "mcp: a confirmation not answered in time falls back to the confirmation token, saying so",
  async (db) => {
    const setup = await twoInstances(db, { elicitationTimeoutMs: 200 });
    paid.length = 0;
    let answer: () => void = () => {};
    const late = new Promise<void>((resolve) => answer = resolve);
    const client = await setup.connect(async () => {
      await late;
      return { action: "accept", content: { confirm: true } };
    });
    try {
      const result = structured(
        await client.callTool({
          name: "mcp_test_payout",
          arguments: { amount: 900 },
          _meta: { idempotency_key: "payout-late-1" },
        }),
      );
      assert.equal(result.error.code, "CONFIRMATION_REQUIRED");
      assert.match(result.error.msg, /No confirmation came from your client in time/);
      assert.deepEqual(paid, []);
      // The token confirms it, once.
      const confirmed = structured(
        await client.callTool({
          name: "mcp_test_payout",
          arguments: { amount: 900 },
          _meta: {
            idempotency_key: "payout-late-1",
            confirmation: result.error.confirmation.token,
          },
        }),
      );
      assert.deepEqual(confirmed, { ok: true, data: { paid: 900 } });
      assert.deepEqual(paid, [900]);
    } finally {
      answer();
      await client.close();
      await setup.close();
    }
  },
);
