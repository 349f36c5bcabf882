/**
 * The tools a tenant's staff use to bring their own API: register a source
 * by document or allowlisted URL (`api_source_register`), list them
 * (`api_source_list`), remove one (`api_source_remove`), and set the
 * credential of a security scheme (`api_credential_set`, sealed before it
 * reaches the database). All are staff tools (`auth: "staff"`: anyone else
 * is refused before the arguments are read; the allowlist tools further
 * need an admin) and run as the caller (RLS fences the rows);
 * the changes bump the tenant's catalog version in their own transaction, so
 * every instance regenerates on its next sync.
 *
 * Registration is checked in full before anything is written: the document
 * parses and maps, every generated name is free (not a platform tool, not
 * another source's), and every tool exports in every dialect. One problem
 * and nothing is registered.
 *
 * @module
 */
import type { GraphQLSchema } from "graphql";
import { z } from "zod";
import { type FieldIssue, ToolFailure } from "@shared/contract/result.ts";
import { DECIDING_FORMATS, exportTools } from "@shared/export/export_tools.ts";
import { ToolExportError } from "@shared/export/batch.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool, serviceKey } from "@shared/registry/define_tool.ts";
import { bindPlan, planExportKey } from "./bind.ts";
import { exampleFromSchema } from "./json_schema_zod.ts";
import type { CredentialBox } from "./credential_box.ts";
import type { GeneratedToolsEngine } from "./sync_engine.ts";
import {
  bytesOverLimit,
  documentHash,
  GenerationError,
  MAX_DOCUMENT_BYTES,
  type OperationPlan,
  type OperationPlans,
  type SkippedOperation,
} from "./operation.ts";
import { checkTarget, type Resolver, safeFetch, SafeFetchError } from "./safe_fetch.ts";
import {
  openSignedPlans,
  PlanSignatureError,
  type SignedPlans,
  signedPlansColumns,
  signedPlansOf,
  type SignedPlansRow,
  signPlans,
  storeAndLoadPlans,
  STORED_PLAN_VERSION,
  type StoredPlans,
} from "./stored_plan.ts";

// The GraphQL introspection query (graphql-js's `getIntrospectionQuery()`, without descriptions
// of directives' arguments), kept here so the tools need not carry the graphql package.
const INTROSPECTION_QUERY =
  `query IntrospectionQuery { __schema { queryType { name } mutationType { name }
subscriptionType { name } types { ...FullType } directives { name description locations args { ...InputValue } } } }
fragment FullType on __Type { kind name description fields(includeDeprecated: true) { name description
args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason } inputFields { ...InputValue }
interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }`;

/** What the source tools need from the composition root. */
export interface GeneratedToolsService {
  /** The generator; absent where this function does not serve generated tools. */
  engine?: GeneratedToolsEngine;
  /** Seals credentials. */
  box: CredentialBox;
  /** Whether a name is a platform (global) tool, which a tenant's tool may never take. */
  isPlatformTool(name: string): boolean;
  /** DNS resolution for document fetches and base-URL checks (tests inject one). */
  resolve?: Resolver;
}

/** The service key the root provides. */
export const GENERATED_TOOLS = serviceKey<GeneratedToolsService>("platform.generated_tools");

/** What the source tools change: after one succeeds, the platform syncs the tenant at once. */
export const SOURCE_WRITES = "writes.api_sources";

const SOURCE_NAME = z.string().regex(
  /^[a-z][a-z0-9]{0,23}$/,
  "must be 1 to 24 lower-case letters and digits, starting with a letter",
);

interface Settings {
  url_allowlist: string[];
  allow_private_network: boolean;
}

async function settingsOf(db: Queryable, orgId: string): Promise<Settings> {
  const [row] = await db.query<Settings>(
    "select url_allowlist, allow_private_network from public.api_source_settings where org_id = $1",
    [orgId],
  );
  return row ?? { url_allowlist: [], allow_private_network: false };
}

