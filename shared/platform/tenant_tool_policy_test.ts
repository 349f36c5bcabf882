/**
 * A tenant's tool policy with an allowlist (`enabled_tools`, seeded for
 * Beaver's Choice): its staff are offered and may call only the tools it
 * enables, through the pipeline and every listing; its agents and schedules
 * still have every tool they use; its own generated tools need no listing.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { policyAllows, policyIsPublic } from "@shared/registry/tenant_policy.ts";

const PAUL = "00000000-0000-4000-8000-000000000010"; // Beaver's staff

Deno.test("policyAllows(): an allowlist names the platform's tools; the tenant's own stay on unless disabled", () => {
  const policy = {
    disabled_tools: ["own_off"],
    enabled_tools: ["order_create"],
    rate_limits: {},
    public_tools: ["own_public"],
  };
  assert.equal(policyAllows(policy, "order_create"), true);
  assert.equal(policyAllows(policy, "ride_request"), false);
  assert.equal(policyAllows(policy, "crm_lookup", { ownTool: true }), true);
  assert.equal(policyAllows(policy, "own_off", { ownTool: true }), false);
  assert.equal(policyIsPublic(policy, "own_public", { ownTool: true }), true);
  assert.equal(policyIsPublic(policy, "own_public"), false);
});

dbTest(
  "every tool a tenant's agents and schedules use is enabled by its seeded policy",
  async (db) => {
    const rt = await createTestRuntime(db);
    const { platform } = rt;
    for (const tenant of platform.tenants.list()) {
      for (const agent of platform.agents.list(tenant.slug)) {
        for (const tool of agent.tools) {
          assert.ok(
            policyAllows(tenant.policy, tool),
            `${tenant.slug}'s agent ${agent.id} uses ${tool}, which its policy does not enable`,
          );
        }
      }
      const runs = new Set(platform.agents.list(tenant.slug).map((agent) => agent.id));
      for (const pack of platform.packs) {
        const runsPack = pack.agents.some((agent) => runs.has(agent.id));
        for (const schedule of pack.schedules ?? []) {
          if (!schedule.tool || (schedule.tenants !== "every" && !runsPack)) continue;
          assert.ok(
            policyAllows(tenant.policy, schedule.tool),
            `${tenant.slug} runs ${pack.id}'s schedule ${schedule.id}, whose ${schedule.tool} its policy does not enable`,
          );
        }
      }
    }
  },
);

dbTest(
  "Beaver's staff are offered and may call only its enabled tools; EasyMO's keep every tool",
  async (db) => {
    const rt = await createTestRuntime(db);
    const { platform } = rt;
    const beaver = platform.getToolsForTenant(ORG.beaver).map((tool) => tool.name);
    assert.ok(beaver.includes("order_status_update"));
    assert.ok(beaver.includes("funnel_report"));
    for (const off of ["ride_request", "property_search", "sora_generate_video", "case_intake"]) {
      assert.ok(!beaver.includes(off), off);
    }
    const easymo = platform.getToolsForTenant(ORG.easymo).map((tool) => tool.name);
    assert.ok(easymo.includes("ride_request") && easymo.includes("property_search"));
    assert.ok(easymo.length > beaver.length);

    // The pipeline refuses a tool the allowlist leaves out, before it runs.
    const refused = await rt.callAs(PAUL, "property_search", { area: "Remera" }, {
      org: ORG.beaver,
    });
    assert.equal(refused.ok, false);
    assert.equal(refused.error.code, "AUTH_ERROR");
    assert.match(refused.error.msg, /not enabled for your organisation/);
    const allowed = await rt.callAs(PAUL, "search_supabase", { table: "products", limit: 5 }, {
      org: ORG.beaver,
    });
    assert.equal(allowed.ok, true, JSON.stringify(allowed));
    assert.ok(allowed.data.items.length > 0);
    // EasyMO's staff still reach the same tool.
    const easy = await rt.callAs(USER.jean, "property_search", { area: "Remera" });
    assert.notEqual(easy.ok === false && easy.error.code, "AUTH_ERROR");
  },
);
