import assert from "node:assert/strict";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type Tool as Listed,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime, TEST_SECRET, type TestRuntime } from "@testing/runtime.ts";
import { signDevToken } from "@shared/auth/jwt.ts";
import { devJwtSecret } from "@shared/runtime/secrets.ts";
import { ORG, USER, VIDEO } from "@testing/seed.ts";
import { startVideosServer } from "@testing/videos_server.ts";
import { createOpenAIVideoProvider } from "@shared/packs/video/openai_videos.ts";
import { VIDEO_PROVIDER } from "@shared/packs/video/video_provider.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { sendChunked } from "@testing/raw_http.ts";
import { addRuntimeTool, installTableToolSync, tableToolSync } from "@testing/table_tool_sync.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { payoutTool } from "@testing/mcp_payout_tool.ts";
import { fillKigaliDates } from "@testing/scripted_model.ts";
import { addCustomers, addTemplate, withoutSeededBroadcasts } from "@testing/broadcasts.ts";
import type { TenantToolSync } from "@shared/registry/tenant_catalog.ts";
import { createMcpApp, type McpApp } from "./app.ts";

const CBD = { lat: -1.9441, lng: 30.0619 };

let writes = 0;
const counter = defineTool({
  name: "mcp_test_counter",
  title: "Count",
  description: "Counts calls (a side-effecting tool for idempotency tests).",
  category: "testing",
  input: z.object({ note: z.string().max(20) }),
  output: z.object({ n: z.number() }),
  examples: [{ input: { note: "x" } }],
  sideEffects: "writes.test",
  usesDatabase: false,
  execute: () => Promise.resolve({ n: ++writes }),
});

const payout = payoutTool();

const limited = defineTool({
  name: "mcp_test_limited",
  title: "Limited",
  description: "Answers twice a minute per caller (rate limit tests).",
  category: "testing",
  input: z.object({}),
  output: z.object({ pong: z.boolean() }),
  examples: [{ input: {} }],
  sideEffects: "none",
  usesDatabase: false,
  rateLimit: { perUser: { limit: 2, windowSec: 60 } },
  execute: () => Promise.resolve({ pong: true }),
});

/** The render jobs the long-running test tool keeps (a job table stands in for the platform's). */
const renders = new Map<string, "queued" | "done" | "failed">();
const render = defineTool({
  name: "mcp_test_render",
  title: "Render",
  description: "Queues a render and answers its job id (a long-running tool for task tests).",
  category: "testing",
  input: z.object({ scene: z.string().max(50) }),
  output: z.object({ job_id: z.string(), status: z.literal("queued") }),
  examples: [{ input: { scene: "x" } }],
  sideEffects: "writes.test",
  usesDatabase: false,
  task: {
    jobId: (data) => data.job_id,
    statusTool: "mcp_test_render_status",
    statusArgs: (jobId) => ({ job_id: jobId }),
    state: (data) => {
      const status = (data as { status: string | null }).status;
      if (status === null) return null;
      return status === "queued"
        ? { status: "working" }
        : status === "done"
        ? { status: "completed" }
        : { status: "failed", message: "The render failed" };
    },
    pollIntervalMs: 10,
  },
  execute: (args) => {
    const id = `render-${args.scene}`;
    renders.set(id, "queued");
    return Promise.resolve({ job_id: id, status: "queued" as const });
  },
});
const renderStatus = defineTool({
  name: "mcp_test_render_status",
  title: "Render status",
  description: "Where a render job stands.",
  category: "testing",
  input: z.object({ job_id: z.string() }),
  output: z.object({ job_id: z.string(), status: z.string().nullable() }),
  examples: [{ input: { job_id: "render-x" } }],
  sideEffects: "none",
  usesDatabase: false,
  execute: (args) =>
    Promise.resolve({ job_id: args.job_id, status: renders.get(args.job_id) ?? null }),
});

interface Served {
  rt: TestRuntime;
  app: McpApp;
  url: string;
  /** Resolves once a session's standalone GET stream is open on this instance. */
  streamOpen(): Promise<void>;
  close(): Promise<void>;
}

async function serve(
  db: TestDatabase,
  options: { rt?: TestRuntime; pageSize?: number; tenantSync?: TenantToolSync } = {},
): Promise<Served> {
  const rt = options.rt ??
    await createTestRuntime(db, { tools: [counter, payout, limited, render, renderStatus] });
  const app = createMcpApp({
    ...rt,
    resourceUrl: "https://project.example/functions/v1/mcp",
    authorizationServer: "https://project.example/auth/v1",
    pageSize: options.pageSize,
    tenantSync: options.tenantSync,
    pollIntervalMs: 20,
  });
  let opened: () => void = () => {};
  let open = new Promise<void>((resolve) => opened = resolve);
  const server = serveFunction("mcp", async (request) => {
    const response = await app.fetch(request);
    // The transport registers a GET stream before it answers: a notification sent now reaches it.
    if (request.method === "GET" && response.status === 200) opened();
    return response;
  });
  return {
    rt,
    app,
    url: server.url,
    streamOpen: async () => {
      await open;
      open = new Promise<void>((resolve) => opened = resolve);
    },
    close: async () => {
      await app.close();
      await server.close();
    },
  };
}