const registerInput = z.strictObject({
  name: SOURCE_NAME.describe(
    "The source's name: every generated tool starts with it (petstore → petstore_list_pets).",
  ),
  kind: z.enum(["openapi", "graphql"]),
  document: z.string().min(1).max(MAX_DOCUMENT_BYTES).optional().describe(
    "The document itself: OpenAPI 3.0/3.1 as JSON or YAML, or GraphQL SDL or introspection JSON.",
  ),
  url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe(
    "Where to fetch the document (OpenAPI) or the endpoint to introspect (GraphQL); its host must be on the org's allowlist.",
  ),
  base_url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe(
    "Where calls go; default the document's first server (OpenAPI) or the url (GraphQL).",
  ),
  expose: z.array(z.string().min(1).max(200)).max(500).optional().describe(
    "OpenAPI: operationIds exposed beyond those marked x-agent: {action: true}. GraphQL: the fields to expose, as query.<field> or mutation.<field>.",
  ),
}).superRefine((value, ctx) => {
  if ((value.document === undefined) === (value.url === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["document"],
      message: "give exactly one of document or url",
    });
  }
  if (value.kind === "graphql" && !value.expose?.length) {
    ctx.addIssue({
      code: "custom",
      path: ["expose"],
      message: "name the GraphQL fields to expose",
    });
  }
});

const toolSummary = z.object({
  name: z.string(),
  title: z.string(),
  read_only: z.boolean(),
  confirm_required: z.boolean(),
  needs_credential: z.boolean(),
});

const skippedList = z.array(z.object({
  operation: z.string(),
  path: z.string().describe("JSON pointer of the part that cannot be mapped."),
  reason: z.string(),
})).describe("Exposed operations left out because they cannot be mapped, and why.");

const notOfferedList = z.array(z.object({
  tool: z.string(),
  format: z.string().describe("The export dialect whose listings leave the tool out."),
  reason: z.string(),
})).describe(
  "Tools registered but left out of one export dialect's listings (e.g. gemini), which cannot express their input, and why; every other dialect lists them.",
);

const registerOutput = z.object({
  source_id: z.uuid(),
  name: z.string(),
  kind: z.enum(["openapi", "graphql"]),
  base_url: z.string(),
  document_hash: z.string(),
  replaced: z.boolean().describe("Whether a source of that name was there and is now replaced."),
  tools: z.array(toolSummary),
  skipped: skippedList,
  not_offered: notOfferedList,
});

interface Prepared {
  document: string;
  hash: string;
  baseUrl: string;
  sourceUrl: string | null;
  plans: OperationPlan[];
  /** Exposed operations left out (named in the answer). */
  skipped: readonly SkippedOperation[];
  /** Tools one dialect cannot carry (named in the answer). */
  notOffered: readonly NotOffered[];
  /** The plans as stored next to the document, signed, for every other instance to read. */
  signed: SignedPlans;
}

function generationFailure(error: GenerationError): ToolFailure {
  const fields: FieldIssue[] = error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.startsWith("expose") ? "expose" : "document",
    message: `${issue.message} (${issue.path})`,
  }));
  return new ToolFailure("VALIDATION_ERROR", error.message.slice(0, 500), { fields });
}

function fetchFailure(error: SafeFetchError, field: string): ToolFailure {
  const code = error.kind === "timeout" ? "TIMEOUT" : "VALIDATION_ERROR";
  return new ToolFailure(code, `Cannot use ${field}: ${error.message}`, {
    fields: [{ path: field, message: error.message }],
  });
}

