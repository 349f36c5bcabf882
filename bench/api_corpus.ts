/**
 * Tool generation over API documents we did not write: OpenAPI 2.0/3.0/3.1
 * and GraphQL schemas that public npm packages ship (pinned below), each
 * registered as `api_source_register` does it (`generateChecked`: validate,
 * map, store the plans, prove every export dialect) with every operation
 * exposed (at most the 500 a source may have).
 *
 * `deno run -A bench/api_corpus.ts [--json out.json] [--only <substring>]`
 *
 * The packages are fetched once with `npm pack` into `.data/api_corpus/`
 * (the npm registry is the only network this needs); GitHub's two documents
 * come from the pinned dev dependencies in deno.json. It prints, per
 * document, what was accepted (tools generated), refused (the error code and
 * its first field paths) or crashed (anything that is not a `ToolFailure`:
 * a tenant would have seen `INTERNAL_ERROR`), with the time taken, then the
 * totals and the refusals grouped by cause. Nothing here asserts; the tests
 * that pin each fixed cause are in `shared/generated_tools/`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { schema as githubGraphql } from "@octokit/graphql-schema";
import { parseOpenapi } from "@shared/generated_tools/openapi_validate.ts";
import { parseGraphqlSchema } from "@shared/generated_tools/graphql.ts";
import { GENERATED_TOOLS_ENGINE } from "@shared/generated_tools/engine.ts";
import { GenerationError, MAX_OPERATIONS } from "@shared/generated_tools/operation.ts";
import { generateChecked } from "@shared/generated_tools/source_tools.ts";
import { ToolFailure } from "@shared/contract/result.ts";

/** One npm package and the documents in it (paths inside `package/`, a trailing `/` for a folder). */
interface CorpusPackage {
  spec: string;
  licence: string;
  kind: "openapi" | "graphql";
  files: string[];
  /** Only this many documents of a folder, picked by a fixed stride (big collections). */
  sample?: number;
}

/** The pinned corpus. Licences checked in each package's own LICENSE/package.json. */
export const CORPUS: CorpusPackage[] = [
  // ReadMe's edge-case collection: Swagger 2.0, OpenAPI 3.0 and 3.1, JSON and YAML.
  {
    spec: "@readme/oas-examples@8.2.2",
    licence: "MIT",
    kind: "openapi",
    files: ["2.0/json/", "3.0/json/", "3.0/json/openapi-workshop/", "3.1/json/", "3.1/yaml/"],
  },
  // Scalar's 3.1 example API (webhooks, every security kind, nested allOf).
  {
    spec: "@scalar/galaxy@0.6.12",
    licence: "MIT",
    kind: "openapi",
    files: ["dist/3.1.yaml"],
  },
  // Blockfrost (Cardano): a real 3.0 YAML API of ~120 operations.
  {
    spec: "@blockfrost/openapi@0.1.93",
    licence: "MIT",
    kind: "openapi",
    files: ["openapi.yaml"],
  },
  // Shopify's Storefront and Customer Account APIs as introspection results: interfaces,
  // unions, input objects, custom scalars, deprecated fields.
  {
    spec: "@shopify/hydrogen-react@2026.4.4",
    licence: "MIT",
    kind: "graphql",
    files: ["storefront.schema.json", "customer-account.schema.json"],
  },
];

type Outcome =
  | { status: "accepted"; tools: number; exposed: number; skipped: string[] }
  | { status: "refused"; code: string; exposed: number; causes: string[] }
  | { status: "crashed"; exposed: number; error: string };

interface Row {
  document: string;
  kind: "openapi" | "graphql";
  bytes: number;
  ms: number;
  outcome: Outcome;
}

const CACHE = new URL("../.data/api_corpus/", import.meta.url);

async function unpacked(spec: string): Promise<string> {
  const dir = new URL(`${spec.replace(/[/@]/g, "_")}/`, CACHE);
  try {
    await Deno.stat(new URL("package/package.json", dir));
    return dir.pathname;
  } catch {
    // fetched below
  }
  await Deno.mkdir(dir, { recursive: true });
  const pack = await new Deno.Command("npm", {
    args: ["pack", spec, "--silent", "--pack-destination", dir.pathname],
    stderr: "inherit",
  }).output();
  if (!pack.success) throw new Error(`npm pack ${spec} failed`);
  const tarball = new TextDecoder().decode(pack.stdout).trim().split("\n").at(-1)!;
  const untar = await new Deno.Command("tar", {
    args: ["xzf", `${dir.pathname}${tarball}`, "-C", dir.pathname],
  }).output();
  if (!untar.success) throw new Error(`cannot unpack ${tarball}`);
  return dir.pathname;
}

