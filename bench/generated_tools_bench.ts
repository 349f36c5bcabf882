/**
 * Generated tools on real large public schemas: GitHub's OpenAPI document
 * (`@octokit/openapi`) in full and as a 200-operation subset (its paths'
 * first 200 operations with only the components they reach), and GitHub's
 * GraphQL schema (`@octokit/graphql-schema`) with 200 picked fields.
 *
 * `deno run -A bench/generated_tools_bench.ts [--before <dir>] [--runs N]`
 * prints the summary: one source through its life in this process
 * (registration as `api_source_register` runs it, the same registration
 * again, another instance's sync, its first MCP listing and first call),
 * each against a baseline and seed 001's 300 ms and the issue's 50 ms goals;
 * then the same life in fresh processes (`generated_tools_cold_child.ts`),
 * side by side with an older checkout's when `--before` names one, with the
 * ratios. `deno bench -A bench/generated_tools_bench.ts` adds the
 * `Deno.bench` groups. Nothing here asserts a time. The octokit packages are
 * dev dependencies: only the bench and a test import them.
 *
 * @module
 */
import { schema as githubGraphql } from "@octokit/graphql-schema";
import { documentHash, planSource, type SourceDocument } from "@shared/generated_tools/generate.ts";
import { openapiPlans } from "@shared/generated_tools/openapi.ts";
import { parseOpenapi } from "@shared/generated_tools/openapi_validate.ts";
import { GENERATED_TOOLS_ENGINE } from "@shared/generated_tools/engine.ts";
import { bindPlan } from "@shared/generated_tools/bind.ts";
import { parseGraphqlSchema } from "@shared/generated_tools/graphql.ts";
import { resolvePointer } from "@shared/generated_tools/json_schema_zod.ts";
import {
  loadPlans,
  openSignedPlans,
  signPlans,
  storePlans,
} from "@shared/generated_tools/stored_plan.ts";
import { createCredentialBox } from "@shared/generated_tools/credential_box.ts";
import { exportTools } from "@shared/export/export_tools.ts";
import { generateChecked } from "@shared/generated_tools/source_tools.ts";

// Read, not imported: imported, `deno check` infers a type for all 13 MB of it (~3.5 CPU-s of CI's
// check job). The package is in deno.json's imports, so node_modules holds it.
const github: { openapi: string } = JSON.parse(
  await Deno.readTextFile(
    new URL(import.meta.resolve("@octokit/openapi/generated/api.github.com.json")),
  ),
);

type Node = Record<string, unknown>;
const METHODS = ["get", "put", "post", "patch", "delete", "head"];
const DOC = github as unknown as Node;

/** Operations whose body, if any, is JSON (the rest are refused by name, as a tenant would see). */
function mappable(operation: Node): boolean {
  const body = operation.requestBody as Node | undefined;
  return !body || Object.keys((body.content ?? {}) as Node).some((type) => type.includes("json"));
}

function operations(doc: Node): { path: string; method: string; operation: Node }[] {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Node>)) {
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (operation?.operationId && mappable(operation)) out.push({ path, method, operation });
    }
  }
  return out;
}

