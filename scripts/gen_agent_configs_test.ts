import assert from "node:assert/strict";
import { parseAgentConfig } from "@shared/registry/agent_config.ts";
import { AGENT_CONFIGS_YAML } from "../config/agent_configs_yaml.ts";
import {
  AGENT_CONFIG_MODULE_URL,
  AGENT_CONFIG_YAML_URL,
  renderAgentConfigModule,
} from "./gen_agent_configs.ts";

Deno.test("config/agent_configs_yaml.ts matches the YAML (run `deno task gen:agents`)", async () => {
  const yaml = await Deno.readTextFile(AGENT_CONFIG_YAML_URL);
  assert.equal(AGENT_CONFIGS_YAML, yaml);
  assert.equal(await Deno.readTextFile(AGENT_CONFIG_MODULE_URL), renderAgentConfigModule(yaml));
});

Deno.test("the bundled agent text is checked with path-named errors", () => {
  const broken = AGENT_CONFIGS_YAML.replace(/^(\s*tenant:)\s*\S+/m, "$1 [1, 2]");
  assert.throws(
    () => parseAgentConfig(broken, { knownTools: [] }),
    (error: Error) => /agents\[0\]\.tenant/.test(error.message) || (console.error(error), false),
  );
});
