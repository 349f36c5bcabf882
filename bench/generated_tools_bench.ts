/**
 * Generated tools on real large public schemas: GitHub's OpenAPI document
 * (`@octokit/openapi`) in full and as a 200-operation subset (its paths'
 * first 200 operations with only the components they reach), and GitHub's
 * GraphQL schema (`@octokit/graphql-schema`) with 200 picked fields.
 *
 * `deno task bench` (or `deno bench -A bench/generated_tools_bench.ts`):
 * the `Deno.bench` groups compare cold generation (a new tenant, so the
 * cache misses) with the cached lookup, with cold as the baseline. The
 * summary printed first measures each once more with the heap it holds
 * (`Deno.memoryUsage`) and prints the ratios: cached vs cold, and ours vs
 * seed 001's 300 ms goal and the 50 ms goal. Nothing here asserts a
 * time. The octokit packages are dev dependencies: only this file imports them.
 *
 * @module
 */
import github from "@octokit/openapi/generated/api.github.com.json" with { type: "json" };
import { schema as githubGraphql } from "@octokit/graphql-schema";
import { documentHash, planSource, type SourceDocument } from "@shared/generated_tools/generate.ts";
import { openapiPlans } from "@shared/generated_tools/openapi.ts";
import { parseOpenapi } from "@shared/generated_tools/openapi_validate.ts";
import { GENERATED_TOOLS_ENGINE } from "@shared/generated_tools/engine.ts";
import { bindPlan } from "@shared/generated_tools/bind.ts";
import { parseGraphqlSchema } from "@shared/generated_tools/graphql.ts";
import { resolvePointer } from "@shared/generated_tools/json_schema_zod.ts";

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

/** The first `count` operations, with only the components they reach. */
function subset(doc: Node, count: number): { text: string; ids: string[] } {
  const paths: Record<string, Node> = {};
  const picked = operations(doc).slice(0, count);
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
  ].slice(0, 200);
})();

let tenant = 0;
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

async function once(
  label: string,
  make: () => Promise<SourceDocument>,
  forceOutputs: boolean,
  validate = true,
) {
  const doc = await make();
  const heapBefore = heapMb();
  const started = performance.now();
  // Registration validates and stores JSON; a syncing instance maps the stored JSON.
  if (validate && doc.kind === "openapi") {
    await GENERATED_TOOLS_ENGINE.readers!.openapiJson(doc.document);
  }
  const plans = await planSource(doc, { validate: false });
  const cold = performance.now() - started;
  let forced = 0;
  if (forceOutputs) {
    const t = performance.now();
    for (const plan of plans) plan.output.safeParse(null);
    forced = performance.now() - t;
  }
  const bindStarted = performance.now();
  for (const plan of plans) {
    bindPlan(plan, {
      orgId: doc.orgId,
      source: "gh",
      baseUrl: "https://api.github.com",
      allowPrivateNetwork: false,
      credential: () => Promise.resolve(null),
    });
  }
  const bind = performance.now() - bindStarted;
  const cachedStarted = performance.now();
  for (let i = 0; i < 1000; i++) await planSource(doc);
  const cached = (performance.now() - cachedStarted) / 1000;
  const held = heapMb() - heapBefore;
  return { label, tools: plans.length, cold, forced, bind, cached, held };
}

const rows = [
  await once(
    "OpenAPI, 200-operation subset: registration (validated)",
    () => source("openapi", sub200.text, sub200.ids),
    true,
  ),
  await once(
    "OpenAPI, 200-operation subset: sync on another instance (stored, not re-validated)",
    () => source("openapi", sub200.text, sub200.ids),
    false,
    false,
  ),
  await once(
    `GraphQL introspection (${(gqlJson.length / 1e6).toFixed(1)} MB), 200 picked fields`,
    () => source("graphql", gqlJson, gqlFields),
    false,
  ),
];
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
  "\n| schema | tools | cold ms | outputs forced ms | bind ms | cached ms | heap held MB | cached vs cold | cold vs 300 ms (seed) | cold vs 50 ms (goal) |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const row of rows) {
  console.log(
    `| ${row.label} | ${row.tools} | ${row.cold.toFixed(1)} | ${row.forced.toFixed(1)} | ${
      row.bind.toFixed(1)
    } | ` +
      `${row.cached.toFixed(4)} | ${row.held.toFixed(1)} | ${
        (row.cold / row.cached).toFixed(0)
      }× faster | ` +
      `${(row.cold / 300).toFixed(2)}× | ${(row.cold / 50).toFixed(2)}× |`,
  );
}

const subDoc = await source("openapi", sub200.text, sub200.ids);
const gqlDoc = await source("graphql", gqlJson, gqlFields);

Deno.bench({
  name: "openapi 200 ops: cold registration (validated)",
  group: "openapi-200",
  baseline: true,
  async fn() {
    await GENERATED_TOOLS_ENGINE.readers!.openapiJson(subDoc.document);
    await planSource({ ...subDoc, orgId: `bench-${++tenant}` }, { validate: false });
  },
});
Deno.bench({
  name: "openapi 200 ops: cold sync (stored document, not re-validated)",
  group: "openapi-200",
  async fn() {
    await planSource({ ...subDoc, orgId: `bench-${++tenant}` }, { validate: false });
  },
});
Deno.bench({
  name: "openapi 200 ops: cached lookup",
  group: "openapi-200",
  async fn() {
    await planSource(subDoc);
  },
});
Deno.bench({
  name: "graphql 200 fields: cold generation",
  group: "graphql-200",
  baseline: true,
  async fn() {
    await planSource({ ...gqlDoc, orgId: `bench-${++tenant}` });
  },
});
Deno.bench({
  name: "graphql 200 fields: cached lookup",
  group: "graphql-200",
  async fn() {
    await planSource(gqlDoc);
  },
});
