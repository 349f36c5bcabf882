/**
 * The Postgres-backed {@link TenantToolSync}: a tenant's generated tools are
 * rows (`api_sources`, `api_credentials`), so every instance of a stateless
 * function sees the same catalog. `version` is one primary-key read of
 * `tool_catalog_versions`, which triggers bump in the transaction of every
 * change; `sync` regenerates only when it moved, and then only the sources
 * that changed (plans come from the in-process cache by document hash).
 * Credentials stay sealed in memory until a call opens one.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/result.ts";
import type { Queryable } from "@shared/db/types.ts";
import type { ToolHandle, ToolRegistry } from "@shared/registry/registry.ts";
import type { TenantToolSync } from "@shared/registry/tenant_catalog.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { bindPlan, type Credential, planExportKey } from "./bind.ts";
import type { CredentialBox, SealedCredential } from "./credential_box.ts";
import type { GeneratedToolsEngine } from "./sync_engine.ts";
import { documentHash } from "./operation.ts";
import {
  loadPlans,
  openSignedPlans,
  PlanSignatureError,
  signedPlansColumns,
  signedPlansOf,
  type SignedPlansRow,
  STORED_PLAN_VERSION,
} from "./stored_plan.ts";
import type { Resolver } from "./safe_fetch.ts";

/** Options for {@link createPostgresToolSync}. */
export interface PostgresToolSyncOptions {
  /** The database, read as the service (rows are scoped by org here). */
  db: Queryable;
  /** Opens credentials at call time. */
  box: CredentialBox;
  /** Makes the plans. */
  engine: GeneratedToolsEngine;
  /** Logs a source that could not be generated or registered. */
  log?: Logger;
  /** DNS resolution for the tools' calls (tests inject one). */
  resolve?: Resolver;
}

interface SourceRow {
  id: string;
  name: string;
  kind: "openapi" | "graphql";
  document_hash: string;
  base_url: string;
  expose: string[];
  row_version: string;
}

interface SourceState {
  /** What the tools were generated from; a different key regenerates. */
  key: string;
  handles: ToolHandle[];
}

interface TenantState {
  version: string;
  sources: Map<string, SourceState>;
  /** Sealed credentials by `<source id>\n<scheme>`, replaced on each sync. */
  credentials: Map<string, SealedCredential>;
  running?: Promise<boolean>;
}

