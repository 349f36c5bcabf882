/**
 * The agents of `config/agent_configs.yaml`: per tenant, which of the packs'
 * agents run and with which tools, checked against the packs and the
 * registry, so an unknown agent or tool fails at start with a message naming
 * its path. An agent's name, description and audience come from its pack. This module checks the file's data; `agent_config_file.ts`
 * reads the YAML (functions get the data pre-parsed, `config/agent_configs.ts`,
 * and carry no YAML parser).
 *
 * @module
 */
import { z } from "zod";

const AGENT_ID = /^[a-z][a-z0-9_]{1,63}$/;
const TENANT = /^[a-z][a-z0-9_-]{1,63}$/;

const AgentEntrySchema = z.strictObject({
  id: z.string().regex(AGENT_ID, "must be snake_case"),
  /** The allowlist; absent means the pack's default tools. */
  tools: z.array(z.string().min(1)).min(1).optional(),
  /**
   * The model starts with the discovery tools only and fetches the schemas of
   * the allowlisted tools it chooses (docs/discovery.md). @default false
   */
  tool_discovery: z.boolean().optional(),
  /**
   * The tenant's own tools (generated from its APIs, registered at run time)
   * besides the allowlist: they cannot be named here, as they do not exist
   * when the file is read. The tenant's tool policy still applies. @default false
   */
  tenant_tools: z.boolean().optional(),
});

const PlannedToolSchema = z.strictObject({
  name: z.string().min(1),
  category: z.string().min(1),
  description: z.string().min(1),
});

const TenantSchema = z.strictObject({
  agents: z.array(AgentEntrySchema).min(1),
});

const AgentFileSchema = z.strictObject({
  version: z.literal(2),
  planned_tools: z.array(PlannedToolSchema).default([]),
  tenants: z.record(z.string().regex(TENANT, "must be an org slug"), TenantSchema)
    .refine((tenants) => Object.keys(tenants).length > 0, "must name at least one tenant"),
});

/** One agent as a tenant runs it. */
export interface Agent {
  /** Snake-case id, e.g. `waiter_ai`: unique within its tenant. */
  id: string;
  /** Display name, from its pack, e.g. `Waiter AI`. */
  name: string;
  /** The org slug the agent works for. */
  tenant: string;
  /** What the agent does, from its pack. */
  description: string;
  /** Who it serves, from its pack. */
  audience: "customers" | "staff";
  /** Tools it may call that exist now. */
  tools: string[];
  /** Tools it is granted that are not implemented yet. */
  plannedTools: string[];
  /** Whether its model discovers its tools instead of being given every schema. */
  toolDiscovery?: boolean;
  /** Whether it may use its tenant's own run-time tools (generated from the tenant's APIs). */
  tenantTools?: boolean;
}

/** What the check needs of a pack's agent: its identity and default tools. */
export interface DeclaredAgent {
  /** Its id. */
  id: string;
  /** Its display name. */
  name: string;
  /** What it does. */
  description: string;
  /** Who it serves. */
  audience: "customers" | "staff";
  /** Its tools when the file lists none. */
  tools: readonly string[];
}

/** A tool named in the file that is not implemented yet. */
export type PlannedTool = z.output<typeof PlannedToolSchema>;

/** Raised when the agent file is invalid; `issues` lists every problem. */
export class AgentConfigError extends Error {
  /** Each problem, prefixed with where it is. */
  readonly issues: string[];

  /** Creates the error from its issues. */
  constructor(source: string, issues: string[]) {
    super(`Invalid agent config ${source}:\n  - ${issues.join("\n  - ")}`);
    this.name = "AgentConfigError";
    this.issues = issues;
  }
}

/** The agents each tenant runs, and their allowlists. */
export class AgentDirectory {
  // tenant → agent id → agent: an id names one agent within a tenant, not across the platform.
  readonly #agents: Map<string, Map<string, Agent>>;
  readonly #allowed: Map<string, Map<string, Set<string>>>;
  /** Tools granted to agents but not implemented yet. */
  readonly plannedTools: PlannedTool[];

  /** Builds the directory from checked agents. */
  constructor(agents: Agent[], plannedTools: PlannedTool[]) {
    this.#agents = new Map();
    this.#allowed = new Map();
    for (const agent of agents) {
      if (!this.#agents.has(agent.tenant)) {
        this.#agents.set(agent.tenant, new Map());
        this.#allowed.set(agent.tenant, new Map());
      }
      this.#agents.get(agent.tenant)!.set(agent.id, agent);
      this.#allowed.get(agent.tenant)!.set(agent.id, new Set(agent.tools));
    }
    this.plannedTools = plannedTools;
  }

  /** The agent `id` of `tenant` (an org slug), if the tenant runs it. */
  get(tenant: string, id: string): Agent | undefined {
    return this.#agents.get(tenant)?.get(id);
  }

