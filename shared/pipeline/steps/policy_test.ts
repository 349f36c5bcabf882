import assert from "node:assert/strict";
import type { ToolResult } from "@shared/contract/mod.ts";
import { AgentDirectory } from "@shared/registry/agent_config.ts";
import type { Database } from "@shared/db/types.ts";
import { answering, callFor, tenantsWith, testTool } from "@testing/pipeline_calls.ts";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { policyStep, STAFF_ONLY } from "./policy.ts";

const agents = new AgentDirectory([
  {
    id: "waiter",
    name: "Waiter",
    tenant: "easymo",
    description: "Takes orders.",
    tools: ["test.step"],
    plannedTools: [],
    audience: "customers",
  },
  {
    id: "clerk",
    name: "Clerk",
    tenant: "easymo",
    description: "Files paper.",
    tools: [],
    plannedTools: [],
    audience: "customers",
  },
  {
    id: "beaver_bot",
    name: "Beaver bot",
    tenant: "beaver-paper",
    description: "Sells paper.",
    tools: ["test.step"],
    plannedTools: [],
    audience: "customers",
  },
], []);
const tool = testTool();
const publicPolicy = { public_tools: ["test.step"] };
// Only a staff tool's signed-in caller is looked up: any other read is a fault.
const unread: Pick<Database, "asCaller"> = {
  asCaller: () => Promise.reject(new Error("the policy step read the database")),
};

function refusal(answer: ToolResult | Promise<ToolResult>): string | null {
  assert.equal(answer instanceof Promise, false, "a refusal settles without a promise");
  const result = answer as ToolResult;
  if (result.ok) return null;
  assert.equal(result.error.code, "AUTH_ERROR");
  return result.error.msg;
}

Deno.test("policyStep() hands on a signed-in caller's call of an enabled tool", () => {
  const next = answering();
  const step = policyStep({ tenants: tenantsWith(), agents, db: unread });
  assert.equal(refusal(step(callFor(tool), next)), null);
  assert.equal(refusal(step(callFor(tool, { context: { agent_id: "waiter" } }), next)), null);
  assert.equal(next.calls.length, 2);
});

Deno.test("policyStep() refuses with AUTH_ERROR, saying why, and never calls on", () => {
  const next = answering();
  const service = testTool({ auth: "service" });
  const staff = testTool({ auth: "staff" });
  const internal = testTool({ internal: true });
  const cases: Array<[string, ReturnType<typeof callFor>, string, unknown?]> = [
    ["no tenant", callFor(tool, { orgId: null }), "This call needs a tenant"],
    [
      "unknown tenant",
      callFor(tool, { orgId: "00000000-0000-4000-8000-00000000dead" }),
      "Unknown tenant",
    ],
    [
      "tool off",
      callFor(tool),
      "This tool is not enabled for your organisation",
      { disabled_tools: ["test.step"] },
    ],
    [
      "malformed policy",
      callFor(tool),
      "This tool is not enabled for your organisation",
      { enabled_tools: 7 },
    ],
    ["unknown agent", callFor(tool, { context: { agent_id: "ghost" } }), "Unknown agent"],
    [
      "another tenant's agent",
      callFor(tool, { context: { agent_id: "beaver_bot" } }),
      "Unknown agent",
    ],
    [
      "agent without the tool",
      callFor(tool, { context: { agent_id: "clerk" } }),
      "This agent may not use test.step",
    ],
    ["internal tool", callFor(internal), "This tool is not available"],
    ["anonymous, not public", callFor(tool, { claims: { role: "anon" } }), "Please sign in first"],
    [
      "anonymous, public service tool",
      callFor(service, { claims: { role: "anon" } }),
      "Please sign in first",
      publicPolicy,
    ],
    [
      "authenticated without a user",
      callFor(tool, { claims: { role: "authenticated" } }),
      "Please sign in first",
    ],
    [
      "anonymous, public staff tool",
      callFor(staff, { claims: { role: "anon" } }),
      "Please sign in first",
      publicPolicy,
    ],
    [
      "staff tool, authenticated without a user",
      callFor(staff, { claims: { role: "authenticated" } }),
      "Please sign in first",
    ],
  ];
  for (const [label, call, message, policy] of cases) {
    const step = policyStep({ tenants: tenantsWith(policy), agents, db: unread });
    assert.equal(refusal(step(call, next)), message, label);
  }
  assert.equal(next.calls.length, 0);
});

Deno.test("policyStep() lets anonymous callers reach public tools, and the service role internal ones", () => {
  const step = policyStep({ tenants: tenantsWith(publicPolicy), agents, db: unread });
  assert.equal(refusal(step(callFor(tool, { claims: { role: "anon" } }), answering())), null);
  const internal = testTool({ internal: true });
  const service = { role: "service_role" } as const;
  assert.equal(refusal(step(callFor(internal, { claims: service }), answering())), null);
  // The service acts for the org (a sweep, an automation): a staff tool is its to call.
  const staff = testTool({ auth: "staff" });
  assert.equal(refusal(step(callFor(staff, { claims: service }), answering())), null);
});

dbTest(
  "policyStep() lets only the org's staff reach a staff tool, reading who they are",
  async (db) => {
    const staffTool = testTool({ auth: "staff" });
    const step = policyStep({ tenants: tenantsWith(), agents, db });
    const as = (sub: string, orgId: string = ORG.easymo) =>
      callFor(staffTool, { claims: { sub, role: "authenticated" }, orgId });
    const cases: Array<[string, ReturnType<typeof callFor>, string | null]> = [
      ["EasyMO staff", as(USER.jean), null],
      ["EasyMO admin", as(USER.grace), null],
      ["EasyMO customer", as(USER.aline), STAFF_ONLY],
      ["EasyMO vendor", as(USER.eric), STAFF_ONLY],
      // Staff of another org are nobody's staff here.
      ["Beaver staff in EasyMO", as(USER.paul), STAFF_ONLY],
      ["EasyMO staff in Beaver", as(USER.jean, ORG.beaver), STAFF_ONLY],
    ];
    for (const [label, call, expected] of cases) {
      const next = answering();
      const result = await step(call, next);
      assert.equal(result.ok ? null : result.error.msg, expected, label);
      if (!result.ok) assert.equal(result.error.code, "AUTH_ERROR", label);
      assert.equal(next.calls.length, expected ? 0 : 1, label);
    }
    // A tool for any signed-in user never costs the read.
    const anyUser = policyStep({ tenants: tenantsWith(), agents, db: unread });
    assert.equal(refusal(anyUser(callFor(tool), answering())), null);
  },
);
