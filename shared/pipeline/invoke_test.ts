import assert from "node:assert/strict";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode, ToolFailure, type ToolResult } from "@shared/contract/mod.ts";
import { dbTest } from "@testing/db.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

const failing = defineTool({
  name: "test.fails_with",
  title: "Fails with a code",
  description: "Throws the ToolFailure it is told to.",
  category: "test",
  input: z.object({ code: z.string() }),
  output: z.object({}),
  examples: [{ input: { code: "NOT_FOUND" } }],
  sideEffects: "none",
  execute(args) {
    throw new ToolFailure(args.code as ErrorCode);
  },
});

const crashing = defineTool({
  name: "test.crashes",
  title: "Crashes",
  description: "Throws an unexpected error carrying a secret.",
  category: "test",
  input: z.object({}),
  output: z.object({}),
  examples: [{ input: {} }],
  sideEffects: "none",
  execute() {
    throw new Error("password=hunter2 at /srv/secret.ts:12");
  },
});

const slow = defineTool({
  name: "test.slow",
  title: "Slow",
  description: "Waits longer than its timeout unless aborted.",
  category: "test",
  input: z.object({}),
  output: z.object({}),
  examples: [{ input: {} }],
  sideEffects: "writes.analytics",
  timeoutMs: 50,
  async execute(_args, ctx) {
    await ctx.db.query(
      "insert into public.analytics_events (org_id, event, user_id) values ($1, 'slow_started', $2)",
      [ctx.org_id, ctx.user_id],
    );
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    return {};
  },
});

const badOutput = defineTool({
  name: "test.bad_output",
  title: "Bad output",
  description: "Writes a row, then returns data that breaks its output schema.",
  category: "test",
  input: z.object({}),
  output: z.object({ id: z.uuid() }),
  examples: [{ input: {} }],
  sideEffects: "writes.analytics",
  async execute(_args, ctx) {
    await ctx.db.query(
      "insert into public.analytics_events (org_id, event, user_id) values ($1, 'bad_output', $2)",
      [ctx.org_id, ctx.user_id],
    );
    return { id: "not-a-uuid" };
  },
});

const transfer = defineTool({
  name: "test.transfer",
  title: "Transfer money",
  description: "An irreversible action that needs confirmation.",
  category: "test",
  input: z.object({ amount: z.int().positive(), to: z.string() }),
  output: z.object({ ref: z.string() }),
  examples: [{ input: { amount: 1000, to: "+250788000002" } }],
  sideEffects: "writes.payment",
  confirmRequired: true,
  confirmSummary: (args) => `send ${args.amount} RWF to ${args.to}`,
  async execute(args, ctx) {
    const [row] = await ctx.db.query<{ id: string }>(
      `insert into public.staff_tickets (org_id, requester_user_id, channel, reason, summary)
       values ($1, $2, 'inbox', 'transfer', $3) returning id`,
      [ctx.org_id, ctx.user_id, `${args.amount} to ${args.to}`],
    );
    return { ref: row.id };
  },
});

const pure = defineTool({
  name: "test.pure",
  title: "Pure",
  description: "Computes without the database.",
  category: "test",
  input: z.object({ n: z.int(), sneaky: z.boolean().default(false) }),
  output: z.object({ doubled: z.int() }),
  examples: [{ input: { n: 2 } }],
  sideEffects: "none",
  usesDatabase: false,
  async execute(args, ctx) {
    if (args.sneaky) await ctx.db.query("select 1");
    return { doubled: args.n * 2 };
  },
});

// A read-only database tool like search_supabase (the same caller-reads step: the rate take in
// the first flight, the read as the caller) with room in its hard timeout: a test of how many
// concurrent calls the limiter admits must not count a call that a loaded machine kept past
// search_supabase's 3 s (15 fresh connections, each a SCRAM login) as one it refused.
const reads = defineTool({
  name: "test.reads",
  title: "Reads",
  description: "Counts the products the caller may see.",
  category: "test",
  input: z.object({}),
  output: z.object({ products: z.int() }),
  examples: [{ input: {} }],
  sideEffects: "none",
  timeoutMs: 120_000,
  async execute(_args, ctx) {
    const [row] = await ctx.db.query<{ n: number }>(
      "select count(*)::int as n from public.products",
    );
    return { products: row.n };
  },
});

