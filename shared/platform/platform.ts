/**
 * The platform: the packs' tools, agents and services, the registry,
 * tenants and the invoke pipeline wired together, with Mu's verbs
 * (register, list, get, call) on top. The one module that reads the pack
 * list.
 *
 * @module
 */
import { stagedNotifier } from "@shared/channels/notifications/staged_notifier.ts";
import {
  createNotificationDispatcher,
} from "@shared/channels/notifications/notification_dispatcher.ts";
import type { NotificationTransports } from "@shared/channels/notifications/notification_env.ts";
import { createInboxTransport } from "@shared/channels/notifications/inbox_tickets.ts";
import { createLocalSlackTransport } from "@shared/channels/notifications/slack.ts";
import { createLocalSmsTransport } from "@shared/channels/notifications/sms.ts";
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import { whatsappMessaging } from "@shared/channels/whatsapp/messaging.ts";
import { createPseudonymiser } from "@shared/pipeline/pseudonymise.ts";
import type { Database, DbRole } from "@shared/db/types.ts";
import { callerTools } from "@shared/pipeline/caller_tools.ts";
import { ConfirmationSigner } from "@shared/pipeline/confirmation.ts";
import { createInvoker } from "@shared/pipeline/invoke.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import { LeasedRateLimiter, type RateLimit } from "@shared/pipeline/rate_limit.ts";
import { TraceSink } from "@shared/pipeline/trace_sink.ts";
import { createPlatformSweeper } from "@shared/pipeline/platform_sweep.ts";
import { resumeDeferredCalls } from "@shared/pipeline/deferred_calls.ts";
import { checkAgentConfig, checkAgentTenants } from "@shared/registry/agent_config.ts";
import { AGENT_CONFIGS } from "../../config/agent_configs.ts";
import type { ServiceKey, ToolServices } from "@shared/registry/define_tool.ts";
import { type Pack, packAgents, packIntents, packTables } from "@shared/registry/pack.ts";
import { type AnyTool, ToolRegistry } from "@shared/registry/registry.ts";
import { DECIDING_FORMATS, exportTools } from "@shared/export/export_tools.ts";
import { TenantDirectory } from "@shared/registry/tenant_policy.ts";
import { analyticsLog, createGeneratePdf, createSearchSupabase } from "@shared/tools/mod.ts";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";
import { STAFF_NOTIFIER } from "@shared/packs/support/mod.ts";
import { OCR_ENGINE, OCR_NOT_HERE } from "@shared/capabilities/document_reading/mod.ts";
import {
  PDF_RENDERER,
  PDF_RENDERER_NOT_HERE,
} from "@shared/capabilities/documents/pdf_renderer.ts";
import { PAYMENTS_CONFIG, paymentsConfigFromEnv } from "@shared/packs/payments/mod.ts";
import {
  AUTOMATION_CATALOG,
  SLACK_SETTINGS,
  slackSettingsFromEnv,
} from "@shared/packs/automations/mod.ts";
import { automationCatalog, runAutomations } from "./automation_runner.ts";
import { VIDEO_PROVIDER, videoProviderElsewhere } from "@shared/packs/video/mod.ts";
import { createLogger, type Logger } from "@shared/runtime/log.ts";
import { checkPackSurfaces } from "./pack_surfaces.ts";
import {
  createPostgresToolSync,
  credentialBoxFromEnv,
  GENERATED_TOOLS,
  type GeneratedToolsEngine,
  type Resolver,
  SOURCE_TOOLS,
  SOURCE_WRITES,
} from "@shared/generated_tools/mod.ts";
import { NO_RUNTIME_TOOLS, type TenantToolSync } from "@shared/registry/tenant_catalog.ts";
import { catalogServiceOf, catalogServices } from "./catalog.ts";
import { createCatalogSync } from "@shared/tools/catalog/catalog_sync.ts";
import { embedderFromEnv, type TextEmbedder } from "@shared/tools/catalog/tool_embeddings.ts";
import {
  type CatalogToolsOptions,
  createCatalogTools,
  DISCOVERY_TOOLS,
} from "@shared/tools/catalog/catalog_tools.ts";
import { FILE_STORE, unconfiguredFileStore } from "@shared/storage/file_store.ts";

export type { Platform };
export { PACKS, UNCLEAR_PHRASES };

/** Every customer agent's intent examples, in pack order: what the router learns from. */
export const PACK_INTENTS = packIntents(PACKS);

