// The CI check that flows read tool results through the tools' own schemas
// (`callTyped`, `readResult`, `readData` in shared/registry/tool_call.ts):
// no pack's production code re-declares a tool's output with a cast.
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// A cast of a tool result or of its data: `result.data as {...}`, `x as unknown as T`,
// `memory.lastResult as ToolResult`, `as ToolOk<...>`.
const CASTS = [
  { name: "`.data as`", pattern: /\.data\s+as\s/g },
  { name: "`as unknown as`", pattern: /\bas\s+unknown\s+as\b/g },
  { name: "`as ToolResult`", pattern: /\bas\s+Tool(?:Result|Ok)\b/g },
];

/** Every cast of a tool result in `source`, as `<file>:<line>: <cast>`. */
function castsIn(file: string, source: string): string[] {
  const found: string[] = [];
  for (const { name, pattern } of CASTS) {
    for (const match of source.matchAll(pattern)) {
      const line = source.slice(0, match.index).split("\n").length;
      found.push(`${file}:${line}: ${name}`);
    }
  }
  return found;
}

async function* packSources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* packSources(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) yield path;
  }
}

Deno.test("castsIn() names the file and line of each tool-result cast, and passes typed reads", () => {
  const source = [
    "const a = result.data as { id: string };",
    "const b = readData(tool, result.data);",
    "const c = (moved.data as",
    "  { changed: boolean }).changed;",
    "const d = turn.memory.lastResult as ToolResult | null;",
    "const e = value as unknown as Charge;",
    "const f = `the data as sent`;",
  ].join("\n");
  assert.deepEqual(castsIn("flow.ts", source).sort(), [
    "flow.ts:1: `.data as`",
    "flow.ts:3: `.data as`",
    "flow.ts:5: `as ToolResult`",
    "flow.ts:6: `as unknown as`",
  ]);
});

Deno.test("no pack re-declares a tool's output with a cast (use callTyped/readResult)", async () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const packs = fileURLToPath(new URL(".", import.meta.url));
  const found: string[] = [];
  for await (const path of packSources(packs)) {
    found.push(...castsIn(relative(root, path), await Deno.readTextFile(path)));
  }
  assert.deepEqual(found, [], `tool results cast in packs:\n${found.join("\n")}`);
});