const TEST_TOOLS = [failing, crashing, slow, badOutput, transfer, pure, reads];

async function countTickets(db: { query: <T>(q: string) => Promise<T[]> }): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.staff_tickets",
  );
  return row.n;
}

function errorOf(result: ToolResult) {
  assert.equal(result.ok, false, `expected a failure, got ${JSON.stringify(result)}`);
  return (result as Extract<ToolResult, { ok: false }>).error;
}

const ticket = {
  channel: "inbox",
  payload: { reason: "user asked for a person", summary: "Wants to change an order" },
};

dbTest("invoke() answers NOT_FOUND for an unknown tool", async (db) => {
  const rt = await createTestRuntime(db);
  const error = errorOf(await rt.callAs(USER.aline, "no_such_tool", {}));
  assert.equal(error.code, "NOT_FOUND");
});

dbTest(
  "invoke() refuses with AUTH_ERROR outside the agent's allowlist, policy or tenant",
  async (db) => {
    const rt = await createTestRuntime(db);
    // support_handoff may use notify_staff and analytics_log only.
    const offList = await rt.callAs(USER.aline, "search_supabase", { table: "businesses" }, {
      context: { agent_id: "support_handoff" },
    });
    assert.equal(errorOf(offList).code, "AUTH_ERROR");
    assert.match(errorOf(offList).msg, /may not use search_supabase/);
    // Unknown agent.
    assert.equal(
      errorOf(
        await rt.callAs(USER.aline, "analytics_log", { event: "x" }, {
          context: { agent_id: "ghost" },
        }),
      ).code,
      "AUTH_ERROR",
    );
    // An agent another tenant runs (EasyMO's pharmacy; Beaver runs none) does not act for this one.
    assert.equal(
      errorOf(
        await rt.callAs(USER.nina, "notify_staff", ticket, {
          org: ORG.beaver,
          context: { agent_id: "pharmacy" },
          idempotencyKey: "k1",
        }),
      ).code,
      "AUTH_ERROR",
    );
    // No tenant at all.
    const noOrg = await rt.platform.call({
      tool: "analytics_log",
      args: { event: "x" },
      caller: { claims: { sub: USER.aline, role: "authenticated" }, org_id: null },
    });
    assert.equal(errorOf(noOrg).code, "AUTH_ERROR");
    // Anonymous callers may not use auth: 'user' tools.
    const anon = await rt.platform.call({
      tool: "search_supabase",
      args: { table: "businesses" },
      caller: { claims: { role: "anon" }, org_id: ORG.easymo },
    });
    assert.equal(errorOf(anon).code, "AUTH_ERROR");
  },
);

dbTest("invoke() applies the tenant's tool policy from orgs.tool_policy", async (db) => {
  const rt = await createTestRuntime(db);
  await db.query(
    `update public.orgs set tool_policy = '{"disabled_tools": ["search_supabase"]}' where id = $1`,
    [ORG.beaver],
  );
  await rt.platform.tenants.load(db);
  const result = await rt.callAs(USER.nina, "search_supabase", { table: "products" }, {
    org: ORG.beaver,
  });
  assert.equal(errorOf(result).code, "AUTH_ERROR");
  const beaverTools = rt.platform.getToolsForTenant(ORG.beaver).map((tool) => tool.name);
  assert.ok(!beaverTools.includes("search_supabase"));
  assert.ok(beaverTools.includes("notify_staff"));
  // A malformed policy fails closed.
  await db.query(`update public.orgs set tool_policy = '{"disabled_tools": 5}' where id = $1`, [
    ORG.beaver,
  ]);
  await rt.platform.tenants.load(db);
  assert.deepEqual(rt.platform.getToolsForTenant(ORG.beaver), []);
});

dbTest("invoke() names the bad fields in VALIDATION_ERROR", async (db) => {
  const rt = await createTestRuntime(db);
  const error = errorOf(
    await rt.callAs(USER.aline, "notify_staff", {
      channel: "fax",
      payload: { reason: "", summary: "x", priority: "now" },
    }, { idempotencyKey: "v1" }),
  );
  assert.equal(error.code, "VALIDATION_ERROR");
  const paths = error.fields!.map((field) => field.path).sort();
  assert.deepEqual(paths, ["channel", "payload.priority", "payload.reason"]);
  assert.match(error.msg, /channel/);
  assert.equal(await countTickets(db), 0);
});

