import assert from "node:assert/strict";
import { z } from "zod";
import type { ToolResult } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ToolRegistry } from "@shared/registry/registry.ts";
import { answering } from "@testing/pipeline_calls.ts";
import { ORG, USER } from "@testing/seed.ts";
import { newCall } from "../call.ts";
import { lookupStep, safeName } from "./lookup.ts";

const echo = defineTool({
  name: "test.echo",
  title: "Echo",
  description: "Returns nothing.",
  category: "test",
  input: z.object({}),
  output: z.object({}),
  examples: [{ input: {} }],
  sideEffects: "none",
  execute: () => Promise.resolve({}),
});

function callOf(tool: unknown) {
  return newCall({
    tool: tool as string,
    args: {},
    caller: { claims: { sub: USER.aline, role: "authenticated" }, org_id: ORG.easymo },
  }, 0);
}

Deno.test("lookupStep() sets the tool it finds and hands the call on", () => {
  const registry = new ToolRegistry();
  registry.register(echo);
  const next = answering();
  const call = callOf("test.echo");
  const answer = lookupStep({ registry })(call, next);
  assert.deepEqual(answer, { ok: true, data: { reached: true } });
  assert.equal(call.tool, registry.get("test.echo"));
  assert.equal(next.calls.length, 1);
});

Deno.test("lookupStep() answers NOT_FOUND echoing only a name-shaped prefix", () => {
  const next = answering();
  const answer = lookupStep({ registry: new ToolRegistry() })(
    callOf("nope<script>alert(1)</script>"),
    next,
  );
  assert.equal(answer instanceof Promise, false);
  assert.deepEqual(answer, {
    ok: false,
    error: {
      code: "NOT_FOUND",
      msg: 'Unknown tool "nopescriptalert1script"',
      details: { unknown_tool: "nopescriptalert1script" },
    },
  });
  assert.equal(next.calls.length, 0);
});

Deno.test("lookupStep() finds a tool registered for one tenant for that tenant only", () => {
  const registry = new ToolRegistry();
  registry.register(echo, { tenantId: ORG.beaver });
  const step = lookupStep({ registry });
  const mine = step(callOf("test.echo"), answering()) as ToolResult;
  assert.equal(mine.ok ? "ok" : mine.error.code, "NOT_FOUND");
  const theirs = newCall({
    tool: "test.echo",
    args: {},
    caller: { claims: { sub: USER.nina, role: "authenticated" }, org_id: ORG.beaver },
  }, 0);
  const answer = step(theirs, answering()) as ToolResult;
  assert.equal(answer.ok, true);
});

Deno.test("safeName() keeps a name-shaped prefix of at most 64 characters, and nothing else", () => {
  assert.equal(safeName("a.b_c:d-e"), "a.b_c:d-e");
  assert.equal(safeName("x".repeat(80)).length, 64);
  assert.equal(safeName(42), "");
});
