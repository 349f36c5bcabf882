/**
 * How an instance keeps a tenant's run-time tools (generated from the
 * tenant's OpenAPI or GraphQL documents, or registered at run time) in step
 * with the database, where they are kept so every instance of a stateless
 * function sees the same catalog.
 *
 * The registry ({@link ToolRegistry}) is the one place tools are looked up;
 * a {@link TenantToolSync} only registers and unregisters a tenant's
 * run-time tools in it, so the registry's `subscribe` listeners (an MCP
 * session's `notifications/tools/list_changed`, the catalog's rows) hear of
 * every change whichever instance made it.
 *
 * @module
 */
import type { ToolRegistry } from "./registry.ts";

/** Brings one instance's registry up to date with a tenant's run-time tools. */
export interface TenantToolSync {
  /**
   * The tenant's catalog version as the database holds it: changes whenever
   * one of its run-time tools is added, changed or removed on any instance.
   * Cheap (one indexed read), so a long-lived session may poll it.
   */
  version(orgId: string): Promise<string>;
  /**
   * Registers, replaces or unregisters the tenant's run-time tools in
   * `registry` so they match the database's version.
   *
   * @returns whether anything changed on this instance.
   */
  sync(orgId: string, registry: ToolRegistry): Promise<boolean>;
}

/** A platform without run-time tools: the catalog never changes from the database. */
export const NO_RUNTIME_TOOLS: TenantToolSync = {
  version: () => Promise.resolve("0"),
  sync: () => Promise.resolve(false),
};
