/**
 * Builds the runtime an edge function serves with, from the environment:
 * the platform over the configured database plus the caller resolver.
 *
 * | variable | meaning |
 * | --- | --- |
 * | `SUPABASE_DB_URL` / `DATABASE_URL` | Postgres to use (migrations applied by the Supabase CLI) |
 * | `EASYMO_SECRET` | platform secret, ≥ 32 characters |
 * | `SUPABASE_JWKS` | JWKS JSON to verify Supabase Auth tokens |
 * | `SUPABASE_URL` | else the JWKS is fetched from `<url>/auth/v1/.well-known/jwks.json` |
 * | `SUPABASE_JWT_SECRET` | legacy HS256 secret, when the project still uses one |
 * | `SLACK_WEBHOOK_URL` | Slack incoming webhook for staff notifications |
 * | `SMS_ENDPOINT`, `SMS_API_KEY`, `SMS_SENDER`, `STAFF_SMS_TO` | HTTP SMS gateway and on-call numbers |
 * | `SUPABASE_URL` + `SUPABASE_SERVICE_ROLE_KEY` | Storage for files (the `FILE_STORE` service) |
 * | `PDF_URL_TTL_DAYS` | days a generate_pdf link lasts, 1 to 30 (default 7) |
 *
 * @module
 */
import { createCallerResolver } from "@shared/auth/caller.ts";
import { createTokenVerifier, type TokenVerifier } from "@shared/auth/jwt.ts";
import { notificationTransportsFromEnv } from "@shared/channels/notifications/notification_env.ts";
import { openDatabaseFromEnv } from "@shared/db/open.ts";
import type { Runtime } from "@shared/pipeline/platform.ts";
import { createSupabaseFileStore, FILE_STORE, type FileStore } from "@shared/storage/file_store.ts";
import { createPlatform, type PlatformOptions } from "./platform.ts";

export type { Runtime };

/** Options for {@link createRuntime}. */
export interface RuntimeOptions extends PlatformOptions {
  /** Verifies bearer tokens. */
  verify: TokenVerifier;
}

/** Builds a runtime from parts (the dev server and tests use this). */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const platform = await createPlatform(options);
  const resolveCaller = createCallerResolver({
    db: platform.db,
    verify: options.verify,
    tenants: platform.tenants,
  });
  return { platform, resolveCaller };
}

/**
 * Builds the runtime of a deployed function.
 *
 * @throws {Error} when the database URL or secret is missing.
 */
export async function openRuntimeFromEnv(
  options: Pick<PlatformOptions, "provide" | "generatedTools"> = {},
): Promise<Runtime> {
  // Postgres only: PGlite never enters a deployed function's module graph.
  const db = openDatabaseFromEnv();
  const secret = Deno.env.get("EASYMO_SECRET") ?? "";
  if (secret.length < 32) throw new Error("Set EASYMO_SECRET (at least 32 characters)");
  const jwks = Deno.env.get("SUPABASE_JWKS");
  const supabaseUrl = Deno.env.get("SUPABASE_URL");
  const verify = createTokenVerifier({
    jwks: jwks ? JSON.parse(jwks) : undefined,
    jwksUrl: !jwks && supabaseUrl ? `${supabaseUrl}/auth/v1/.well-known/jwks.json` : undefined,
    hs256Secret: Deno.env.get("SUPABASE_JWT_SECRET") || undefined,
  });
  const files = fileStoreFromEnv();
  return await createRuntime({
    db,
    secret,
    verify,
    provide: [...(files ? [{ key: FILE_STORE, value: files }] : []), ...(options.provide ?? [])],
    pdfUrlTtlDays: pdfUrlTtlDaysFromEnv(),
    generatedTools: options.generatedTools,
    // Unconfigured channels stay queued rather than being marked sent.
    notificationTransports: notificationTransportsFromEnv({ fallback: "none" }),
    notificationIntervalMs: Number(Deno.env.get("NOTIFICATION_DISPATCH_INTERVAL_MS") ?? 2000),
  });
}

/**
 * Supabase Storage through storage-js, acting with the service role, when
 * `SUPABASE_URL` and `SUPABASE_SERVICE_ROLE_KEY` are set (a deployed
 * function always has both); null otherwise.
 */
export function fileStoreFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): FileStore | null {
  const url = env.get("SUPABASE_URL");
  const key = env.get("SUPABASE_SERVICE_ROLE_KEY");
  return url && key ? createSupabaseFileStore({ url, key }) : null;
}

/**
 * Days a generate_pdf link lasts (`PDF_URL_TTL_DAYS`, default 7).
 *
 * @throws {Error} when it is set to anything but a whole number from 1 to 30.
 */
export function pdfUrlTtlDaysFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): number | undefined {
  const value = env.get("PDF_URL_TTL_DAYS");
  if (value === undefined || value === "") return undefined;
  const days = Number(value);
  if (!/^\d+$/.test(value) || days < 1 || days > 30) {
    throw new Error(`Set PDF_URL_TTL_DAYS to a whole number of days from 1 to 30 (not "${value}")`);
  }
  return days;
}

/**
 * A variable a deployed function cannot start without.
 *
 * @throws {Error} naming the variable when it is unset.
 */
export function requireEnv(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

/**
 * Keeps a request's background work alive: Supabase's edge runtime does so
 * only through `EdgeRuntime.waitUntil`; elsewhere (undefined) it runs detached.
 */
export function edgeBackground(): ((task: () => Promise<unknown>) => void) | undefined {
  const edge = (globalThis as { EdgeRuntime?: { waitUntil(p: Promise<unknown>): void } })
    .EdgeRuntime;
  return edge ? (task) => edge.waitUntil(task()) : undefined;
}