/**
 * Every tool the packs bring, plus the platform's generic ones built over
 * the packs' tables (`search_supabase`, `analytics_log`, `generate_pdf`) and
 * the discovery tools over the catalog (`list_tools`, `search_tools`,
 * `fetch_tool_schemas`).
 */
export function platformTools(
  packs: readonly Pack[] = PACKS,
  options: {
    pdfUrlTtlDays?: number;
    /** What a caller may discover. @default nothing (descriptors only: docs, exports) */
    catalogAllowed?: CatalogToolsOptions["allowed"];
    /** Embeddings for `search_tools`. @default none: keywords only */
    catalogEmbedder?: CatalogToolsOptions["embedder"];
  } = {},
): AnyTool[] {
  return [
    ...packs.flatMap((pack) => pack.tools),
    createSearchSupabase(packTables(packs)),
    analyticsLog,
    createGeneratePdf({ urlTtlDays: options.pdfUrlTtlDays }),
    // A tenant's staff bring their own API (OpenAPI, GraphQL) as tools of that tenant.
    ...SOURCE_TOOLS,
    ...createCatalogTools({
      allowed: options.catalogAllowed ?? (() => Promise.resolve(new Set<string>())),
      embedder: options.catalogEmbedder ?? null,
    }),
  ];
}

/** A service a pack declared, with its implementation. */
export interface ServiceProvision<T = unknown> {
  /** The pack's key. */
  key: ServiceKey<T>;
  /** What the pack gets. */
  value: T;
}

/**
 * The services this root provides the packs. Files need a Storage server:
 * the runtime from the environment and the dev server provide one; without,
 * every file call says storage is not configured.
 */
function defaultProvisions(): ServiceProvision[] {
  return [
    { key: STAFF_NOTIFIER, value: stagedNotifier() },
    // Packs speak to people through the port; WhatsApp is the channel that reaches them today.
    { key: MESSAGING, value: whatsappMessaging },
    { key: FILE_STORE, value: unconfiguredFileStore() },
    // Documents are read by the functions that provide an engine (ocr-processor, the dev server).
    { key: OCR_ENGINE, value: OCR_NOT_HERE },
    // PDFs are laid out by tools, payments and the dev server (the agent asks tools).
    { key: PDF_RENDERER, value: PDF_RENDERER_NOT_HERE },
    // MOMO_CHARGE_TTL_MINUTES and MOMO_MAX_AMOUNT_RWF; a bad value stops the start.
    { key: PAYMENTS_CONFIG, value: paymentsConfigFromEnv() },
    // Jobs are queued anywhere; the agent function and the dev server call the provider.
    { key: VIDEO_PROVIDER, value: videoProviderElsewhere() },
  ];
}

/** A lookup over provisions that refuses, at start, a pack whose service nobody provides. */
function serviceLookup(
  packs: readonly Pack[],
  provisions: readonly ServiceProvision[],
): ToolServices["get"] {
  const provided = new Map(provisions.map((provision) => [provision.key.id, provision.value]));
  for (const pack of packs) {
    for (const key of pack.services) {
      if (!provided.has(key.id)) {
        throw new Error(`Cannot start pack "${pack.id}" as no service is provided for ${key.id}`);
      }
    }
  }
  return <T>(key: ServiceKey<T>) => {
    if (!provided.has(key.id)) throw new Error(`No service is provided for ${key.id}`);
    return provided.get(key.id) as T;
  };
}

/** The agent file (the CLIs read it; functions use its bundled data, `config/agent_configs.ts`). */
export const AGENT_CONFIG_URL = new URL("../../config/agent_configs.yaml", import.meta.url);

