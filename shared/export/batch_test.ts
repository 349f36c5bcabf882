import assert from "node:assert/strict";
import { exportEach } from "./batch.ts";
import { NAME_RULES } from "./names.ts";
import { aDotB, aUnderscoreB, getPrice, ping } from "@testing/export_fixtures.ts";

Deno.test("exportEach() skips a tool that throws and converts the others", () => {
  const batch = exportEach([getPrice, ping, aDotB], NAME_RULES.openai, (tool, name) => {
    if (tool === ping) throw new Error("boom");
    return name;
  });
  assert.deepEqual(batch.items, ["markets_get_price", "a_b"]);
  assert.deepEqual(batch.skipped, [{ tool: "system.ping", reason: "boom" }]);
});

Deno.test("exportEach() names every tool, skipped ones included", () => {
  const batch = exportEach([aDotB, aUnderscoreB], NAME_RULES.openai, (tool, name) => {
    if (tool === aUnderscoreB) throw "not an Error";
    return name;
  });
  // a.b still yields to a_b although a_b was skipped: names do not depend on failures.
  assert.deepEqual(batch.items, ["a_b_108bf5"]);
  assert.deepEqual(batch.skipped, [{ tool: "a_b", reason: "not an Error" }]);
  assert.equal(batch.names.fromProvider("a_b"), "a_b");
});

Deno.test("exportEach() skips a repeated tool name", () => {
  const batch = exportEach([getPrice, getPrice], NAME_RULES.mcp, (_tool, name) => name);
  assert.deepEqual(batch.items, ["markets.get_price"]);
  assert.deepEqual(batch.skipped, [
    { tool: "markets.get_price", reason: "duplicate tool name in this export" },
  ]);
});