/** `count` operations from the `from`th, with only the components they reach. */
function subset(doc: Node, count: number, from = 0): { text: string; ids: string[] } {
  const paths: Record<string, Node> = {};
  const picked = operations(doc).slice(from, from + count);
  for (const { path, method, operation } of picked) {
    const item = (paths[path] ??= {});
    item[method] = operation;
    const shared = (doc.paths as Record<string, Node>)[path].parameters;
    if (shared) item.parameters = shared;
  }
  const components: Record<string, Node> = {};
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(walk);
    const ref = (node as Node).$ref;
    if (typeof ref === "string" && !seen.has(ref)) {
      seen.add(ref);
      const [, , kind, name] = ref.split("/");
      (components[kind] ??= {})[name] = resolvePointer(doc, ref) as Node;
      walk(resolvePointer(doc, ref));
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(paths);
  const components2 = doc.components as Node;
  components.securitySchemes = (components2.securitySchemes ?? {}) as Node;
  return {
    text: JSON.stringify({ ...doc, paths, components }),
    ids: picked.map((entry) => entry.operation.operationId as string),
  };
}

const sub200 = subset(DOC, 200);
/**
 * What a warm instance generated before (`warm-register` in the child): the next 200 operations
 * (a tool a dialect cannot carry is registered and left out of that dialect's listings; the loop
 * below drops any operation registration still refuses, by name).
 */
async function warmSubset(): Promise<{ text: string; ids: string[] }> {
  const { text, ids } = subset(DOC, 200, 200);
  const key = { orgId: "warm-pick", name: "gh", kind: "openapi" as const };
  const plans = await planSource({ ...key, document: text, documentHash: "", expose: ids });
  let kept = ids;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await generateChecked({ ...key, expose: kept }, text, GENERATED_TOOLS_ENGINE);
      break;
    } catch (error) {
      const refused = new Set(String((error as Error).message).match(/gh_[a-z0-9_]+(?= cannot)/g));
      if (!refused.size) throw error;
      const origins = new Set(plans.filter((plan) => refused.has(plan.name)).map((p) => p.origin));
      kept = kept.filter((id) => !origins.has(id));
    }
  }
  return { text, ids: kept };
}
const allIds = operations(DOC).map((entry) => entry.operation.operationId as string);
const fullText = JSON.stringify(DOC);
// The published SDL (`schema.idl`) defines two fields twice (graphql-js refuses it, as it should); the
// introspection result, which is what a tenant's endpoint answers, is clean.
const gqlJson = JSON.stringify(githubGraphql.json);
const gqlFields = (() => {
  const parsed = parseGraphqlSchema(gqlJson);
  return [
    ...Object.keys(parsed.getQueryType()!.getFields()).map((name) => `query.${name}`),
    ...Object.keys(parsed.getMutationType()!.getFields()).map((name) => `mutation.${name}`),
  ];
})();
// The first 200 are timed; a warm instance generated the rest (72 of GitHub's 272) before.
const gqlWarmFields = gqlFields.splice(200);

let tenant = 0;
const box = await createCredentialBox("bench-key-".repeat(4));
async function source(
  kind: "openapi" | "graphql",
  text: string,
  expose: string[],
): Promise<SourceDocument> {
  return {
    orgId: `bench-${++tenant}`,
    name: "gh",
    kind,
    document: text,
    documentHash: await documentHash(text),
    expose,
  };
}

function heapMb(): number {
  return Deno.memoryUsage().heapUsed / 1024 / 1024;
}

const BINDING = {
  source: "gh",
  baseUrl: "https://api.github.com",
  allowPrivateNetwork: false,
  credential: () => Promise.resolve(null),
};

function examplesOf(tools: { name: string; examples: { input: unknown }[] }[]) {
  return new Map(
    tools.flatMap((tool) =>
      tool.examples.length ? [[tool.name, tool.examples[0].input as Record<string, unknown>]] : []
    ),
  );
}

/**
 * Earlier single-run figures (docs/generated_tools.md, before stored plans), the baseline the
 * read paths are printed against. Registration has none here: the fresh-process table below
 * times it side by side with an older checkout (`--before`), on the same machine and minutes.
 */
const BASELINE_MS: Record<string, number> = {
  "openapi warm registration": 236,
  "openapi sync": 128 + 57,
  "openapi listing": 640,
  "graphql sync": 337,
};

interface Row {
  label: string;
  key: string;
  tools: number;
  ms: number;
  held?: number;
}