async function setPolicy(
  rt: Awaited<ReturnType<typeof createTestRuntime>>,
  org: string,
  policy: unknown,
) {
  await rt.platform.db.query("update public.orgs set tool_policy = $2 where id = $1", [
    org,
    policy,
  ]);
  await rt.platform.tenants.load(rt.platform.db);
}

const codeOf = (result: ToolResult) => result.ok ? "ok" : result.error.code;

dbTest("invoke() limits each user on their own: a chatty user leaves others served", async (db) => {
  const rt = await createTestRuntime(db);
  await setPolicy(rt, ORG.easymo, {
    rate_limits: {
      search_supabase: {
        per_user: { limit: 2, window_sec: 60 },
        per_tenant: { limit: 10, window_sec: 60 },
      },
    },
  });
  const search = (user: string) => rt.callAs(user, "search_supabase", { table: "products" });
  const aline = [];
  for (let i = 0; i < 3; i++) aline.push(codeOf(await search(USER.aline)));
  assert.deepEqual(aline, ["ok", "ok", "RATE_LIMIT"]);
  assert.equal(codeOf(await search(USER.jean)), "ok");
  // The limit is the tenant's for this tool only.
  assert.equal(
    codeOf(await rt.callAs(USER.aline, "analytics_log", { event: "x" }, { idempotencyKey: "a1" })),
    "ok",
  );
  // Another tenant's buckets are its own.
  assert.equal(
    codeOf(
      await rt.callAs(USER.nina, "search_supabase", { table: "products" }, { org: ORG.beaver }),
    ),
    "ok",
  );
});

dbTest("invoke() caps a tenant's users together at the tenant limit", async (db) => {
  const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
  await setPolicy(rt, ORG.easymo, {
    rate_limits: {
      // The older shape still reads as the tenant's limit.
      search_supabase: { limit: 3, window_sec: 60 },
      "test.pure": {
        per_user: { limit: 5, window_sec: 60 },
        per_tenant: { limit: 3, window_sec: 60 },
      },
    },
  });
  const codes = [];
  for (const user of [USER.aline, USER.jean, USER.grace, USER.eric]) {
    codes.push(codeOf(await rt.callAs(user, "search_supabase", { table: "products" })));
  }
  assert.deepEqual(codes, ["ok", "ok", "ok", "RATE_LIMIT"]);
  // A tool without a database leases its tokens from the same shared buckets.
  const pure = [];
  for (const user of [USER.aline, USER.aline, USER.jean, USER.grace]) {
    pure.push(codeOf(await rt.callAs(user, "test.pure", { n: 1 })));
  }
  assert.deepEqual(pure, ["ok", "ok", "ok", "RATE_LIMIT"]);
});

