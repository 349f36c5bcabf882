import assert from "node:assert/strict";
import { measureCatalogTokens } from "./catalog_tokens.ts";

Deno.test("the index of the whole EasyMO catalog stays under 2,000 tokens and names every tool", async () => {
  const figures = await measureCatalogTokens();
  assert.ok(figures.indexTokens < 2_000, `index is ${figures.indexTokens} tokens`);
  // Every tool a tenant's agents may be given is on a line of its own.
  const lines = figures.index.split("\n").filter((line) => !line.startsWith("## "));
  assert.equal(lines.length, figures.tools);
  // Discovery is worth it only if the index is far smaller than what it replaces.
  assert.ok(
    figures.indexTokens * 10 < figures.fullSchemaTokens,
    `index ${figures.indexTokens} vs full schemas ${figures.fullSchemaTokens}`,
  );
});

Deno.test("every agent the agent file gives discovery spends fewer tokens on a turn with it", async () => {
  const figures = await measureCatalogTokens();
  const discovering = figures.agents.filter((agent) => agent.toolDiscovery);
  assert.ok(discovering.length > 0, "some agent discovers its tools");
  for (const agent of discovering) {
    assert.ok(
      agent.turnWith < agent.turnWithout,
      `${agent.tenant}/${agent.agent}: ${agent.turnWith} with discovery vs ${agent.turnWithout}`,
    );
  }
});