/** One source measured along its life: registration, another instance's sync, listing, calls. */
async function lifecycle(kind: "openapi" | "graphql", text: string, expose: string[]) {
  const doc = await source(kind, text, expose);
  const rows: Row[] = [];
  const name = kind === "openapi" ? "OpenAPI 200-operation subset" : "GraphQL 200 fields";
  // Registration as api_source_register runs it (generateChecked: validate, map, store the
  // plans, check every export dialect), for a tenant this process has not seen.
  const heapBefore = heapMb();
  let started = performance.now();
  let storedPlans: string;
  if (kind === "openapi") {
    const key = { orgId: doc.orgId, name: "gh", kind, expose };
    const generated = await generateChecked(key, text, GENERATED_TOOLS_ENGINE);
    storedPlans = JSON.stringify(generated.stored);
    rows.push({
      label: `${name}: registration (generateChecked: validate, map, store the plans, ${
        (storedPlans.length / 1e6).toFixed(2)
      } MB, export checks)`,
      key: `${kind} registration`,
      tools: generated.plans.length,
      ms: performance.now() - started,
      held: heapMb() - heapBefore,
    });
    // The same text registered again by the same tenant (a retry, the confirmation's second call).
    started = performance.now();
    await generateChecked(key, text, GENERATED_TOOLS_ENGINE);
    rows.push({
      label: `${name}: warm registration (same text, tenant, name: the instance's cache)`,
      key: `${kind} warm registration`,
      tools: generated.plans.length,
      ms: performance.now() - started,
    });
  } else {
    // GraphQL: the introspection read and mapped, the plans stored (its export checks as above).
    const plans = await planSource(doc, { validate: false });
    const made = plans.map((plan) => bindPlan(plan, { ...BINDING, orgId: doc.orgId }));
    storedPlans = JSON.stringify(storePlans(plans, examplesOf(made)));
    rows.push({
      label: `${name}: registration (map, bind, store the plans: ${
        (storedPlans.length / 1e6).toFixed(2)
      } MB)`,
      key: `${kind} registration`,
      tools: plans.length,
      ms: performance.now() - started,
      held: heapMb() - heapBefore,
    });
  }
  // Another instance's cold sync: the row's signed plans (their text as the text column brings
  // it: UTF-8 bytes decoded, `signedPlansColumns`) checked against their signature, read and bound.
  const scope = {
    orgId: doc.orgId,
    name: "gh",
    kind,
    documentHash: doc.documentHash,
    baseUrl: BINDING.baseUrl,
    expose,
  };
  const signed = await signPlans(JSON.parse(storedPlans), scope, box);
  const wire = new TextEncoder().encode(signed.text);
  started = performance.now();
  const signedText = await openSignedPlans(
    { ...signed, text: new TextDecoder().decode(wire) },
    scope,
    box,
  );
  const tools = loadPlans(JSON.parse(signedText), "gh")!.map((plan) =>
    bindPlan(plan, { ...BINDING, orgId: `other-${doc.orgId}` })
  );
  rows.push({
    label: `${name}: sync on another instance (check the plans' signature, read them, bind)`,
    key: `${kind} sync`,
    tools: tools.length,
    ms: performance.now() - started,
  });
  // The first tools/list there: the MCP dialect with input and output schemas.
  started = performance.now();
  exportTools(tools, "mcp");
  rows.push({
    label: `${name}: first MCP listing there (input + output schemas)`,
    key: `${kind} listing`,
    tools: tools.length,
    ms: performance.now() - started,
  });
  // The first call of one tool: its input checks are built then.
  started = performance.now();
  tools[0].input.safeParse(tools[0].examples[0]?.input ?? {});
  rows.push({
    label: `${name}: first call's input check (one tool's schema built)`,
    key: `${kind} first call`,
    tools: 1,
    ms: performance.now() - started,
  });
  started = performance.now();
  for (const tool of tools) tool.output.safeParse(null);
  rows.push({
    label: `${name}: every output check built (not on a read path)`,
    key: `${kind} outputs`,
    tools: tools.length,
    ms: performance.now() - started,
  });
  return { rows, storedPlans };
}

