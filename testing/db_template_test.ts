import assert from "node:assert/strict";
import type { PgliteDatabase } from "@shared/db/pglite.ts";
import { openTestDatabase } from "./db.ts";

const WAL_DIR = "/pglite/data/pg_wal";

function walSegments(db: PgliteDatabase): { name: string; bytes: number }[] {
  const fs = db.pglite.Module.FS;
  return fs.readdir(WAL_DIR)
    .filter((name: string) => /^[0-9A-F]{24}$/.test(name))
    .map((name: string) => ({ name, bytes: fs.stat(`${WAL_DIR}/${name}`).size }));
}

// The template's WAL is cut to one short segment (testing/db.ts): a database started from it is
// seeded, and Postgres writes past the cut, through a checkpoint and into new segments.
Deno.test("a PGlite test database starts seeded from a one-short-WAL-segment template and writes past it", async () => {
  const db = await openTestDatabase("pglite") as unknown as PgliteDatabase & {
    dispose(): Promise<void>;
  };
  try {
    const [first, ...others] = walSegments(db);
    assert.deepEqual(others, [], "one WAL segment");
    assert.ok(first.bytes < 1024 * 1024, `the segment is cut: ${first.bytes} bytes`);
    const [{ orgs }] = await db.query<{ orgs: number }>(
      "select count(*)::int as orgs from public.orgs",
    );
    assert.ok(orgs > 0, "seeded");
    // ~24MB of rows: more than a segment, with a checkpoint between.
    await db.exec(`create table public.wal_fill (x text);
      insert into public.wal_fill select repeat('x', 1000) from generate_series(1, 12000);
      checkpoint;
      insert into public.wal_fill select repeat('y', 1000) from generate_series(1, 12000);`);
    const [{ rows, segment }] = await db.query<{ rows: number; segment: string }>(
      `select count(*)::int as rows, pg_walfile_name(pg_current_wal_lsn()) as segment
       from public.wal_fill`,
    );
    assert.equal(rows, 24000);
    assert.ok(segment > first.name, `WAL moved on past ${first.name} to ${segment}`);
  } finally {
    await db.dispose();
  }
});
