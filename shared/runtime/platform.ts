/**
 * The platform: registry, agents, tenants and the invoke pipeline wired
 * together, with Mu's verbs (register, list, get, call) on top.
 *
 * @module
 */
import type { z } from "zod";
import { recordingChannel } from "@shared/adapters/channels.ts";
import {
  createNotificationDispatcher,
  type NotificationDispatcher,
} from "@shared/adapters/notification_dispatcher.ts";
import type { NotificationTransports } from "@shared/adapters/notification_env.ts";
import { createLocalSlackTransport } from "@shared/adapters/slack.ts";
import { createLocalSmsTransport } from "@shared/adapters/sms.ts";
import { createPseudonymiser } from "@shared/adapters/pseudonymise.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Database } from "@shared/db/types.ts";
import { ConfirmationSigner } from "@shared/pipeline/confirmation.ts";
import { createInvoker, type InvokeRequest } from "@shared/pipeline/invoke.ts";
import { LeasedRateLimiter } from "@shared/pipeline/rate_limit.ts";
import { TraceSink } from "@shared/pipeline/trace_sink.ts";
import {
  type AgentDirectory,
  checkAgentTenants,
  loadAgentConfig,
} from "@shared/registry/agent_config.ts";
import type { Tool, ToolServices } from "@shared/registry/define_tool.ts";
import {
  type AnyTool,
  type ListOptions,
  type RegisterOptions,
  type ToolHandle,
  ToolRegistry,
} from "@shared/registry/registry.ts";
import { TenantDirectory } from "@shared/registry/tenant_policy.ts";
import { CORE_TOOLS } from "@shared/tools/mod.ts";
import { createLogger, type Logger } from "./log.ts";

/** The default agent file. */
export const AGENT_CONFIG_URL = new URL("../../config/agent_configs.yaml", import.meta.url);

/** Options for {@link createPlatform}. */
export interface PlatformOptions {
  /** The database, already migrated. */
  db: Database;
  /** The platform secret (≥ 32 characters). */
  secret: string;
  /** Logs. @default JSON lines on stderr */
  log?: Logger;
  /** The agent file. @default config/agent_configs.yaml */
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

/** The running platform. */
export interface Platform {
  /** The database. */
  readonly db: Database;
  /** The registry. */
  readonly registry: ToolRegistry;
  /** The agents. */
  readonly agents: AgentDirectory;
  /** The tenants. */
  readonly tenants: TenantDirectory;
  /** Trace writer (flush it before reading traces). */
  readonly traces: TraceSink;
  /** Sends staged staff notifications (Slack, SMS) after commit. */
  readonly notifications: NotificationDispatcher;
  /** Logs. */
  readonly log: Logger;
  /** The platform secret. */
  readonly secret: string;
  /** Registers a tool, globally or for one tenant. */
  register<I extends z.ZodObject, O extends z.ZodType>(
    tool: Tool<I, O>,
    options?: RegisterOptions,
  ): ToolHandle;
  /** Lists tools. */
  list(options?: ListOptions): AnyTool[];
  /** Gets a tool. */
  get(name: string, options?: { tenantId?: string | null }): AnyTool | undefined;
  /** What a tenant may use. */
  getToolsForTenant(tenantId: string): AnyTool[];
  /** What an agent of a tenant may use. */
  getToolsForAgent(agentId: string, tenantId: string): AnyTool[];
  /** Runs one call through the pipeline. */
  call(request: InvokeRequest): Promise<ToolResult>;
  /** Flushes traces and closes the database. */
  close(): Promise<void>;
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
  const agents = await loadAgentConfig(options.agentConfigUrl ?? AGENT_CONFIG_URL, {
    knownTools: registry.list().map((tool) => tool.name),
  });
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