/** `api_source_register`: a tenant's API by document or allowlisted URL, as tools. */
export const apiSourceRegister = defineTool({
  name: "api_source_register",
  title: "Register an API",
  description:
    "Staff only. Registers the org's own API from an OpenAPI 3.0/3.1 document or a GraphQL schema (given, or fetched from a URL on the org's allowlist) and generates one tool per exposed operation, named <name>_<operation>. Replaces a source of the same name. Nothing is registered if any operation cannot be mapped or any name is taken.",
  category: "platform",
  input: registerInput,
  output: registerOutput,
  examples: [{
    description: "A small OpenAPI document given inline",
    input: {
      name: "petstore",
      kind: "openapi",
      document:
        '{"openapi":"3.1.0","info":{"title":"Pets","version":"1"},"servers":[{"url":"https://api.example.com"}],"paths":{"/pets":{"get":{"operationId":"listPets","x-agent":{"action":true},"responses":{"200":{"description":"ok"}}}}}}',
    },
  }],
  sideEffects: SOURCE_WRITES,
  auth: "staff",
  confirmRequired: true,
  latencyBudgetMs: 2000,
  timeoutMs: 30_000,
  confirmSummary: (args) =>
    `Register the ${args.kind === "openapi" ? "OpenAPI" : "GraphQL"} API "${args.name}"${
      args.url ? ` from ${new URL(args.url).host}` : ""
    } and generate its tools`,
  async prepare(args, ctx): Promise<Prepared> {
    const orgId = ctx.org_id!;
    const service = ctx.services.get(GENERATED_TOOLS);
    const engine = service.engine;
    const readers = engine?.readers;
    if (!engine || !readers) {
      throw new ToolFailure(
        "SERVICE_UNAVAILABLE",
        "APIs are registered through the tools function: nothing was registered",
      );
    }
    const settings = await settingsOf(ctx.read, orgId);
    const fetchOptions = {
      allowPrivateNetwork: settings.allow_private_network,
      resolve: service.resolve,
      signal: ctx.signal,
      timeoutMs: 15_000,
      maxBytes: MAX_DOCUMENT_BYTES,
    };
    let document = args.document ?? "";
    if (args.url) {
      const host = new URL(args.url).hostname.toLowerCase();
      if (!settings.url_allowlist.includes(host)) {
        throw new ToolFailure("VALIDATION_ERROR", `${host} is not on the org's URL allowlist`, {
          fields: [{ path: "url", message: `${host} is not on the allowlist` }],
        });
      }
      try {
        if (args.kind === "openapi") {
          const response = await safeFetch(args.url, {}, { ...fetchOptions, accept: "text" });
          if (response.status !== 200) {
            throw new SafeFetchError("network", `${host} answered HTTP ${response.status}`);
          }
          document = response.text;
        } else {
          const response = await safeFetch(args.url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify({ query: INTROSPECTION_QUERY }),
          }, fetchOptions);
          if (response.status !== 200) {
            throw new SafeFetchError("network", `${host} answered HTTP ${response.status}`);
          }
          document = readers.graphqlSdl(response.text);
        }
      } catch (error) {
        if (error instanceof SafeFetchError) throw fetchFailure(error, "url");
        if (error instanceof GenerationError) throw generationFailure(error);
        throw error;
      }
    }
    const { document: stored0, hash, plans, skipped, notOffered, stored } = await generateChecked(
      { orgId, name: args.name, kind: args.kind, expose: args.expose ?? [] },
      document,
      engine,
    );
    document = stored0;
    const baseUrl = args.base_url ?? (args.kind === "graphql" ? args.url : undefined) ??
      firstServer(document, args.url);
    if (!baseUrl) {
      throw new ToolFailure(
        "VALIDATION_ERROR",
        "Give base_url: the document names no server, or only a relative one",
        {
          fields: [{
            path: "base_url",
            message: "required when the document has no absolute server URL",
          }],
        },
      );
    }
    try {
      await checkTarget(new URL(baseUrl), fetchOptions);
    } catch (error) {
      if (error instanceof SafeFetchError) throw fetchFailure(error, "base_url");
      throw error;
    }
    // Names: never a platform tool's; never another of this tenant's sources'.
    const others = await ctx.read.query<{ name: string; tools: string[] }>(
      "select name, tools from public.api_sources where org_id = $1 and name <> $2",
      [orgId, args.name],
    );
    const taken: FieldIssue[] = [];
    for (const plan of plans) {
      const owner = service.isPlatformTool(plan.name)
        ? "a platform tool"
        : others.find((other) => other.tools.includes(plan.name))?.name;
      if (owner) {
        taken.push({
          path: "document",
          message: `${plan.origin} becomes ${plan.name}, which is taken by ${
            owner === "a platform tool" ? owner : `source ${owner}`
          }`,
        });
      }
    }
    if (taken.length) {
      throw new ToolFailure(
        "CONFLICT",
        `Nothing was registered: ${taken.map((issue) => issue.message).slice(0, 5).join("; ")}`,
        { fields: taken },
      );
    }
    // Signed here, on the platform's side: a row written any other way is refused when read.
    const signed = await signPlans(stored, {
      orgId,
      name: args.name,
      kind: args.kind,
      documentHash: hash,
      baseUrl,
      expose: args.expose ?? [],
    }, service.box);
    return {
      document,
      hash,
      baseUrl,
      sourceUrl: args.url ?? null,
      plans,
      skipped,
      notOffered,
      signed,
    };
  },
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const prepared = ctx.prepared as Prepared;
    const names = prepared.plans.map((plan) => plan.name);
    const [row] = await ctx.db.query<{ id: string; replaced: boolean }>(
      `insert into public.api_sources
         (org_id, name, kind, document, document_hash, source_url, base_url, expose, tools, created_by,
          plans, skipped, not_offered)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb, $12::text::jsonb,
               $13::text::jsonb)
       on conflict (org_id, name) do update set
         kind = excluded.kind, document = excluded.document, document_hash = excluded.document_hash,
         source_url = excluded.source_url, base_url = excluded.base_url, expose = excluded.expose,
         tools = excluded.tools, plans = excluded.plans, skipped = excluded.skipped,
         not_offered = excluded.not_offered, updated_at = now()
       returning id, (xmax <> 0) as replaced`,
      [
        orgId,
        args.name,
        args.kind,
        prepared.document,
        prepared.hash,
        prepared.sourceUrl,
        prepared.baseUrl,
        args.expose ?? [],
        names,
        ctx.user_id,
        JSON.stringify(prepared.signed),
        JSON.stringify(prepared.skipped),
        JSON.stringify(prepared.notOffered),
      ],
    );
    return {
      source_id: row.id,
      name: args.name,
      kind: args.kind,
      base_url: prepared.baseUrl,
      document_hash: prepared.hash,
      replaced: row.replaced,
      tools: prepared.plans.map((plan) => ({
        name: plan.name,
        title: plan.title,
        read_only: plan.readOnly,
        confirm_required: plan.destructive,
        needs_credential: plan.send.kind === "http" && plan.send.security.length > 0,
      })),
      skipped: prepared.skipped.map((left) => ({ ...left })),
      not_offered: prepared.notOffered.map((left) => ({ ...left })),
    };
  },
});

