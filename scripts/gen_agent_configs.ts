/**
 * Writes `config/agent_configs_yaml.ts`: the text of
 * `config/agent_configs.yaml` as a module, so every function's bundle carries
 * the agent file (a deployed function cannot read files that are not
 * bundled, and a TypeScript module is what every bundler, Supabase's
 * included, follows). The platform parses and checks that text at start.
 * `scripts/gen_agent_configs_test.ts` fails when the module is stale.
 *
 * Run: `deno task gen:agents`.
 *
 * @module
 */

/** The agent file, the source of truth. */
export const AGENT_CONFIG_YAML_URL = new URL("../config/agent_configs.yaml", import.meta.url);
/** The generated module. */
export const AGENT_CONFIG_MODULE_URL = new URL("../config/agent_configs_yaml.ts", import.meta.url);

/** The module's text for the given YAML. */
export function renderAgentConfigModule(yamlText: string): string {
  return `/**
 * GENERATED from config/agent_configs.yaml by \`deno task gen:agents\`; do not edit.
 * Bundled into every function; the platform parses and checks it at start.
 *
 * @module
 */

/** The text of config/agent_configs.yaml. */
export const AGENT_CONFIGS_YAML: string =
  ${JSON.stringify(yamlText)};
`;
}

if (import.meta.main) {
  const text = renderAgentConfigModule(await Deno.readTextFile(AGENT_CONFIG_YAML_URL));
  await Deno.writeTextFile(AGENT_CONFIG_MODULE_URL, text);
  console.log(`wrote ${AGENT_CONFIG_MODULE_URL.pathname}`);
}