const openapi = await lifecycle("openapi", sub200.text, sub200.ids);
const graphql = await lifecycle("graphql", gqlJson, gqlFields);
const rows = [...openapi.rows, ...graphql.rows];
// The full document is over the 5 MiB registration limit: measured on the generator directly.
{
  const started = performance.now();
  const parsed = await parseOpenapi(fullText);
  const parse = performance.now() - started;
  const plans = openapiPlans(parsed, { source: "gh", expose: allIds.slice(0, 500) });
  const planMs = performance.now() - started - parse;
  console.log(
    `OpenAPI, full GitHub document (${
      (fullText.length / 1e6).toFixed(1)
    } MB, ${allIds.length} mappable operations; ` +
      `over the 5 MiB registration limit): parse+validate ${parse.toFixed(0)} ms, ` +
      `plans for 500 (the per-source maximum) ${planMs.toFixed(0)} ms (${plans.length} tools)`,
  );
}
console.log(
  "\n| what | tools | ms now | ms before (baseline) | now vs before | vs 300 ms (seed) | vs 50 ms (goal) | heap held MB |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const row of rows) {
  const before = BASELINE_MS[row.key];
  console.log(
    `| ${row.label} | ${row.tools} | ${row.ms.toFixed(1)} | ${before ?? "—"} | ${
      before ? `${(row.ms / before).toFixed(2)}×` : "—"
    } | ${(row.ms / 300).toFixed(2)}× | ${(row.ms / 50).toFixed(2)}× | ${
      row.held === undefined ? "—" : row.held.toFixed(1)
    } |`,
  );
}

/**
 * One source's life in fresh processes (`generated_tools_cold_child.ts`):
 * cold registration and the same registration again in one process, then
 * another instance's cold sync, first MCP listing and first call in another.
 * With `--before <dir>` (an older checkout: `git archive <commit> | tar -x -C
 * <dir>`), that tree's code runs the same steps, alternated with this tree's,
 * and each figure is printed side by side with its ratio. Medians of
 * `--runs` (default 3) runs each; GraphQL's 200 fields go through the same
 * life in their own fresh processes (rows named GraphQL).
 */
