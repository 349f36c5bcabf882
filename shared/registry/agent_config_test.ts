import assert from "node:assert/strict";
import { PACKS, platformTools } from "@shared/platform/platform.ts";
import { AgentConfigError, checkAgentTenants } from "./agent_config.ts";
import { loadAgentConfig, parseAgentConfig } from "./agent_config_file.ts";
import { packAgents } from "./pack.ts";

const KNOWN = platformTools().map((tool) => tool.name);
const DECLARED = packAgents(PACKS);
const OPTIONS = { knownTools: KNOWN, declared: DECLARED };
const FILE = new URL("../../config/agent_configs.yaml", import.meta.url);

function issuesOf(text: string): string[] {
  try {
    parseAgentConfig(text, { ...OPTIONS, source: "test.yaml" });
  } catch (error) {
    assert.ok(error instanceof AgentConfigError);
    return error.issues;
  }
  assert.fail("expected the config to be refused");
}

Deno.test("loadAgentConfig() loads EasyMO's 16 agents with their packs' identity and tools", async () => {
  const agents = await loadAgentConfig(FILE, OPTIONS);
  assert.deepEqual(agents.tenants(), ["easymo", "beaver-paper"]);
  assert.equal(agents.list("easymo").length, 16);
  const waiter = agents.get("easymo", "waiter_ai")!;
  assert.equal(waiter.name, "Waiter AI");
  assert.equal(waiter.audience, "customers");
  // An entry without tools gets its pack's: the diner's orders, bookings and payment.
  assert.deepEqual(waiter.tools, [
    "search_supabase",
    "order_create",
    "order_status_update",
    "order_cancel",
    "reservation_book",
    "reservation_list",
    "reservation_move",
    "reservation_cancel",
    "momo_charge",
    "notify_staff",
    "analytics_log",
  ]);
  assert.deepEqual(waiter.plannedTools, []);
  const marketing = agents.get("easymo", "marketing_sales")!;
  assert.equal(marketing.audience, "staff");
  assert.deepEqual(marketing.plannedTools, []);
  assert.ok(agents.allows("easymo", "marketing_sales", "broadcast_schedule"));
  assert.ok(agents.allows("easymo", "support_handoff", "notify_staff"));
  assert.ok(!agents.allows("easymo", "support_handoff", "search_supabase"));
  assert.ok(!agents.allows("easymo", "support_handoff", "order_create"));
  assert.ok(agents.allows("easymo", "waiter_ai", "momo_charge"));
  // Every tool of the catalog is built: no agent waits on a planned one.
  for (const agent of agents.list("easymo")) assert.deepEqual(agent.plannedTools, [], agent.id);
  assert.ok(agents.allows("easymo", "sora_video", "sora_generate_video"));
  // Another tenant runs only what its own entry says: Beaver's Choice, a paper supplier, sells
  // from its stock and hands to its staff; it runs no waiter.
  assert.deepEqual(agents.list("beaver-paper").map((agent) => agent.id), [
    "concierge_router",
    "shop",
    "support_handoff",
    "analytics_risk",
  ]);
  assert.ok(agents.allows("beaver-paper", "shop", "order_create"));
  assert.equal(agents.get("beaver-paper", "waiter_ai"), undefined);
  assert.ok(!agents.allows("beaver-paper", "waiter_ai", "momo_charge"));
  checkAgentTenants(agents, ["easymo", "beaver-paper"]);
});

Deno.test("one agent id runs in two tenants, each with its own allowlist", () => {
  const agents = parseAgentConfig(
    `
version: 2
tenants:
  easymo:
    agents: [{id: waiter_ai}]
  beaver-paper:
    agents: [{id: waiter_ai, tools: [search_supabase, order_create]}]
`,
    OPTIONS,
  );
  assert.ok(agents.allows("easymo", "waiter_ai", "momo_charge"));
  assert.ok(!agents.allows("beaver-paper", "waiter_ai", "momo_charge"));
  assert.ok(agents.allows("beaver-paper", "waiter_ai", "order_create"));
  assert.deepEqual(agents.list().map((agent) => `${agent.tenant}/${agent.id}`), [
    "easymo/waiter_ai",
    "beaver-paper/waiter_ai",
  ]);
});