/** Options for {@link createPlatform}. */
export interface PlatformOptions {
  /** The database, already migrated. */
  db: Database;
  /** The platform secret (≥ 32 characters). */
  secret: string;
  /** Logs. @default JSON lines on stderr */
  log?: Logger;
  /** The domain packs: their tools, agents, tables and services. @default PACKS */
  packs?: readonly Pack[];
  /**
   * The agent file's data: per tenant, the agents that run and their tools.
   * @default the bundled `config/agent_configs.yaml` (`config/agent_configs.ts`)
   */
  agentConfig?: unknown;
  /** Tools registered globally next to the packs' (tests, benches). */
  tools?: readonly AnyTool[];
  /** Override the clock or the pseudonymiser (tests). */
  services?: Partial<Pick<ToolServices, "now" | "pseudonymise">>;
  /** Services for the packs, replacing the root's by key. @default the root's (staged staff notices) */
  provide?: readonly ServiceProvision[];
  /** Days a generate_pdf link lasts, 1 to 30 (`PDF_URL_TTL_DAYS`). @default 7 */
  pdfUrlTtlDays?: number;
  /**
   * Whether the catalog tables (`public.service_tools`, …) follow the
   * registry: the shared tools synced at start (in the background; a hash
   * check when nothing changed) and each tenant's whenever its tools change.
   * @default true
   */
  catalogSync?: boolean;
  /**
   * Embeddings for `search_tools` (search by meaning, fused with keywords).
   * @default from `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_EMBEDDING_MODEL`; none without a key
   */
  catalogEmbedder?: TextEmbedder | null;
  /** Trace flush interval. @default 250 */
  traceIntervalMs?: number;
  /** Senders for staged staff notifications. @default local (marked sent, nothing leaves) */
  notificationTransports?: NotificationTransports;
  /** Notification dispatch loop interval; 0 runs no loop (tests call drain()). @default 0 */
  notificationIntervalMs?: number;
  /**
   * How often a long-running host runs the platform's sweep (the packs' due
   * schedules, the purge of expired idempotency keys); 0 runs no loop: a
   * deployed function's sweep endpoint runs it (`POST /agent/sweep`). @default 0
   */
  sweepIntervalMs?: number;
  /**
   * How old the tenant directory may grow before a lookup reads `orgs` and
   * `tenant_whatsapp_numbers` again: a number or brand an operator changes
   * serves within this long, without a restart. @default 5000
   */
  tenantsMaxAgeMs?: number;
  /**
   * The most calls of one tool all of a tenant's callers together may make,
   * unless the tool or the tenant's policy says otherwise.
   * @default `TOOL_TENANT_CEILING_PER_SEC` calls a second, else 1,000
   */
  tenantRateCeiling?: RateLimit;
  /**
   * The generator of tenants' API tools (`GENERATED_TOOLS_ENGINE` from
   * `shared/generated_tools/engine.ts`, about 1 MiB of parsers): the functions
   * that serve generated tools pass it; without it no generated tool is
   * registered here and `api_source_register` answers SERVICE_UNAVAILABLE.
   */
  generatedTools?: GeneratedToolsEngine;
  /**
   * Keeps each tenant's run-time tools in step with the database.
   * @default the Postgres-backed sync over `db` with `generatedTools`, else none
   */
  runtimeTools?: TenantToolSync;
  /**
   * How long a tenant's catalog version is trusted before a call or listing
   * reads it again (one primary-key read): another instance's new tools
   * appear within this long. @default 1000
   */
  runtimeToolsMaxAgeMs?: number;
  /** DNS resolution for generated tools and document fetches (tests). @default the system's */
  resolveDns?: Resolver;
}

/**
 * The deployment's ceiling from `TOOL_TENANT_CEILING_PER_SEC` (calls of one
 * tool per second by all of a tenant's callers); `undefined` when unset.
 *
 * @throws {RangeError} when it is set to anything but a whole number from 1 to 1,000,000,000.
 */
export function tenantRateCeilingFromEnv(
  env: Pick<Deno.Env, "get"> = Deno.env,
): RateLimit | undefined {
  const value = env.get("TOOL_TENANT_CEILING_PER_SEC")?.trim();
  if (!value) return undefined;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > 1_000_000_000) {
    throw new RangeError(
      "Cannot start as TOOL_TENANT_CEILING_PER_SEC must be a whole number of calls a second " +
        `from 1 to 1000000000: current value is ${JSON.stringify(value)}`,
    );
  }
  return { limit, windowSec: 1 };
}