async function connect(
  served: Served,
  userId: string | null,
  options: {
    org?: string;
    agent?: string;
    elicit?: (request: { params: { message: string } }) => ElicitResult;
  } = {},
) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${await served.rt.tokenFor(userId)}`,
  };
  if (options.org) headers["x-org-id"] = options.org;
  if (options.agent) headers["x-agent-id"] = options.agent;
  const client = new Client(
    { name: "easymo-test", version: "1.0.0" },
    { capabilities: options.elicit ? { elicitation: {} } : {} },
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request: ElicitRequest) => elicit(request));
  }
  const transport = new StreamableHTTPClientTransport(new URL(served.url), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return client;
}

/** A JSON-RPC message posted by hand on an MCP session (as a client would, or as someone else). */
function postToSession(
  url: string,
  token: string,
  sessionId: string,
  message: Record<string, unknown>,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify(message),
  });
}

function structured(result: unknown) {
  // deno-lint-ignore no-explicit-any
  return (result as CallToolResult).structuredContent as any;
}

dbTest(
  "mcp lists a tenant's tools and calls search_businesses_with_tags as its user",
  async (db) => {
    const served = await serve(db);
    const client = await connect(served, USER.aline);
    try {
      assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: true });
      const listed = await client.listTools();
      const names = listed.tools.map((tool: Listed) => tool.name);
      // The same list as the tools function's (one code path): the tenant's tools, no internal
      // ones, and none of its staff's (Aline is a customer).
      const expected = served.rt.platform.getToolsForTenant(ORG.easymo)
        .filter((tool) => tool.auth !== "staff").map((tool: Listed) => tool.name);
      assert.deepEqual(names, expected);
      assert.ok(names.includes("search_businesses_with_tags"));
      const search = listed.tools.find((tool: Listed) =>
        tool.name === "search_businesses_with_tags"
      )!;
      assert.equal(search.title, served.rt.platform.get("search_businesses_with_tags")!.title);
      assert.equal(search.annotations?.readOnlyHint, true);
      assert.equal(search.inputSchema.type, "object");
      assert.equal(search.outputSchema?.type, "object");
      assert.match(search.icons?.[0].src ?? "", /^data:image\/svg\+xml;base64,/);
      const order = listed.tools.find((tool: Listed) => tool.name === "order_create")!;
      assert.equal(order.annotations?.readOnlyHint, false);

      const result = await client.callTool({
        name: "search_businesses_with_tags",
        arguments: { query_text: "used hp laptop", ...CBD },
      });
      assert.equal(result.isError, undefined);
      const body = structured(result);
      assert.equal(body.ok, true);
      assert.equal(body.data[0].name, "Kigali Tech Hub");
      const [text] = result.content as Array<{ type: string; text: string }>;
      assert.deepEqual(JSON.parse(text.text), body);
    } finally {
      await client.close();
      await served.close();
    }
  },
);

dbTest("mcp runs calls as the caller: RLS hides another tenant's rows", async (db) => {
  const served = await serve(db);
  // Nina is a customer of Beaver's Choice: EasyMO's businesses are not hers to see.
  const nina = await connect(served, USER.nina, { org: ORG.beaver });
  try {
    const names = (await nina.listTools()).tools.map((tool: Listed) => tool.name);
    assert.deepEqual(
      names,
      served.rt.platform.getToolsForTenant(ORG.beaver).filter((tool) => tool.auth !== "staff")
        .map((tool: Listed) => tool.name),
    );
    if (names.includes("search_businesses_with_tags")) {
      const result = structured(
        await nina.callTool({
          name: "search_businesses_with_tags",
          arguments: { query_text: "used hp laptop", ...CBD },
        }),
      );
      assert.equal(result.ok, true);
      assert.ok(
        result.data.every((business: { name: string }) => business.name !== "Kigali Tech Hub"),
      );
    }
    // A user naming an org they are not in gets 403 before any session.
    await assert.rejects(connect(served, USER.nina, { org: ORG.easymo }), /403|Access denied/);
    // The server speaks as the tenant it serves: Beaver's people never read EasyMO's name.
    assert.equal(nina.getServerVersion()?.name, "beaver-paper-tools");
    assert.match(nina.getInstructions() ?? "", /^Beaver's Choice's tools\./);
    assert.doesNotMatch(JSON.stringify(nina.getServerVersion()), /easymo/i);
  } finally {
    await nina.close();
    await served.close();
  }
});

dbTest("mcp replays an idempotent call and names the bad field of invalid input", async (db) => {
  const served = await serve(db);
  const client = await connect(served, USER.aline);
  try {
    const first = structured(
      await client.callTool({
        name: "mcp_test_counter",
        arguments: { note: "a" },
        _meta: { idempotency_key: "mcp-key-1" },
      }),
    );
    assert.equal(first.ok, true, JSON.stringify(first));
    // The same key, given as an argument the tool does not have: the ledger answers, no second run.
    const again = structured(
      await client.callTool({
        name: "mcp_test_counter",
        arguments: { note: "a", idempotency_key: "mcp-key-1" },
      }),
    );
    assert.deepEqual(again, first);
    const other = structured(
      await client.callTool({
        name: "mcp_test_counter",
        arguments: { note: "a" },
        _meta: { idempotency_key: "mcp-key-2" },
      }),
    );
    assert.equal(other.data.n, first.data.n + 1);
    // Each call is traced as the caller, the replay marked as one.
    await served.rt.platform.traces.flush();
    const traced = await db.query<{ user_id: string; org_id: string; replayed: boolean }>(
      `select user_id, org_id, replayed from public.tool_calls
        where tool = 'mcp_test_counter' order by id`,
    );
    assert.deepEqual(traced.map((row) => [row.user_id, row.org_id, row.replayed]), [
      [USER.aline, ORG.easymo, false],
      [USER.aline, ORG.easymo, true],
      [USER.aline, ORG.easymo, false],
    ]);

    const missingKey = await client.callTool({
      name: "mcp_test_counter",
      arguments: { note: "a" },
    });
    assert.equal(missingKey.isError, true);
    assert.deepEqual(structured(missingKey).error.fields.map((f: { path: string }) => f.path), [
      "idempotency_key",
    ]);

    const invalid = await client.callTool({
      name: "search_businesses_with_tags",
      arguments: { query_text: 42 },
    });
    assert.equal(invalid.isError, true);
    const error = structured(invalid).error;
    assert.equal(error.code, "VALIDATION_ERROR");
    assert.ok(error.fields.some((field: { path: string }) => field.path === "query_text"));

    await assert.rejects(
      client.callTool({ name: "no_such_tool", arguments: {} }),
      /Unknown tool: no_such_tool/,
    );
    // The error's text is what was thrown: a client adds "MCP error <code>:" itself, once.
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const unknown = await postToSession(
      served.url,
      await served.rt.tokenFor(USER.aline),
      sessionId,
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "no_such_tool", arguments: {} },
      },
    );
    const answer = JSON.parse((await unknown.text()).match(/^data: (.*)$/m)![1]);
    assert.deepEqual(answer, {
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "Unknown tool: no_such_tool" },
    });
  } finally {
    await client.close();
    await served.close();
  }
});

dbTest("mcp answers RATE_LIMIT once a caller's calls run out", async (db) => {
  const served = await serve(db);
  const client = await connect(served, USER.aline);
  try {
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const result = structured(await client.callTool({ name: "mcp_test_limited", arguments: {} }));
      codes.push(result.ok ? "ok" : result.error.code);
    }
    assert.deepEqual(codes, ["ok", "ok", "RATE_LIMIT"]);
  } finally {
    await client.close();
    await served.close();
  }
});

dbTest("mcp confirms through elicitation, or says how to confirm by token", async (db) => {
  const served = await serve(db);
  const asked: string[] = [];
  let answer: ElicitResult = { action: "accept", content: { confirm: true } };
  const eliciting = await connect(served, USER.aline, {
    elicit: (request) => {
      asked.push(request.params.message);
      return answer;
    },
  });
  const plain = await connect(served, USER.aline);
  try {
    const accepted = structured(
      await eliciting.callTool({
        name: "mcp_test_payout",
        arguments: { amount: 500 },
        _meta: { idempotency_key: "pay-1" },
      }),
    );
    assert.deepEqual(accepted, { ok: true, data: { paid: 500 } });
    assert.deepEqual(asked, ["Pay out 500 RWF"]);

    answer = { action: "decline" };
    const declined = await eliciting.callTool({
      name: "mcp_test_payout",
      arguments: { amount: 700 },
      _meta: { idempotency_key: "pay-2" },
    });
    assert.equal(declined.isError, true);
    assert.equal(structured(declined).error.code, "CANCELLED");

    // A client without elicitation gets the token, and confirms with it.
    const fallback = await plain.callTool({
      name: "mcp_test_payout",
      arguments: { amount: 900 },
      _meta: { idempotency_key: "pay-3" },
    });
    assert.equal(fallback.isError, true);
    const error = structured(fallback).error;
    assert.equal(error.code, "CONFIRMATION_REQUIRED");
    assert.equal(error.confirmation.summary, "Pay out 900 RWF");
    const texts = (fallback.content as Array<{ text: string }>).map((block) => block.text);
    assert.ok(texts.some((text) => text.includes("confirmation")));
    // Bound to its arguments: the token does not pay another amount.
    const other = structured(
      await plain.callTool({
        name: "mcp_test_payout",
        arguments: { amount: 901, confirmation: error.confirmation.token },
        _meta: { idempotency_key: "pay-3" },
      }),
    );
    assert.equal(other.ok, false);
    const confirmed = structured(
      await plain.callTool({
        name: "mcp_test_payout",
        arguments: { amount: 900, confirmation: error.confirmation.token },
        _meta: { idempotency_key: "pay-3" },
      }),
    );
    assert.deepEqual(confirmed, { ok: true, data: { paid: 900 } });
  } finally {
    await eliciting.close();
    await plain.close();
    await served.close();
  }
});

dbTest("mcp pages a catalog larger than one page with opaque cursors", async (db) => {
  const served = await serve(db, { pageSize: 7 });
  const client = await connect(served, USER.aline);
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      assert.ok(page.tools.length <= 7);
      names.push(...page.tools.map((tool: Listed) => tool.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    const expected = served.rt.platform.getToolsForTenant(ORG.easymo)
      .filter((tool) => tool.auth !== "staff").map((tool: Listed) => tool.name);
    assert.deepEqual(names, expected);
    assert.equal(pages, Math.ceil(expected.length / 7));
    await assert.rejects(client.listTools({ cursor: "not a cursor" }), /Invalid cursor/);
  } finally {
    await client.close();
    await served.close();
  }
});

dbTest(
  "mcp tells a tenant's open sessions when its tools change, not other tenants'",
  async (db) => {
    const served = await serve(db);
    const aline = await connect(served, USER.aline);
    await served.streamOpen();
    const nina = await connect(served, USER.nina, { org: ORG.beaver });
    await served.streamOpen();
    const heard = { aline: 0, nina: 0 };
    let changed: () => void = () => {};
    const alineHeard = new Promise<void>((resolve) => changed = resolve);
    aline.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard.aline++;
      changed();
    });
    nina.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard.nina++;
    });
    try {
      const handle = served.rt.platform.register(
        defineTool({
          name: "easymo_only_tool",
          title: "EasyMO only",
          description: "A tool of one tenant.",
          category: "runtime",
          input: z.object({}),
          output: z.object({}),
          examples: [{ input: {} }],
          sideEffects: "none",
          usesDatabase: false,
          execute: () => Promise.resolve({}),
        }),
        { tenantId: ORG.easymo },
      );
      await alineHeard;
      assert.ok(
        (await aline.listTools()).tools.some((tool: Listed) => tool.name === "easymo_only_tool"),
      );
      assert.ok(
        !(await nina.listTools()).tools.some((tool: Listed) => tool.name === "easymo_only_tool"),
      );
      // Nina's session heard nothing: a round trip on her session has drained her stream's queue.
      assert.equal(heard.nina, 0);
      handle.unregister();
    } finally {
      await aline.close();
      await nina.close();
      await served.close();
    }
  },
);

dbTest("mcp sessions survive another instance, and list_changed crosses instances", async (db) => {
  await installTableToolSync(db);
  const rtA = await createTestRuntime(db);
  const rtB = await createTestRuntime(db);
  const syncA = tableToolSync(db);
  const a = await serve(db, { rt: rtA, tenantSync: syncA });
  const b = await serve(db, { rt: rtB, tenantSync: tableToolSync(db) });
  const client = await connect(b, USER.aline);
  await b.streamOpen();
  let changed: () => void = () => {};
  const heard = new Promise<void>((resolve) => changed = resolve);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
  try {
    // Registered through instance A: its row, then A's registry.
    await addRuntimeTool(db, ORG.easymo, "tenant_echo");
    await syncA.sync(ORG.easymo, rtA.platform.registry);
    assert.ok(rtA.platform.get("tenant_echo", { tenantId: ORG.easymo }));
    // B polls the version, syncs, and its registry tells the session streaming from B.
    await heard;
    const names = (await client.listTools()).tools.map((tool: Listed) => tool.name);
    assert.ok(names.includes("tenant_echo"));

    // The same session id on instance A: restored from the database, it serves the call.
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const token = await rtA.tokenFor(USER.aline);
    const response = await postToSession(a.url, token, sessionId, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "tenant_echo", arguments: { text: "from A" } },
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    assert.match(text, /from A/);
    const [stored] = await db.query<{ info: string; capabilities: string }>(
      `select jsonb_typeof(client_info) as info, jsonb_typeof(client_capabilities) as capabilities
         from private.mcp_sessions where id = $1`,
      [sessionId],
    );
    assert.deepEqual(stored, { info: "object", capabilities: "object" });
    assert.equal(b.app.sessions.polling, true);
    // Someone else presenting the id gets an unknown session.
    const other = await postToSession(a.url, await rtA.tokenFor(USER.jean), sessionId, {
      jsonrpc: "2.0",
      id: 8,
      method: "tools/list",
    });
    assert.equal(other.status, 404);
    await other.body?.cancel();

    // Closed through A (DELETE): A deletes the row; B lets go of it at its next poll.
    const closed = await fetch(a.url, {
      method: "DELETE",
      headers: {
        authorization: `Bearer ${token}`,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
    });
    assert.equal(closed.status, 200, await closed.text());
    // (B's interval may have polled already; a poll now makes sure one ran.)
    await b.app.sessions.poll();
    assert.equal(b.app.sessions.size, 0);
    const gone = await postToSession(b.url, token, sessionId, {
      jsonrpc: "2.0",
      id: 10,
      method: "tools/list",
    });
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
  } finally {
    await client.close();
    await a.close();
    await b.close();
  }
  // Closed, an instance holds no session and its poll is stopped (no interval left behind).
  assert.deepEqual([b.app.sessions.size, b.app.sessions.polling], [0, false]);
  assert.deepEqual([a.app.sessions.size, a.app.sessions.polling], [0, false]);
});

dbTest("mcp answers without a token with 401 and where to get one (RFC 9728)", async (db) => {
  const served = await serve(db);
  try {
    const denied = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(denied.status, 401);
    const challenge = denied.headers.get("www-authenticate") ?? "";
    assert.equal(
      challenge,
      'Bearer resource_metadata="https://project.example/functions/v1/mcp/.well-known/oauth-protected-resource"',
    );
    const body = await denied.json();
    assert.equal(body.error.code, -32001);

    // A token sent and refused (expired, signed by someone else, not a JWT) says so
    // (RFC 6750 invalid_token), so a client refreshes it instead of resending it; nothing leaks.
    const refused = [
      await signDevToken(devJwtSecret(TEST_SECRET), { userId: USER.aline, ttlSec: -60 }),
      await signDevToken("another project's secret, long enough to sign", { userId: USER.aline }),
      "abc.def.ghi",
    ];
    for (const token of refused) {
      const expired = await fetch(served.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      assert.equal(expired.status, 401);
      assert.equal(
        expired.headers.get("www-authenticate"),
        'Bearer resource_metadata="https://project.example/functions/v1/mcp/.well-known/oauth-protected-resource", error="invalid_token", error_description="The token is invalid or expired"',
      );
      assert.deepEqual(await expired.json(), {
        jsonrpc: "2.0",
        error: { code: -32001, message: "Sign in required" },
        id: null,
      });
    }

    for (
      const path of [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/functions/v1/mcp",
      ]
    ) {
      const metadata = await fetch(`${served.url}${path}`);
      assert.equal(metadata.status, 200);
      assert.deepEqual(await metadata.json(), {
        resource: "https://project.example/functions/v1/mcp",
        authorization_servers: ["https://project.example/auth/v1"],
        bearer_methods_supported: ["header"],
        resource_name: "EasyMO tools",
      });
    }
  } finally {
    await served.close();
  }
});

dbTest(
  "mcp refuses bad JSON-RPC, oversized bodies and unknown sessions without a 500",
  async (db) => {
    const served = await serve(db);
    try {
      const token = await served.rt.tokenFor(USER.aline);
      const headers = {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      const cases: Array<[RequestInit, number, number]> = [
        [{ method: "POST", headers, body: "{not json" }, 400, -32700],
        [{ method: "POST", headers, body: "x".repeat(300 * 1024) }, 413, -32600],
        [
          {
            method: "POST",
            headers,
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
          },
          400,
          -32600,
        ],
        [
          {
            method: "POST",
            headers: { ...headers, "mcp-session-id": crypto.randomUUID() },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
          },
          404,
          -32001,
        ],
        [
          {
            method: "POST",
            headers: { ...headers, "mcp-session-id": "'; drop table x" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
          },
          404,
          -32001,
        ],
        // A tools/call of the wrong shape is Invalid params, not the SDK's -32603 Internal error.
        ...[
          { name: "search_supabase", arguments: "str" },
          { name: 5, arguments: {} },
          null,
        ].map((params): [RequestInit, number, number] => [
          {
            method: "POST",
            headers,
            body: JSON.stringify([{ jsonrpc: "2.0", id: 2, method: "tools/call", params }]),
          },
          400,
          -32602,
        ]),
        // Any request the server answers, not only tools/call: a cursor that is not a string.
        ...[
          { method: "tools/list", params: { cursor: 5 } },
          { method: "tasks/get", params: {} },
        ].map((request): [RequestInit, number, number] => [
          { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 2, ...request }) },
          400,
          -32602,
        ]),
        // An initialize the SDK cannot read (no clientInfo) is Invalid params with its id, not
        // "Mcp-Session-Id header is required".
        [
          {
            method: "POST",
            headers,
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 2,
              method: "initialize",
              params: { protocolVersion: "2025-11-25", capabilities: {} },
            }),
          },
          400,
          -32602,
        ],
        // JSON that is no JSON-RPC message is Invalid Request, not a parse error.
        ...[
          { id: 1, method: "tools/list" },
          { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" },
          [],
          42,
        ].map((body): [RequestInit, number, number] => [
          { method: "POST", headers, body: JSON.stringify(body) },
          400,
          -32600,
        ]),
      ];
      for (const [init, status, code] of cases) {
        const response = await fetch(served.url, init);
        const text = await response.text();
        assert.equal(response.status, status, text);
        assert.equal(JSON.parse(text).error.code, code, text);
        assert.doesNotMatch(text, /at .*\.ts:\d+/);
        // A client matches an answer to its request by id: Invalid params names the call's id.
        if (code === -32602) assert.equal(JSON.parse(text).id, 2, text);
      }
      // A method the transport does not speak is 405 naming those it does, not a plain 404.
      for (const method of ["PUT", "PATCH"]) {
        const response = await fetch(served.url, { method, headers, body: "{}" });
        assert.equal(response.status, 405);
        assert.equal(response.headers.get("allow"), "GET, POST, DELETE");
        assert.equal((await response.json()).error.code, -32000);
      }
      const options = await fetch(served.url, { method: "OPTIONS" });
      await options.body?.cancel();
      assert.deepEqual([options.status, options.headers.get("allow")], [204, "GET, POST, DELETE"]);
    } finally {
      await served.close();
    }
  },
);

dbTest("mcp runs a long-running tool as a task the client polls, read from its job", async (db) => {
  const served = await serve(db);
  const client = await connect(served, USER.aline);
  try {
    const listed = (await client.listTools()).tools;
    assert.deepEqual(
      listed.find((tool: Listed) => tool.name === "mcp_test_render")?.execution,
      { taskSupport: "optional" },
    );
    assert.equal(listed.find((tool: Listed) => tool.name === "order_create")?.execution, undefined);
    const created = await client.request({
      method: "tools/call",
      params: {
        name: "mcp_test_render",
        arguments: { scene: "beach" },
        task: { ttl: 60_000 },
        _meta: { idempotency_key: "render-1" },
      },
    }, CreateTaskResultSchema);
    const { taskId } = created.task;
    assert.equal(created.task.status, "working");
    assert.equal(created.task.pollInterval, 10);
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, "working");

    // tasks/result waits for the job: it answers once the job row says done.
    const result = client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    renders.set("render-beach", "done");
    const finished = await result;
    assert.deepEqual(finished.structuredContent, {
      ok: true,
      data: { job_id: "render-beach", status: "done" },
    });
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, "completed");

    // A failed job is a failed task; a made-up task id is no task.
    renders.set("render-beach", "failed");
    const failed = await client.experimental.tasks.getTask(taskId);
    assert.deepEqual([failed.status, failed.statusMessage], ["failed", "The render failed"]);
    await assert.rejects(client.experimental.tasks.getTask("bm90IGEgdGFzaw"), /Task not found/);

    // A call the pipeline refuses still answers as a task: a failed one, with the refusal.
    const refused = await client.request({
      method: "tools/call",
      params: { name: "mcp_test_render", arguments: { scene: "beach" }, task: { ttl: 60_000 } },
    }, CreateTaskResultSchema);
    assert.equal(refused.task.status, "failed");
    const why = await client.experimental.tasks.getTaskResult(
      refused.task.taskId,
      CallToolResultSchema,
    );
    assert.equal(why.isError, true);
    assert.equal(
      (why.structuredContent as { error: { code: string } }).error.code,
      "VALIDATION_ERROR",
    );

    // A tool that is not long-running (taskSupport absent: forbidden) refuses to be a task with
    // the spec's -32601 Method not found.
    await assert.rejects(
      client.request({
        method: "tools/call",
        params: { name: "mcp_test_limited", arguments: {}, task: { ttl: 60_000 } },
      }, CreateTaskResultSchema),
      (error: { code?: number; message?: string }) =>
        error.code === -32601 && /does not run as a task/.test(error.message ?? ""),
    );
  } finally {
    await client.close();
    await served.close();
  }
});

dbTest("mcp follows broadcast_schedule as a task, from its campaign row", async (db) => {
  const served = await serve(db);
  await withoutSeededBroadcasts(db);
  const template = await addTemplate(db, ORG.easymo, { name: "offer", variables: ["first_name"] });
  await addCustomers(db, ORG.easymo, { count: 2 });
  const jean = await connect(served, USER.jean, {
    elicit: () => ({ action: "accept", content: { confirm: true } }),
  });
  try {
    const created = await jean.request({
      method: "tools/call",
      params: {
        name: "broadcast_schedule",
        arguments: {
          template_id: template,
          audience: { segment: "opted_in" },
          when: fillKigaliDates("{{kigali.day_after_tomorrow}}T10:00:00+02:00"),
          variables: { first_name: "friend" },
        },
        task: { ttl: 60_000 },
        _meta: { idempotency_key: "campaign-1" },
      },
    }, CreateTaskResultSchema);
    assert.equal(created.task.status, "working", JSON.stringify(created));
    assert.equal(created.task.statusMessage, "scheduled");
    // The campaign row is the job: when the sender finishes it, the task is complete.
    await db.query(
      "update public.broadcast_campaigns set status = 'done' where org_id = $1",
      [ORG.easymo],
    );
    const task = await jean.experimental.tasks.getTask(created.task.taskId);
    assert.equal(task.status, "completed");
    const result = await jean.experimental.tasks.getTaskResult(
      created.task.taskId,
      CallToolResultSchema,
    );
    const body = result.structuredContent as { ok: boolean; data: { campaigns: unknown[] } };
    assert.equal(body.ok, true);
    assert.equal(body.data.campaigns.length, 1);
    // Another tenant's staff cannot read it with the same task id: RLS, through the pipeline.
    const paul = await connect(served, USER.paul, { org: ORG.beaver });
    try {
      await assert.rejects(paul.experimental.tasks.getTask(created.task.taskId), /Task not found/);
    } finally {
      await paul.close();
    }
  } finally {
    await jean.close();
    await served.close();
  }
});

dbTest("mcp follows sora_generate_video as a task, from its video job row", async (db) => {
  const videos = startVideosServer();
  const rt = await createTestRuntime(db, {
    provide: [{
      key: VIDEO_PROVIDER,
      value: createOpenAIVideoProvider({
        apiKey: videos.apiKey,
        baseURL: videos.baseURL,
        timeoutMs: 5000,
      }),
    }],
  });
  const served = await serve(db, { rt });
  const jean = await connect(served, USER.jean);
  const video = {
    prompt: {
      scene: "A moto driver in a blue EasyMO vest picks up a customer at Nyabugogo.",
      cinematography: {
        camera_shot: "Slow dolly-in at eye level",
        lighting_palette: "Soft morning light with #00A1DE accents",
      },
      actions: [{ time: "0-4s", description: "She taps the EasyMO button." }],
    },
    params: { model: "sora-2", size: "1280x720", seconds: 4 },
    brand_kit_id: VIDEO.brandKit,
  };
  try {
    // A paid job: the read-back first (this client has no elicitation), then the task with its token.
    const asked = structured(
      await jean.callTool({
        name: "sora_generate_video",
        arguments: video,
        _meta: { idempotency_key: "video-1" },
      }),
    );
    assert.equal(asked.error.code, "CONFIRMATION_REQUIRED", JSON.stringify(asked));
    const created = await jean.request({
      method: "tools/call",
      params: {
        name: "sora_generate_video",
        arguments: video,
        task: { ttl: 600_000 },
        _meta: { idempotency_key: "video-1", confirmation: asked.error.confirmation.token },
      },
    }, CreateTaskResultSchema);
    assert.equal(created.task.status, "working", JSON.stringify(created));
    assert.equal(created.task.statusMessage, "queued 0%");
    assert.equal(created.task.pollInterval, 15_000);
    // The poll (sora_video_poll) finishes the row; the task reads the same row.
    await db.query(
      `update public.video_jobs set status = 'complete', progress = 100,
         result_path = 'videos/done.mp4' where org_id = $1`,
      [ORG.easymo],
    );
    const result = await jean.experimental.tasks.getTaskResult(
      created.task.taskId,
      CallToolResultSchema,
    );
    const body = result.structuredContent as { ok: boolean; data: Record<string, unknown> };
    assert.equal(body.ok, true, JSON.stringify(body));
    assert.equal(body.data.status, "complete");
    assert.equal(body.data.result_path, "videos/done.mp4");
    // Aline is no staff: the same task id is no task of hers.
    const aline = await connect(served, USER.aline);
    try {
      await assert.rejects(aline.experimental.tasks.getTask(created.task.taskId), /Task not found/);
    } finally {
      await aline.close();
    }
  } finally {
    await jean.close();
    await served.close();
    await videos.close();
  }
});

function anonToken(_served: Served): Promise<string> {
  return signDevToken(devJwtSecret(TEST_SECRET), { role: "anon" });
}

dbTest("mcp tells anonymous callers and other tenants' members nothing", async (db) => {
  const served = await serve(db);
  try {
    const anon = `Bearer ${await anonToken(served)}`;
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      },
    });
    const base = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const answers = new Set<string>();
    // Nameless, a real tenant without public tools, an unknown slug, an unknown id.
    for (
      const headers of [
        {},
        { authorization: anon },
        { authorization: anon, "x-org-id": "easymo" },
        { authorization: anon, "x-org-id": "no-such-tenant" },
        { authorization: anon, "x-org-id": crypto.randomUUID() },
      ] as Record<string, string>[]
    ) {
      const response = await fetch(served.url, {
        method: "POST",
        headers: { ...base, ...headers },
        body: initialize,
      });
      answers.add(`${response.status} ${await response.text()}`);
    }
    assert.deepEqual([...answers], [
      '401 {"jsonrpc":"2.0","error":{"code":-32001,"message":"Sign in required"},"id":null}',
    ]);
    // A member naming another tenant, or none that exists: the same 403.
    const member = `Bearer ${await served.rt.tokenFor(USER.aline)}`;
    const refusals = new Set<string>();
    for (const org of ["beaver-paper", ORG.beaver, "no-such-tenant", crypto.randomUUID()]) {
      const response = await fetch(served.url, {
        method: "POST",
        headers: { ...base, authorization: member, "x-org-id": org },
        body: initialize,
      });
      refusals.add(`${response.status} ${await response.text()}`);
    }
    assert.deepEqual([...refusals], [
      '403 {"jsonrpc":"2.0","error":{"code":-32001,"message":"Access denied"},"id":null}',
    ]);
  } finally {
    await served.close();
  }
});

dbTest("mcp offers anonymous callers only the named tenant's public tools", async (db) => {
  const served = await serve(db);
  await db.query(
    `update public.orgs set tool_policy = '{"public_tools": ["search_supabase"]}' where slug = 'easymo'`,
  );
  await served.rt.platform.tenants.load(db);
  const client = new Client({ name: "anon", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.url), {
      requestInit: {
        headers: { authorization: `Bearer ${await anonToken(served)}`, "x-org-id": "easymo" },
      },
    }),
  );
  try {
    const names = (await client.listTools()).tools.map((tool: Listed) => tool.name);
    assert.deepEqual(names, ["search_supabase"]);
    const searched = structured(
      await client.callTool({ name: "search_supabase", arguments: { table: "businesses" } }),
    );
    // RLS still applies: anonymous callers read no tenant rows.
    assert.deepEqual(searched.data.items, []);
    // A tool that is not public answers exactly as one that does not exist.
    const notPublic = await client.callTool({ name: "analytics_log", arguments: {} }).catch((
      error: Error,
    ) => error.message);
    const missing = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((
      error: Error,
    ) => error.message);
    assert.match(String(notPublic), /Unknown tool: analytics_log/);
    assert.equal(
      String(notPublic).replace("analytics_log", "T"),
      String(missing).replace("no_such_tool", "T"),
    );
  } finally {
    await client.close();
    await served.close();
  }
});

dbTest("mcp narrows a session to an agent's allowlist with x-agent-id", async (db) => {
  const served = await serve(db);
  const client = await connect(served, USER.aline, { agent: "support_handoff" });
  try {
    const names = (await client.listTools()).tools.map((tool: Listed) => tool.name);
    assert.deepEqual(names.sort(), ["analytics_log", "notify_staff"]);
    // The session keeps its agent: a later request without the header sees no more.
    const unpinned = await postToSession(
      served.url,
      await served.rt.tokenFor(USER.aline),
      (client.transport as StreamableHTTPClientTransport).sessionId!,
      { jsonrpc: "2.0", id: 9, method: "tools/list" },
    );
    const listedRaw = await unpinned.text();
    assert.equal(unpinned.status, 200, listedRaw);
    assert.match(listedRaw, /notify_staff/);
    assert.doesNotMatch(listedRaw, /search_businesses_with_tags/);
    await assert.rejects(
      client.callTool({ name: "search_businesses_with_tags", arguments: { query_text: "x" } }),
      /Unknown tool/,
    );
    await assert.rejects(
      connect(served, USER.aline, { agent: "no_such_agent" }),
      /Unknown agent|400/,
    );
  } finally {
    await client.close();
    await served.close();
  }
});

dbTest("mcp purges sessions older than their lifetime; an expired one answers 404", async (db) => {
  const served = await serve(db);
  const old = crypto.randomUUID();
  await db.query(
    `insert into private.mcp_sessions (id, org_id, caller_key, protocol_version, created_at)
     values ($1, $2, $3, '2025-11-25', now() - interval '31 days')`,
    [old, ORG.easymo, USER.aline],
  );
  try {
    const response = await postToSession(served.url, await served.rt.tokenFor(USER.aline), old, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
    });
    assert.equal(response.status, 404);
    await response.body?.cancel();
    // A new session purges the expired rows.
    const client = await connect(served, USER.aline);
    await client.close();
    const rows = await db.query("select 1 from private.mcp_sessions where id = $1", [old]);
    assert.equal(rows.length, 0);
  } finally {
    await served.close();
  }
});

dbTest("mcp stops reading a chunked body at its limit: 413, the rest never read", async (db) => {
  const served = await serve(db);
  try {
    const huge = await sendChunked({
      path: "/functions/v1/mcp",
      port: Number(new URL(served.url).port),
      totalBytes: 64 * 1024 * 1024,
      headers: {
        authorization: `Bearer ${await served.rt.tokenFor(USER.aline)}`,
        accept: "application/json, text/event-stream",
      },
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.sentAll, false);
    assert.match(huge.response, /"code":-32600/);
  } finally {
    await served.close();
  }
});
