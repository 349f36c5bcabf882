/**
 * The kernel, the agent, the channels and the capabilities name no agent:
 * an agent id is a pack's declaration, and the code outside the packs reads
 * it from them (roles, menu, routes, counterparts). An id written into that
 * code would run that agent for every tenant, even one that does not run it.
 * The ids checked are the packs' own, read from the pack list.
 *
 * @module
 */
import assert from "node:assert/strict";
import { PACKS } from "@shared/packs/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { EXAMPLE_PACK } from "@testing/example_pack/mod.ts";
import { ROOT, sourceFiles, withoutComments } from "./source_scan.ts";

/** The folders whose production code must name no agent. */
export const AGENT_NEUTRAL_FOLDERS = [
  "shared/agent",
  "shared/channels",
  "shared/registry",
  "shared/pipeline",
  "shared/contract",
  "shared/capabilities",
];

/** Every agent id the packs declare. */
export function agentIds(packs: readonly Pack[]): string[] {
  return [...new Set(packs.flatMap((pack) => pack.agents.map((agent) => agent.id)))];
}

/**
 * Where `code` (comments already removed) names one of `ids` as a string,
 * as `line: id`. A tool's `category` is a domain's name, not an agent, even
 * where the two are spelt alike ("insurance").
 */
export function agentLiterals(code: string, ids: readonly string[]): string[] {
  const known = new Set(ids);
  const found: string[] = [];
  code.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(/(category:\s*)?(["'`])([a-z][a-z0-9_]*)\2/g)) {
      if (!match[1] && known.has(match[3])) found.push(`${index + 1}: ${match[3]}`);
    }
  });
  return found;
}

Deno.test("the kernel, the agent, the channels and the capabilities name no agent id", async () => {
  const ids = agentIds([...PACKS, EXAMPLE_PACK]);
  assert.ok(ids.length > 3, `the pack list declares agents: ${ids.join()}`);
  const found: string[] = [];
  for (const folder of AGENT_NEUTRAL_FOLDERS) {
    for await (const path of sourceFiles(folder)) {
      const code = withoutComments(await Deno.readTextFile(new URL(path, ROOT)));
      found.push(...agentLiterals(code, ids).map((hit) => `${path}:${hit}`));
    }
  }
  assert.deepEqual(found, [], "read the agent from the packs (its role, menu or declaration)");
});

Deno.test("the agent-id scan finds ids in code, by line, and skips comments and categories", () => {
  const code = withoutComments(
    [
      "/** Routes to",
      ' * "pharmacy" in an example. */',
      '// "waiter_ai"',
      'const tool = { category: "pharmacy" };',
      'const agent = options.agentId ?? "buy_and_sell"; // "shop"',
      "const other = `waiter_ai`;",
    ].join("\n"),
  );
  assert.deepEqual(agentLiterals(code, ["pharmacy", "waiter_ai", "buy_and_sell", "shop"]), [
    "5: buy_and_sell",
    "6: waiter_ai",
  ]);
});

Deno.test("a pack with one agent is named after it", () => {
  const misnamed = [...PACKS, EXAMPLE_PACK]
    .filter((pack) => pack.agents.length === 1 && pack.id !== pack.agents[0].id)
    .map((pack) => `${pack.id} (its agent is ${pack.agents[0].id})`);
  assert.deepEqual(misnamed, []);
});