Deno.test("parseAgentConfig() names an unknown tool and where it is", () => {
  const issues = issuesOf(`
version: 2
tenants:
  easymo:
    agents:
      - id: waiter_ai
        tools: [search_supabase, order_creat]
`);
  assert.deepEqual(issues, [
    'tenants.easymo.agents[0].tools[1]: unknown tool "order_creat" for agent "waiter_ai" ' +
    "(neither a pack nor the kernel provides it, nor is it in planned_tools)",
  ]);
});

Deno.test("parseAgentConfig() names an agent no pack declares, and where it is", () => {
  assert.deepEqual(
    issuesOf(`
version: 2
tenants:
  easymo:
    agents: [{id: waiter_ai}]
  beaver-paper:
    agents: [{id: waiter_ai}, {id: paper_desk}]
`),
    ['tenants.beaver-paper.agents[1].id: unknown agent "paper_desk" (no pack declares it)'],
  );
});

Deno.test("parseAgentConfig() refuses duplicates within a tenant, bad YAML, old files and stale plans", () => {
  assert.deepEqual(
    issuesOf(`
version: 2
tenants:
  easymo:
    agents: [{id: shop}, {id: shop}]
`),
    ['tenants.easymo.agents[1].id: duplicate agent "shop" in easymo'],
  );
  assert.match(issuesOf("version: 2\ntenants: [\n")[0], /^YAML syntax/);
  // The one-tenant format of before: its agents key is no longer read.
  assert.match(
    issuesOf("version: 1\nagents: [{id: shop, tenant: easymo}]\n").join("\n"),
    /version/,
  );
  assert.match(issuesOf("version: 2\ntenants: {}\n")[0], /^tenants: must name at least one/);
  assert.match(
    issuesOf(`
version: 2
planned_tools: [{name: notify_staff, category: messaging, description: d}]
tenants:
  easymo:
    agents: [{id: shop}]
`)[0],
    /"notify_staff" is implemented now/,
  );
  assert.match(
    issuesOf(`
version: 2
tenants:
  easymo:
    agents: [{id: shop, model: gpt}]
`)[0],
    /^tenants\.easymo\.agents\[0\]/,
  );
});

Deno.test("checkAgentTenants() names a tenant that no org has", async () => {
  const agents = await loadAgentConfig(FILE, OPTIONS);
  assert.throws(() => checkAgentTenants(agents, ["beaver-paper"]), /unknown tenant "easymo"/);
});

Deno.test("an agent with tool_discovery is granted the discovery tools besides its allowlist", () => {
  const text = [
    "version: 2",
    "tenants:",
    "  easymo:",
    "    agents:",
    "      - id: property",
    "        tool_discovery: true",
    "      - id: legal_intake",
  ].join("\n");
  const agents = parseAgentConfig(text, {
    ...OPTIONS,
    discoveryTools: ["list_tools", "search_tools", "fetch_tool_schemas"],
  });
  const property = agents.get("easymo", "property")!;
  assert.equal(property.toolDiscovery, true);
  assert.ok(property.tools.includes("property_search"));
  assert.ok(agents.allows("easymo", "property", "fetch_tool_schemas"));
  // Without the option the discovery tools stay out of an agent's allowlist.
  assert.equal(agents.get("easymo", "legal_intake")!.toolDiscovery, false);
  assert.ok(!agents.allows("easymo", "legal_intake", "fetch_tool_schemas"));
  assert.deepEqual(issuesOf(text.replace("true", "yes please")), [
    "tenants.easymo.agents[0].tool_discovery: Invalid input: expected boolean, received string",
  ]);
});
