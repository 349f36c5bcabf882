import assert from "node:assert/strict";
import { exportEach, exportLeavingOut, ToolExportError } from "./batch.ts";
import { exportTools } from "./export_tools.ts";
import { NAME_RULES } from "./names.ts";
import { aDotB, ALL_TOOLS, aUnderscoreB, getPrice, ping } from "@testing/export_fixtures.ts";

Deno.test("exportEach() converts every tool, in input order", () => {
  const batch = exportEach([getPrice, ping, aDotB], NAME_RULES.openai, (_tool, name) => name);
  assert.deepEqual(batch.items, ["markets_get_price", "system_ping", "a_b"]);
});

Deno.test("exportEach() fails the whole export when one tool throws, naming it", () => {
  const converted: string[] = [];
  let error: unknown;
  try {
    exportEach([getPrice, ping, aDotB], NAME_RULES.openai, (tool, name) => {
      if (tool === ping) throw new Error("boom");
      converted.push(name);
      return name;
    });
  } catch (thrown) {
    error = thrown;
  }
  assert.ok(error instanceof ToolExportError);
  assert.equal(error.provider, "openai");
  assert.deepEqual(error.issues, [{ tool: "system.ping", reason: "boom" }]);
  assert.equal(
    error.message,
    "Cannot export tools to openai as system.ping cannot be included: boom",
  );
  // Every tool is tried, so one run names every failure.
  assert.deepEqual(converted, ["markets_get_price", "a_b"]);
});

Deno.test("exportEach() names every failing tool, thrown non-Errors included", () => {
  assert.throws(
    () =>
      exportEach([aDotB, aUnderscoreB], NAME_RULES.gemini, () => {
        throw "not an Error";
      }),
    new ToolExportError("gemini", [
      { tool: "a.b", reason: "not an Error" },
      { tool: "a_b", reason: "not an Error" },
    ]),
  );
});

Deno.test("exportEach() maps names from the whole batch", () => {
  const batch = exportEach([aDotB, aUnderscoreB], NAME_RULES.openai, (_tool, name) => name);
  // a_b keeps its name; a.b, which would become a_b too, gets a hash suffix.
  assert.deepEqual(batch.items, ["a_b_108bf5", "a_b"]);
  assert.equal(batch.names.fromProvider("a_b"), "a_b");
});

Deno.test("exportEach() refuses a repeated tool name", () => {
  assert.throws(
    () => exportEach([getPrice, getPrice], NAME_RULES.mcp, (_tool, name) => name),
    new ToolExportError("mcp", [
      { tool: "markets.get_price", reason: "its name is given twice in this export" },
    ]),
  );
});

Deno.test("exportLeavingOut() leaves out the tools a format cannot carry, keeping the others in order", () => {
  const listed = exportLeavingOut(ALL_TOOLS, (tools) => exportTools(tools, "gemini"));
  assert.deepEqual(
    listed.leftOut.map((issue) => issue.tool),
    ["docs.save_tree", "calendar.add_event"],
  );
  const left = new Set(listed.leftOut.map((issue) => issue.tool));
  assert.deepEqual(listed.kept, ALL_TOOLS.filter((tool) => !left.has(tool.name)));
  assert.equal(listed.result.tools.length, listed.kept.length);
  assert.deepEqual(listed.result, exportTools(listed.kept, "gemini"));
});

Deno.test("exportLeavingOut() passes on an error that names no tool", () => {
  assert.throws(
    () => exportLeavingOut(ALL_TOOLS, () => exportTools(ALL_TOOLS, "nope" as "mcp")),
    TypeError,
  );
});