/**
 * Builds the platform: registers the tools, loads and checks the agent file
 * and the tenants.
 *
 * @throws {AgentConfigError} when the agent file is invalid.
 * @throws {RangeError} when a pack setting (in the environment or a tenant's row) or
 *   `TOOL_TENANT_CEILING_PER_SEC` is invalid.
 */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { db, secret } = options;
  const log = options.log ?? createLogger();
  const packs = options.packs ?? PACKS;
  for (const pack of packs) await pack.checkSettings?.({ db, log });
  const registry = new ToolRegistry();
  const tools = platformTools(packs, {
    pdfUrlTtlDays: options.pdfUrlTtlDays,
    catalogEmbedder: options.catalogEmbedder === undefined
      ? embedderFromEnv()
      : options.catalogEmbedder,
    // What the caller could call, as the tools function and MCP list it to them (callerTools):
    // the tenant's policy, staff tools for its staff only, the agent's allowlist when one asks.
    catalogAllowed: async (ctx) => {
      if (!ctx.org_id) return new Set();
      // The caller's standing, read as the caller (their claims and memberships, under RLS).
      const [me] = await ctx.db.query<{ role: string | null; staff: boolean }>(
        `select (select auth.role()) as role,
                exists (select 1 from private.my_staff_memberships v where v.org_id = $1) as staff`,
        [ctx.org_id],
      );
      const role: DbRole = me?.role === "service_role" || me?.role === "authenticated"
        ? me.role
        : "anon";
      const listed = callerTools(platform, {
        claims: { role, ...(ctx.user_id ? { sub: ctx.user_id } : {}) },
        org_id: ctx.org_id,
        memberships: me?.staff ? [{ org_id: ctx.org_id, role: "staff" }] : [],
      }, ctx.agent_id ? { agent: ctx.agent_id } : {});
      return new Set(listed.ok ? listed.tools.map((tool) => tool.name) : []);
    },
  });
  for (const tool of [...tools, ...(options.tools ?? [])]) registry.register(tool);
  const knownTools = registry.list().map((tool) => tool.name);
  for (const tool of registry.list()) checkTaskTool(tool, registry);
  checkPackSurfaces(packs, knownTools);
  // The bundled data: a deployed function sees only what was bundled.
  const agents = checkAgentConfig(options.agentConfig ?? AGENT_CONFIGS, {
    knownTools,
    declared: packAgents(packs),
    discoveryTools: Object.values(DISCOVERY_TOOLS),
  });
  const now = options.services?.now ?? (() => new Date());
  const onInvalid = (slug: string) => log.error("tenant_policy_invalid", { tenant: slug });
  // Live: lookups that await fresh() see an operator's new number or brand within the age.
  const tenants = new TenantDirectory({
    source: db,
    maxAgeMs: options.tenantsMaxAgeMs,
    now: () => now().getTime(),
    onInvalid,
    onLoadFailed: (error) =>
      log.error("tenants_reload_failed", { error: String(error).slice(0, 300) }),
  });
  await tenants.load(db, onInvalid);
  checkAgentTenants(agents, tenants.list().map((tenant) => tenant.slug));

  const traces = new TraceSink({ db, log, intervalMs: options.traceIntervalMs });
  // GENERATED_TOOLS_KEY seals tenants' API credentials; without it, a key derived from the secret.
  const box = await credentialBoxFromEnv(secret);
  const generated = {
    key: GENERATED_TOOLS,
    value: {
      engine: options.generatedTools,
      box,
      isPlatformTool: (name: string) => registry.get(name) !== undefined,
      resolve: options.resolveDns,
    },
  };
  const services: ToolServices = {
    pseudonymise: createPseudonymiser(secret),
    ...options.services,
    now,
    get: serviceLookup(packs, [
      ...defaultProvisions(),
      generated,
      // Read through the platform at each check: the tenants and the run-time tools are live.
      { key: AUTOMATION_CATALOG, value: automationCatalog(() => platform) },
      // SLACK_WEBHOOK_PREFIXES; a bad value stops the start.
      { key: SLACK_SETTINGS, value: slackSettingsFromEnv() },
      ...(options.provide ?? []),
    ]),
  };
  const engine = options.generatedTools;
  const runtimeTools = options.runtimeTools ??
    (engine
      ? createPostgresToolSync({ db, box, engine, log, resolve: options.resolveDns })
      : NO_RUNTIME_TOOLS);
  const syncTools = tenantSyncer(runtimeTools, registry, {
    maxAgeMs: options.runtimeToolsMaxAgeMs ?? 1000,
    log,
  });
  const invoker = createInvoker({
    db,
    registry,
    tenants,
    agents,
    tenantCeiling: options.tenantRateCeiling ?? tenantRateCeilingFromEnv(),
    rateLimiter: new LeasedRateLimiter({
      db,
      onReturnFailed: (error) => log.warn("rate_tokens_return_failed", { error: String(error) }),
    }),
    confirmations: new ConfirmationSigner(secret),
    traces,
    services,
    log,
  });
  const notifications = createNotificationDispatcher({
    db,
    log,
    transports: {
      ...(options.notificationTransports ??
        { slack: createLocalSlackTransport(), sms: createLocalSmsTransport() }),
      // Staged tickets (a message given up, a refused token) are opened through notify_staff.
      inbox: createInboxTransport({ call: (request) => invoker.invoke(request) }),
    },
  });
  if (options.notificationIntervalMs) {
    notifications.start({ intervalMs: options.notificationIntervalMs });
  }
  const sweeper = createPlatformSweeper(() => platform, {
    now,
    log,
    tasks: [
      { name: "automations", run: (at) => runAutomations(platform, { now: at }) },
      // Deferred calls (tasks) whose instance stopped: run again, or marked failed.
      { name: "deferred_calls", run: (at) => resumeDeferredCalls(platform, { now: at }) },
    ],
  });
  const catalog = createCatalogSync({
    db,
    registry,
    services: catalogServices(packs),
    serviceOf: catalogServiceOf(packs),
    onError: (error, tenantId) =>
      log.error("catalog_sync_failed", { tenant: tenantId, error: String(error).slice(0, 300) }),
  });
  const stopCatalog = options.catalogSync === false ? () => {} : catalog.start();

  const platform: Platform = {
    db,
    registry,
    agents,
    packs,
    tenants,
    traces,
    notifications,
    services,
    files: services.get(FILE_STORE),
    log,
    secret,
    register: (tool, registerOptions) => {
      // A tool arriving at run time is held to every export dialect now, by name, rather
      // than failing its tenant's listings later (the packs' tools are held by a test): the
      // dialects that can refuse prove the others, as for generated tools (DECIDING_FORMATS).
      for (const format of DECIDING_FORMATS) exportTools([tool], format);
      checkTaskTool(tool, registry, registerOptions?.tenantId);
      return registry.register(tool, registerOptions);
    },
    list: (listOptions) => registry.list(listOptions),
    get: (name, getOptions) => registry.get(name, getOptions),
    getToolsForTenant: (tenantId) => registry.getToolsForTenant(tenantId, tenants),
    getToolsForAgent: (agentId, tenantId) => {
      const slug = tenants.get(tenantId)?.slug ?? "";
      return registry.getToolsForTenant(tenantId, tenants).filter((tool) =>
        agents.allows(slug, agentId, tool.name, { tenantTool: !registry.get(tool.name) })
      );
    },
    runtimeTools,
    syncTools,
    call: async (request) => {
      const orgId = request.caller.org_id;
      // The tenant's generated tools, as the database holds them, before the lookup.
      if (orgId) await syncTools(orgId);
      const result = await invoker.invoke(request);
      // The staff member who changed the tenant's APIs uses the new tools at once on this instance.
      if (result.ok && orgId && registry.get(request.tool)?.sideEffects === SOURCE_WRITES) {
        await syncTools(orgId, true);
      }
      return result;
    },
    now,
    sweep: () => sweeper.sweep(),
    catalog: { settled: () => catalog.settled() },
    async close() {
      stopCatalog();
      await catalog.settled();
      await sweeper.stop();
      await notifications.stop();
      await traces.flush();
      await db.close();
    },
  };
  if (options.sweepIntervalMs) sweeper.start({ intervalMs: options.sweepIntervalMs });
  return platform;
}

