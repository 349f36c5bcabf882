/**
 * Opens the Postgres a deployed function is given: postgres.js on the URL in
 * `SUPABASE_DB_URL` (Supabase sets it for every edge function) or
 * `DATABASE_URL`. The embedded database (PGlite) is deliberately not reachable
 * from here: a deployed function's module graph must not carry it, not even
 * behind a dynamic import (bundlers follow those). The dev server and the
 * tests open PGlite themselves and hand the {@link Database} in.
 *
 * @module
 */
import { openPostgres } from "./postgres_js.ts";
import type { Database } from "./types.ts";

/** The URL of the real Postgres the environment names, if any. */
export function databaseUrlFromEnv(): string | undefined {
  return Deno.env.get("DATABASE_URL") || Deno.env.get("SUPABASE_DB_URL") || undefined;
}

/**
 * Opens Postgres by the given URL, else the environment's.
 *
 * @throws {Error} when neither names a database.
 */
export function openDatabaseFromEnv(options: { url?: string } = {}): Database {
  const url = options.url ?? databaseUrlFromEnv();
  if (!url) throw new Error("Set SUPABASE_DB_URL or DATABASE_URL");
  return openPostgres(url);
}