/** A registered tool that one export dialect's listings leave out, and why. */
export interface NotOffered {
  /** The tool's name. */
  tool: string;
  /** The dialect (`gemini`, `anthropic`). */
  format: string;
  /** Why that dialect cannot carry it. */
  reason: string;
}

/** What registration makes of a document before anything is written. */
export interface Generated {
  /** As stored: OpenAPI validated, as JSON; GraphQL as given (introspection JSON or SDL). */
  document: string;
  /** SHA-256 hex of `document`. */
  hash: string;
  /** The plans made. */
  plans: OperationPlan[];
  /** Exposed operations left out because they cannot be mapped (the answer names them). */
  skipped: readonly SkippedOperation[];
  /** Tools registered that one export dialect cannot carry (the answer names them). */
  notOffered: readonly NotOffered[];
  /** The plans as stored (before signing). */
  stored: StoredPlans;
}

/** Registrations made on this instance, by tenant, name, kind, exposure and the text given. */
const GENERATED_LIMIT = 16;
const generatedCache = new Map<string, Generated>();

/**
 * Reads, validates and maps a document, stores its plans and checks that every
 * tool exports in every dialect. The same text registered again by the same
 * tenant under the same name and exposure (a retry, the confirmation's second
 * call, another staff member) is answered from this instance's cache: the
 * result depends on nothing else, and it was checked in full the first time.
 * Exported for the benchmark (`bench/generated_tools_bench.ts`).
 *
 * @throws {ToolFailure} `VALIDATION_ERROR` naming what cannot be read, mapped or exported.
 */
