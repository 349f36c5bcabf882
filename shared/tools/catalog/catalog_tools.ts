/**
 * Discovery in two steps (seed 003), as tools any agent or client calls
 * through the pipeline: `list_tools` answers the index (names and one-line
 * descriptions by service, with what each service offers automations),
 * `search_tools` ranks the catalog against a need, and
 * `fetch_tool_schemas` answers the full schemas of named tools only. A
 * model that starts from these sees a few hundred tokens instead of every
 * schema, and fetches what it chose.
 *
 * All three read the catalog tables as the caller (row-level security: the
 * shared tools and the caller's own org's) and answer only tools the
 * caller may use (its tenant's policy, its standing: staff tools for the
 * org's staff only, and, for an agent, its allowlist): a tool the caller
 * may not call is neither listed, found nor fetched (a fetch answers it as
 * an unknown name).
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/mod.ts";
import { defineTool, type ExecutionContext } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { createToolSearch, type SearchDocument, type ToolSearch } from "./tool_search.ts";
import { cosine, fuseRankings, type TextEmbedder } from "./tool_embeddings.ts";

/** The category of the discovery tools: an agent with discovery starts with these only. */
export const DISCOVERY_CATEGORY = "discovery";

/** The discovery tools' names. */
export const DISCOVERY_TOOLS = {
  list: "list_tools",
  search: "search_tools",
  fetch: "fetch_tool_schemas",
} as const;

/** Options for {@link createCatalogTools}. */
export interface CatalogToolsOptions {
  /**
   * The tools the caller may use, as the tools function and MCP would list
   * them to it: its tenant's policy, its standing (staff tools for the
   * org's staff only, public tools only for anonymous callers) and, when an
   * agent calls, that agent's allowlist. Nothing else is ever listed,
   * ranked or fetched. `ctx.db` runs as the caller, to read its standing.
   */
  allowed(ctx: ExecutionContext): Promise<ReadonlySet<string>>;
  /**
   * Embeds texts for search by meaning, fused with the keyword ranking; a
   * failure answers by keywords. @default null: keywords only
   */
  embedder?: TextEmbedder | null;
}

interface IndexRow {
  name: string;
  summary: string;
  category: string;
  service: string;
  service_title: string;
}

interface CapabilityRow {
  service_name: string;
  supports_webhooks: boolean;
  supports_polling: boolean;
  webhook_payload_schemas: Record<
    string,
    { description: string; trigger_data_fields: Record<string, string> }
  >;
  notes: string;
}

/** The texts of a tool search ranks on, weighted (a tool's name counts most). */
export function searchDocument(
  row: {
    name: string;
    title: string;
    summary: string;
    description: string;
    category: string;
    keywords: string;
  },
  service: string,
): SearchDocument {
  return {
    name: row.name,
    group: service,
    fields: [
      { text: row.name, weight: 3 },
      { text: row.title, weight: 3 },
      { text: row.summary, weight: 1 },
      { text: row.description, weight: 1 },
      { text: row.category, weight: 1 },
      { text: row.keywords, weight: 0.5 },
    ],
  };
}

/**
 * The index as a model reads it: one line per tool under its service; with
 * `detail`, each service's automation capabilities (events and their
 * `trigger_data` fields, polling, notes), as seed 003's
 * `initial_md_fetch_with_capabilities`.
 */
export function formatIndex(
  rows: readonly IndexRow[],
  capabilities: readonly CapabilityRow[],
  options: { detail: boolean },
): string {
  const byService = new Map<string, IndexRow[]>();
  for (const row of rows) {
    const list = byService.get(row.service) ?? [];
    list.push(row);
    byService.set(row.service, list);
  }
  const caps = new Map(capabilities.map((cap) => [cap.service_name, cap]));
  const lines: string[] = [];
  for (const [service, tools] of byService) {
    const cap = caps.get(service);
    const events = Object.keys(cap?.webhook_payload_schemas ?? {});
    lines.push(
      `## ${service}` + (tools[0].service_title !== service ? ` (${tools[0].service_title})` : "") +
        (events.length && !options.detail ? ` events: ${events.join(", ")}` : ""),
    );
    for (const tool of tools) lines.push(`${tool.name}: ${tool.summary}`);
    if (options.detail && cap) {
      lines.push(
        `Capabilities: webhooks ${cap.supports_webhooks ? "yes" : "no"}, polling ${
          cap.supports_polling ? "yes" : "no"
        }`,
      );
      if (cap.notes) lines.push(`Notes: ${cap.notes}`);
      for (const [event, schema] of Object.entries(cap.webhook_payload_schemas ?? {})) {
        lines.push(`Event ${event}: ${schema.description}`);
        for (const [field, about] of Object.entries(schema.trigger_data_fields)) {
          lines.push(`- ${field}: ${about}`);
        }
      }
    }
  }
  return lines.join("\n");
}

const listInput = z.object({
  service: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/).optional()
    .describe("Only this service's tools, with its automation capabilities."),
  category: z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/).optional()
    .describe("Only tools of this category."),
});

