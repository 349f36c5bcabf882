import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ORG, USER } from "@testing/seed.ts";
import { sendChunked } from "@testing/raw_http.ts";
import { signDevToken } from "@shared/auth/jwt.ts";
import { devJwtSecret } from "@shared/runtime/secrets.ts";
import { TEST_SECRET } from "@testing/runtime.ts";
import { createToolsApp } from "./app.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { docsTree } from "@testing/export_fixtures.ts";

async function serve(db: Parameters<typeof createTestRuntime>[0]) {
  const rt = await createTestRuntime(db);
  const app = createToolsApp(rt);
  // Mounted like Supabase: the function sees /tools/….
  const server = serveFunction("tools", (request) => app.fetch(request));
  return { rt, base: server.url, close: () => server.close() };
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
      // Service-only tools (drivers' and venues' answers, sweeps) are not listed to a user.
      "analytics_log",
      "case_intake",
      "choose_vendor_for_inquiry",
      "create_vendor_inquiries_and_message_vendors",
      "fetch_tool_schemas",
      "generate_pdf",
      "get_vendor_inquiry_updates",
      "inventory_check",
      "list_tools",
      "log_user_feedback_on_vendor",
      "maps_geosearch",
      "momo_charge",
      "momo_charge_cancel",
      "notify_staff",
      "ocr_extract",
      "order_cancel",
      "order_create",
      "order_status_update",
      "payment_status",
      "place_lookup",
      "price_insurance",
      "proforma_issue",
      "proforma_pdf",
      "property_listing_submit",
      "property_search",
      "property_viewing_slots",
      "property_viewings",
      "reservation_book",
      "reservation_cancel",
      "reservation_list",
      "reservation_move",
      "ride_cancel",
      "ride_hold",
      "ride_request",
      "ride_status",
      "schedule_viewing",
      "search_businesses_with_tags",
      "search_supabase",
      "search_tools",
      "trip_price_estimate",
      "vendor_inquiry_board",
      "vendor_inquiry_cancel",
      "viewing_cancel",
      "viewing_move",
    ];
    assert.deepEqual(all.data.tools.map((t: { name: string }) => t.name), TENANT_TOOLS);
    // Staff see the staff tools (`auth: "staff"`, shared/packs/staff_tools_test.ts names them)
    // too; a customer, above, does not.
    const STAFF_TOOLS = rt.platform.getToolsForTenant(ORG.easymo)
      .filter((tool) => tool.auth === "staff").map((tool) => tool.name);
    assert.ok(STAFF_TOOLS.includes("sora_generate_video"));
    const staffHeaders = { authorization: `Bearer ${await rt.tokenFor(USER.jean)}` };
    const staff = await (await fetch(base, { headers: staffHeaders })).json();
    assert.deepEqual(
      staff.data.tools.map((t: { name: string }) => t.name),
      [...TENANT_TOOLS, ...STAFF_TOOLS].sort(),
    );
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
      // Every tool in every dialect: Gemini too, maps typed or sent as JSON text.
      assert.equal(listed.count, TENANT_TOOLS.length, format);
      assert.equal(listed.tools.length, TENANT_TOOLS.length, format);
      assert.equal("skipped" in listed, false, format);
    }
    const bad = await fetch(`${base}?format=xml`, { headers });
    assert.equal(bad.status, 400);
    // The parameter at fault is named.
    const refused = await bad.json();
    assert.equal(refused.error.code, "VALIDATION_ERROR");
    assert.deepEqual(refused.error.fields.map((field: { path: string }) => field.path), [
      "format",
    ]);
  } finally {
    await close();
  }
});

dbTest(
  "tools function leaves a tool the format cannot carry out of that format's listing, and logs why",
  async (db) => {
    const { rt, base, close } = await serve(db);
    try {
      // Registered past the platform's check (which refuses it): Gemini cannot take its recursion.
      rt.platform.registry.register(docsTree, { tenantId: ORG.easymo });
      const headers = { authorization: `Bearer ${await rt.tokenFor(USER.aline)}` };
      const gemini = await fetch(`${base}?format=gemini`, { headers });
      assert.equal(gemini.status, 200);
      const listed = (await gemini.json()).data;
      const names = listed.tools.map((tool: { name: string }) => tool.name);
      assert.equal(names.some((name: string) => name.includes("save_tree")), false);
      assert.ok(names.includes("search_businesses_with_tags"));
      assert.equal(listed.count, listed.tools.length);
      // Every tool but that one: the JSON Schema listing has it and the tenant's others.
      const all = (await (await fetch(`${base}?format=jsonschema`, { headers })).json()).data;
      assert.ok(all.tools.some((tool: { name: string }) => tool.name === docsTree.name));
      assert.equal(listed.count, all.count - 1);
      const logged = rt.log.lines.filter((line) => line.event === "tool_export_left_out");
      assert.deepEqual(logged.map((line) => [line.format, line.tool]), [["gemini", docsTree.name]]);
      assert.match(String(logged[0].reason), /recursive/);
      // Every other format carries it.
      const mcp = (await (await fetch(`${base}?format=mcp`, { headers })).json()).data;
      assert.ok(mcp.tools.some((tool: { name: string }) => tool.name === docsTree.name));
    } finally {
      await close();
    }
  },
);

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