export async function generateChecked(
  key: { orgId: string; name: string; kind: "openapi" | "graphql"; expose: readonly string[] },
  text: string,
  engine: GeneratedToolsEngine,
): Promise<Generated> {
  const readers = engine.readers!;
  let document: string;
  let plans: OperationPlans;
  let hash = "";
  let cacheKey = "";
  try {
    checkSize(text);
    const textHash = await documentHash(text);
    cacheKey = [key.orgId, key.name, key.kind, textHash, ...key.expose].join("\n");
    const hit = generatedCache.get(cacheKey);
    if (hit) {
      generatedCache.delete(cacheKey);
      generatedCache.set(cacheKey, hit);
      return hit;
    }
    // Stored as read: OpenAPI validated and as JSON; GraphQL as given, an introspection answer or
    // SDL (every instance maps either).
    let parsed: Record<string, unknown> | undefined;
    let graphqlSchema: GraphQLSchema | undefined;
    if (key.kind === "graphql") {
      // The schema just read is mapped as it is, not parsed again from what is stored.
      if (readers.graphqlRead) {
        ({ document, schema: graphqlSchema } = readers.graphqlRead(text));
      } else document = readers.graphqlSdl(text);
    } else if (readers.openapiRead) {
      ({ json: document, document: parsed } = await readers.openapiRead(text));
    } else document = await readers.openapiJson(text);
    // A JSON document read unchanged is stored as given: its hash is the one just made.
    hash = document === text ? textHash : await documentHash(document);
    // The document just read is mapped as it is: its JSON is stored, not parsed again.
    plans = await engine.plan({
      orgId: key.orgId,
      name: key.name,
      kind: key.kind,
      document,
      documentHash: hash,
      expose: key.expose,
    }, parsed ? { parsed } : graphqlSchema ? { graphqlSchema } : undefined);
  } catch (error) {
    if (error instanceof GenerationError) throw generationFailure(error);
    throw error;
  }
  if (plans.length === 0) {
    throw new ToolFailure(
      "VALIDATION_ERROR",
      "The document exposes no operation: mark some x-agent: {action: true}, or list them in expose",
      { fields: [{ path: "expose", message: "no operation exposed" }] },
    );
  }
  // Examples and exports do not depend on where calls go: a placeholder binding.
  const binding = {
    orgId: key.orgId,
    source: key.name,
    baseUrl: "https://api.invalid",
    allowPrivateNetwork: false,
    credential: () => Promise.resolve(null),
    // The checks below convert each tool once for this process: listings and other tenants'
    // syncs of the same document reuse them (shared/export/export_cache.ts).
    exportKey: planExportKey(key.kind, hash, STORED_PLAN_VERSION),
  };
  // Stored once here, so other instances read the plans instead of mapping the document; the
  // exports below are then made from the stored schemas, exactly as those instances list them.
  let stored: StoredPlans;
  let bound;
  try {
    // Each input's JSON Schema is made once (OpenAPI: straight from the document); its example
    // is made from it (as bindPlan would) and checked, building only the checks of the fields
    // it has. Calls build the others when they need them.
    const both = storeAndLoadPlans(plans, examplesFromStored, key.name);
    stored = both.stored;
    bound = both.loaded.map((plan) => bindPlan(plan, binding));
  } catch (error) {
    if (error instanceof GenerationError) throw generationFailure(error);
    throw error;
  }
  // The dialects that can refuse a tool are tried here (the others follow from them and are built
  // on a listing's first request; DECIDING_FORMATS says why). JSON Schema is what every dialect,
  // MCP's included, is made from: a tool it cannot carry cannot be offered anywhere, and refuses
  // the document. A tool another dialect cannot carry (Gemini's subset has no way to say some
  // unions) is still registered: that dialect's listings leave it out (`exportLeavingOut`), and
  // the answer says so.
  const notOffered: NotOffered[] = [];
  for (const format of DECIDING_FORMATS) {
    try {
      exportTools(bound, format);
    } catch (error) {
      if (format === "jsonschema" || !(error instanceof ToolExportError)) {
        throw new ToolFailure(
          "VALIDATION_ERROR",
          `A generated tool cannot be offered to models (${format}): ${
            String(error).slice(0, 300)
          }`,
          { fields: [{ path: "document", message: `not exportable as ${format}` }] },
        );
      }
      for (const issue of error.issues) {
        notOffered.push({ tool: issue.tool, format, reason: issue.reason.slice(0, 300) });
      }
    }
  }
  const generated = { document, hash, plans, skipped: plans.skipped ?? [], notOffered, stored };
  generatedCache.set(cacheKey, generated);
  if (generatedCache.size > GENERATED_LIMIT) {
    generatedCache.delete(generatedCache.keys().next().value!);
  }
  return generated;
}