dbTest(
  "invoke() never refuses a tenant's many customers below the ceiling; one abusive user is",
  async (db) => {
    const rt = await createTestRuntime(db);
    // No policy: the tools' own limits. 300 customers, three searches each: more than the
    // 600 a minute the whole tenant once had, all served.
    const customers = Array.from({ length: 300 }, () => crypto.randomUUID());
    const codes = new Map<string, number>();
    for (let round = 0; round < 3; round++) {
      for (const customer of customers) {
        const code = codeOf(await rt.callAs(customer, "search_supabase", { table: "products" }));
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
    }
    assert.deepEqual([...codes], [["ok", 900]]);
    // One caller looping on the tool meets their own limit (bursts of 120, two a second after)
    // and no one else's.
    const looping = [];
    for (let i = 0; i < 240 && looping.at(-1) !== "RATE_LIMIT"; i++) {
      looping.push(codeOf(await rt.callAs(USER.aline, "search_supabase", { table: "products" })));
    }
    assert.ok(looping.length > 120, `refused after ${looping.length - 1} calls`);
    assert.deepEqual(looping.slice(0, -1), Array(looping.length - 1).fill("ok"));
    assert.equal(looping.at(-1), "RATE_LIMIT");
    assert.equal(
      codeOf(await rt.callAs(customers[0], "search_supabase", { table: "products" })),
      "ok",
    );
  },
);

dbTest(
  "invoke() holds all of a tenant's callers to the deployment's ceiling, or the tenant's own",
  async (db) => {
    const rt = await createTestRuntime(db, {
      tools: TEST_TOOLS,
      tenantRateCeiling: { limit: 4, windowSec: 3600 },
    });
    const customers = Array.from({ length: 5 }, () => crypto.randomUUID());
    const pure = [];
    for (const customer of customers) {
      pure.push(codeOf(await rt.callAs(customer, "test.pure", { n: 1 })));
    }
    assert.deepEqual(pure, ["ok", "ok", "ok", "ok", "RATE_LIMIT"]);
    // A tenant may set its own ceiling for every tool ("*"); a tool's own entry still wins.
    await setPolicy(rt, ORG.easymo, {
      rate_limits: {
        "*": { per_tenant: { limit: 2, window_sec: 3600 } },
        "test.fails_with": { per_tenant: { limit: 1000, window_sec: 3600 } },
      },
    });
    const searches = [];
    const failures = [];
    for (const customer of customers.slice(0, 3)) {
      searches.push(codeOf(await rt.callAs(customer, "search_supabase", { table: "products" })));
      failures.push(codeOf(await rt.callAs(customer, "test.fails_with", { code: "NOT_FOUND" })));
    }
    assert.deepEqual(searches, ["ok", "ok", "RATE_LIMIT"]);
    assert.deepEqual(failures, ["NOT_FOUND", "NOT_FOUND", "NOT_FOUND"]);
  },
);

dbTest("invoke() replays a completed call while its caller is rate limited", async (db) => {
  const rt = await createTestRuntime(db);
  await setPolicy(rt, ORG.easymo, {
    rate_limits: { notify_staff: { per_user: { limit: 1, window_sec: 3600 } } },
  });
  const first = await rt.callAs(USER.aline, "notify_staff", ticket, { idempotencyKey: "lim-1" });
  assert.equal(first.ok, true);
  const limited = await rt.callAs(USER.aline, "notify_staff", ticket, { idempotencyKey: "lim-2" });
  assert.equal(errorOf(limited).code, "RATE_LIMIT");
  // The limited call left no claim behind: it may run once the limit allows.
  assert.equal(
    (await db.query("select 1 from private.idempotency_keys where key = 'lim-2'")).length,
    0,
  );
  const retry = await rt.callAs(USER.aline, "notify_staff", ticket, { idempotencyKey: "lim-1" });
  assert.deepEqual(retry, first);
  assert.equal(await countTickets(db), 1);
  await rt.platform.traces.flush();
  const traces = await db.query<{ error_code: string | null; replayed: boolean }>(
    "select error_code, replayed from public.tool_calls where tool = 'notify_staff' order by id",
  );
  assert.deepEqual(traces.map((t) => [t.error_code, t.replayed]), [
    [null, false],
    ["RATE_LIMIT", false],
    [null, true],
  ]);
});

dbTest("invoke() passes exactly K of N concurrent calls against a limit of K", async (db) => {
  const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
  await setPolicy(rt, ORG.easymo, {
    rate_limits: {
      "test.reads": {
        per_user: { limit: 100, window_sec: 3600 },
        per_tenant: { limit: 4, window_sec: 3600 },
      },
      "test.pure": { per_user: { limit: 6, window_sec: 3600 } },
    },
  });
  const users = [USER.aline, USER.jean, USER.grace];
  const searches = await Promise.all(
    Array.from({ length: 15 }, (_, i) => rt.callAs(users[i % 3], "test.reads", {})),
  );
  const codes = searches.map((result) => result.ok ? "ok" : result.error.code);
  assert.equal(codes.filter((code) => code === "ok").length, 4, codes.join(" "));
  assert.ok(codes.every((code) => code === "ok" || code === "RATE_LIMIT"), codes.join(" "));
  const pure = await Promise.all(
    Array.from({ length: 20 }, () => rt.callAs(USER.aline, "test.pure", { n: 1 })),
  );
  assert.equal(pure.filter((result) => result.ok).length, 6);
});

dbTest(
  "invoke() lets anonymous callers use only the tools their tenant made public",
  async (db) => {
    const rt = await createTestRuntime(db);
    const anon = (tool: string, args: unknown) =>
      rt.platform.call({ tool, args, caller: { claims: { role: "anon" }, org_id: ORG.easymo } });
    assert.equal(
      errorOf(await anon("search_supabase", { table: "businesses" })).code,
      "AUTH_ERROR",
    );
    await setPolicy(rt, ORG.easymo, { public_tools: ["search_supabase"] });
    const listed = await anon("search_supabase", { table: "businesses" });
    assert.equal(listed.ok, true, JSON.stringify(listed));
    assert.equal(errorOf(await anon("analytics_log", { event: "x" })).code, "AUTH_ERROR");
    // A public tool the tenant switched off stays off.
    await setPolicy(rt, ORG.easymo, {
      public_tools: ["search_supabase"],
      disabled_tools: ["search_supabase"],
    });
    assert.equal(
      errorOf(await anon("search_supabase", { table: "businesses" })).code,
      "AUTH_ERROR",
    );
  },
);

dbTest("invoke() passes each tool error code through with its user-safe message", async (db) => {
  const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const error = errorOf(await rt.callAs(USER.aline, "test.fails_with", { code }));
    assert.equal(error.code, code);
    assert.equal(error.msg, ERROR_CODES[code].message);
  }
});