async function documentsOf(entry: CorpusPackage): Promise<{ name: string; path: string }[]> {
  const root = `${await unpacked(entry.spec)}package/`;
  const out: { name: string; path: string }[] = [];
  for (const file of entry.files) {
    if (!file.endsWith("/")) {
      out.push({ name: `${entry.spec}/${file}`, path: root + file });
      continue;
    }
    const names: string[] = [];
    for await (const item of Deno.readDir(root + file)) {
      if (item.isFile && /\.(json|ya?ml)$/.test(item.name)) names.push(item.name);
    }
    names.sort();
    const stride = entry.sample ? Math.max(1, Math.floor(names.length / entry.sample)) : 1;
    for (let i = 0; i < names.length; i += stride) {
      out.push({ name: `${entry.spec}/${file}${names[i]}`, path: root + file + names[i] });
    }
  }
  return out;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head"];

/** Every operation id a tenant could list in `expose` (as `openapiPlans` names them). */
function openapiIds(document: Record<string, unknown>): string[] {
  const ids: string[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, unknown>)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, unknown> | null)?.[method] as
        | Record<string, unknown>
        | undefined;
      if (!operation || typeof operation !== "object") continue;
      const id = typeof operation.operationId === "string" && operation.operationId.trim()
        ? operation.operationId
        : `${method} ${path}`;
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

function graphqlIds(text: string): string[] {
  const schema = parseGraphqlSchema(text);
  return [
    ...Object.keys(schema.getQueryType()?.getFields() ?? {}).map((name) => `query.${name}`),
    ...Object.keys(schema.getMutationType()?.getFields() ?? {}).map((name) => `mutation.${name}`),
  ];
}

/** A refusal's cause without the names in it, so that one cause counts once per document. */
function causeOf(message: string): string {
  return message
    .replace(/^Operation [^:]+: /, "")
    .replace(/\(#[^)]*\)$/, "")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/`[^`]*`/g, "`…`")
    .replace(/\b[a-z0-9]+_[a-z0-9_]+\b/g, "<tool>")
    .replace(/#\/\S+/g, "#/…")
    .replace(/\d+/g, "N")
    .trim()
    .slice(0, 140);
}

let tenant = 0;
async function run(kind: "openapi" | "graphql", text: string): Promise<Outcome> {
  let ids: string[];
  try {
    ids = kind === "openapi" ? openapiIds((await parseOpenapi(text)).document) : graphqlIds(text);
  } catch (error) {
    if (!(error instanceof GenerationError)) {
      return { status: "crashed", exposed: 0, error: String((error as Error).stack ?? error) };
    }
    // Refused while reading: registration says the same, below.
    ids = [];
  }
  const exposed = ids.slice(0, MAX_OPERATIONS);
  try {
    const generated = await generateChecked(
      { orgId: `corpus-${++tenant}`, name: "api", kind, expose: exposed },
      text,
      GENERATED_TOOLS_ENGINE,
    );
    return {
      status: "accepted",
      tools: generated.plans.length,
      exposed: exposed.length,
      skipped: generated.skipped.map((left) => `${left.operation}: ${causeOf(left.reason)}`),
    };
  } catch (error) {
    if (error instanceof ToolFailure) {
      const causes = (error.fields ?? []).map((field) => causeOf(field.message));
      return {
        status: "refused",
        code: error.code,
        exposed: exposed.length,
        causes: causes.length ? causes : [causeOf(error.userMessage)],
      };
    }
    return {
      status: "crashed",
      exposed: exposed.length,
      error: String((error as Error).stack ?? error).slice(0, 800),
    };
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { json: { type: "string" }, only: { type: "string" } },
  });
  const documents: { name: string; kind: "openapi" | "graphql"; text: () => Promise<string> }[] =
    [];
  for (const entry of CORPUS) {
    for (const doc of await documentsOf(entry)) {
      documents.push({
        name: doc.name,
        kind: entry.kind,
        text: () => Deno.readTextFile(doc.path),
      });
    }
  }
  documents.push({
    name: "@octokit/openapi/generated/api.github.com.json",
    kind: "openapi",
    text: () =>
      Deno.readTextFile(
        new URL(import.meta.resolve("@octokit/openapi/generated/api.github.com.json")),
      ),
  }, {
    name: "@octokit/graphql-schema (introspection)",
    kind: "graphql",
    text: () => Promise.resolve(JSON.stringify(githubGraphql.json)),
  });
  const rows: Row[] = [];
  for (const doc of documents) {
    if (values.only && !doc.name.includes(values.only)) continue;
    const text = await doc.text();
    const started = performance.now();
    const outcome = await run(doc.kind, text);
    const ms = performance.now() - started;
    rows.push({ document: doc.name, kind: doc.kind, bytes: text.length, ms, outcome });
    const o = outcome;
    const what = o.status === "accepted"
      ? `accepted ${o.tools}/${o.exposed} tools${
        o.skipped.length ? `; skipped ${o.skipped.join(" | ")}` : ""
      }`
      : o.status === "refused"
      ? `refused ${o.code} (${o.exposed} exposed): ${o.causes.slice(0, 3).join(" | ")}`
      : `CRASHED: ${o.error.split("\n").slice(0, 3).join(" ")}`;
    console.log(`${doc.name.padEnd(70)} ${ms.toFixed(0).padStart(6)} ms  ${what}`);
  }
  const accepted = rows.filter((row) => row.outcome.status === "accepted");
  const refused = rows.filter((row) => row.outcome.status === "refused");
  const crashed = rows.filter((row) => row.outcome.status === "crashed");
  const tools = accepted.reduce(
    (sum, row) => sum + (row.outcome as { tools: number }).tools,
    0,
  );
  console.log(
    `\n${rows.length} documents: ${accepted.length} accepted (${tools} tools), ${refused.length} refused, ${crashed.length} crashed; ${
      rows.reduce((sum, row) => sum + row.ms, 0).toFixed(0)
    } ms in all`,
  );
  const byCause = new Map<string, number>();
  for (const row of refused) {
    const outcome = row.outcome as { code: string; causes: string[] };
    for (const cause of new Set(outcome.causes)) {
      const key = `${outcome.code}: ${cause}`;
      byCause.set(key, (byCause.get(key) ?? 0) + 1);
    }
  }
  for (const [cause, count] of [...byCause].sort((a, b) => b[1] - a[1])) {
    console.log(`${String(count).padStart(4)}  ${cause}`);
  }
  if (values.json) await Deno.writeTextFile(values.json, JSON.stringify(rows, null, 1));
}

if (import.meta.main) await main();
