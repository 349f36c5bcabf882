/**
 * What the rest of the code sees of the running platform: the registry, the
 * agents, the tenants and the invoke pipeline behind Mu's verbs (register,
 * list, get, call). The composition root (`shared/platform/`) builds it;
 * channels, the agent and functions only hold this interface, so none of
 * them imports the wiring or the packs it names.
 *
 * @module
 */
import type { z } from "zod";
import type { CallerResolver } from "@shared/auth/caller.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Database } from "@shared/db/types.ts";
import type { AgentDirectory } from "@shared/registry/agent_config.ts";
import type { Tool, ToolServices } from "@shared/registry/define_tool.ts";
import type { Pack } from "@shared/registry/pack.ts";
import type {
  AnyTool,
  ListOptions,
  RegisterOptions,
  ToolHandle,
  ToolRegistry,
} from "@shared/registry/registry.ts";
import type { TenantDirectory } from "@shared/registry/tenant_policy.ts";
import type { TenantToolSync } from "@shared/registry/tenant_catalog.ts";
import type { Logger } from "@shared/runtime/log.ts";
import type { FileStore } from "@shared/storage/file_store.ts";
import type { InvokeRequest } from "./invoke.ts";
import type { TraceSink } from "./trace_sink.ts";

/** A background sender over an outbox table (staff notifications, WhatsApp). */
export interface OutboxWorker {
  /** Sends everything due now; rows waiting for a later retry stay. */
  drain(): Promise<unknown>;
  /** Stops its loop and waits for the run in progress. */
  stop(): Promise<void>;
}

/** What one platform sweep did (`platform_sweep.ts`). */
export interface PlatformSweepSummary {
  /** Schedule runs (a replay within the same period counts as a run). */
  schedules: number;
  /** Schedule runs that failed (each is logged). */
  schedulesFailed: number;
  /** Expired idempotency keys deleted (0 when the purge was not due). */
  keysPurged: number;
}

/** The running platform. */
export interface Platform {
  /** The database. */
  readonly db: Database;
  /** The registry. */
  readonly registry: ToolRegistry;
  /** The agents. */
  readonly agents: AgentDirectory;
  /** The domain packs it runs (their agents' routing roles, words and offline flows). */
  readonly packs: readonly Pack[];
  /** The tenants. */
  readonly tenants: TenantDirectory;
  /** Trace writer (flush it before reading traces). */
  readonly traces: TraceSink;
  /** Sends staged staff notifications after commit. */
  readonly notifications: OutboxWorker;
  /** The services the root provides the packs (what tools get as `services`). */
  readonly services: ToolServices;
  /** Files in Storage, as the root provides the `FILE_STORE` service (service role). */
  readonly files: FileStore;
  /** Logs. */
  readonly log: Logger;
  /** The platform secret. */
  readonly secret: string;
  /**
   * Registers a tool, globally or for one tenant.
   *
   * @throws {ToolExportError} (shared/export) when an export dialect cannot carry the tool.
   */
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
  /** Keeps each tenant's run-time tools (generated from its APIs) in step with the database. */
  readonly runtimeTools: TenantToolSync;
  /**
   * Brings a tenant's run-time tools up to date in {@link registry} (cheap
   * when its catalog version did not move; at most one read per interval
   * unless `force`). `call` does it first; a listing should too. Never throws.
   *
   * @returns whether this instance's tools changed.
   */
  syncTools(orgId: string, force?: boolean): Promise<boolean>;
  /** Runs one call through the pipeline, after syncing the caller's tenant's run-time tools. */
  call(request: InvokeRequest): Promise<ToolResult>;
  /** The platform's clock: what tools, schedules and sweeps read (injected in tests). */
  now(): Date;
  /**
   * The platform's periodic work: the packs' schedules that are due and the
   * purge of expired idempotency keys (`platform_sweep.ts`). Never throws.
   */
  sweep(): Promise<PlatformSweepSummary>;
  /**
   * The catalog tables' sync with the registry (`public.service_tools`):
   * `settled()` resolves when every sync queued so far (the start's, a
   * tenant's tools changing) has finished.
   */
  readonly catalog: { settled(): Promise<void> };
  /** Flushes traces and closes the database. */
  close(): Promise<void>;
}

/** What an edge function needs: the platform and a caller resolver. */
export interface Runtime {
  /** The platform. */
  platform: Platform;
  /** Resolves `Authorization` headers to callers. */
  resolveCaller: CallerResolver;
}