dbTest(
  "invoke() turns an unexpected exception into INTERNAL_ERROR and leaks nothing",
  async (db) => {
    const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
    const result = await rt.callAs(USER.aline, "test.crashes", {}, {
      context: { trace_id: "t-crash" },
    });
    assert.deepEqual(result, {
      ok: false,
      error: { code: "INTERNAL_ERROR", msg: "Something went wrong" },
    });
    assert.doesNotMatch(JSON.stringify(result), /hunter2|secret\.ts/);
    const logged = rt.log.lines.find((line) => line.event === "tool_failed");
    assert.equal(logged?.trace_id, "t-crash");
    assert.match(String(logged?.error), /hunter2/);
  },
);

dbTest("invoke() rolls back a call whose output breaks its schema", async (db) => {
  const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
  const error = errorOf(
    await rt.callAs(USER.aline, "test.bad_output", {}, { idempotencyKey: "b1" }),
  );
  assert.equal(error.code, "INTERNAL_ERROR");
  const rows = await db.query("select 1 from public.analytics_events where event = 'bad_output'");
  assert.equal(rows.length, 0);
});

dbTest("invoke() times out a slow call with TIMEOUT and commits nothing", async (db) => {
  const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
  const error = errorOf(await rt.callAs(USER.aline, "test.slow", {}, { idempotencyKey: "s1" }));
  assert.equal(error.code, "TIMEOUT");
  // Let the abandoned transaction finish rolling back.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const rows = await db.query("select 1 from public.analytics_events where event = 'slow_started'");
  assert.equal(rows.length, 0);
  // A timeout is transient: the key was not burnt.
  const keys = await db.query("select 1 from private.idempotency_keys where key = 's1'");
  assert.equal(keys.length, 0);
});

dbTest("invoke() requires an idempotency key for side-effecting tools", async (db) => {
  const rt = await createTestRuntime(db);
  const error = errorOf(await rt.callAs(USER.aline, "notify_staff", ticket));
  assert.equal(error.code, "VALIDATION_ERROR");
  assert.equal(error.fields?.[0].path, "idempotency_key");
  assert.equal(await countTickets(db), 0);
});

dbTest(
  "invoke() replays a retry with the same key and refuses the key for other args",
  async (db) => {
    const rt = await createTestRuntime(db);
    const first = await rt.callAs(USER.aline, "notify_staff", ticket, { idempotencyKey: "r1" });
    assert.equal(first.ok, true);
    const retry = await rt.callAs(USER.aline, "notify_staff", ticket, { idempotencyKey: "r1" });
    assert.deepEqual(retry, first);
    assert.equal(await countTickets(db), 1);

    const other = await rt.callAs(USER.aline, "notify_staff", {
      ...ticket,
      payload: { ...ticket.payload, summary: "Something else" },
    }, { idempotencyKey: "r1" });
    assert.equal(errorOf(other).code, "CONFLICT");
    assert.match(errorOf(other).msg, /different request/);
    // The same key from another user is their own key.
    const jean = await rt.callAs(USER.jean, "notify_staff", ticket, { idempotencyKey: "r1" });
    assert.equal(jean.ok, true);
    assert.equal(await countTickets(db), 2);
  },
);