/** The real sync over Postgres. */
export function createPostgresToolSync(options: PostgresToolSyncOptions): TenantToolSync {
  const { db, box, log } = options;
  const states = new WeakMap<ToolRegistry, Map<string, TenantState>>();

  async function version(orgId: string): Promise<string> {
    const [row] = await db.query<{ version: string }>(
      "select version::text as version from public.tool_catalog_versions where org_id = $1",
      [orgId],
    );
    return row?.version ?? "0";
  }

  function stateOf(registry: ToolRegistry, orgId: string): TenantState {
    let tenants = states.get(registry);
    if (!tenants) states.set(registry, tenants = new Map());
    let state = tenants.get(orgId);
    if (!state) {
      tenants.set(orgId, state = { version: "", sources: new Map(), credentials: new Map() });
    }
    return state;
  }

  async function run(orgId: string, registry: ToolRegistry, state: TenantState): Promise<boolean> {
    const current = await version(orgId);
    if (current === state.version) return false;
    const [rows, settings, credentials] = await Promise.all([
      db.query<SourceRow>(
        // What decides whether a source changed; its plans are read only when it did.
        // xmin: the row's version, so any write to it (plans by hand included) is read again.
        `select id, name, kind, document_hash, base_url, expose, xmin::text as row_version
         from public.api_sources where org_id = $1 order by name`,
        [orgId],
      ),
      db.query<{ allow_private_network: boolean }>(
        "select allow_private_network from public.api_source_settings where org_id = $1",
        [orgId],
      ),
      db.query<{ source_id: string; scheme: string; ciphertext: string; key_id: string }>(
        "select source_id, scheme, ciphertext, key_id from public.api_credentials where org_id = $1",
        [orgId],
      ),
    ]);
    const allowPrivateNetwork = settings[0]?.allow_private_network === true;
    state.credentials = new Map(
      credentials.map((row) => [
        `${row.source_id}\n${row.scheme}`,
        { ciphertext: row.ciphertext, keyId: row.key_id },
      ]),
    );
    let changed = false;
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.id);
      const key = [
        row.row_version,
        row.document_hash,
        row.name,
        row.kind,
        row.base_url,
        allowPrivateNetwork,
        ...row.expose,
      ]
        .join("\n");
      const previous = state.sources.get(row.id);
      if (previous?.key === key) continue;
      for (const handle of previous?.handles ?? []) handle.unregister();
      state.sources.delete(row.id);
      changed = true;
      const handles: ToolHandle[] = [];
      try {
        // Only plans the platform signed for this very row: a row edited by hand registers nothing.
        const text = await openSignedPlans(signedPlansOf(await storedOf(row.id)), {
          orgId,
          name: row.name,
          kind: row.kind,
          documentHash: row.document_hash,
          baseUrl: row.base_url,
          expose: row.expose,
        }, box);
        const plans = loadPlans(JSON.parse(text), row.name) ??
          await plansFromDocument(orgId, row, await documentOf(row.id));
        const binding = {
          orgId,
          source: row.name,
          baseUrl: row.base_url,
          allowPrivateNetwork,
          resolve: options.resolve,
          credential: (scheme: string) => openCredential(state, orgId, row.id, scheme),
          exportKey: planExportKey(row.kind, row.document_hash, STORED_PLAN_VERSION),
        };
        for (const plan of plans) {
          handles.push(registry.register(bindPlan(plan, binding), { tenantId: orgId }));
        }
      } catch (error) {
        if (error instanceof PlanSignatureError) {
          log?.error("generated_tools_plans_refused", {
            org_id: orgId,
            source: row.name,
            error: error.message,
          });
        }
        // Registration checked the document; what fails here (a platform tool added since with
        // the same name) takes the whole source out rather than half of it.
        for (const handle of handles) handle.unregister();
        handles.length = 0;
        log?.error("generated_tools_sync_failed", {
          org_id: orgId,
          source: row.name,
          error: String(error).slice(0, 300),
        });
      }
      state.sources.set(row.id, { key, handles });
    }
    for (const [id, source] of state.sources) {
      if (seen.has(id)) continue;
      for (const handle of source.handles) handle.unregister();
      state.sources.delete(id);
      changed = true;
    }
    state.version = current;
    return changed;
  }

  // A changed source's stored (signed) plans, their text as a text column.
  async function storedOf(sourceId: string): Promise<SignedPlansRow | undefined> {
    const [row] = await db.query<SignedPlansRow>(
      `select ${signedPlansColumns("plans")} from public.api_sources where id = $1`,
      [sourceId],
    );
    return row;
  }

  // Signed plans of an older stored shape than this code reads: mapped from the document, which
  // must still be the one whose hash was signed with them.
  async function plansFromDocument(orgId: string, row: SourceRow, document: string) {
    if (await documentHash(document) !== row.document_hash) {
      throw new PlanSignatureError(
        `The source ${row.name}'s document is not the one registered: staff must register the API again with api_source_register`,
      );
    }
    return await options.engine.plan({
      orgId,
      name: row.name,
      kind: row.kind,
      document,
      documentHash: row.document_hash,
      expose: row.expose,
    }, { validate: false });
  }

  // Plans of another version than this code stores: the document, read only then.
  async function documentOf(sourceId: string): Promise<string> {
    const [row] = await db.query<{ document: string }>(
      "select document from public.api_sources where id = $1",
      [sourceId],
    );
    return row?.document ?? "";
  }

  async function openCredential(
    state: TenantState,
    orgId: string,
    sourceId: string,
    scheme: string,
  ): Promise<Credential | null> {
    const sealed = state.credentials.get(`${sourceId}\n${scheme}`);
    if (!sealed) return null;
    try {
      return JSON.parse(await box.open(sealed, { orgId, sourceId, scheme })) as Credential;
    } catch {
      // A rotated GENERATED_TOOLS_KEY or a row moved by hand: the caller's to fix, not a crash.
      throw new ToolFailure(
        "AUTH_ERROR",
        `The credential for ${scheme} cannot be opened here: staff set it again with api_credential_set`,
      );
    }
  }

  return {
    version,
    sync(orgId, registry) {
      const state = stateOf(registry, orgId);
      // One sync per tenant at a time on this instance: concurrent callers share it.
      state.running ??= run(orgId, registry, state).finally(() => {
        state.running = undefined;
      });
      return state.running;
    },
  };
}