async function coldProcesses(): Promise<void> {
  const args = Deno.args;
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const beforeTree = flag("--before");
  const rounds = Number(flag("--runs") ?? 3);
  const here = new URL("..", import.meta.url).pathname;
  const trees: [string, string][] = beforeTree
    ? [["before", beforeTree], ["now", here]]
    : [["now", here]];
  const dir = await Deno.makeTempDir();
  const documentFile = `${dir}/doc.json`;
  const idsFile = `${dir}/ids.json`;
  const gqlFile = `${dir}/graphql.json`;
  const gqlIdsFile = `${dir}/graphql-ids.json`;
  await Deno.writeTextFile(documentFile, sub200.text);
  await Deno.writeTextFile(idsFile, JSON.stringify(sub200.ids));
  await Deno.writeTextFile(gqlFile, gqlJson);
  await Deno.writeTextFile(gqlIdsFile, JSON.stringify(gqlFields));
  // A warm instance's earlier work: other operations, and GraphQL's other fields in a text that
  // differs (indented), so nothing of the timed document is in any cache.
  const warmSub = await warmSubset();
  const warmSpec = `${dir}/warm-doc.json,${dir}/warm-ids.json`;
  await Deno.writeTextFile(`${dir}/warm-doc.json`, warmSub.text);
  await Deno.writeTextFile(`${dir}/warm-ids.json`, JSON.stringify(warmSub.ids));
  const gqlWarmSpec = `${dir}/warm-graphql.json,${dir}/warm-graphql-ids.json`;
  await Deno.writeTextFile(`${dir}/warm-graphql.json`, JSON.stringify(githubGraphql.json, null, 1));
  await Deno.writeTextFile(`${dir}/warm-graphql-ids.json`, JSON.stringify(gqlWarmFields));
  if (flag("--inputs")) {
    // The child's inputs only, for profiling one step (`--cpu-prof` on the child): docs say how.
    const target = flag("--inputs")!;
    await Deno.mkdir(target, { recursive: true });
    for await (const entry of Deno.readDir(dir)) {
      await Deno.copyFile(`${dir}/${entry.name}`, `${target}/${entry.name}`);
    }
    await Deno.remove(dir, { recursive: true });
    console.log(`inputs written to ${target}`);
    Deno.exit(0);
  }
  const child = new URL("./generated_tools_cold_child.ts", import.meta.url).pathname;
  const runs: Record<string, Record<string, number>[]> = { before: [], now: [] };
  const run = async (tree: string, mode: string, plansFile: string, graphql = false) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--v8-flags=--expose-gc",
        "--config",
        `${tree}/deno.json`,
        child,
        mode,
        graphql ? gqlFile : documentFile,
        graphql ? gqlIdsFile : idsFile,
        plansFile,
        ...(graphql ? ["graphql"] : []),
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    return JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, number>;
  };
  for (let round = 0; round < rounds; round++) {
    for (const [label, tree] of trees) {
      const plansFile = `${dir}/plans-${label}.json`;
      const registered = await run(tree, "register", plansFile);
      const synced = await run(tree, "sync", plansFile);
      // GraphQL's 200 fields: the same life, its figures prefixed `gql_`.
      const gqlPlans = `${dir}/gql-plans-${label}.json`;
      const gqlRegistered = await run(tree, "register", gqlPlans, true);
      const gqlSynced = await run(tree, "sync", gqlPlans, true);
      // A warm instance: the same registration after it has generated, listed and called others.
      const warm = await run(tree, "warm-register", warmSpec);
      const gqlWarm = await run(tree, "warm-register", gqlWarmSpec, true);
      const prefixed = (figures: Record<string, number>, prefix: string) =>
        Object.fromEntries(Object.entries(figures).map(([key, value]) => [prefix + key, value]));
      runs[label].push({
        ...registered,
        sync_held_mb: synced.held_mb,
        ...Object.fromEntries(Object.entries(synced).filter(([key]) => key !== "held_mb")),
        ...prefixed(gqlRegistered, "gql_"),
        ...prefixed(gqlSynced, "gql_sync_"),
        ...prefixed(warm, "warm_instance_"),
        ...prefixed(gqlWarm, "gql_warm_instance_"),
      });
    }
  }
  await Deno.remove(dir, { recursive: true });
  const median = (label: string, field: string) => {
    const values = runs[label].map((one) => one[field] ?? 0).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  };
  const rows: [string, string, boolean][] = [
    ["cold registration (validate, map, store, export checks), wall ms", "cold_ms", true],
    ["cold registration, CPU ms", "cold_cpu_ms", true],
    ["first registration in a warm instance, CPU ms", "warm_instance_cold_cpu_ms", true],
    ["first registration in a warm instance, wall ms", "warm_instance_cold_ms", true],
    ["warm registration (the instance's cache), ms", "warm_ms", true],
    ["sync on another instance (signature, read, bind), wall ms", "sync_ms", true],
    ["sync on another instance, CPU ms", "sync_cpu_ms", true],
    ["that instance's first MCP listing, ms", "listing_ms", true],
    ["that instance's first MCP listing, CPU ms", "listing_cpu_ms", true],
    ["its first call's input check, ms", "first_call_ms", true],
    [
      "a new instance ready (sync + first MCP listing + first call), CPU ms",
      "ready_cpu_ms",
      true,
    ],
    ["a new instance ready, wall ms", "ready_ms", true],
    [
      "module loading in that process (imports, registration's too; not in the rows above), CPU ms",
      "module_load_cpu_ms",
      false,
    ],
    ["heap held by the registration after a GC, MB", "held_mb", false],
    ["heap held by the other instance's tools after a GC, MB", "sync_held_mb", false],
    ["GraphQL 200 fields: cold registration, wall ms", "gql_cold_ms", true],
    ["GraphQL: cold registration, CPU ms", "gql_cold_cpu_ms", true],
    [
      "GraphQL: first registration in a warm instance, CPU ms",
      "gql_warm_instance_cold_cpu_ms",
      true,
    ],
    ["GraphQL: first registration in a warm instance, wall ms", "gql_warm_instance_cold_ms", true],
    ["GraphQL: warm registration (the instance's cache), ms", "gql_warm_ms", true],
    ["GraphQL: sync on another instance, CPU ms", "gql_sync_sync_cpu_ms", true],
    ["GraphQL: that instance's first MCP listing, CPU ms", "gql_sync_listing_cpu_ms", true],
    ["GraphQL: its first call's input check, ms", "gql_sync_first_call_ms", true],
    ["GraphQL: a new instance ready, CPU ms", "gql_sync_ready_cpu_ms", true],
    ["GraphQL: heap held by the registration after a GC, MB", "gql_held_mb", false],
  ];
  console.log(
    `\n| 200-operation subset, fresh processes, median of ${rounds} | before | now | now vs before | vs 50 ms |`,
  );
  console.log("| --- | --- | --- | --- | --- |");
  for (const [label, field, isTime] of rows) {
    const now = median("now", field);
    const before = beforeTree ? median("before", field) : undefined;
    console.log(
      `| ${label} | ${before === undefined ? "—" : before.toFixed(1)} | ${now.toFixed(1)} | ${
        before ? `${(now / before).toFixed(2)}×` : "—"
      } | ${isTime ? `${(now / 50).toFixed(2)}×` : "—"} |`,
    );
  }
}
await coldProcesses();

