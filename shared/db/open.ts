/**
 * Opens the database the environment names: postgres.js for
 * `DATABASE_URL` / `SUPABASE_DB_URL`, otherwise embedded PGlite.
 *
 * @module
 */
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres_js.ts";
import type { Database } from "./types.ts";

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** A Postgres URL; wins over the environment. */
  url?: string;
  /** Folder for the embedded database when no URL is set; in memory when absent. */
  dataDir?: string;
}

/** The URL of the real Postgres the environment names, if any. */
export function databaseUrlFromEnv(): string | undefined {
  return Deno.env.get("DATABASE_URL") || Deno.env.get("SUPABASE_DB_URL") || undefined;
}

/** Opens Postgres by URL when one is given or set, else embedded PGlite. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const url = options.url ?? databaseUrlFromEnv();
  return url ? openPostgres(url) : await openPglite({ dataDir: options.dataDir });
}
