/**
 * A test database put back to its seeded state in place: the tables a use
 * changed are emptied and refilled from a copy of their seed rows, and the
 * sequences set back. On PGlite that costs a few milliseconds where opening a
 * fresh database from the template costs ~0.45 CPU-seconds, so a suite that
 * plays hundreds of scenarios, each needing a fresh-looking database, reuses
 * one (see `leaseTestDatabase` in db.ts).
 *
 * It resets data and the session (settings, prepared statements, listeners,
 * advisory locks). A use that changed the catalog (the schema, roles,
 * settings of the database or a role) is told apart ({@link Resetter.catalogChanged}):
 * such a database is closed, not reused.
 *
 * @module
 */
import type { Database } from "@shared/db/types.ts";

interface Table {
  /** Quoted `schema.table`. */
  name: string;
  /** Rows after the seed. */
  rows: number;
  /** Its seed rows as JSON (kept here, not in the database: a test reading the catalog sees none). */
  copy?: string;
  /** Its columns that can be written (generated ones are computed again). */
  columns: string;
  /** An identity column always generated needs `overriding system value`. */
  overriding: boolean;
}

/** Puts a database back to the state it had when {@link makeResettable} was called. */
export interface Resetter {
  /**
   * Empties and refills each table changed since the last reset (or since the
   * start), sets each sequence back, and returns the names of the tables it
   * refilled.
   */
  reset(): Promise<string[]>;
  /**
   * The session as opened: settings (role, search path…), prepared statements,
   * listeners and advisory locks a use left (DISCARD ALL less the temporary
   * tables, which {@link Resetter.catalogChanged} reports). First, before any
   * other reset: a use may have left the session in a role that cannot read
   * the catalog.
   */
  resetSession(): Promise<void>;
  /** The tables written since the last reset (or since the start). */
  changedTables(): Promise<string[]>;
  /**
   * Whether the catalog changed since the start: a table, column, function,
   * policy, trigger, role or setting created, altered or dropped (each such
   * change writes a catalog row). A temporary table counts too.
   */
  catalogChanged(): Promise<boolean>;
  /**
   * The tables whose row count differs from the seeded state's (a check
   * that the database is as seeded: empty when it is, as far as counts show).
   */
  countsDiffer(): Promise<string[]>;
}

// The catalogs a schema, role or setting change writes to (in-place statistics updates keep a
// row's xmin, so an ANALYZE or VACUUM does not count).
const CATALOGS = [
  "pg_class",
  "pg_attribute",
  "pg_attrdef",
  "pg_constraint",
  "pg_index",
  "pg_proc",
  "pg_type",
  "pg_namespace",
  "pg_trigger",
  "pg_policy",
  "pg_rewrite",
  "pg_authid",
  "pg_auth_members",
  "pg_db_role_setting",
  "pg_database",
  "pg_extension",
  "pg_default_acl",
  "pg_sequence",
  "pg_enum",
  "pg_event_trigger",
  "pg_publication",
];

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Records `db`'s current data (every table outside the system schemas, every
 * sequence) so that {@link Resetter.reset} can put it back. Call it on a
 * freshly seeded database, before any test uses it.
 */
