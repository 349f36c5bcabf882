import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { checkAgentConfig } from "@shared/registry/agent_config.ts";
import { AGENT_CONFIGS } from "../config/agent_configs.ts";
import { AGENT_CONFIG_YAML_URL } from "./gen_agent_configs.ts";

Deno.test("config/agent_configs.ts holds the YAML's data (run `deno task gen:agents`)", async () => {
  assert.deepEqual(AGENT_CONFIGS, parseYaml(await Deno.readTextFile(AGENT_CONFIG_YAML_URL)));
});

Deno.test("the bundled agent data is checked with path-named errors", () => {
  const broken = structuredClone(AGENT_CONFIGS) as {
    tenants: Record<string, { agents: { id: unknown }[] }>;
  };
  broken.tenants.easymo.agents[0].id = [1, 2];
  assert.throws(
    () => checkAgentConfig(broken, { knownTools: [], declared: [] }),
    (error: Error) => /tenants\.easymo\.agents\[0\]\.id/.test(error.message),
  );
});