const subDoc = await source("openapi", sub200.text, sub200.ids);
const gqlDoc = await source("graphql", gqlJson, gqlFields);

Deno.bench({
  name: "openapi 200 ops: cold registration (generateChecked: validate, map, store, export checks)",
  group: "openapi-200",
  baseline: true,
  async fn() {
    await generateChecked(
      { orgId: `bench-${++tenant}`, name: "gh", kind: "openapi", expose: sub200.ids },
      sub200.text,
      GENERATED_TOOLS_ENGINE,
    );
  },
});
Deno.bench({
  name: "openapi 200 ops: cold sync on another instance (stored plans to tools)",
  group: "openapi-200",
  fn() {
    loadPlans(JSON.parse(openapi.storedPlans), "gh")!.map((plan) =>
      bindPlan(plan, { ...BINDING, orgId: `bench-${++tenant}` })
    );
  },
});
Deno.bench({
  name: "openapi 200 ops: cold sync and first MCP listing",
  group: "openapi-200",
  fn() {
    const tools = loadPlans(JSON.parse(openapi.storedPlans), "gh")!.map((plan) =>
      bindPlan(plan, { ...BINDING, orgId: `bench-${++tenant}` })
    );
    exportTools(tools, "mcp");
  },
});
Deno.bench({
  name: "openapi 200 ops: cached plans lookup",
  group: "openapi-200",
  async fn() {
    await planSource(subDoc);
  },
});
Deno.bench({
  name: "graphql 200 fields: cold registration (parse, map)",
  group: "graphql-200",
  baseline: true,
  async fn() {
    await planSource({ ...gqlDoc, orgId: `bench-${++tenant}` });
  },
});
Deno.bench({
  name: "graphql 200 fields: cold sync on another instance (stored plans to tools)",
  group: "graphql-200",
  fn() {
    loadPlans(JSON.parse(graphql.storedPlans), "gh")!.map((plan) =>
      bindPlan(plan, { ...BINDING, orgId: `bench-${++tenant}` })
    );
  },
});