dbTest("invoke() gives many parallel calls with one key one effect and one result", async (db) => {
  const rt = await createTestRuntime(db);
  const results = await Promise.all(
    Array.from(
      { length: 20 },
      () => rt.callAs(USER.aline, "notify_staff", ticket, { idempotencyKey: "parallel-1" }),
    ),
  );
  assert.equal(await countTickets(db), 1);
  for (const result of results) assert.deepEqual(result, results[0]);
  assert.equal(results[0].ok, true);
});

dbTest(
  "invoke() stores a deterministic failure and replays it for the same key",
  async (db) => {
    const rt = await createTestRuntime(db);
    // A ticket for a conversation that does not exist: NOT_FOUND (foreign key), stored.
    const missingConvo = {
      ...ticket,
      payload: { ...ticket.payload, convo_id: "9f000000-0000-4000-8000-000000000000" },
    };
    const first = await rt.callAs(USER.aline, "notify_staff", missingConvo, {
      idempotencyKey: "d1",
    });
    assert.equal(errorOf(first).code, "NOT_FOUND");
    const again = await rt.callAs(USER.aline, "notify_staff", missingConvo, {
      idempotencyKey: "d1",
    });
    assert.deepEqual(again, first);
  },
);

dbTest(
  "invoke() gates confirmRequired tools behind a confirmation bound to the arguments",
  async (db) => {
    const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
    const args = { amount: 5000, to: "+250788000002" };
    const asked = errorOf(
      await rt.callAs(USER.aline, "test.transfer", args, { idempotencyKey: "c1" }),
    );
    assert.equal(asked.code, "CONFIRMATION_REQUIRED");
    assert.equal(asked.confirmation?.summary, "send 5000 RWF to +250788000002");
    const transfers = () =>
      db.query("select 1 from public.staff_tickets where reason = 'transfer'");
    assert.equal((await transfers()).length, 0);

    const token = asked.confirmation!.token;
    // The token does not confirm other arguments or another key: it asks again.
    const changed = await rt.callAs(USER.aline, "test.transfer", { ...args, amount: 50000 }, {
      idempotencyKey: "c1",
      confirmation: token,
    });
    assert.equal(errorOf(changed).code, "CONFIRMATION_REQUIRED");
    const otherKey = await rt.callAs(USER.aline, "test.transfer", args, {
      idempotencyKey: "c2",
      confirmation: token,
    });
    assert.equal(errorOf(otherKey).code, "CONFIRMATION_REQUIRED");
    // Nor another user.
    const otherUser = await rt.callAs(USER.jean, "test.transfer", args, {
      idempotencyKey: "c1",
      confirmation: token,
    });
    assert.equal(errorOf(otherUser).code, "CONFIRMATION_REQUIRED");
    // A forged token is refused.
    const forged = await rt.callAs(USER.aline, "test.transfer", args, {
      idempotencyKey: "c1",
      confirmation: token.slice(0, -4) + "AAAA",
    });
    assert.equal(errorOf(forged).code, "AUTH_ERROR");
    assert.equal((await transfers()).length, 0);

    const done = await rt.callAs(USER.aline, "test.transfer", args, {
      idempotencyKey: "c1",
      confirmation: token,
    });
    assert.equal(done.ok, true);
    // A duplicated confirmation replays: one transfer.
    const twice = await rt.callAs(USER.aline, "test.transfer", args, {
      idempotencyKey: "c1",
      confirmation: token,
    });
    assert.deepEqual(twice, done);
    assert.equal((await transfers()).length, 1);
  },
);