export async function makeResettable(db: Database): Promise<Resetter> {
  const found = await db.query<{
    schema: string;
    table: string;
    columns: string[];
    overriding: boolean;
  }>(
    `select n.nspname as schema, c.relname as "table",
            array_agg(a.attname order by a.attnum) filter (where a.attgenerated = '') as columns,
            bool_or(a.attidentity = 'a') as overriding
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind = 'r' and c.relpersistence <> 't'
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_%'
      group by 1, 2
      order by 1, 2`,
  );
  const tables: Table[] = found.map((row) => ({
    name: `${quote(row.schema)}.${quote(row.table)}`,
    rows: 0,
    columns: row.columns.map(quote).join(", "),
    overriding: row.overriding,
  }));
  const counts = await countRows(db, tables);
  for (const [index, table] of tables.entries()) {
    table.rows = counts[index];
    if (!table.rows) continue;
    // In the table's physical order, as a fresh copy of the template holds them.
    const [{ rows }] = await db.query<{ rows: string }>(
      `select json_agg(t)::text as rows from ${table.name} t`,
    );
    table.copy = rows;
  }
  const [{ path }] = await db.query<{ path: string }>(
    "select current_setting('search_path') as path",
  );
  const sequences = await db.query<{ name: string }>(
    `select format('%I.%I', schemaname, sequencename) as name from pg_sequences
      where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  const sequenceStates = await Promise.all(
    sequences.map(async ({ name }) => {
      const [state] = await db.query<{ last_value: string; is_called: boolean }>(
        `select last_value::text, is_called from ${name}`,
      );
      return `select setval(${literal(name)}, ${state.last_value}, ${state.is_called});`;
    }),
  );
  // Rows written after this transaction id are new or changed; rows deleted show in the count.
  let since = await currentTransaction(db);
  const start = since;

  const changed = async (): Promise<Table[]> => {
    const checks = tables.map((table, index) =>
      `select ${index} as index where exists (select 1 from ${table.name}
         where xmin::text::bigint > ${since}) or (select count(*) from ${table.name}) <> ${table.rows}`
    );
    const rows = await db.query<{ index: number }>(checks.join("\nunion all\n"));
    return rows.map((row) => tables[row.index]);
  };

  return {
    async resetSession() {
      await db.exec(
        `set session authorization default; reset all; deallocate all; unlisten *; select pg_advisory_unlock_all(); discard plans; ` +
          `set search_path = ${path}`,
      );
    },
    async reset() {
      const dirty = await changed();
      // Triggers (foreign keys' included) stay off while the rows go back: the refill is the seed's
      // own rows, and a trigger would write elsewhere (an audit row, a queued message).
      let script = "set session_replication_role = replica;\n";
      for (const table of dirty) script += `delete from ${table.name};\n`;
      for (const table of dirty) {
        if (!table.copy) continue;
        script += `insert into ${table.name} (${table.columns})${
          table.overriding ? " overriding system value" : ""
        } select ${table.columns} from json_populate_recordset(null::${table.name}, ${
          literal(table.copy)
        });\n`;
      }
      script += sequenceStates.join("\n");
      script += "\nset session_replication_role = origin;";
      await db.exec(script);
      since = await currentTransaction(db);
      return dirty.map((table) => table.name);
    },
    async changedTables() {
      return (await changed()).map((table) => table.name);
    },
    async catalogChanged() {
      const checks = CATALOGS.map((catalog) =>
        `select 1 from pg_catalog.${catalog} where xmin::text::bigint > ${start}${
          // Shared by every database of a Postgres server: another test process's
          // `create database` is no change to this one.
          catalog === "pg_database" ? " and datname = current_database()" : ""}`
      );
      const rows = await db.query(`select exists (${checks.join(" union all ")}) as changed`);
      return (rows[0] as { changed: boolean }).changed;
    },
    async countsDiffer() {
      const now = await countRows(db, tables);
      return tables.filter((table, index) => now[index] !== table.rows).map((table) => table.name);
    },
  };
}

async function countRows(db: Database, tables: readonly Table[]): Promise<number[]> {
  if (!tables.length) return [];
  const rows = await db.query<{ index: number; rows: number }>(
    tables.map((table, index) =>
      `select ${index} as index, (select count(*) from ${table.name})::int as rows`
    ).join("\nunion all\n"),
  );
  const counts = new Array<number>(tables.length).fill(0);
  for (const row of rows) counts[row.index] = row.rows;
  return counts;
}

async function currentTransaction(db: Database): Promise<string> {
  // A transaction id of its own, after every write so far: later writes have larger ones.
  // (Modulo 2^32: `xmin` has no epoch; a test database never wraps around.)
  const [{ id }] = await db.query<{ id: string }>(
    "select (txid_current() % 4294967296)::text as id",
  );
  return id;
}
