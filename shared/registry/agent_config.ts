/**
 * The agents of `config/agent_configs.yaml`: every agent of seed 000's access
 * table, its tenant and its tool allowlist, checked against the registry, so
 * an unknown tool or a misspelt agent fails at start with a message naming
 * its path. This module checks the file's data; `agent_config_file.ts`
 * reads the YAML (functions get the data pre-parsed, `config/agent_configs.ts`,
 * and carry no YAML parser).
 *
 * @module
 */
import { z } from "zod";

const AGENT_ID = /^[a-z][a-z0-9_]{1,63}$/;

const AgentSchema = z.strictObject({
  id: z.string().regex(AGENT_ID, "must be snake_case"),
  name: z.string().min(1),
  tenant: z.string().min(1),
  description: z.string().min(1),
  tools: z.array(z.string().min(1)).min(1),
});

const PlannedToolSchema = z.strictObject({
  name: z.string().min(1),
  category: z.string().min(1),
  description: z.string().min(1),
});

const AgentFileSchema = z.strictObject({
  version: z.literal(1),
  planned_tools: z.array(PlannedToolSchema).default([]),
  agents: z.array(AgentSchema).min(1),
});

/** One agent as configured. */
export interface Agent {
  /** Snake-case id, e.g. `waiter_ai`. */
  id: string;
  /** Display name, e.g. `Waiter AI`. */
  name: string;
  /** The org slug the agent works for. */
  tenant: string;
  /** What the agent does. */
  description: string;
  /** Tools it may call that exist now. */
  tools: string[];
  /** Tools it is granted that are not implemented yet. */
  plannedTools: string[];
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

/** The agents and their allowlists. */
export class AgentDirectory {
  readonly #agents: Map<string, Agent>;
  readonly #allowed: Map<string, Set<string>>;
  /** Tools granted to agents but not implemented yet. */
  readonly plannedTools: PlannedTool[];

  /** Builds the directory from checked agents. */
  constructor(agents: Agent[], plannedTools: PlannedTool[]) {
    this.#agents = new Map(agents.map((agent) => [agent.id, agent]));
    this.#allowed = new Map(agents.map((agent) => [agent.id, new Set(agent.tools)]));
    this.plannedTools = plannedTools;
  }

  /** An agent by id. */
  get(id: string): Agent | undefined {
    return this.#agents.get(id);
  }

  /** Every agent, in file order. */
  list(): Agent[] {
    return [...this.#agents.values()];
  }

  /** Whether the agent may call the tool. */
  allows(agentId: string, tool: string): boolean {
    return this.#allowed.get(agentId)?.has(tool) ?? false;
  }
}

/** Options for {@link checkAgentConfig}. */
export interface CheckAgentConfigOptions {
  /** Names of the tools that exist (registered globally). */
  knownTools: Iterable<string>;
  /** Where the data came from, for messages. @default "config/agent_configs.yaml" */
  source?: string;
}

/**
 * Checks the agent file's data (as parsed from its YAML).
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
  const planned = new Set(parsed.data.planned_tools.map((tool) => tool.name));
  const issues: string[] = [];
  for (const [index, tool] of parsed.data.planned_tools.entries()) {
    if (known.has(tool.name)) {
      issues.push(
        `planned_tools[${index}]: "${tool.name}" is implemented now; remove it from planned_tools`,
      );
    }
  }
  const seen = new Set<string>();
  const agents: Agent[] = [];
  for (const [index, agent] of parsed.data.agents.entries()) {
    if (seen.has(agent.id)) issues.push(`agents[${index}].id: duplicate agent "${agent.id}"`);
    seen.add(agent.id);
    for (const [toolIndex, tool] of agent.tools.entries()) {
      if (!known.has(tool) && !planned.has(tool)) {
        issues.push(
          `agents[${index}].tools[${toolIndex}]: unknown tool "${tool}" for agent "${agent.id}" ` +
            `(neither registered nor in planned_tools)`,
        );
      }
    }
    agents.push({
      ...agent,
      tools: agent.tools.filter((tool) => known.has(tool)),
      plannedTools: agent.tools.filter((tool) => !known.has(tool)),
    });
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
  const issues = agents.list()
    .filter((agent) => !slugs.has(agent.tenant))
    .map((agent) => `agent "${agent.id}": unknown tenant "${agent.tenant}"`);
  if (issues.length) throw new AgentConfigError("config/agent_configs.yaml", issues);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) =>
      typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key),
    "",
  ) || "(root)";
}
