import assert from "node:assert/strict";
import { openBlankDatabase, testBackends } from "@testing/db.ts";
import { applyMigrations, readBootstrap } from "./migrate.ts";
import type { Database } from "./types.ts";

// What a new hosted Supabase project has enabled before its first migration
// (supabase/postgres checks it with extensions_are). pg_graphql, supabase_vault
// and pgjwt exist only on Supabase; PGlite lacks uuid-ossp and pg_stat_statements.
const HOSTED_DEFAULTS = new Set([
  "plpgsql",
  "pgcrypto",
  "uuid-ossp",
  "pg_stat_statements",
  "pg_graphql",
  "supabase_vault",
  "pgjwt",
]);

function extensions(db: Database): Promise<{ name: string; schema: string }[]> {
  return db.query(
    `select extname as name, extnamespace::regnamespace::text as schema
     from pg_catalog.pg_extension order by extname`,
  );
}

for (const backend of testBackends()) {
  Deno.test({
    name: `bootstrap: a blank database gets what a new hosted project has, no more [${backend}]`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const db = await openBlankDatabase(backend);
      try {
        await db.exec(await readBootstrap());
        const names = (await extensions(db)).map((extension) => extension.name);
        // Anything else would be something our schema needs, hidden where
        // `supabase db push` onto a hosted project never looks.
        assert.deepEqual(names.filter((name) => !HOSTED_DEFAULTS.has(name)), []);
        // The seed hashes passwords with pgcrypto: every project has it.
        assert.ok(names.includes("pgcrypto"), names.join(", "));
        const schemas = await db.query<{ nspname: string }>(
          `select nspname from pg_catalog.pg_namespace
           where nspname in ('auth', 'extensions') order by 1`,
        );
        assert.deepEqual(schemas.map((row) => row.nspname), ["auth", "extensions"]);
      } finally {
        await db.dispose();
      }
    },
  });

  Deno.test({
    name: `migrations: they create every extension the queries call, in extensions [${backend}]`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const db = await openBlankDatabase(backend);
      try {
        await db.exec(await readBootstrap());
        await applyMigrations(db);
        const created = (await extensions(db)).filter((row) => !HOSTED_DEFAULTS.has(row.name));
        assert.deepEqual(created, [
          { name: "cube", schema: "extensions" },
          { name: "earthdistance", schema: "extensions" },
          { name: "pg_trgm", schema: "extensions" },
        ]);
        // The tools call them unqualified (buy/sell search, vendor inquiries):
        // they resolve through the search path, as on Supabase. 0.01° of
        // latitude on earthdistance's sphere is 1113 m.
        const [row] = await db.query<{ metres: number; similarity: number }>(
          `select round(earth_distance(ll_to_earth(-1.95, 30.06), ll_to_earth(-1.94, 30.06)))::int
                    as metres,
                  word_similarity('kimironko', 'Kimironko Market')::float8 as similarity`,
        );
        assert.deepEqual(row, { metres: 1113, similarity: 1 });
      } finally {
        await db.dispose();
      }
    },
  });
}
