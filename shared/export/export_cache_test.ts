import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import { cachedExport, setExportKey } from "./export_cache.ts";
import { exportTools } from "./export_tools.ts";
import { toGeminiFunctionDeclarations } from "./gemini.ts";

function lookup(description: string) {
  return defineTool({
    name: "crm.lookup",
    title: "Look up",
    description,
    category: "crm",
    input: z.object({ phone: z.string(), tags: z.record(z.string(), z.string()).optional() }),
    output: z.object({ name: z.string() }),
    examples: [{ input: { phone: "+250788000001" } }],
    sideEffects: "none",
    execute: () => Promise.resolve({ name: "Aline" }),
  });
}

Deno.test("a tool with a content key is converted once per format for every tool of that key; tools without one, each time", () => {
  const key = `cache-test-${crypto.randomUUID()}`;
  const first = setExportKey(lookup("Finds a customer."), key);
  const again = setExportKey(lookup("Finds a customer."), key);
  const [a] = toGeminiFunctionDeclarations([first]).functionDeclarations;
  const [b] = toGeminiFunctionDeclarations([again]).functionDeclarations;
  assert.equal(a, b, "the second tool of the key reuses the first's declaration");
  for (const format of ["jsonschema", "anthropic"] as const) {
    assert.equal(exportTools([first], format).tools[0], exportTools([again], format).tools[0]);
  }
  // Another key, or none: converted again (equal, not the same object).
  const other = setExportKey(lookup("Finds a customer."), `${key}-other`);
  const plain = lookup("Finds a customer.");
  const [c] = toGeminiFunctionDeclarations([other]).functionDeclarations;
  const [d] = toGeminiFunctionDeclarations([plain]).functionDeclarations;
  const [e] = toGeminiFunctionDeclarations([plain]).functionDeclarations;
  assert.notEqual(c, a);
  assert.notEqual(d, e);
  assert.deepEqual([c, d], [a, a]);
});

Deno.test("a refusal is not kept: it is made, and named, every time", () => {
  const tool = setExportKey(lookup("x"), `cache-test-${crypto.randomUUID()}`);
  let tries = 0;
  const refuse = () => {
    tries++;
    throw new TypeError("not today");
  };
  assert.throws(() => cachedExport(tool, "test", "crm_lookup", refuse), /not today/);
  assert.throws(() => cachedExport(tool, "test", "crm_lookup", refuse), /not today/);
  assert.equal(tries, 2);
  assert.equal(cachedExport(tool, "test", "crm_lookup", () => "made"), "made");
  assert.equal(cachedExport(tool, "test", "crm_lookup", () => "again"), "made");
});