  /** Every agent of `tenant`, or of every tenant, in file order. */
  list(tenant?: string): Agent[] {
    if (tenant !== undefined) return [...this.#agents.get(tenant)?.values() ?? []];
    return [...this.#agents.values()].flatMap((agents) => [...agents.values()]);
  }

  /** The tenants the file names, in file order. */
  tenants(): string[] {
    return [...this.#agents.keys()];
  }

  /**
   * Whether `tenant`'s agent may call the tool: on its allowlist, or (with
   * `tenantTool`: the tool is the tenant's own, registered at run time) any
   * such tool when the agent has `tenant_tools`.
   */
  allows(
    tenant: string,
    agentId: string,
    tool: string,
    options: { tenantTool?: boolean } = {},
  ): boolean {
    if (this.#allowed.get(tenant)?.get(agentId)?.has(tool)) return true;
    return options.tenantTool === true && this.get(tenant, agentId)?.tenantTools === true;
  }
}

/** Options for {@link checkAgentConfig}. */
export interface CheckAgentConfigOptions {
  /** Names of the tools that exist (registered: the packs' and the kernel's). */
  knownTools: Iterable<string>;
  /** The agents the packs declare: a tenant may run only these. */
  declared: readonly DeclaredAgent[];
  /** Where the data came from, for messages. @default "config/agent_configs.yaml" */
  source?: string;
  /**
   * The tools an agent with `tool_discovery` is granted besides its allowlist
   * (the platform's discovery tools). @default none
   */
  discoveryTools?: readonly string[];
}

/**
 * Checks the agent file's data (as parsed from its YAML) against the packs:
 * every agent a tenant runs is one a pack declares, and every tool it is
 * granted is registered or planned.
 *
 * @throws {AgentConfigError} listing every problem found, each with its path.
 */
export function checkAgentConfig(raw: unknown, options: CheckAgentConfigOptions): AgentDirectory {
  const source = options.source ?? "config/agent_configs.yaml";
  const parsed = AgentFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AgentConfigError(
      source,
      parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`),
    );
  }
  const known = new Set(options.knownTools);
  const declared = new Map(options.declared.map((agent) => [agent.id, agent]));
  const planned = new Set(parsed.data.planned_tools.map((tool) => tool.name));
  const issues: string[] = [];
  for (const [index, tool] of parsed.data.planned_tools.entries()) {
    if (known.has(tool.name)) {
      issues.push(
        `planned_tools[${index}]: "${tool.name}" is implemented now; remove it from planned_tools`,
      );
    }
  }
  const agents: Agent[] = [];
  for (const [tenant, { agents: entries }] of Object.entries(parsed.data.tenants)) {
    const seen = new Set<string>();
    for (const [index, entry] of entries.entries()) {
      const path = `tenants.${tenant}.agents[${index}]`;
      if (seen.has(entry.id)) issues.push(`${path}.id: duplicate agent "${entry.id}" in ${tenant}`);
      seen.add(entry.id);
      const pack = declared.get(entry.id);
      if (!pack) {
        issues.push(`${path}.id: unknown agent "${entry.id}" (no pack declares it)`);
        continue;
      }
      const listed = entry.tools ?? [...pack.tools];
      const tools = entry.tool_discovery
        ? [...new Set([...listed, ...options.discoveryTools ?? []])]
        : listed;
      for (const [toolIndex, tool] of tools.entries()) {
        if (!known.has(tool) && !planned.has(tool)) {
          const where = entry.tools && toolIndex < entry.tools.length
            ? `${path}.tools[${toolIndex}]`
            : `${path} (its pack's tools)`;
          issues.push(
            `${where}: unknown tool "${tool}" for agent "${entry.id}" ` +
              `(neither a pack nor the kernel provides it, nor is it in planned_tools)`,
          );
        }
      }
      agents.push({
        id: entry.id,
        name: pack.name,
        tenant,
        description: pack.description,
        audience: pack.audience,
        tools: tools.filter((tool) => known.has(tool)),
        plannedTools: tools.filter((tool) => !known.has(tool)),
        toolDiscovery: entry.tool_discovery ?? false,
        tenantTools: entry.tenant_tools ?? false,
      });
    }
  }
  if (issues.length) throw new AgentConfigError(source, issues);
  return new AgentDirectory(agents, parsed.data.planned_tools);
}

/**
 * Checks that every agent's tenant exists.
 *
 * @throws {AgentConfigError} naming the agents whose tenant is unknown.
 */
export function checkAgentTenants(
  agents: AgentDirectory,
  tenantSlugs: Iterable<string>,
): void {
  const slugs = new Set(tenantSlugs);
  const issues = agents.tenants()
    .filter((tenant) => !slugs.has(tenant))
    .map((tenant) => `tenants.${tenant}: unknown tenant "${tenant}" (no org has this slug)`);
  if (issues.length) throw new AgentConfigError("config/agent_configs.yaml", issues);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) =>
      typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key),
    "",
  ) || "(root)";
}