/**
 * A plan's example as {@link bindPlan} makes it, from the input's JSON Schema being stored
 * (`storeAndLoadPlans` drops it if the input refuses it).
 */
function examplesFromStored(
  plan: OperationPlan,
  input: Record<string, unknown>,
): Record<string, unknown> | undefined {
  return plan.example ?? exampleFromSchema(input, input) as Record<string, unknown>;
}

// The limit holds before any parsing, whichever way the document came.
function checkSize(document: string): string {
  const bytes = bytesOverLimit(document);
  if (bytes !== null) {
    throw new GenerationError([{
      path: "document",
      message: `The document is ${bytes} bytes; at most ${MAX_DOCUMENT_BYTES} are read`,
    }]);
  }
  return document;
}

function firstServer(document: string, documentUrl: string | undefined): string | undefined {
  let servers: unknown;
  try {
    servers = (JSON.parse(document) as { servers?: unknown }).servers;
  } catch {
    const match = /^servers:\s*\n\s*-\s*url:\s*['"]?([^'"\s]+)/m.exec(document);
    servers = match ? [{ url: match[1] }] : undefined;
  }
  const server = Array.isArray(servers)
    ? servers[0] as { url?: unknown; variables?: Record<string, { default?: unknown }> }
    : undefined;
  if (typeof server?.url !== "string") return undefined;
  // Server variables take their defaults: https://{region}.api.example → https://eu.api.example.
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (whole, name: string) => String(server.variables?.[name]?.default ?? whole),
  );
  try {
    return new URL(url, documentUrl).href;
  } catch {
    return undefined;
  }
}

/** `api_source_list`: the org's API sources and their tools; never a credential. */
export const apiSourceList = defineTool({
  name: "api_source_list",
  title: "List registered APIs",
  description:
    "Staff only. The org's registered APIs: name, kind, base URL, the tools generated, the operations left out and the tools an export dialect cannot offer (and why), and which security schemes have a credential set (never the credential).",
  category: "platform",
  input: z.strictObject({}),
  output: z.object({
    sources: z.array(z.object({
      source_id: z.uuid(),
      name: z.string(),
      kind: z.enum(["openapi", "graphql"]),
      base_url: z.string(),
      source_url: z.string().nullable(),
      document_hash: z.string(),
      expose: z.array(z.string()),
      tools: z.array(z.string()),
      credential_schemes: z.array(z.string()),
      updated_at: z.string(),
      status: z.enum(["active", "refused"]).describe(
        "refused: the row does not carry plans the platform signed for it (changed outside api_source_register); its tools are not offered until it is registered again.",
      ),
      problem: z.string().nullable().describe("Why it is refused, or null."),
      skipped: skippedList.nullable().describe(
        "Exposed operations registration left out because they cannot be mapped, and why; null: registered before this was recorded (register it again to see).",
      ),
      not_offered: notOfferedList.nullable().describe(
        "Tools registered but left out of one export dialect's listings, and why; null: registered before this was recorded (register it again to see).",
      ),
    })),
  }),
  examples: [{ input: {} }],
  sideEffects: "none",
  auth: "staff",
  async execute(_args, ctx) {
    const orgId = ctx.org_id!;
    const rows = await ctx.db.query<Record<string, unknown> & SignedPlansRow>(
      `select s.id as source_id, s.name, s.kind, s.base_url, s.source_url, s.document_hash,
              s.expose, s.tools, s.updated_at::text as updated_at,
              ${signedPlansColumns("s.plans")}, s.skipped,
              s.not_offered,
              coalesce((select array_agg(c.scheme order by c.scheme) from public.api_credentials c
                        where c.source_id = s.id), '{}') as credential_schemes
       from public.api_sources s where s.org_id = $1 order by s.name`,
      [orgId],
    );
    const box = ctx.services.get(GENERATED_TOOLS).box;
    const sources = [];
    for (const { plans_signed, plans_text, plans_sig, plans_key_id, ...row } of rows) {
      let problem: string | null = null;
      try {
        await openSignedPlans(
          signedPlansOf({ plans_signed, plans_text, plans_sig, plans_key_id }),
          {
            orgId,
            name: String(row.name),
            kind: String(row.kind),
            documentHash: String(row.document_hash),
            baseUrl: String(row.base_url),
            expose: row.expose as string[],
          },
          box,
        );
      } catch (error) {
        if (!(error instanceof PlanSignatureError)) throw error;
        problem = error.message;
      }
      sources.push({ ...row, status: problem ? "refused" : "active", problem });
    }
    return { sources } as never;
  },
});

