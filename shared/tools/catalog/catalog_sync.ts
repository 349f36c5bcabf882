/**
 * Keeps the catalog tables in step with the registry. The shared tools (the
 * packs' and the platform's) are synced at start; a tenant's own tools
 * (generated, registered at run time) each time the registry says that
 * tenant's tools changed. A tool gone from the registry keeps its row,
 * deactivated; a changed description or schema rewrites its row.
 *
 * Cheap when nothing changed: one read of the rows' hashes, no write. Safe
 * when several instances sync at once: every write is an upsert on
 * (org, name), in name order, so two syncs never duplicate a row nor
 * deadlock on each other.
 *
 * @module
 */
import type { Database, Queryable } from "@shared/db/types.ts";
import type { AnyTool, ToolRegistry } from "@shared/registry/registry.ts";
import {
  capabilityRow,
  type CatalogService,
  serviceHash,
  type ToolRow,
  toolRow,
} from "./catalog_entries.ts";

/** What one sync did. */
export interface CatalogSyncSummary {
  /** Tool rows inserted or rewritten. */
  written: number;
  /** Tool rows deactivated (their tool left the registry). */
  deactivated: number;
  /** Whether nothing needed writing. */
  unchanged: boolean;
}

/** Options for {@link createCatalogSync}. */
export interface CatalogSyncOptions {
  /** The database (written as the service). */
  db: Database;
  /** The registry the catalog mirrors. */
  registry: ToolRegistry;
  /** The shared services (packs, platform), with their capabilities. */
  services: readonly CatalogService[];
  /**
   * The service a tool belongs to, by name. For a shared tool it must name
   * one of {@link CatalogSyncOptions.services}; for a tenant's tool, a
   * service made with {@link CatalogSyncOptions.tenantService}.
   */
  serviceOf(tool: AnyTool, tenantId: string | null): string;
  /**
   * A tenant's service by name. @default a `tenant_api` service titled by its name
   */
  tenantService?(name: string, tenantId: string): CatalogService;
  /** Told of a sync that failed (the next change or start tries again). */
  onError?(error: unknown, tenantId: string | null): void;
}

/** The sync; see the module documentation. */
export interface CatalogSync {
  /** Syncs the shared tools. */
  syncShared(): Promise<CatalogSyncSummary>;
  /** Syncs one tenant's own tools. */
  syncTenant(tenantId: string): Promise<CatalogSyncSummary>;
  /**
   * Syncs a tenant whenever the registry says its tools changed (the shared
   * ones too, when a global tool is registered at run time). One sync runs
   * at a time; changes while one runs are synced after it.
   *
   * @returns a function that stops watching.
   */
  watch(): () => void;
  /**
   * Queues a sync of the shared tools (at start) and {@link CatalogSync.watch}es.
   *
   * @returns a function that stops watching.
   */
  start(): () => void;
  /** Resolves when every sync queued so far has finished (failures are reported to `onError`). */
  settled(): Promise<void>;
}

/**
 * Creates the catalog sync.
 *
 * @param options The database, the registry and the services.
 * @returns The sync.
 */
