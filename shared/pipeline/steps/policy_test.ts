import assert from "node:assert/strict";
import type { ToolResult } from "@shared/contract/mod.ts";
import { AgentDirectory } from "@shared/registry/agent_config.ts";
import { answering, callFor, tenantsWith, testTool } from "@testing/pipeline_calls.ts";
import { policyStep } from "./policy.ts";

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

function refusal(answer: ToolResult | Promise<ToolResult>): string | null {
  assert.equal(answer instanceof Promise, false, "a refusal settles without a promise");
  const result = answer as ToolResult;
  if (result.ok) return null;
  assert.equal(result.error.code, "AUTH_ERROR");
  return result.error.msg;
}

Deno.test("policyStep() hands on a signed-in caller's call of an enabled tool", () => {
  const next = answering();
  const step = policyStep({ tenants: tenantsWith(), agents });
  assert.equal(refusal(step(callFor(tool), next)), null);
  assert.equal(refusal(step(callFor(tool, { context: { agent_id: "waiter" } }), next)), null);
  assert.equal(next.calls.length, 2);
});

Deno.test("policyStep() refuses with AUTH_ERROR, saying why, and never calls on", () => {
  const next = answering();
  const service = testTool({ auth: "service" });
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
  ];
  for (const [label, call, message, policy] of cases) {
    const step = policyStep({ tenants: tenantsWith(policy), agents });
    assert.equal(refusal(step(call, next)), message, label);
  }
  assert.equal(next.calls.length, 0);
});

Deno.test("policyStep() lets anonymous callers reach public tools, and the service role internal ones", () => {
  const step = policyStep({ tenants: tenantsWith(publicPolicy), agents });
  assert.equal(refusal(step(callFor(tool, { claims: { role: "anon" } }), answering())), null);
  const internal = testTool({ internal: true });
  const service = { role: "service_role" } as const;
  assert.equal(refusal(step(callFor(internal, { claims: service }), answering())), null);
});