/** `api_source_remove`: takes a source and its tools and credentials away. */
export const apiSourceRemove = defineTool({
  name: "api_source_remove",
  title: "Remove a registered API",
  description:
    "Staff only. Removes one of the org's registered APIs, its generated tools and its credentials.",
  category: "platform",
  input: z.strictObject({ name: SOURCE_NAME }),
  output: z.object({ name: z.string(), removed_tools: z.array(z.string()) }),
  examples: [{ input: { name: "petstore" } }],
  sideEffects: SOURCE_WRITES,
  auth: "staff",
  confirmRequired: true,
  confirmSummary: (args) => `Remove the API "${args.name}" and every tool made from it`,
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const [row] = await ctx.db.query<{ tools: string[] }>(
      "delete from public.api_sources where org_id = $1 and name = $2 returning tools",
      [orgId, args.name],
    );
    if (!row) throw new ToolFailure("NOT_FOUND", `No API named ${args.name}`);
    return { name: args.name, removed_tools: row.tools };
  },
});

const credentialInput = z.strictObject({
  source: SOURCE_NAME.describe("The registered API's name."),
  scheme: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).describe(
    "The security scheme's name in the document (components.securitySchemes); for GraphQL, default.",
  ),
  secret: z.string().min(1).max(4096).optional().describe("The API key or bearer token."),
  username: z.string().min(1).max(256).optional().describe("For HTTP basic."),
  password: z.string().min(1).max(1024).optional().describe("For HTTP basic."),
}).superRefine((value, ctx) => {
  const basic = value.username !== undefined || value.password !== undefined;
  if (basic === (value.secret !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["secret"],
      message: "give a secret, or a username and password",
    });
  } else if (basic && (value.username === undefined || value.password === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["password"],
      message: "basic needs both username and password",
    });
  }
});

/** `api_credential_set`: the org's credential for a scheme, sealed before it is stored. */
export const apiCredentialSet = defineTool({
  name: "api_credential_set",
  title: "Set an API credential",
  description:
    "Staff only. Stores the org's credential for one security scheme of a registered API, encrypted. It is sent only with that API's calls and is never shown again, to anyone.",
  category: "platform",
  input: credentialInput,
  output: z.object({ source: z.string(), scheme: z.string(), replaced: z.boolean() }),
  examples: [{ input: { source: "petstore", scheme: "ApiKeyAuth", secret: "sk_live_example" } }],
  sideEffects: SOURCE_WRITES,
  auth: "staff",
  confirmRequired: true,
  // The read-back names where the credential goes, never the credential.
  confirmSummary: (args) => `Set the credential of ${args.source} (${args.scheme})`,
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const [source] = await ctx.db.query<{ id: string }>(
      "select id from public.api_sources where org_id = $1 and name = $2",
      [orgId, args.source],
    );
    if (!source) throw new ToolFailure("NOT_FOUND", `No API named ${args.source}`);
    const secret = args.secret !== undefined
      ? JSON.stringify({ value: args.secret })
      : JSON.stringify({ username: args.username, password: args.password });
    const sealed = await ctx.services.get(GENERATED_TOOLS).box.seal(secret, {
      orgId,
      sourceId: source.id,
      scheme: args.scheme,
    });
    const [row] = await ctx.db.query<{ replaced: boolean }>(
      `insert into public.api_credentials (org_id, source_id, scheme, ciphertext, key_id)
       values ($1, $2, $3, $4, $5)
       on conflict (source_id, scheme) do update
         set ciphertext = excluded.ciphertext, key_id = excluded.key_id, updated_at = now()
       returning (xmax <> 0) as replaced`,
      [orgId, source.id, args.scheme, sealed.ciphertext, sealed.keyId],
    );
    return { source: args.source, scheme: args.scheme, replaced: row.replaced };
  },
});

