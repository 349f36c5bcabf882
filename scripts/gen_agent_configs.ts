/**
 * Writes `config/agent_configs.ts`: the data of `config/agent_configs.yaml`
 * as a module, so every function's bundle carries the agent file (a deployed
 * function cannot read files that are not bundled, and a TypeScript module is
 * what every bundler, Supabase's included, follows) without a YAML parser.
 * The platform checks the data at start (`checkAgentConfig`), with the same
 * path-named errors as the YAML. `scripts/gen_agent_configs_test.ts` fails
 * when the module is stale.
 *
 * Run: `deno task gen:agents`.
 *
 * @module
 */
import { parse as parseYaml } from "yaml";

/** The agent file, the source of truth. */
export const AGENT_CONFIG_YAML_URL = new URL("../config/agent_configs.yaml", import.meta.url);
/** The generated module. */
export const AGENT_CONFIG_MODULE_URL = new URL("../config/agent_configs.ts", import.meta.url);

/** The module's text for the given YAML. */
export function renderAgentConfigModule(yamlText: string): string {
  return `/**
 * GENERATED from config/agent_configs.yaml by \`deno task gen:agents\`; do not edit.
 * Bundled into every function; the platform checks it at start.
 *
 * @module
 */

/** The data of config/agent_configs.yaml (unchecked: see checkAgentConfig). */
export const AGENT_CONFIGS: unknown = ${JSON.stringify(parseYaml(yamlText), null, 2)};
`;
}

if (import.meta.main) {
  const text = renderAgentConfigModule(await Deno.readTextFile(AGENT_CONFIG_YAML_URL));
  await Deno.writeTextFile(AGENT_CONFIG_MODULE_URL, text);
  await new Deno.Command(Deno.execPath(), { args: ["fmt", AGENT_CONFIG_MODULE_URL.pathname] })
    .output();
  console.log(`wrote ${AGENT_CONFIG_MODULE_URL.pathname}`);
}
