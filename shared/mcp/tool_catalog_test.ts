import assert from "node:assert/strict";
import { ToolRegistry } from "@shared/registry/registry.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { badDate, getPrice, ping } from "@testing/export_fixtures.ts";
import { McpToolCatalog } from "./tool_catalog.ts";

Deno.test("McpToolCatalog leaves a tool MCP cannot carry out of the listing, logs why once, and lists the others", () => {
  const registry = new ToolRegistry();
  const log = memoryLogger();
  const catalog = new McpToolCatalog(registry, log);
  const tools = [getPrice, badDate, ping];

  const listed = catalog.definitions(tools);
  assert.deepEqual(listed.map((tool) => tool.name), [getPrice.name, ping.name]);
  assert.equal(log.lines.length, 1);
  assert.equal(log.lines[0].event, "tool_export_left_out");
  assert.equal(log.lines[0].tool, badDate.name);
  assert.equal(log.lines[0].format, "mcp");
  assert.match(String(log.lines[0].reason), /Date cannot be represented/);

  // The next page with it is answered from the cache: left out again, not logged again.
  assert.deepEqual(
    catalog.definitions([badDate, ping]).map((tool) => tool.name),
    [ping.name],
  );
  assert.equal(log.lines.length, 1);

  // When the registry moves, the tool is tried (and reported) afresh.
  registry.register(ping);
  catalog.definitions([badDate]);
  assert.equal(log.lines.length, 2);
});
