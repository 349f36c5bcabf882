import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "./define_tool.ts";
import { ToolRegistry } from "./registry.ts";
import { TenantDirectory } from "./tenant_policy.ts";

function tool(name: string) {
  return defineTool({
    name,
    title: name,
    description: `The ${name} tool.`,
    category: name.split(".")[0],
    input: z.object({ symbol: z.string() }),
    output: z.object({ price: z.number() }),
    examples: [{ input: { symbol: "BTC" } }],
    sideEffects: "none",
    execute: () => Promise.resolve({ price: 1 }),
  });
}

Deno.test("defineTool() fills in the descriptor's defaults", () => {
  const t = tool("markets.get_price");
  assert.equal(t.auth, "user");
  assert.equal(t.latencyBudgetMs, 400);
  assert.equal(t.timeoutMs, 4000);
  assert.equal(t.idempotent, true);
  assert.equal(t.confirmRequired, false);
  assert.equal(t.writes, false);
  assert.deepEqual(t.rateLimit, { perUser: { limit: 120, windowSec: 60 }, perTenant: null });
});

Deno.test("defineTool() takes a tool's own rate limits and refuses ones no bucket can hold", () => {
  const capped = defineTool({
    ...tool("ocr.read"),
    rateLimit: { perTenant: { limit: 120, windowSec: 60 } },
  });
  assert.deepEqual(capped.rateLimit, {
    perUser: { limit: 120, windowSec: 60 },
    perTenant: { limit: 120, windowSec: 60 },
  });
  for (
    const perUser of [{ limit: 0, windowSec: 60 }, { limit: 1.5, windowSec: 60 }, {
      limit: 5,
      windowSec: 86_401,
    }]
  ) {
    assert.throws(
      () => defineTool({ ...tool("x.y"), rateLimit: { perUser } }),
      (error) =>
        error instanceof RangeError && /rateLimit\.perUser must be whole calls/.test(error.message),
    );
  }
});

Deno.test("defineTool() rejects bad names and examples that break the schema", () => {
  assert.throws(() => tool("Bad Name"), /must match/);
  assert.throws(
    () =>
      defineTool({
        ...tool("x"),
        name: "bad_example",
        examples: [{ input: { symbol: 5 as unknown as string } }],
      }),
    /example 0 is not valid input/,
  );
});

Deno.test("ToolRegistry registers at run time, per tenant, and rejects duplicates", () => {
  const registry = new ToolRegistry();
  registry.register(tool("news.search"));
  const handle = registry.register(tool("markets.get_price"), { tenantId: "org-a" });
  assert.throws(() => registry.register(tool("news.search")), /name is taken/);
  assert.throws(() => registry.register(tool("news.search"), { tenantId: "org-a" }), /taken/);
  assert.throws(() => registry.register(tool("markets.get_price")), /taken/);
  // Tenant tools are visible to their tenant only.
  assert.equal(registry.get("markets.get_price", { tenantId: "org-a" })?.name, "markets.get_price");
  assert.equal(registry.get("markets.get_price", { tenantId: "org-b" }), undefined);
  assert.equal(registry.get("markets.get_price"), undefined);
  assert.deepEqual(registry.list({ tenantId: "org-a" }).map((t) => t.name), [
    "markets.get_price",
    "news.search",
  ]);
  assert.deepEqual(registry.list({ category: "news" }).map((t) => t.name), ["news.search"]);
  const version = registry.version;
  handle.unregister();
  assert.ok(registry.version > version);
  assert.equal(registry.get("markets.get_price", { tenantId: "org-a" }), undefined);
});

Deno.test("getToolsForTenant() applies disabled and enabled lists", () => {
  const registry = new ToolRegistry();
  for (const name of ["a.one", "a.two", "a.three"]) registry.register(tool(name));
  const tenants = new TenantDirectory();
  tenants.set({
    id: "t1",
    slug: "t1",
    policy: { disabled_tools: ["a.two"], enabled_tools: null, rate_limits: {}, public_tools: [] },
  });
  tenants.set({
    id: "t2",
    slug: "t2",
    policy: { disabled_tools: [], enabled_tools: ["a.three"], rate_limits: {}, public_tools: [] },
  });
  tenants.set({ id: "t3", slug: "t3", policy: null });
  const names = (id: string) => registry.getToolsForTenant(id, tenants).map((t) => t.name);
  assert.deepEqual(names("t1"), ["a.one", "a.three"]);
  assert.deepEqual(names("t2"), ["a.three"]);
  assert.deepEqual(names("t3"), []);
  assert.deepEqual(names("unknown"), []);
});

Deno.test("subscribe hears every register and unregister, and a throwing listener does not stop the others", () => {
  const registry = new ToolRegistry();
  const heard: string[] = [];
  registry.subscribe(() => {
    throw new Error("closed session");
  });
  const stop = registry.subscribe((change) =>
    heard.push(`${change.tenantId ?? "global"}:${change.tool}`)
  );
  const handle = registry.register(tool("probe_a"), { tenantId: "org-1" });
  registry.register(tool("probe_b"));
  handle.unregister();
  stop();
  registry.register(tool("probe_c"));
  assert.deepEqual(heard, ["org-1:probe_a", "global:probe_b", "org-1:probe_a"]);
});