dbTest("invoke() writes a trace record for every call, off the hot path", async (db) => {
  const rt = await createTestRuntime(db);
  await rt.callAs(USER.aline, "search_supabase", { table: "products" }, {
    context: { trace_id: "trace-a", agent_id: "pharmacy" },
  });
  await rt.callAs(USER.aline, "search_supabase", { table: "nope" }, {
    context: { trace_id: "trace-b" },
  });
  await rt.platform.traces.flush();
  const rows = await db.query<Record<string, unknown>>(
    "select tool, org_id, user_id, agent_id, trace_id, ok, error_code, bytes, duration_ms from public.tool_calls order by id",
  );
  assert.equal(rows.length, 2);
  assert.equal(rows[0].trace_id, "trace-a");
  assert.equal(rows[0].agent_id, "pharmacy");
  assert.equal(rows[0].ok, true);
  assert.ok(Number(rows[0].bytes) > 20);
  assert.equal(rows[1].error_code, "VALIDATION_ERROR");
  assert.equal(rows[1].org_id, ORG.easymo);
});

dbTest("invoke() leaves one trace row per call, whatever the path", async (db) => {
  const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
  const calls = [
    ...Array.from({ length: 30 }, () => rt.callAs(USER.aline, "test.pure", { n: 1 })),
    ...Array.from(
      { length: 10 },
      () => rt.callAs(USER.aline, "search_supabase", { table: "products" }),
    ),
    rt.callAs(USER.aline, "search_supabase", { table: "nope" }),
    rt.callAs(USER.aline, "no.such.tool", {}),
  ];
  const results = await Promise.all(calls);
  await rt.platform.traces.flush();
  const rows = await db.query<{ tool: string; ok: boolean }>(
    "select tool, ok from public.tool_calls order by id",
  );
  assert.equal(rows.length, results.length);
  assert.equal(rows.filter((row) => row.tool === "test.pure").length, 30);
  assert.equal(rows.filter((row) => row.tool === "search_supabase").length, 11);
  assert.equal(rows.filter((row) => !row.ok).length, results.filter((r) => !r.ok).length);
});

dbTest("invoke() generates a trace id when the caller gives none", async (db) => {
  const rt = await createTestRuntime(db);
  await rt.callAs(USER.aline, "search_supabase", { table: "products" });
  await rt.platform.traces.flush();
  const [row] = await db.query<{ trace_id: string }>("select trace_id from public.tool_calls");
  assert.match(row.trace_id, /^[0-9a-f-]{36}$/);
});

dbTest("invoke() runs a tool that declared usesDatabase: false without a database", async (db) => {
  const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
  assert.deepEqual(await rt.callAs(USER.aline, "test.pure", { n: 21 }), {
    ok: true,
    data: { doubled: 42 },
  });
  const sneaky = await rt.callAs(USER.aline, "test.pure", { n: 1, sneaky: true });
  assert.equal(errorOf(sneaky).code, "INTERNAL_ERROR");
});

dbTest(
  "invoke() limits asking for confirmation like calling, without spending the calls' allowance",
  async (db) => {
    const rt = await createTestRuntime(db, { tools: TEST_TOOLS });
    await setPolicy(rt, ORG.easymo, {
      rate_limits: {
        "test.transfer": {
          per_user: { limit: 2, window_sec: 60 },
          per_tenant: { limit: 10, window_sec: 60 },
        },
      },
    });
    const args = { amount: 5000, to: "+250788000002" };
    const call = (key: string, confirmation?: string) =>
      rt.callAs(USER.aline, "test.transfer", args, { idempotencyKey: key, confirmation });
    // Two read-backs, then asking in a loop is refused before any read.
    const first = await call("q1");
    const second = await call("q2");
    const third = await call("q3");
    assert.deepEqual([first, second, third].map(codeOf), [
      "CONFIRMATION_REQUIRED",
      "CONFIRMATION_REQUIRED",
      "RATE_LIMIT",
    ]);
    assert.equal(errorOf(third).confirmation, undefined);
    // Both confirmed calls still run: asking spent none of the calls' own two.
    const done = [
      await call("q1", errorOf(first).confirmation!.token),
      await call("q2", errorOf(second).confirmation!.token),
    ];
    assert.deepEqual(done.map(codeOf), ["ok", "ok"]);
    await rt.platform.traces.flush();
  },
);