function anonToken(): Promise<string> {
  return signDevToken(devJwtSecret(TEST_SECRET), { role: "anon" });
}

dbTest("tools function tells anonymous callers nothing about any tenant", async (db) => {
  const { base, close } = await serve(db);
  try {
    const anon = `Bearer ${await anonToken()}`;
    // Nameless, a real tenant without public tools, an unknown slug, an unknown id.
    const askers: Record<string, string>[] = [
      {},
      { authorization: anon },
      { authorization: anon, "x-org-id": "easymo" },
      { authorization: anon, "x-org-id": "no-such-tenant" },
      { authorization: anon, "x-org-id": "c0000000-0000-4000-8000-00000000ffff" },
    ];
    const answers = new Set<string>();
    for (const headers of askers) {
      const listed = await fetch(base, { headers });
      answers.add(`${listed.status} ${await listed.text()}`);
      const called = await fetch(base, {
        method: "POST",
        headers,
        body: JSON.stringify({ tool: "search_supabase", args: { table: "businesses" } }),
      });
      answers.add(`${called.status} ${await called.text()}`);
    }
    assert.deepEqual([...answers], [
      '401 {"ok":false,"error":{"code":"AUTH_ERROR","msg":"Sign in required"}}',
    ]);
  } finally {
    await close();
  }
});

dbTest("tools function answers another tenant's member as if the org did not exist", async (db) => {
  const { rt, base, close } = await serve(db);
  try {
    const authorization = `Bearer ${await rt.tokenFor(USER.aline)}`;
    const answers = new Set<string>();
    for (const org of ["beaver-paper", ORG.beaver, "no-such-tenant", crypto.randomUUID()]) {
      const headers = { authorization, "x-org-id": org };
      const listed = await fetch(base, { headers });
      answers.add(`GET ${listed.status} ${await listed.text()}`);
      const called = await fetch(base, {
        method: "POST",
        headers,
        body: JSON.stringify({ tool: "search_supabase", args: { table: "products" } }),
      });
      answers.add(`POST ${called.status} ${await called.text()}`);
    }
    assert.deepEqual([...answers], [
      'GET 403 {"ok":false,"error":{"code":"AUTH_ERROR","msg":"Access denied"}}',
      'POST 403 {"ok":false,"error":{"code":"AUTH_ERROR","msg":"Access denied"}}',
    ]);
  } finally {
    await close();
  }
});

dbTest(
  "tools function offers anonymous callers only the public tools of the tenant named",
  async (db) => {
    const { rt, base, close } = await serve(db);
    try {
      await db.query(
        `update public.orgs set tool_policy = '{"public_tools": ["search_supabase"]}' where slug = 'easymo'`,
      );
      await rt.platform.tenants.load(db);
      const anon = `Bearer ${await anonToken()}`;
      const listed = await (await fetch(base, {
        headers: { authorization: anon, "x-org-id": "easymo" },
      })).json();
      assert.deepEqual(listed.data.tools.map((t: { name: string }) => t.name), ["search_supabase"]);
      // Only when named: without x-org-id, or naming the other tenant, nothing.
      for (
        const headers of [
          { authorization: anon },
          { authorization: anon, "x-org-id": "beaver-paper" },
        ] as Record<string, string>[]
      ) {
        const refused = await fetch(base, { headers });
        assert.equal(refused.status, 401);
        await refused.body?.cancel();
      }
      const call = (tool: string, args: unknown) =>
        fetch(base, {
          method: "POST",
          headers: { authorization: anon, "x-org-id": "easymo", "idempotency-key": "anon-1" },
          body: JSON.stringify({ tool, args }),
        });
      const searched = await call("search_supabase", { table: "businesses" });
      assert.equal(searched.status, 200, await searched.clone().text());
      // RLS still applies: anonymous callers read no tenant rows.
      assert.deepEqual((await searched.json()).data.items, []);
      const notPublic = await call("analytics_log", { event: "x" });
      assert.equal(notPublic.status, 401);
      assert.equal((await notPublic.json()).error.msg, "Sign in required");
    } finally {
      await close();
    }
  },
);

dbTest("tools function limits each user of a tenant on their own over HTTP", async (db) => {
  const { rt, base, close } = await serve(db);
  try {
    await db.query(
      `update public.orgs set tool_policy = $1 where slug = 'easymo'`,
      [{ rate_limits: { search_supabase: { per_user: { limit: 1, window_sec: 3600 } } } }],
    );
    await rt.platform.tenants.load(db);
    const search = async (user: string) => {
      const response = await fetch(base, {
        method: "POST",
        headers: { authorization: `Bearer ${await rt.tokenFor(user)}` },
        body: JSON.stringify({ tool: "search_supabase", args: { table: "products" } }),
      });
      await response.body?.cancel();
      return response.status;
    };
    assert.deepEqual([await search(USER.aline), await search(USER.aline)], [200, 429]);
    assert.equal(await search(USER.jean), 200);
  } finally {
    await close();
  }
});