/**
 * Syncs a tenant's run-time tools at most once per `maxAgeMs` (unless forced):
 * a failure is logged and the tools already registered stay.
 */
function tenantSyncer(
  sync: TenantToolSync,
  registry: ToolRegistry,
  options: { maxAgeMs: number; log: Logger },
): (orgId: string, force?: boolean) => Promise<boolean> {
  const checked = new Map<string, number>();
  return async function syncTenantTools(orgId, force = false) {
    const at = performance.now();
    const last = checked.get(orgId);
    if (!force && last !== undefined && at - last < options.maxAgeMs) return false;
    checked.set(orgId, at);
    try {
      return await sync.sync(orgId, registry);
    } catch (error) {
      checked.delete(orgId);
      options.log.error("runtime_tools_sync_failed", {
        org_id: orgId,
        error: String(error).slice(0, 300),
      });
      return false;
    }
  };
}

/**
 * A long-running tool's job is read by its status tool: one that exists
 * (for a tenant's tool, among what that tenant sees).
 *
 * @throws {TypeError} naming the tool and the status tool it lacks.
 */
function checkTaskTool(tool: AnyTool, registry: ToolRegistry, tenantId?: string): void {
  if (!tool.task || tool.task.deferred || registry.get(tool.task.statusTool, { tenantId })) return;
  throw new TypeError(
    `Cannot register tool "${tool.name}" as its task's status tool is not registered: ` +
      `current value is "${tool.task.statusTool}"`,
  );
}
