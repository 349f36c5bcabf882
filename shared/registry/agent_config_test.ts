import assert from "node:assert/strict";
import { platformTools } from "@shared/platform/platform.ts";
import { AgentConfigError, checkAgentTenants } from "./agent_config.ts";
import { loadAgentConfig, parseAgentConfig } from "./agent_config_file.ts";

const KNOWN = platformTools().map((tool) => tool.name);
const FILE = new URL("../../config/agent_configs.yaml", import.meta.url);

function issuesOf(text: string): string[] {
  try {
    parseAgentConfig(text, { knownTools: KNOWN, source: "test.yaml" });
  } catch (error) {
    assert.ok(error instanceof AgentConfigError);
    return error.issues;
  }
  assert.fail("expected the config to be refused");
}

Deno.test("loadAgentConfig() loads the 16 agents of seed 000 with their allowlists", async () => {
  const agents = await loadAgentConfig(FILE, { knownTools: KNOWN });
  assert.equal(agents.list().length, 16);
  const waiter = agents.get("waiter_ai")!;
  // Seed 000's allowlist, every tool implemented, plus the diner's bookings (docs/agents.md) and
  // cancelling an unpaid order on leaving.
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
  assert.deepEqual(agents.get("marketing_sales")!.plannedTools, ["broadcast_schedule"]);
  assert.ok(agents.allows("support_handoff", "notify_staff"));
  assert.ok(!agents.allows("support_handoff", "search_supabase"));
  assert.ok(!agents.allows("support_handoff", "order_create"));
  // Planned tools are granted in the file but not callable until they exist.
  assert.ok(agents.allows("waiter_ai", "momo_charge"));
  assert.ok(!agents.allows("marketing_sales", "broadcast_schedule"));
  checkAgentTenants(agents, ["easymo"]);
});

Deno.test("parseAgentConfig() names an unknown tool and where it is", () => {
  const issues = issuesOf(`
version: 1
agents:
  - id: waiter_ai
    name: Waiter AI
    tenant: easymo
    description: Takes orders.
    tools: [search_supabase, order_creat]
`);
  assert.deepEqual(issues, [
    'agents[0].tools[1]: unknown tool "order_creat" for agent "waiter_ai" (neither registered nor in planned_tools)',
  ]);
});

Deno.test("parseAgentConfig() refuses duplicates, missing fields, bad YAML and stale plans", () => {
  assert.match(
    issuesOf(`
version: 1
agents:
  - {id: a_one, name: A, tenant: easymo, description: d, tools: [notify_staff]}
  - {id: a_one, name: B, tenant: easymo, description: d, tools: [notify_staff]}
`)[0],
    /agents\[1\]\.id: duplicate agent "a_one"/,
  );
  assert.match(
    issuesOf(`
version: 1
agents:
  - {id: a_one, name: A, description: d, tools: [notify_staff]}
`)[0],
    /^agents\[0\]\.tenant: /,
  );
  assert.match(issuesOf("version: 1\nagents: [\n")[0], /^YAML syntax/);
  assert.match(issuesOf("version: 2\nagents: []\n").join("\n"), /version/);
  assert.match(
    issuesOf(`
version: 1
planned_tools: [{name: notify_staff, category: messaging, description: d}]
agents:
  - {id: a_one, name: A, tenant: easymo, description: d, tools: [notify_staff]}
`)[0],
    /"notify_staff" is implemented now/,
  );
  assert.match(
    issuesOf(`
version: 1
agents:
  - {id: a_one, name: A, tenant: easymo, description: d, tools: [notify_staff], model: gpt}
`)[0],
    /agents\[0\]/,
  );
});

Deno.test("checkAgentTenants() names agents whose tenant does not exist", async () => {
  const agents = await loadAgentConfig(FILE, { knownTools: KNOWN });
  assert.throws(() => checkAgentTenants(agents, ["beaver-paper"]), /unknown tenant "easymo"/);
});
