import assert from "node:assert/strict";
import { dbTest } from "@shared/db/testing.ts";
import { createTestRuntime } from "@shared/testing/runtime.ts";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ORG, USER } from "@shared/testing/seed.ts";
import { sendChunked } from "@shared/testing/raw_http.ts";
import { createToolsApp } from "./app.ts";

async function serve(db: Parameters<typeof createTestRuntime>[0]) {
  const rt = await createTestRuntime(db);
  const app = createToolsApp(rt);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    // Mounted like Supabase: the function sees /tools/….
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^\/functions\/v1/, "");
    return app.fetch(new Request(url, request));
  });
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/functions/v1/tools`;
  return { rt, base, close: () => server.shutdown() };
}

dbTest("tools function lists the tenant's or agent's tools in every export format", async (db) => {
  const { rt, base, close } = await serve(db);
  try {
    const token = await rt.tokenFor(USER.aline);
    const headers = { authorization: `Bearer ${token}` };
    const all = await (await fetch(base, { headers })).json();
    assert.equal(all.ok, true);
    // Every tool the tenant may use, without internal (service-only) ones.
    const TENANT_TOOLS = [
      "analytics_log",
      "create_vendor_inquiries_and_message_vendors",
      "get_vendor_inquiry_updates",
      "inventory_check",
      "log_user_feedback_on_vendor",
      "notify_staff",
      "order_create",
      "search_businesses_with_tags",
      "search_supabase",
    ];
    assert.deepEqual(all.data.tools.map((t: { name: string }) => t.name), TENANT_TOOLS);
    const support = await (await fetch(`${base}?agent=support_handoff&format=openai`, { headers }))
      .json();
    assert.deepEqual(
      support.data.tools.map((t: { function: { name: string } }) => t.function.name).sort(),
      ["analytics_log", "notify_staff"],
    );
    for (const format of ["jsonschema", "openai", "anthropic", "gemini", "mcp"]) {
      const response = await fetch(`${base}?format=${format}`, { headers });
      assert.equal(response.status, 200, format);
      const listed = (await response.json()).data;
      assert.equal(listed.count, TENANT_TOOLS.length, format);
      assert.deepEqual(listed.skipped, [], format);
    }
    const bad = await fetch(`${base}?format=xml`, { headers });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  } finally {
    await close();
  }
});

dbTest("tools function calls a tool with the caller from the verified token", async (db) => {
  const { rt, base, close } = await serve(db);
  try {
    const token = await rt.tokenFor(USER.aline);
    const response = await fetch(base, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "idempotency-key": "http-1" },
      body: JSON.stringify({
        tool: "notify_staff",
        args: { channel: "inbox", payload: { reason: "help", summary: "Needs a person" } },
        // Identity in the body is ignored: the token decides.
        user_id: USER.jean,
      }),
    });
    const body = await response.json();
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal(body.error.code, "VALIDATION_ERROR");

    const ok = await fetch(base, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "idempotency-key": "http-1" },
      body: JSON.stringify({
        tool: "notify_staff",
        args: { channel: "inbox", payload: { reason: "help", summary: "Needs a person" } },
      }),
    });
    assert.equal(ok.status, 200);
    assert.ok(ok.headers.get("x-trace-id"));
    const result = await ok.json();
    const [ticket] = await db.query<{ requester_user_id: string }>(
      "select requester_user_id from public.staff_tickets where id = $1",
      [result.data.ticket_id],
    );
    assert.equal(ticket.requester_user_id, USER.aline);
  } finally {
    await close();
  }
});

dbTest("tools function answers bad input with the contract, never a stack", async (db) => {
  const { rt, base, close } = await serve(db);
  try {
    const token = await rt.tokenFor(USER.aline);
    const cases: Array<[RequestInit & { headers?: Record<string, string> }, number, string]> = [
      [{ method: "POST", body: "{}" }, 401, "AUTH_ERROR"],
      [
        { method: "POST", body: "{}", headers: { authorization: "Bearer not.a.jwt" } },
        401,
        "AUTH_ERROR",
      ],
      [
        { method: "POST", body: "{not json", headers: { authorization: `Bearer ${token}` } },
        400,
        "VALIDATION_ERROR",
      ],
      [
        { method: "POST", body: "[]", headers: { authorization: `Bearer ${token}` } },
        400,
        "VALIDATION_ERROR",
      ],
      [
        {
          method: "POST",
          body: JSON.stringify({ tool: "search_supabase", args: { table: "x" } }),
          headers: { authorization: `Bearer ${token}` },
        },
        400,
        "VALIDATION_ERROR",
      ],
      [
        {
          method: "POST",
          body: JSON.stringify({ tool: "search_supabase", args: { table: "products" } }),
          headers: { authorization: `Bearer ${token}`, "x-org-id": "beaver-paper" },
        },
        403,
        "AUTH_ERROR",
      ],
      [
        {
          method: "POST",
          body: JSON.stringify({ tool: "nope" }),
          headers: { authorization: `Bearer ${token}` },
        },
        404,
        "NOT_FOUND",
      ],
    ];
    for (const [init, status, code] of cases) {
      const response = await fetch(base, init);
      const text = await response.text();
      assert.equal(response.status, status, text);
      const body = JSON.parse(text);
      assert.equal(body.ok, false);
      assert.equal(body.error.code, code);
      assert.doesNotMatch(text, /at .*\.ts:\d+/);
    }
    const big = await fetch(base, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ tool: "analytics_log", args: { event: "x".repeat(300_000) } }),
    });
    // Over the 256 KiB limit: 413, not read further.
    assert.equal(big.status, 413);
    await big.body?.cancel();
  } finally {
    await close();
  }
});

dbTest("tools function lists a tool registered at run time for the tenant", async (db) => {
  const { rt, base, close } = await serve(db);
  try {
    const headers = { authorization: `Bearer ${await rt.tokenFor(USER.aline)}` };
    const names = async () =>
      (await (await fetch(base, { headers })).json()).data.tools.map((t: { name: string }) =>
        t.name
      );
    assert.ok(!(await names()).includes("markets.get_price"));
    const handle = rt.platform.register(
      defineTool({
        name: "markets.get_price",
        title: "Get price",
        description: "Latest price of a ticker.",
        category: "markets",
        input: z.object({ symbol: z.string() }),
        output: z.object({ price: z.number() }),
        examples: [{ input: { symbol: "BTC" } }],
        sideEffects: "none",
        usesDatabase: false,
        execute: () => Promise.resolve({ price: 1 }),
      }),
      { tenantId: ORG.easymo },
    );
    assert.ok((await names()).includes("markets.get_price"));
    handle.unregister();
    assert.ok(!(await names()).includes("markets.get_price"));
  } finally {
    await close();
  }
});

dbTest(
  "tools function refuses a body over 256 KiB with 413 in the contract's shape, unread",
  async (db) => {
    const { rt, base, close } = await serve(db);
    try {
      const token = await rt.tokenFor(USER.aline);
      const response = await fetch(base, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ tool: "analytics_log", args: { pad: "x".repeat(300 * 1024) } }),
      });
      assert.equal(response.status, 413);
      const body = await response.json();
      assert.equal(body.ok, false);
      assert.equal(body.error.code, "VALIDATION_ERROR");
      assert.deepEqual(body.error.fields.map((f: { path: string }) => f.path), ["body"]);
      // Streamed without a length: cut off near the limit, never read to the end.
      const port = Number(new URL(base).port);
      const huge = await sendChunked({
        path: "/functions/v1/tools",
        port,
        totalBytes: 600 * 1024 * 1024,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(huge.status, 413);
      assert.equal(huge.sentAll, false);
      assert.match(huge.response, /"code":"VALIDATION_ERROR"/);
    } finally {
      await close();
    }
  },
);
