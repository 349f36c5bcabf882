/**
 * The tool registry: definitions, the registry, tenant policy and agents.
 *
 * @module
 */
export * from "./define_tool.ts";
export * from "./registry.ts";
export * from "./tenant_policy.ts";
export * from "./agent_config.ts";
