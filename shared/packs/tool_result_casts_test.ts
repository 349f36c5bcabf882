// The CI check that flows read tool results through the tools' own schemas
// (`callTyped`, `readResult`, `readData` in shared/registry/tool_call.ts):
// no production code of a pack or a capability (the ordering steps, the
// waiting charge, document reading) re-declares a tool's output with a cast,
// nor casts the flow's kept memory (`typedFlow` reads it by its schema).
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// A cast of a tool result or of its data: `result.data as {...}`, `x as unknown as T`,
// `memory.lastResult as ToolResult`, `as ToolOk<...>`; or of a flow's kept memory:
// `(turn.memory.step as { order?: ... })`.
const CASTS = [
  { name: "`.data as`", pattern: /\.data\s+as\s/g },
  { name: "`as unknown as`", pattern: /\bas\s+unknown\s+as\b/g },
  { name: "`as ToolResult`", pattern: /\bas\s+Tool(?:Result|Ok)\b/g },
  { name: "`memory.<key> as`", pattern: /\bmemory(?:\??\.\w+)+\)?\s+as\s/g },
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
    "const g = (turn.memory.step as { order?: Order } | null)?.order;",
    "const h = memory?.place as string;",
    "const i = orderState.parse(turn.memory.step);",
  ].join("\n");
  assert.deepEqual(castsIn("flow.ts", source).sort(), [
    "flow.ts:1: `.data as`",
    "flow.ts:3: `.data as`",
    "flow.ts:5: `as ToolResult`",
    "flow.ts:5: `memory.<key> as`",
    "flow.ts:6: `as unknown as`",
    "flow.ts:8: `memory.<key> as`",
    "flow.ts:9: `memory.<key> as`",
  ]);
});

// The folders whose flows call tools: the packs, and the capabilities they share.
const FLOW_FOLDERS = ["shared/packs", "shared/capabilities"];

/** Every tool-result cast in the production sources under `folders`, as `<file>:<line>: <cast>`. */
async function castsUnder(root: string, folders: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    for await (const path of packSources(join(root, folder))) {
      found.push(...castsIn(relative(root, path), await Deno.readTextFile(path)));
    }
  }
  return found;
}

Deno.test("castsUnder() finds a cast in a capability's file, and skips its tests", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(root, "shared/capabilities/ordering"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "shared/capabilities/ordering/order_steps.ts"),
      "const ok = 1;\nconst data = result.data as { items: unknown[] };\n",
    );
    await Deno.writeTextFile(
      join(root, "shared/capabilities/ordering/order_steps_test.ts"),
      "const data = result.data as { items: unknown[] };\n",
    );
    await Deno.mkdir(join(root, "shared/packs"), { recursive: true });
    assert.deepEqual(await castsUnder(root, FLOW_FOLDERS), [
      "shared/capabilities/ordering/order_steps.ts:2: `.data as`",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("no pack or capability casts a tool's output or a flow's memory (use callTyped/readResult, typedFlow)", async () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const found = await castsUnder(root, FLOW_FOLDERS);
  assert.deepEqual(found, [], `tool results or flow memory cast in flows:\n${found.join("\n")}`);
});
