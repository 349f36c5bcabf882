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
}

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
  return {
    tools: tools.length,
    indexTokens: count(index),
    fullSchemaTokens: count(JSON.stringify(exportTools(tools, "openai").tools)),
    discoveryToolTokens: count(JSON.stringify(exportTools(discovery, "openai").tools)),
    index,
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
}
