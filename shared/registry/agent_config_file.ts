/**
 * Reads the agent file's YAML text and checks it (`checkAgentConfig`): the
 * CLIs and tests read `config/agent_configs.yaml` itself, while deployed
 * functions get its data pre-parsed (`config/agent_configs.ts`) and so carry
 * no YAML parser.
 *
 * @module
 */
import { parse as parseYaml } from "yaml";
import {
  AgentConfigError,
  type AgentDirectory,
  checkAgentConfig,
  type CheckAgentConfigOptions,
} from "./agent_config.ts";

/**
 * Parses and checks the YAML text.
 *
 * @throws {AgentConfigError} listing every problem found (YAML syntax included).
 */
export function parseAgentConfig(text: string, options: CheckAgentConfigOptions): AgentDirectory {
  const source = options.source ?? "config/agent_configs.yaml";
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new AgentConfigError(source, [`YAML syntax: ${(error as Error).message}`]);
  }
  return checkAgentConfig(raw, { ...options, source });
}

/** Reads and checks the agent file at `url`. */
export async function loadAgentConfig(
  url: URL,
  options: CheckAgentConfigOptions,
): Promise<AgentDirectory> {
  const text = await Deno.readTextFile(url);
  return parseAgentConfig(text, { ...options, source: options.source ?? url.pathname });
}