export function createCatalogSync(options: CatalogSyncOptions): CatalogSync {
  const { db, registry } = options;
  const shared = new Map(options.services.map((service) => [service.name, service]));
  const tenantService = options.tenantService ?? ((name: string): CatalogService => ({
    name,
    title: name.replaceAll("_", " "),
    summary: "",
    kind: "tenant_api" as const,
  }));

  const scopeTools = (tenantId: string | null): AnyTool[] => {
    if (tenantId === null) return registry.list();
    const globals = new Set(registry.list().map((tool) => tool.name));
    return registry.list({ tenantId }).filter((tool) => !globals.has(tool.name));
  };

  const sync = async (tenantId: string | null): Promise<CatalogSyncSummary> => {
    const tools = scopeTools(tenantId);
    const rows = await Promise.all(tools.map(async (tool) => ({
      ...await toolRow(tool),
      service: options.serviceOf(tool, tenantId),
    })));
    const serviceNames = [...new Set(rows.map((row) => row.service))].sort();
    const services = serviceNames.map((name): CatalogService => {
      if (tenantId === null) {
        const service = shared.get(name);
        if (!service) {
          throw new TypeError(
            `Cannot sync the catalog as a shared tool names an unknown service: current value is "${name}"`,
          );
        }
        return service;
      }
      return tenantService(name, tenantId);
    });
    // Shared services without tools (a pack of agents only, a pack with events) are listed too.
    if (tenantId === null) {
      for (const service of shared.values()) {
        if (!serviceNames.includes(service.name)) services.push(service);
      }
    }
    const serviceRows = await Promise.all(services.map(async (service) => ({
      name: service.name,
      title: service.title,
      summary: service.summary,
      keywords: (service.keywords ?? "").slice(0, 20000),
      kind: service.kind,
      content_hash: await serviceHash(service),
      capabilities: capabilityRow(service.capabilities),
    })));
    const summary = await db.asService((tx) => differences(tx, tenantId, rows, serviceRows));
    if (summary.unchanged) return summary;
    return await db.asService((tx) => write(tx, tenantId, rows, serviceRows));
  };

  let queue: Promise<unknown> = Promise.resolve();
  const pending = new Set<string | null>();
  const enqueue = (tenantId: string | null) => {
    if (pending.has(tenantId)) return;
    pending.add(tenantId);
    queue = queue.then(async () => {
      pending.delete(tenantId);
      try {
        await sync(tenantId);
      } catch (error) {
        options.onError?.(error, tenantId);
      }
    });
  };

  return {
    syncShared: () => sync(null),
    syncTenant: (tenantId) => sync(tenantId),
    watch: () => registry.subscribe((change) => enqueue(change.tenantId)),
    start() {
      enqueue(null);
      return registry.subscribe((change) => enqueue(change.tenantId));
    },
    async settled() {
      // A sync may queue another (a change while it ran): wait until the queue holds still.
      let seen: Promise<unknown> | undefined;
      while (seen !== queue) {
        seen = queue;
        await seen;
      }
    },
  };
}

type Row = ToolRow & { service: string };
interface ServiceRow {
  name: string;
  title: string;
  summary: string;
  keywords: string;
  kind: string;
  content_hash: string;
  capabilities: ReturnType<typeof capabilityRow>;
}

/** Whether the scope's rows already say all this (one read). */
async function differences(
  tx: Queryable,
  tenantId: string | null,
  rows: readonly Row[],
  services: readonly ServiceRow[],
): Promise<CatalogSyncSummary> {
  const [stored] = await tx.query<
    { tools: Record<string, string> | null; services: Record<string, string> | null }
  >(
    `select
       (select jsonb_object_agg(t.name, t.content_hash || ':' || s.name)
          from public.service_tools t join public.services s on s.id = t.service_id
          where t.org_id is not distinct from $1 and t.is_active) as tools,
       (select jsonb_object_agg(s.name, s.content_hash)
          from public.services s where s.org_id is not distinct from $1) as services`,
    [tenantId],
  );
  const tools = stored?.tools ?? {};
  const storedServices = stored?.services ?? {};
  const same = Object.keys(tools).length === rows.length &&
    rows.every((row) => tools[row.name] === `${row.content_hash}:${row.service}`) &&
    services.every((service) => storedServices[service.name] === service.content_hash);
  return { written: 0, deactivated: 0, unchanged: same };
}