const searchInput = z.object({
  query: z.string().trim().min(1).max(300).describe("The need, in any of en/rw/fr."),
  limit: z.int().min(1).max(20).default(5).describe("How many tools."),
});

const fetchInput = z.object({
  // A tool's name is word characters, dots and dashes (a NUL or a quote names no tool).
  names: z.array(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "not a tool name")).min(1).max(20)
    .refine((names) => new Set(names).size === names.length, "names must not repeat")
    .describe("Tools to fetch, by name, from list_tools or search_tools."),
});

const jsonObject = z.record(z.string(), z.unknown());

const fetchedTool = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  service: z.string(),
  parameters: jsonObject.describe("JSON Schema of the input."),
  returns: jsonObject.describe("JSON Schema of `data` on success."),
  side_effects: z.string(),
  auth: z.enum(["none", "user", "staff", "service"]),
  confirm_required: z.boolean(),
  idempotent: z.boolean(),
});

// The index of search per catalog content: rebuilt only when a row or a service changed.
const SEARCH_CACHE = new Map<string, ToolSearch>();
const SEARCH_CACHE_MAX = 32;
// Each tool's vector by embedder and content: embedded once per process, again only when the
// tool changes (another embedder's vectors are of another space).
const VECTORS = new WeakMap<TextEmbedder, Map<string, number[]>>();
const VECTORS_MAX = 10_000;

