/**
 * Writes `docs/tools.md`, the tool reference, from the registry and the
 * agent file: each tool's descriptor, input and output schemas and
 * examples, the planned tools, and which agent may use what.
 * `deno task docs:tools` regenerates it; a test fails when it is stale.
 *
 * @module
 */
import { toJsonSchema } from "@shared/export/json_schema.ts";
import { loadAgentConfig } from "@shared/registry/agent_config_file.ts";
import { packAgents } from "@shared/registry/pack.ts";
import { AGENT_CONFIG_URL, PACKS, platformTools } from "@shared/platform/platform.ts";

/** The path of the generated reference. */
export const TOOL_DOCS_URL = new URL("../docs/tools.md", import.meta.url);

/** Renders the reference. */
export async function renderToolDocs(): Promise<string> {
  const tools = platformTools().sort((a, b) => a.name.localeCompare(b.name));
  const agents = await loadAgentConfig(AGENT_CONFIG_URL, {
    knownTools: tools.map((tool) => tool.name),
    declared: packAgents(PACKS),
  });
  const out: string[] = [
    "# Tool reference",
    "",
    "Generated from the registry by `deno task docs:tools`; do not edit by hand.",
    "Every call returns `{ok: true, data}` or `{ok: false, error: {code, msg}}`",
    "(see [tool_contract.md](tool_contract.md)).",
    "",
    "## Rate limits",
    "",
    "Each tool's default limits; a tenant's `orgs.tool_policy.rate_limits` may set its own",
    "([tool_contract.md](tool_contract.md#rate-limits)). **Per caller** stops one caller's abuse",
    "(a customer, a staff member; all anonymous callers of a tenant share one). **Per tenant** is",
    "all of a tenant's callers together: the deployment's ceiling (`TOOL_TENANT_CEILING_PER_SEC`,",
    "1,000 calls a second) unless the tool's cost is a shared capacity. A service caller acting",
    "for no user (a webhook, a sweep) meets the per-tenant limit only.",
    "",
    "| tool | per caller | per tenant |",
    "| --- | --- | --- |",
    ...tools.map((tool) =>
      `| \`${tool.name}\` | ${rate(tool.rateLimit.perUser)} | ${
        tool.rateLimit.perTenant ? rate(tool.rateLimit.perTenant) : "the ceiling"
      } |`
    ),
    "",
  ];
  for (const tool of tools) {
    const users = agents.list().filter((agent) => agents.allows(agent.tenant, agent.id, tool.name));
    out.push(
      `## \`${tool.name}\` — ${tool.title}`,
      "",
      tool.description,
      "",
      "| descriptor | value |",
      "| --- | --- |",
      `| category | ${tool.category} |`,
      `| sideEffects | \`${tool.sideEffects}\` |`,
      `| auth | \`${tool.auth}\` |`,
      `| latencyBudgetMs / timeoutMs | ${tool.latencyBudgetMs} / ${tool.timeoutMs} |`,
      `| idempotent (key required) | ${tool.idempotent} (${tool.writes ? "yes" : "no"}) |`,
      `| confirmRequired | ${tool.confirmRequired} |`,
      `| rate limit per caller / per tenant | ${rate(tool.rateLimit.perUser)} / ${
        tool.rateLimit.perTenant ? rate(tool.rateLimit.perTenant) : "the ceiling"
      } |`,
      `| agents | ${users.map((agent) => agent.name).join(", ")} |`,
      "",
      "Input (JSON Schema 2020-12):",
      "",
      "```json",
      JSON.stringify(toJsonSchema(tool, { io: "input" }), null, 2),
      "```",
      "",
      "Output `data`:",
      "",
      "```json",
      JSON.stringify(toJsonSchema(tool, { io: "output" }), null, 2),
      "```",
      "",
    );
  }
  out.push(
    "## Planned tools",
    "",
    ...(agents.plannedTools.length === 0
      ? ["None: every tool an agent is granted in `config/agent_configs.yaml` is implemented.", ""]
      : [
        "Granted to agents in `config/agent_configs.yaml` but not implemented yet; a call answers NOT_FOUND.",
        "",
        "| tool | category | what |",
        "| --- | --- | --- |",
        ...agents.plannedTools.map((tool) =>
          `| \`${tool.name}\` | ${tool.category} | ${tool.description} |`
        ),
        "",
      ]),
    "## Agents",
    "",
    ...(agents.plannedTools.length === 0
      ? [
        "| agent | tenant | tools |",
        "| --- | --- | --- |",
        ...agents.list().map((agent) =>
          `| ${agent.name} (\`${agent.id}\`) | ${agent.tenant} | ${agent.tools.join(", ")} |`
        ),
      ]
      : [
        "| agent | tenant | tools now | planned |",
        "| --- | --- | --- | --- |",
        ...agents.list().map((agent) =>
          `| ${agent.name} (\`${agent.id}\`) | ${agent.tenant} | ${agent.tools.join(", ")} | ${
            agent.plannedTools.join(", ")
          } |`
        ),
      ]),
    "",
  );
  return out.join("\n");
}

// "120 per 60 s": calls per window, as the buckets count them.
function rate(limit: { limit: number; windowSec: number }): string {
  return `${limit.limit.toLocaleString("en-US")} per ${limit.windowSec.toLocaleString("en-US")} s`;
}

if (import.meta.main) {
  await Deno.writeTextFile(TOOL_DOCS_URL, await renderToolDocs());
  console.log(`wrote ${TOOL_DOCS_URL.pathname}`);
}