// Stricter than the descriptors' staff rule: only the org's admins decide where documents come from.
async function requireAdmin(db: Queryable, orgId: string | null): Promise<string> {
  if (!orgId) throw new ToolFailure("AUTH_ERROR", "The URL allowlist belongs to one org");
  const [admin] = await db.query(
    "select 1 from private.my_memberships v where v.org_id = $1 and v.role = 'admin'",
    [orgId],
  );
  if (!admin) throw new ToolFailure("AUTH_ERROR", "Only the org's admins manage its URL allowlist");
  return orgId;
}

const allowlistOutput = z.object({
  hosts: z.array(z.string()),
  allow_private_network: z.boolean(),
});

/** `api_url_allowlist_get`: the hosts the org's API documents may be fetched from. */
export const apiUrlAllowlistGet = defineTool({
  name: "api_url_allowlist_get",
  title: "Show the API URL allowlist",
  description:
    "Org admins only. The hosts an API document may be fetched from (api_source_register with url), and whether the org's APIs may be on a private network (an operator's setting).",
  category: "platform",
  input: z.strictObject({}),
  output: allowlistOutput,
  examples: [{ input: {} }],
  sideEffects: "none",
  auth: "staff",
  async execute(_args, ctx) {
    const orgId = await requireAdmin(ctx.db, ctx.org_id);
    const settings = await settingsOf(ctx.db, orgId);
    return {
      hosts: settings.url_allowlist,
      allow_private_network: settings.allow_private_network,
    };
  },
});

// A host name as URLs carry it (lower case; IDN as punycode), or an IP literal; no scheme,
// port, path or wildcard: the allowlist is matched exactly.
const HOST = z.string().min(1).max(253).transform((host) => host.trim().toLowerCase()).pipe(
  z.string().regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\d{1,3}(?:\.\d{1,3}){3}$/,
    "must be a host name such as api.shop.example (no scheme, port, path or wildcard)",
  ),
);

/** `api_url_allowlist_set`: replaces the org's URL allowlist (org admins only). */
export const apiUrlAllowlistSet = defineTool({
  name: "api_url_allowlist_set",
  title: "Set the API URL allowlist",
  description:
    "Org admins only. Replaces the list of hosts an API document may be fetched from (exact host names, at most 100). Setting the same list again changes nothing. The private-network setting is not changed here.",
  category: "platform",
  input: z.strictObject({
    hosts: z.array(HOST).max(100).describe(
      "The whole allowlist: host names such as api.shop.example. An empty list allows none.",
    ),
  }),
  output: allowlistOutput.extend({ changed: z.boolean() }),
  examples: [{ input: { hosts: ["api.shop.example"] } }],
  sideEffects: "writes.api_source_settings",
  auth: "staff",
  confirmRequired: true,
  confirmSummary: (args) =>
    args.hosts.length
      ? `Allow API documents to be fetched from ${args.hosts.join(", ")} (and no other host)`
      : "Allow API documents to be fetched from no host",
  async execute(args, ctx) {
    const orgId = await requireAdmin(ctx.db, ctx.org_id);
    const hosts = [...new Set(args.hosts)].sort();
    const before = await settingsOf(ctx.db, orgId);
    const same = before.url_allowlist.length === hosts.length &&
      before.url_allowlist.every((host, index) => host === hosts[index]);
    if (same) return { hosts, allow_private_network: before.allow_private_network, changed: false };
    // As the admin, under RLS and column grants: the private-network flag is not theirs to write.
    await ctx.db.query(
      `insert into public.api_source_settings (org_id, url_allowlist, updated_at)
       values ($1, $2, now())
       on conflict (org_id) do update set url_allowlist = excluded.url_allowlist, updated_at = now()`,
      [orgId, hosts],
    );
    return { hosts, allow_private_network: before.allow_private_network, changed: true };
  },
});

/** The source tools and the admins' allowlist tools. */
export const SOURCE_TOOLS = [
  apiSourceRegister,
  apiSourceList,
  apiSourceRemove,
  apiCredentialSet,
  apiUrlAllowlistGet,
  apiUrlAllowlistSet,
];
