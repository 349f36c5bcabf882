/**
 * The platform: registry, agents, tenants and the invoke pipeline wired
 * together, with Mu's verbs (register, list, get, call) on top.
 *
 * @module
 */
import { recordingChannel } from "@shared/channels/notifications/recording_channel.ts";
import {
  createNotificationDispatcher,
} from "@shared/channels/notifications/notification_dispatcher.ts";
import type { NotificationTransports } from "@shared/channels/notifications/notification_env.ts";
import { createLocalSlackTransport } from "@shared/channels/notifications/slack.ts";
import { createLocalSmsTransport } from "@shared/channels/notifications/sms.ts";
import { createPseudonymiser } from "@shared/pipeline/pseudonymise.ts";
import type { Database } from "@shared/db/types.ts";
import { ConfirmationSigner } from "@shared/pipeline/confirmation.ts";
import { createInvoker } from "@shared/pipeline/invoke.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import { LeasedRateLimiter } from "@shared/pipeline/rate_limit.ts";
import { TraceSink } from "@shared/pipeline/trace_sink.ts";
import {
  checkAgentTenants,
  loadAgentConfig,
  parseAgentConfig,
} from "@shared/registry/agent_config.ts";
import { AGENT_CONFIGS_YAML } from "../../config/agent_configs_yaml.ts";
import type { ToolServices } from "@shared/registry/define_tool.ts";
import { type AnyTool, ToolRegistry } from "@shared/registry/registry.ts";
import { TenantDirectory } from "@shared/registry/tenant_policy.ts";
import { CORE_TOOLS } from "@shared/tools/mod.ts";
import { createLogger, type Logger } from "@shared/runtime/log.ts";

export type { Platform };

/** The agent file (the CLIs read it; functions use the bundled copy, `config/agent_configs_yaml.ts`). */
export const AGENT_CONFIG_URL = new URL("../../config/agent_configs.yaml", import.meta.url);

/** Options for {@link createPlatform}. */
export interface PlatformOptions {
  /** The database, already migrated. */
  db: Database;
  /** The platform secret (≥ 32 characters). */
  secret: string;
  /** Logs. @default JSON lines on stderr */
  log?: Logger;
  /** An agent file to read instead of the bundled config/agent_configs.yaml (tests). */
  agentConfigUrl?: URL;
  /** Tools registered globally at start. @default CORE_TOOLS */
  tools?: readonly AnyTool[];
  /** Override adapters (tests). */
  services?: Partial<ToolServices>;
  /** Trace flush interval. @default 250 */
  traceIntervalMs?: number;
  /** Senders for staged staff notifications. @default local (marked sent, nothing leaves) */
  notificationTransports?: NotificationTransports;
  /** Notification dispatch loop interval; 0 runs no loop (tests call drain()). @default 0 */
  notificationIntervalMs?: number;
}

/**
 * Builds the platform: registers the tools, loads and checks the agent file
 * and the tenants.
 *
 * @throws {AgentConfigError} when the agent file is invalid.
 */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { db, secret } = options;
  const log = options.log ?? createLogger();
  const registry = new ToolRegistry();
  for (const tool of options.tools ?? CORE_TOOLS) registry.register(tool);
  const knownTools = registry.list().map((tool) => tool.name);
  // The bundled text by default: a deployed function sees only what was bundled.
  const agents = options.agentConfigUrl
    ? await loadAgentConfig(options.agentConfigUrl, { knownTools })
    : parseAgentConfig(AGENT_CONFIGS_YAML, { knownTools });
  const tenants = new TenantDirectory();
  await tenants.load(db, (slug) => log.error("tenant_policy_invalid", { tenant: slug }));
  checkAgentTenants(agents, tenants.list().map((tenant) => tenant.slug));

  const traces = new TraceSink({ db, log, intervalMs: options.traceIntervalMs });
  const services: ToolServices = {
    slack: recordingChannel("slack", "slack:local"),
    sms: recordingChannel("sms", "sms:local"),
    pseudonymise: createPseudonymiser(secret),
    now: () => new Date(),
    ...options.services,
  };
  const notifications = createNotificationDispatcher({
    db,
    log,
    transports: options.notificationTransports ??
      { slack: createLocalSlackTransport(), sms: createLocalSmsTransport() },
  });
  if (options.notificationIntervalMs) {
    notifications.start({ intervalMs: options.notificationIntervalMs });
  }
  const invoker = createInvoker({
    db,
    registry,
    tenants,
    agents,
    rateLimiter: new LeasedRateLimiter({
      db,
      onReturnFailed: (error) => log.warn("rate_tokens_return_failed", { error: String(error) }),
    }),
    confirmations: new ConfirmationSigner(secret),
    traces,
    services,
    log,
  });

  return {
    db,
    registry,
    agents,
    tenants,
    traces,
    notifications,
    log,
    secret,
    register: (tool, registerOptions) => registry.register(tool, registerOptions),
    list: (listOptions) => registry.list(listOptions),
    get: (name, getOptions) => registry.get(name, getOptions),
    getToolsForTenant: (tenantId) => registry.getToolsForTenant(tenantId, tenants),
    getToolsForAgent: (agentId, tenantId) =>
      registry.getToolsForTenant(tenantId, tenants).filter((tool) =>
        agents.allows(agentId, tool.name)
      ),
    call: (request) => invoker.invoke(request),
    async close() {
      await notifications.stop();
      await traces.flush();
      await db.close();
    },
  };
}