/** The tools' names by cosine similarity to the query, best first (embeds what is not kept). */
async function rankByMeaning(
  embedder: TextEmbedder,
  query: string,
  tools: ReadonlyArray<
    { name: string; title: string; description: string; content_hash: string }
  >,
  signal: AbortSignal,
): Promise<string[]> {
  const keyOf = (tool: { name: string; content_hash: string }) =>
    `${tool.name}:${tool.content_hash}`;
  let kept = VECTORS.get(embedder);
  if (!kept) VECTORS.set(embedder, kept = new Map());
  const missing = tools.filter((tool) => !kept.has(keyOf(tool)));
  const vectors = await embedder.embed(
    [query, ...missing.map((tool) => `${tool.name}: ${tool.title}. ${tool.description}`)],
    signal,
  );
  missing.forEach((tool, index) => {
    if (kept.size < VECTORS_MAX) kept.set(keyOf(tool), vectors[index + 1]);
  });
  const fresh = new Map(missing.map((tool, index) => [keyOf(tool), vectors[index + 1]]));
  return tools
    .map((tool) => ({
      name: tool.name,
      score: cosine(vectors[0], kept.get(keyOf(tool)) ?? fresh.get(keyOf(tool)) ?? []),
    }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .map((hit) => hit.name);
}

/**
 * Builds the discovery tools.
 *
 * @param options What the caller may use.
 * @returns `list_tools`, `search_tools` and `fetch_tool_schemas`.
 */
export function createCatalogTools(options: CatalogToolsOptions): AnyTool[] {
  // What the caller may see: active, visible to its org, and allowed; never the discovery tools.
  const usable = async (ctx: ExecutionContext) => {
    const allowed = await options.allowed(ctx);
    return (name: string, category: string) => allowed.has(name) && category !== DISCOVERY_CATEGORY;
  };

  const listTools = defineTool({
    name: DISCOVERY_TOOLS.list,
    title: "List tools",
    description: "The tools you may use, one line each, by service. Give a service to see its " +
      "automation capabilities (events and their trigger_data fields, polling, notes). Then " +
      "fetch_tool_schemas for the ones you need.",
    category: DISCOVERY_CATEGORY,
    input: listInput,
    output: z.object({ index: z.string(), tools: z.int().min(0) }),
    examples: [{ input: {} }, { input: { service: "payments" } }],
    sideEffects: "none",
    auth: "user",
    latencyBudgetMs: 300,
    async execute(args, ctx) {
      const may = await usable(ctx);
      const rows = (await ctx.db.query<IndexRow>(
        `select t.name, t.summary, t.category, s.name as service, s.title as service_title
         from public.service_tools t join public.services s on s.id = t.service_id
         where t.is_active and not t.internal and (t.org_id is null or t.org_id = $1::uuid)
           and ($2::text is null or s.name = $2) and ($3::text is null or t.category = $3)
         order by s.name, t.name`,
        [ctx.org_id, args.service ?? null, args.category ?? null],
      )).filter((row) => may(row.name, row.category));
      const capabilities = await ctx.db.query<CapabilityRow>(
        `select c.service_name, c.supports_webhooks, c.supports_polling,
           c.webhook_payload_schemas, c.notes
         from automations.service_capabilities c
         where (c.org_id is null or c.org_id = $1::uuid) and ($2::text is null or c.service_name = $2)`,
        [ctx.org_id, args.service ?? null],
      );
      if (args.service && rows.length === 0) {
        throw new ToolFailure("NOT_FOUND", `No service "${args.service}" with tools you may use`, {
          fields: [{ path: "service", message: `unknown service: ${args.service}` }],
        });
      }
      return {
        index: formatIndex(rows, capabilities, { detail: args.service !== undefined }),
        tools: rows.length,
      };
    },
  });

  const searchTools = defineTool({
    name: DISCOVERY_TOOLS.search,
    title: "Search tools",
    description: "Find the tools for a need, in English, Kinyarwanda or French: best first, " +
      "each with its service and one line.",
    category: DISCOVERY_CATEGORY,
    input: searchInput,
    output: z.object({
      results: z.array(z.object({
        name: z.string(),
        service: z.string(),
        summary: z.string(),
        score: z.number(),
      })),
      mode: z.enum(["keywords", "hybrid"]).describe(
        "hybrid: keywords fused with meaning (embeddings); keywords: no provider, or it failed.",
      ),
    }),
    examples: [{ input: { query: "send a message to all customers" } }],
    sideEffects: "none",
    auth: "user",
    // A process's first search stems every word of the catalog (about 200 ms on a loaded
    // machine); later ones reuse the stems and the index. With embeddings, the provider's 2 s.
    latencyBudgetMs: 1000,
    async execute(args, ctx) {
      const may = await usable(ctx);
      const tools = (await ctx.db.query<{
        name: string;
        title: string;
        summary: string;
        description: string;
        category: string;
        keywords: string;
        service: string;
        content_hash: string;
      }>(
        `select t.name, t.title, t.summary, t.description, t.category, t.keywords,
           s.name as service, t.content_hash
         from public.service_tools t join public.services s on s.id = t.service_id
         where t.is_active and not t.internal and (t.org_id is null or t.org_id = $1::uuid)
         order by t.name`,
        [ctx.org_id],
      )).filter((row) => may(row.name, row.category));
      const services = await ctx.db.query<{ name: string; keywords: string; content_hash: string }>(
        `select s.name, s.keywords, s.content_hash from public.services s
         where s.org_id is null or s.org_id = $1::uuid order by s.name`,
        [ctx.org_id],
      );
      const key = [
        ...tools.map((tool) => `${tool.name}:${tool.content_hash}:${tool.service}`),
        ...services.map((service) => `${service.name}:${service.content_hash}`),
      ].join("|");
      let search = SEARCH_CACHE.get(key);
      if (!search) {
        search = createToolSearch(tools.map((tool) => searchDocument(tool, tool.service)), {
          groups: Object.fromEntries(services.map((service) => [service.name, service.keywords])),
        });
        if (SEARCH_CACHE.size >= SEARCH_CACHE_MAX) {
          SEARCH_CACHE.delete(SEARCH_CACHE.keys().next().value!);
        }
        SEARCH_CACHE.set(key, search);
      }
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      let hits = search.search(args.query, args.limit);
      let mode: "keywords" | "hybrid" = "keywords";
      if (options.embedder && tools.length) {
        try {
          const semantic = await rankByMeaning(options.embedder, args.query, tools, ctx.signal);
          const keywords = search.search(args.query, 50).map((hit) => hit.name);
          hits = fuseRankings([keywords, semantic.slice(0, 50)], args.limit);
          mode = "hybrid";
        } catch {
          // The provider failed or was slow: the keyword ranking stands.
        }
      }
      return {
        results: hits.map((hit) => ({
          name: hit.name,
          service: byName.get(hit.name)!.service,
          summary: byName.get(hit.name)!.summary,
          score: hit.score,
        })),
        mode,
      };
    },
  });

  const fetchSchemas = defineTool({
    name: DISCOVERY_TOOLS.fetch,
    title: "Fetch tool schemas",
    description: "The full schemas (parameters and result) of the tools you name, so you can " +
      "call them. Only tools you may use; an unknown name is an error naming it.",
    category: DISCOVERY_CATEGORY,
    input: fetchInput,
    output: z.object({ tools: z.array(fetchedTool) }),
    examples: [{ input: { names: ["search_tools"] } }],
    sideEffects: "none",
    auth: "user",
    latencyBudgetMs: 300,
    async execute(args, ctx) {
      const may = await usable(ctx);
      const rows = await ctx.db.query<z.infer<typeof fetchedTool> & { category: string }>(
        `select t.name, t.title, t.description, s.name as service, t.parameters, t.returns,
           t.side_effects, t.auth, t.confirm_required, t.idempotent, t.category
         from public.service_tools t join public.services s on s.id = t.service_id
         where t.is_active and not t.internal and (t.org_id is null or t.org_id = $1::uuid)
           and t.name = any($2::text[])`,
        [ctx.org_id, args.names],
      );
      const found = new Map(
        rows.filter((row) => may(row.name, row.category)).map((row) => [row.name, row]),
      );
      const unknown = args.names.flatMap((name, index) =>
        found.has(name) ? [] : [{ path: `names.${index}`, message: `unknown tool: ${name}` }]
      );
      if (unknown.length) {
        // Unknown, another tenant's and not allowed read the same: nothing tells them apart.
        throw new ToolFailure(
          "NOT_FOUND",
          `No tool you may use is named ${
            unknown.map((issue) => issue.message.slice("unknown tool: ".length)).join(", ")
          }`,
          { fields: unknown },
        );
      }
      return {
        tools: args.names.map((name) => {
          const { category: _category, ...tool } = found.get(name)!;
          return tool;
        }),
      };
    },
  });

  return [listTools, searchTools, fetchSchemas];
}
