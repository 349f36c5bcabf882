/**
 * What discovery saves a model, in tokens (o200k_base, the tokenizer of
 * OpenAI's current models): the index of every EasyMO tool as `list_tools`
 * returns it, against the full schemas of every tool as a model is sent
 * them without discovery (the OpenAI tools array). Prints both, what an
 * agent with discovery starts with (the three discovery tools' schemas and
 * the index) and the ratios.
 *
 * Run: `deno task catalog:tokens`
 *
 * @module
 */
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { exportTools } from "@shared/export/export_tools.ts";
import { PACKS, platformTools } from "@shared/platform/platform.ts";
import { catalogServiceOf, catalogServices } from "@shared/platform/catalog.ts";
import { capabilityRow, toolRow } from "@shared/tools/catalog/catalog_entries.ts";
import { DISCOVERY_CATEGORY, formatIndex } from "@shared/tools/catalog/catalog_tools.ts";
import { checkAgentConfig } from "@shared/registry/agent_config.ts";
import { packAgents } from "@shared/registry/pack.ts";
import { AGENT_CONFIGS } from "../config/agent_configs.ts";

/** The figures {@link measureCatalogTokens} reports. */
export interface CatalogTokens {
  /** Tools in the catalog a tenant's agents may be given (not service-only, not discovery). */
  tools: number;
  /** The index as `list_tools` returns it. */
  indexTokens: number;
  /** Every tool's full schema as the model is sent it (OpenAI tools array). */
  fullSchemaTokens: number;
  /** The discovery tools' own schemas, which a discovery agent is sent. */
  discoveryToolTokens: number;
  /** The index's text. */
  index: string;
  /** Per agent of the bundled agent file: what its model is sent without discovery. */
  agents: AgentTokens[];
}

/** What one agent's model is sent each step without discovery. */
export interface AgentTokens {
  /** The tenant (slug) that runs it. */
  tenant: string;
  /** The agent's id. */
  agent: string;
  /** Its audience ("customer" or "staff"). */
  audience: string;
  /** The tools of its allowlist (discovery tools left out). */
  tools: number;
  /** Their full schemas as the model is sent them (OpenAI tools array). */
  schemaTokens: number;
  /** Whether the agent file turns discovery on for it. */
  toolDiscovery: boolean;
  /**
   * Tool-definition tokens of a turn that calls one tool and answers (two
   * model steps), without discovery: its full schemas, twice.
   */
  turnWithout: number;
  /**
   * The same turn with discovery (four steps: search, fetch, call, answer):
   * the discovery tools' schemas each step, a search answer of five hits in
   * the conversation from the second step, and the fetched tool's schema
   * both in the conversation and offered for the last two steps.
   */
  turnWith: number;
}

/** Tokens of a five-hit `search_tools` answer (name, service, summary, score each). */
const SEARCH_ANSWER_TOKENS = 160;

/** Counts the tokens of the EasyMO catalog's index and of its full schemas. */
export async function measureCatalogTokens(): Promise<CatalogTokens> {
  const encoder = new Tiktoken(o200k);
  const count = (text: string) => encoder.encode(text).length;
  const all = platformTools(PACKS);
  const tools = all.filter((tool) => !tool.internal && tool.category !== DISCOVERY_CATEGORY);
  const discovery = all.filter((tool) => tool.category === DISCOVERY_CATEGORY);
  const serviceOf = catalogServiceOf(PACKS);
  const services = new Map(catalogServices(PACKS).map((service) => [service.name, service]));
  const rows = (await Promise.all(tools.map(async (tool) => {
    const row = await toolRow(tool);
    const service = serviceOf(tool, null);
    return {
      name: row.name,
      summary: row.summary,
      category: row.category,
      service,
      service_title: services.get(service)?.title ?? service,
    };
  }))).sort((a, b) => a.service.localeCompare(b.service) || a.name.localeCompare(b.name));
  const capabilities = [...services.values()].map((service) => ({
    service_name: service.name,
    ...capabilityRow(service.capabilities),
  }));
  const index = formatIndex(rows, capabilities, { detail: false });
  const discoveryToolTokens = count(JSON.stringify(exportTools(discovery, "openai").tools));
  const byName = new Map(all.map((tool) => [tool.name, tool]));
  const directory = checkAgentConfig(AGENT_CONFIGS, {
    knownTools: byName.keys(),
    declared: packAgents(PACKS),
    discoveryTools: discovery.map((tool) => tool.name),
  });
  const agents = directory.list().map((agent) => {
    const own = agent.tools.flatMap((name) => {
      const tool = byName.get(name);
      return tool && tool.category !== DISCOVERY_CATEGORY ? [tool] : [];
    });
    const schemaTokens = own.length ? count(JSON.stringify(exportTools(own, "openai").tools)) : 0;
    const oneTool = own.length ? Math.round(schemaTokens / own.length) : 0;
    return {
      tenant: agent.tenant,
      agent: agent.id,
      audience: agent.audience,
      tools: own.length,
      schemaTokens,
      toolDiscovery: agent.toolDiscovery ?? false,
      turnWithout: 2 * schemaTokens,
      turnWith: 4 * discoveryToolTokens + 3 * SEARCH_ANSWER_TOKENS + 4 * oneTool,
    };
  });
  return {
    tools: tools.length,
    indexTokens: count(index),
    fullSchemaTokens: count(JSON.stringify(exportTools(tools, "openai").tools)),
    discoveryToolTokens,
    index,
    agents,
  };
}

if (import.meta.main) {
  const figures = await measureCatalogTokens();
  const start = figures.indexTokens + figures.discoveryToolTokens;
  console.log(`tools in the catalog:            ${figures.tools}`);
  console.log(`index (list_tools):              ${figures.indexTokens} tokens`);
  console.log(`full schemas of every tool:      ${figures.fullSchemaTokens} tokens`);
  console.log(`discovery tools' own schemas:    ${figures.discoveryToolTokens} tokens`);
  console.log(
    `index / full schemas:            ${
      (figures.indexTokens / figures.fullSchemaTokens).toFixed(3)
    }`,
  );
  console.log(
    `discovery start (schemas+index): ${start} tokens, ${
      (figures.fullSchemaTokens / start).toFixed(1)
    }x fewer than every schema`,
  );
  console.log(
    "\nper agent: its allowlist's full schemas (sent each model step without discovery); " +
      "a turn that calls one tool, without → with discovery",
  );
  for (const agent of figures.agents.toSorted((a, b) => b.schemaTokens - a.schemaTokens)) {
    console.log(
      `  ${agent.tenant}/${agent.agent} (${agent.audience}): ${agent.tools} tools, ` +
        `${agent.schemaTokens} tokens; turn ${agent.turnWithout} → ${agent.turnWith}` +
        (agent.toolDiscovery ? ", discovery on" : ""),
    );
  }
}
