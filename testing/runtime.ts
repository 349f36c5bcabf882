/**
 * A platform over a test database, with helpers to call tools as seeded
 * users. The pipeline, tools and database are the production ones.
 *
 * @module
 */
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import { signDevToken } from "@shared/auth/jwt.ts";
import type { Database } from "@shared/db/types.ts";
import type { InvokeRequest } from "@shared/pipeline/invoke.ts";
import type { Pack } from "@shared/registry/pack.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { createTokenVerifier } from "@shared/auth/jwt.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { createRuntime, type Runtime } from "@shared/platform/env.ts";
import type { PlatformOptions } from "@shared/platform/platform.ts";
import { devJwtSecret } from "@shared/runtime/secrets.ts";
import { ORG } from "./seed.ts";
import { GENERATED_TOOLS_ENGINE } from "@shared/generated_tools/engine.ts";

/** A tool result in tests (`{ok, data}` or `{ok, error}`): assertions check its shape. */
// deno-lint-ignore no-explicit-any
export type TestData = any;

/** The secret tests sign with. */
export const TEST_SECRET = "test-secret-that-is-at-least-32-characters-long";

/** A runtime for tests, with its in-memory log. */
export interface TestRuntime extends Runtime {
  /** Log lines written so far. */
  log: ReturnType<typeof memoryLogger>;
  /** Calls a tool as `userId` in `org` (default EasyMO). */
  callAs(
    userId: string,
    tool: string,
    args: unknown,
    options?: Partial<Omit<InvokeRequest, "tool" | "args" | "caller">> & { org?: string },
  ): Promise<TestData>;
  /** A dev token for a user (or service role when `userId` is null). */
  tokenFor(userId: string | null): Promise<string>;
}

/** Options for {@link createTestRuntime}. */
export interface TestRuntimeOptions {
  /** Extra tools registered globally next to the packs'. */
  tools?: AnyTool[];
  /** The packs. @default the platform's pack list */
  packs?: readonly Pack[];
  /** Trace flush interval. @default 10 (tests read traces soon after calls) */
  traceIntervalMs?: number;
  /** The clock tools see. @default the real one */
  now?: () => Date;
  /** Services for the packs and tools (e.g. a file store on a test Storage server). */
  provide?: PlatformOptions["provide"];
  /** The agent file's data (per tenant). @default the bundled config/agent_configs.yaml */
  agentConfig?: PlatformOptions["agentConfig"];
  /** The deployment's per-tenant ceiling on each tool. @default the platform's */
  tenantRateCeiling?: PlatformOptions["tenantRateCeiling"];
  /**
   * Whether the catalog tables follow the registry. @default false: most tests never read
   * them, and each sync writes every tool's row into the fresh database
   */
  catalogSync?: boolean;
  /** Embeddings for `search_tools`. @default null: keywords only, whatever the environment */
  catalogEmbedder?: PlatformOptions["catalogEmbedder"];
}

/** Builds a runtime over `db`. */
export async function createTestRuntime(
  db: Database,
  options: TestRuntimeOptions = {},
): Promise<TestRuntime> {
  const log = memoryLogger();
  const runtime = await createRuntime({
    db,
    secret: TEST_SECRET,
    log,
    packs: options.packs,
    agentConfig: options.agentConfig,
    tools: options.tools,
    traceIntervalMs: options.traceIntervalMs ?? 10,
    services: options.now ? { now: options.now } : undefined,
    tenantRateCeiling: options.tenantRateCeiling,
    catalogSync: options.catalogSync ?? false,
    catalogEmbedder: options.catalogEmbedder ?? null,
    // Every test runtime issues documents, as the tools and agent functions do.
    provide: [{ key: PDF_RENDERER, value: renderPdf }, ...(options.provide ?? [])],
    verify: createTokenVerifier({ hs256Secret: devJwtSecret(TEST_SECRET) }),
    // Every test runtime serves tenants' generated tools, as the tools function does.
    generatedTools: GENERATED_TOOLS_ENGINE,
  });
  return {
    ...runtime,
    log,
    callAs(userId, tool, args, callOptions = {}) {
      const { org, ...rest } = callOptions;
      return runtime.platform.call({
        tool,
        args,
        caller: { claims: { sub: userId, role: "authenticated" }, org_id: org ?? ORG.easymo },
        ...rest,
      });
    },
    tokenFor(userId) {
      const secret = devJwtSecret(TEST_SECRET);
      return userId
        ? signDevToken(secret, { userId })
        : signDevToken(secret, { role: "service_role" });
    },
  };
}

/**
 * Calls a tool as `user`, confirming with the token it hands back when it asks (a
 * `confirmRequired` tool); both calls carry one idempotency key (random unless given).
 */
export async function callConfirmed(
  rt: TestRuntime,
  user: string,
  tool: string,
  args: unknown,
  options: { key?: string; org?: string } = {},
): Promise<TestData> {
  const idempotencyKey = options.key ?? crypto.randomUUID();
  const asked = await rt.callAs(user, tool, args, { idempotencyKey, org: options.org });
  if (asked.ok || asked.error.code !== "CONFIRMATION_REQUIRED") return asked;
  return await rt.callAs(user, tool, args, {
    idempotencyKey,
    org: options.org,
    confirmation: asked.error.confirmation.token,
  });
}