async function write(
  tx: Queryable,
  tenantId: string | null,
  rows: readonly Row[],
  services: readonly ServiceRow[],
): Promise<CatalogSyncSummary> {
  const sortedServices = [...services].sort((a, b) => a.name.localeCompare(b.name));
  await tx.query(
    `insert into public.services (org_id, name, title, summary, keywords, kind, content_hash)
     select $1::uuid, r.name, r.title, r.summary, r.keywords, r.kind, r.content_hash
     from jsonb_to_recordset($2::jsonb) as r(name text, title text, summary text, keywords text,
       kind text, content_hash text)
     on conflict (org_id, name) do update
       set title = excluded.title, summary = excluded.summary, keywords = excluded.keywords,
           kind = excluded.kind,
           content_hash = excluded.content_hash, updated_at = now()
       where services.content_hash is distinct from excluded.content_hash`,
    [tenantId, sortedServices.map(({ capabilities: _c, ...service }) => service)],
  );
  await tx.query(
    `insert into automations.service_capabilities (service_id, org_id, service_name,
       supports_webhooks, webhook_events, webhook_payload_schemas, supports_polling, notes,
       auth_types, content_hash)
     select s.id, $1, r.name, (r.c ->> 'supports_webhooks')::boolean,
       array(select jsonb_array_elements_text(r.c -> 'webhook_events')),
       r.c -> 'webhook_payload_schemas', (r.c ->> 'supports_polling')::boolean, r.c ->> 'notes',
       array(select jsonb_array_elements_text(r.c -> 'auth_types')), r.content_hash
     from jsonb_to_recordset($2::jsonb) as r(name text, c jsonb, content_hash text)
     join public.services s on s.org_id is not distinct from $1 and s.name = r.name
     on conflict (service_id) do update
       set supports_webhooks = excluded.supports_webhooks,
           webhook_events = excluded.webhook_events,
           webhook_payload_schemas = excluded.webhook_payload_schemas,
           supports_polling = excluded.supports_polling, notes = excluded.notes,
           auth_types = excluded.auth_types, content_hash = excluded.content_hash,
           updated_at = now()
       where service_capabilities.content_hash is distinct from excluded.content_hash`,
    [
      tenantId,
      sortedServices.map((service) => ({
        name: service.name,
        c: service.capabilities,
        content_hash: service.content_hash,
      })),
    ],
  );
  const sorted = [...rows].sort((a, b) => a.name.localeCompare(b.name));
  const written = await tx.query(
    `insert into public.service_tools (org_id, service_id, name, title, summary, description,
       category, parameters, returns, side_effects, auth, confirm_required, idempotent, internal,
       keywords, content_hash, is_active)
     select $1::uuid, s.id, r.name, r.title, r.summary, r.description, r.category, r.parameters,
       r.returns, r.side_effects, r.auth, r.confirm_required, r.idempotent, r.internal,
       r.keywords, r.content_hash, true
     from jsonb_to_recordset($2::jsonb) as r(name text, service text, title text, summary text,
       description text, category text, parameters jsonb, returns jsonb, side_effects text,
       auth text, confirm_required boolean, idempotent boolean, internal boolean, keywords text,
       content_hash text)
     join public.services s on s.org_id is not distinct from $1 and s.name = r.service
     order by r.name
     on conflict (org_id, name) do update
       set service_id = excluded.service_id, title = excluded.title, summary = excluded.summary,
           description = excluded.description, category = excluded.category,
           parameters = excluded.parameters, returns = excluded.returns,
           side_effects = excluded.side_effects, auth = excluded.auth,
           confirm_required = excluded.confirm_required, idempotent = excluded.idempotent,
           internal = excluded.internal, keywords = excluded.keywords,
           content_hash = excluded.content_hash, is_active = true, updated_at = now()
       where service_tools.content_hash is distinct from excluded.content_hash
          or service_tools.service_id is distinct from excluded.service_id
          or not service_tools.is_active
     returning 1`,
    [tenantId, sorted],
  );
  const deactivated = await tx.query(
    `update public.service_tools set is_active = false, updated_at = now()
     where org_id is not distinct from $1 and is_active and not (name = any($2::text[]))
     returning 1`,
    [tenantId, sorted.map((row) => row.name)],
  );
  return { written: written.length, deactivated: deactivated.length, unchanged: false };
}
