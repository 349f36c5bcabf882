/**
 * No function a caller may execute acts on another tenant (issue 23, item 5).
 *
 * The functions come from the catalog, in every schema: each one `anon` or
 * `authenticated` may execute, except those an extension owns. A function
 * missing from {@link REVIEWED} fails the test, so a new one is either
 * revoked from callers or fenced and listed with the reason it is safe.
 *
 * Then each is called as every caller there is (anonymous, every member of
 * every org with the claims a verified token gives, a signed-up person of no
 * org) with the other tenant's ids and values for each argument, found by
 * the argument's type and name (testing/tenant_fixtures.ts gives both
 * tenants a row of every kind). A caller's calls run in one transaction:
 * one function's calls in a savepoint, each call in its own subtransaction;
 * then what they changed is compared with every table's rows from before,
 * per owning org, and the savepoint is rolled back. A change to rows of an
 * org the caller does not belong to, or of no org, is a cross-tenant
 * effect; the calls of a function that had one are replayed one by one to
 * name them. What a call returns must not show the other org's rows either:
 * none of its row ids, its people's ids and phones, its drivers' phones and
 * plates, beyond what the call was given.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { seedTenantFixtures, TENANT_A, TENANT_B } from "@testing/tenant_fixtures.ts";
import { toClaims } from "@shared/auth/jwt.ts";
import {
  type Database,
  identifier,
  type JwtClaims,
  literal,
  type Queryable,
  setCallerScript,
  type Transaction,
} from "./types.ts";

/**
 * Every function a caller may execute, and why that is safe. Keep it short:
 * a function only the service or internal code calls is revoked from
 * `anon`, `authenticated` and `public` instead.
 */
const REVIEWED: Record<string, string> = {
  "auth.email()": "Supabase's: the request's own claims",
  "auth.jwt()": "Supabase's: the request's own claims",
  "auth.role()": "Supabase's: the request's own claims",
  "auth.uid()": "Supabase's: the request's own claims",
  "private.add_to_open_ticket(uuid, text, text)":
    "adds to the latest unresolved ticket of that conversation and reason only when the caller " +
    "is its requester or staff of its org (or the service); returns that ticket's id, else null",
  "private.automation_save(uuid, jsonb, timestamp with time zone)":
    "saves a rule only for the service or staff of that org (42501 otherwise), and only inside " +
    "a deploy_automation call whose key the pipeline claimed in the same transaction",
  "private.cancel_my_charge(text)":
    "cancels only the caller's own waiting charge (payer_id or created_by = auth.uid()) for no order or ride",
  "private.cancel_my_inquiry(uuid)":
    "cancels only the caller's own vendor inquiry (user_id = auth.uid()); tells its vendors",
  "private.cancel_my_order(uuid)":
    "cancels only the caller's own unpaid order (customer_id = auth.uid()); tells its venue",
  "private.may_manage_forwarders(uuid)": "policy helper: the service, or staff of that org",
  "private.notify_reservation_change(uuid, uuid)":
    "tells the venue of the caller's own cancelled booking, or as staff of its org",
  "private.sms_forwarder_add(uuid, text, text, bytea)":
    "registers a device only for the service or staff of that org (may_manage_forwarders)",
  "private.sms_forwarder_revoke(text)":
    "only the service or staff of the device's org (sms_forwarder_lock); others see no device",
  "private.sms_forwarder_rotate(text, bytea)":
    "only the service or staff of the device's org (sms_forwarder_lock); others see no device",
  "private.slack_webhook_put(uuid, text, timestamp with time zone)":
    "keeps the org's Slack webhook only for the service or staff of that org (42501 otherwise)",
  "private.slack_webhook_url(uuid)":
    "the org's Slack webhook only to the service or staff of that org; null to anyone else",
  "private.ticket_queue_position(uuid)":
    "a count, for the ticket's own requester or conversation, staff of its org, or the service",
  "private.charge_payee(uuid, uuid, uuid)":
    "reads the payee of an order or ride the caller may reference (may_reference_order/ride)",
  "private.confirm_payment_manually(text, text)":
    "settles only for staff of the payment's org or the owner of the order's venue",
  "private.driver_check_in(uuid, double precision, double precision, integer)":
    "writes only the caller's own driver row, or as staff of the driver's org, or the service",
  "private.driver_set_availability(uuid, integer)":
    "writes only the caller's own driver row, or as staff of the driver's org, or the service",
  "private.drivers_near(uuid, double precision, double precision, double precision, text, integer)":
    "reads rounded positions, for members of the org or the service",
  "private.earth_metres(cube, cube)": "pure arithmetic",
  "private.earth_point(double precision, double precision)": "pure arithmetic",
  "private.insurance_price(uuid, integer, integer)":
    "security invoker: reads tariffs under the caller's own RLS (quote check trigger)",
  "private.is_driver(uuid)": "policy helper: whether the caller is that driver",
  "private.is_conversation_with(uuid, uuid, text)":
    "policy helper: whether the org's conversation is with that number, for its staff or the " +
    "service; false for anyone else",
  "private.kigali_local(timestamp with time zone)": "pure arithmetic",
  "private.may_add_order_item(uuid, uuid, uuid)": "policy helper: the caller's own order",
  "private.may_message_contact(uuid, text)":
    "policy helper: whether a number is a contact of the org, for its staff or the service; " +
    "false for anyone else",
  "private.may_offer_ride(uuid, uuid, uuid)": "policy helper: staff of the ride's org",
  "private.may_reference_conversation(uuid, uuid)":
    "policy helper: the caller's own row, or staff of its org",
  "private.may_reference_inquiry(uuid, uuid)":
    "policy helper: the caller's own row, or staff of its org",
  "private.may_reference_order(uuid, uuid)":
    "policy helper: the caller's own row, or staff of its org",
  "private.may_reference_ride(uuid, uuid)":
    "policy helper: the caller's own row, or staff of its org",
  "private.may_reference_ticket(uuid, uuid)":
    "policy helper: the caller's own row, or staff of its org",
  "private.may_stock_business(uuid, uuid)": "policy helper: the caller's shop, or staff of its org",
  "private.my_conversation_ids()": "policy helper: the caller's own conversations",
  "private.my_org_ids()": "policy helper: the caller's own orgs",
  "private.my_ride_ids()": "policy helper: the caller's own rides",
  "private.my_staff_org_ids()": "policy helper: the caller's own orgs",
  "private.notify_reservation(uuid)":
    "queues messages for the caller's own booking only, or as staff of its org",
  "private.notify_venue_of_order(uuid)": "queues the venue's message for the caller's own order",
  "private.order_transition_allowed(text, text)": "pure (order guard trigger)",
  "private.place_named(text)": "security invoker: reads the shared place names",
  "private.place_near(double precision, double precision)":
    "security invoker: reads the shared place names",
  "private.refresh_vendor_metrics(uuid)":
    "recomputes only for members of the business's org or the service",
  "private.ride_driver_contact(uuid)":
    "reads the matched driver for the rider, staff of the ride's org or the service",
  "private.rwf(bigint)": "pure formatting",
  "private.ticket_queue_stats(uuid, text)":
    "reads queue counts, for members of the org or the service",
  "private.valid_fee_items(jsonb)": "pure (tariff check constraint)",
  "private.valid_storage_refs(text[])": "pure (listing photos check constraint)",
  "private.property_booked_starts(uuid, timestamp with time zone, timestamp with time zone)":
    "booked times only (never who), of a listing the caller may see: published in their org, " +
    "theirs as landlord, or their org's as staff; or the service",
  "private.venue_slot_usage(uuid, timestamp with time zone, timestamp with time zone)":
    "reads seat counts, for members of the venue's org or the service",
  "private.wa_id_of(text)": "pure formatting",
};

/** A function a caller may execute, from the catalog. */
interface Callable {
  signature: string;
  schema: string;
  name: string;
  argNames: string[];
  argTypes: string[];
}

/** Who calls: the claims a verified token gives, and the orgs the caller belongs to. */
interface Caller {
  label: string;
  claims: JwtClaims;
  orgs: string[];
}

/** One call. */
interface Probe {
  fn: Callable;
  /** The org whose rows the arguments point at. */
  target: string;
  args: unknown[];
}

/** How a call ended: its SQLSTATE (null when it returned) and its rows as text. */
interface Outcome {
  code: string | null;
  rows: string;
}

const CALLABLE_SQL = `
  select n.nspname as schema, p.proname as name,
    n.nspname || '.' || p.proname || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')'
      as signature,
    array(select pg_catalog.format_type(a.t, null)
          from unnest(p.proargtypes::oid[]) with ordinality a (t, i) order by a.i) as arg_types,
    coalesce(p.proargnames, '{}') as all_names,
    coalesce(p.proargmodes::text[], '{}') as modes
  from pg_catalog.pg_proc p
  join pg_catalog.pg_namespace n on n.oid = p.pronamespace
  where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_'
    and p.prokind in ('f', 'p')
    and not exists (
      select 1 from pg_catalog.pg_depend d
      where d.classid = 'pg_catalog.pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    and (pg_catalog.has_function_privilege('anon', p.oid, 'execute')
         or pg_catalog.has_function_privilege('authenticated', p.oid, 'execute'))
  order by 3`;

async function callableFunctions(db: Queryable): Promise<Callable[]> {
  const rows = await db.query<{
    schema: string;
    name: string;
    signature: string;
    arg_types: string[];
    all_names: string[];
    modes: string[];
  }>(CALLABLE_SQL);
  return rows.map((row) => {
    // proargnames lists every argument, OUT ones (a table's columns) too; keep the inputs.
    const inputs = row.modes.length === 0
      ? row.all_names
      : row.all_names.filter((_, i) => ["i", "b", "v"].includes(row.modes[i]));
    return {
      // A type outside the search path is qualified, depending on the connection's path.
      signature: row.signature.replaceAll("extensions.", ""),
      schema: row.schema,
      name: row.name,
      argTypes: row.arg_types,
      argNames: row.arg_types.map((_, i) => inputs[i] ?? `arg${i + 1}`),
    };
  });
}

// Watching rows ------------------------------------------------------------------------

/** A change to rows the caller has no business changing. */
interface Effect {
  table: string;
  owner: string;
}

/**
 * What the rows looked like before any probe, and how to tell what a
 * transaction changed, from the cheapest question to the dearest: did it
 * write any row at all (the statistics count every row written, in undone
 * savepoints too; a truncate gives the table a new file)? Did any row it
 * can see change (each row a transaction writes carries one of its
 * (sub)transaction ids as `xmin`, and a deleted row changes the count)?
 * Only then: whose rows changed, from every table's rows digested per
 * owning org.
 */
class Watch {
  readonly #tables: number[];
  readonly #checkSql: string;
  readonly #digestSql: string;
  readonly #counts: Map<string, number>;
  readonly #digest: Map<string, string>;

  private constructor(
    tables: number[],
    checkSql: string,
    digestSql: string,
    counts: Map<string, number>,
    digest: Map<string, string>,
  ) {
    this.#tables = tables;
    this.#checkSql = checkSql;
    this.#digestSql = digestSql;
    this.#counts = counts;
    this.#digest = digest;
  }

  /**
   * Reads every table (but the migration ledger and extensions' own). A row's
   * owner is its `org_id`; else the org of the row it references through a
   * single-column foreign key to a table with one; a person belongs to the
   * orgs they are a member of, a stored file to the org its path starts
   * with. Anything else is shared (owner '').
   */
  static async start(db: Queryable): Promise<Watch> {
    const tables = await db.query<
      { oid: number; rel: string; has_org: boolean; via: string | null }
    >(`
      select c.oid::int8 as oid, format('%I.%I', n.nspname, c.relname) as rel,
        exists (select 1 from pg_catalog.pg_attribute a
                where a.attrelid = c.oid and a.attname = 'org_id' and not a.attisdropped) as has_org,
        (select format('(select r.org_id::text from %s r where r.%I = x.%I)',
                       k.confrelid::regclass, rc.attname, lc.attname)
         from pg_catalog.pg_constraint k
         join pg_catalog.pg_attribute lc on lc.attrelid = k.conrelid and lc.attnum = k.conkey[1]
         join pg_catalog.pg_attribute rc on rc.attrelid = k.confrelid and rc.attnum = k.confkey[1]
         where k.conrelid = c.oid and k.contype = 'f' and cardinality(k.conkey) = 1
           and exists (select 1 from pg_catalog.pg_attribute a
                       where a.attrelid = k.confrelid and a.attname = 'org_id')
         order by k.conname limit 1) as via
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname !~ '^pg_' and n.nspname <> 'supabase_migrations'
        and not exists (
          select 1 from pg_catalog.pg_depend d
          where d.classid = 'pg_catalog.pg_class'::regclass and d.objid = c.oid
            and d.deptype = 'e')
      order by 1`);
    const memberOf = "(select string_agg(m.org_id::text, ',' order by m.org_id) " +
      "from public.org_members m where m.user_id = x.id)";
    const owner = ({ rel, has_org, via }: (typeof tables)[number]) =>
      has_org
        ? "x.org_id::text"
        : rel === "public.orgs"
        ? "x.id::text"
        : rel === "public.profiles" || rel === "auth.users"
        ? memberOf
        : rel === "storage.objects"
        ? "split_part(x.name, '/', 1)"
        : via ?? "''";
    const checkSql = tables.map(({ rel }) =>
      `select '${rel}' as t, count(*)::int as n,
              count(*) filter (where x.xmin::text::bigint >= $1::bigint)::int as written
       from ${rel} x`
    ).join("\n union all ");
    const digestSql = `select t, owner, md5(string_agg(r, E'\\n' order by r)) as digest from (` +
      tables.map((table) =>
        `select '${table.rel}' as t, coalesce(${owner(table)}, '') as owner, x::text as r ` +
        `from ${table.rel} x`
      ).join("\n union all ") + ") rows group by t, owner";
    const counts = await db.query<{ t: string; n: number }>(checkSql, [Number.MAX_SAFE_INTEGER]);
    return new Watch(
      tables.map((table) => Number(table.oid)),
      checkSql,
      digestSql,
      new Map(counts.map((row) => [row.t, row.n])),
      await Watch.#digestOf(db, digestSql),
    );
  }

  static async #digestOf(db: Queryable, sql: string): Promise<Map<string, string>> {
    const rows = await db.query<{ t: string; owner: string; digest: string }>(sql);
    return new Map(rows.map((row) => [`${row.t}\t${row.owner}`, row.digest]));
  }

  /** What `tx` has written so far, as one value that only grows (or moves on a truncate). */
  async writes(tx: Queryable): Promise<string> {
    const [{ writes }] = await tx.query<{ writes: string }>(
      `select sum(pg_catalog.pg_stat_get_xact_tuples_inserted(t)
                + pg_catalog.pg_stat_get_xact_tuples_updated(t)
                + pg_catalog.pg_stat_get_xact_tuples_deleted(t))::text
              || ' ' || md5(string_agg(pg_catalog.pg_relation_filenode(t)::text, ',')) as writes
       from unnest($1::oid[]) t`,
      [this.#tables],
    );
    return writes;
  }

  /**
   * Changes made so far in `tx` (which began at top-level transaction id
   * `xid`) to rows of orgs outside `own`, and to rows of no org.
   */
  async foreignChanges(tx: Queryable, xid: number, own: string[]): Promise<Effect[]> {
    const counts = await tx.query<{ t: string; n: number; written: number }>(this.#checkSql, [xid]);
    if (counts.every((row) => row.written === 0 && row.n === this.#counts.get(row.t))) return [];
    const after = await Watch.#digestOf(tx, this.#digestSql);
    const effects: Effect[] = [];
    for (const key of new Set([...this.#digest.keys(), ...after.keys()])) {
      if (this.#digest.get(key) === after.get(key)) continue;
      const [table, owner] = key.split("\t");
      if (!own.includes(owner)) effects.push({ table, owner: owner || "(no org)" });
    }
    return effects;
  }
}

/** The top-level transaction id of `tx`, assigned now: every row it writes has one as large. */
async function transactionId(tx: Queryable): Promise<number> {
  const [{ xid }] = await tx.query<{ xid: string }>(
    "select pg_catalog.pg_current_xact_id()::text as xid",
  );
  // xmin is the 32-bit form; a test database never wraps around.
  return Number(BigInt(xid) % 4294967296n);
}

// Arguments -----------------------------------------------------------------------------

/** Argument values taken from one org's rows. */
class OrgValues {
  readonly #db: Queryable;
  readonly #org: string;
  readonly #tables: Map<string, string[]>;
  readonly #people: string[];
  readonly #tokens: string[];
  readonly #columns = new Map<string, string[]>();
  /** What only the org's rows hold: every row id, its people's ids and phones, its drivers'. */
  readonly secrets: string[];

  private constructor(
    db: Queryable,
    org: string,
    tables: Map<string, string[]>,
    people: string[],
    tokens: string[],
    secrets: string[],
  ) {
    this.#db = db;
    this.#org = org;
    this.#tables = tables;
    this.#people = people;
    this.#tokens = tokens;
    this.secrets = secrets;
  }

  /** Reads an org's ids (a few per table), people (one per role) and words. */
  static async load(db: Queryable, org: string): Promise<OrgValues> {
    const owned = await db.query<{ rel: string; name: string }>(`
      select format('%I.%I', n.nspname, c.relname) as rel, c.relname as name
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid
                    and a.attname = 'org_id' and a.atttypid = 'uuid'::regtype)
        and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid
                    and a.attname = 'id' and a.atttypid = 'uuid'::regtype)
      order by 2`);
    const tables = new Map<string, string[]>([["orgs", [org]]]);
    const secrets = new Set<string>([org]);
    for (const { rel, name } of owned) {
      const ids = (await db.query<{ id: string }>(
        `select id::text as id from ${rel} where org_id = $1 order by id`,
        [org],
      )).map((row) => row.id);
      ids.forEach((id) => secrets.add(id));
      if (ids.length > 0) tables.set(name, ids.slice(0, 3));
    }
    const private_ = await db.query<{ value: string }>(
      `select m.user_id::text as value from public.org_members m where m.org_id = $1
       union select p.phone from public.profiles p
             join public.org_members m on m.user_id = p.id where m.org_id = $1
       union select d.phone from public.drivers d where d.org_id = $1
       union select d.plate from public.drivers d where d.org_id = $1`,
      [org],
    );
    private_.forEach((row) => secrets.add(row.value));
    const people = (await db.query<{ user_id: string }>(
      `select distinct on (role) user_id::text from public.org_members
       where org_id = $1 order by role, user_id`,
      [org],
    )).map((row) => row.user_id);
    const tokens = (await db.query<{ token: string }>(
      `select token from (
         select slug as token from public.orgs where id = $1
         union all (select order_no from public.orders where org_id = $1 order by id limit 2)
         union all (select id::text from public.orders where org_id = $1 order by id limit 2)
         union all (select momo_ref from public.payments where org_id = $1 order by id limit 2)
         union all (select confirmation_code from public.reservations where org_id = $1 limit 1)
         union all (select p.phone from public.profiles p
                    join public.org_members m on m.user_id = p.id
                    where m.org_id = $1 order by p.id limit 2)
         union all (select substr(p.phone, 2) from public.profiles p
                    join public.org_members m on m.user_id = p.id
                    where m.org_id = $1 order by p.id limit 2)
       ) t where token is not null`,
      [org],
    )).map((row) => row.token);
    // What text arguments choose between (roles, as confirm_payment_manually's p_as).
    tokens.push("staff", "vendor", "admin", "customer", "service_role");
    return new OrgValues(db, org, tables, people, tokens, [...secrets]);
  }

  /**
   * Candidate values for one argument, by its type and name. A reference
   * (an id, a word) may also be missing, so null is one of them; a number or
   * an instant keeps one plausible value, or the calls would multiply.
   */
  async candidates(type: string, name: string): Promise<unknown[]> {
    const values = await this.#byType(type, name.replace(/^p_/, ""));
    return ["uuid", "text", "character varying"].includes(type) || values.length === 0
      ? [...values, null]
      : values;
  }

  async #byType(type: string, stem: string): Promise<unknown[]> {
    switch (type) {
      case "uuid":
        return this.#ids(stem.replace(/_id$/, ""));
      case "text":
      case "character varying":
        return await this.#texts(stem);
      case "integer":
      case "bigint":
      case "smallint":
      case "numeric":
        if (/minute/.test(stem)) return [30, 0];
        if (/limit/.test(stem)) return [10];
        if (/value|amount/.test(stem)) return [1_000_000];
        return [30];
      case "double precision":
      case "real":
        if (/lat/.test(stem)) return [-1.95];
        if (/lng|lon/.test(stem)) return [30.06];
        if (/radius/.test(stem)) return [5000];
        return [1];
      case "timestamp with time zone":
        // Fixed instants around any data a test writes: nothing here depends on today.
        if (/from|start/.test(stem)) return ["2000-01-01T00:00:00Z"];
        if (/to$|end|until/.test(stem)) return ["2200-01-01T00:00:00Z"];
        return ["2000-01-01T00:00:00Z", "2200-01-01T00:00:00Z"];
      case "boolean":
        return [true, false];
      case "jsonb":
      case "json":
        return [{}, []];
      default:
        return [];
    }
  }

  #ids(kind: string): string[] {
    const people = ["user", "customer", "rider", "staff", "author", "owner", "payer", "actor"];
    if (people.includes(kind)) return this.#people;
    const names = ALIASES[kind] ?? [kind, `${kind}s`, `${kind}es`, kind.replace(/y$/, "ies")];
    const found = names.flatMap((table) => this.#tables.get(table) ?? []);
    if (found.length > 0) return found;
    // A kind this test cannot name: one id of every kind the org has.
    return [...[...this.#tables.values()].map((ids) => ids[0]), ...this.#people.slice(0, 1)];
  }

  // A text argument named like a column of the org's tables takes that column's values.
  async #texts(stem: string): Promise<string[]> {
    if (!this.#columns.has(stem)) {
      const tables = await this.#db.query<{ rel: string }>(
        `select format('%I.%I', n.nspname, c.relname) as rel
         from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid
         join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r' and a.attname = $1
           and a.atttypid = 'text'::regtype and not a.attisdropped
           and exists (select 1 from pg_catalog.pg_attribute o
                       where o.attrelid = c.oid and o.attname = 'org_id')`,
        [stem],
      );
      const values = new Set<string>();
      for (const { rel } of tables) {
        const rows = await this.#db.query<{ v: string }>(
          `select distinct ${identifier(stem)} as v from ${rel}
           where org_id = $1 and ${identifier(stem)} is not null order by 1 limit 3`,
          [this.#org],
        );
        for (const row of rows) values.add(row.v);
      }
      this.#columns.set(stem, [...values]);
    }
    const known = this.#columns.get(stem)!;
    return known.length > 0 ? known : this.#tokens;
  }
}

/** Argument stems that do not name their table. */
const ALIASES: Record<string, string[]> = {
  org: ["orgs"],
  convo: ["conversations"],
  ticket: ["staff_tickets"],
  inquiry: ["market_vendor_inquiries"],
  ride: ["ride_requests"],
  request: ["ride_requests"],
  tariff: ["tariffs", "insurance_tariffs"],
  quote: ["insurance_quotes"],
};

/** Calls with every combination of candidates, or each candidate in turn when too many. */
function combinations(candidates: unknown[][]): unknown[][] {
  const total = candidates.reduce((n, values) => n * values.length, 1);
  if (total <= 100) {
    return candidates.reduce<unknown[][]>(
      (combos, values) => combos.flatMap((combo) => values.map((value) => [...combo, value])),
      [[]],
    );
  }
  const base = candidates.map((values) => values[0]);
  const combos = [base];
  candidates.forEach((values, i) => {
    for (const value of values.slice(1)) combos.push(base.with(i, value));
  });
  return combos;
}

// Probing -------------------------------------------------------------------------------

class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super("rolled back");
  }
}

/** Runs `fn` in a transaction as the connecting role, rolls it back, and returns fn's value. */
async function rolledBack<T>(db: Database, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      throw new Rollback(await fn(tx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
  throw new Error("unreachable");
}

/**
 * Makes the calls of each batch as the caller, in one transaction: a batch
 * runs in a savepoint, each call in its own subtransaction (a call that
 * fails is undone and the next one runs); then what the batch changed is
 * looked at and the savepoint is rolled back, so the next batch starts
 * from the same rows. Returns, per batch, how each call ended and the
 * changes to rows not of the caller's orgs.
 */
async function probeAs(
  db: Database,
  caller: Caller,
  batches: Probe[][],
  watch: Watch,
): Promise<{ effects: Effect[]; outcomes: Outcome[] }[]> {
  return await rolledBack(db, async (tx) => {
    const xid = await transactionId(tx);
    await tx.exec(setCallerScript(caller.claims, { statementTimeoutMs: 60_000 }));
    let writes = await watch.writes(tx);
    const results = [];
    for (const batch of batches) {
      await tx.query("savepoint batch");
      const outcomes = await call(tx, batch);
      const now = await watch.writes(tx);
      const wrote = now !== writes;
      writes = now;
      let effects: Effect[] = [];
      if (wrote) {
        // Undone with the savepoint, like the calls.
        await tx.exec("reset role");
        effects = await watch.foreignChanges(tx, xid, caller.orgs);
      }
      await tx.query("rollback to savepoint batch");
      if (wrote) {
        const [{ role }] = await tx.query<{ role: string }>("select current_user as role");
        assert.equal(role, caller.claims.role, "the savepoint's rollback gives the caller back");
      }
      results.push({ effects, outcomes });
    }
    return results;
  });
}

/**
 * Makes the calls in one statement, each in its own subtransaction as a
 * savepoint would be (a round trip per call made the test four times
 * slower), and returns how each ended.
 */
async function call(tx: Transaction, probes: Probe[]): Promise<Outcome[]> {
  if (probes.length === 0) return [];
  const calls = probes.map(({ fn, args }) => {
    const values = args.map((value, i) => `${sqlValue(value)}::${fn.argTypes[i]}`).join(", ");
    return `begin
      select coalesce(string_agg(r::text, E'\\n'), '') into answer
      from ${identifier(fn.schema)}.${identifier(fn.name)}(${values}) r;
      codes := codes || '-'::text;
      answers := answers || answer;
    exception when others then
      codes := codes || sqlstate;
      answers := answers || ''::text;
    end;`;
  });
  await tx.exec(`do $probe$
    declare
      answer text;
      codes text[] := '{}';
      answers text[] := '{}';
    begin
      ${calls.join("\n")}
      perform set_config('probe.codes', array_to_string(codes, ','), true);
      perform set_config('probe.answers', array_to_json(answers)::text, true);
    end
    $probe$`);
  const [{ codes, answers }] = await tx.query<{ codes: string; answers: string }>(
    "select current_setting('probe.codes') as codes, current_setting('probe.answers') as answers",
  );
  const rows = JSON.parse(answers) as string[];
  return codes.split(",").map((code, i) => ({ code: code === "-" ? null : code, rows: rows[i] }));
}

/** A value as an SQL literal (to be cast to the argument's type). */
function sqlValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  return literal(typeof value === "object" ? JSON.stringify(value) : String(value));
}

/** Anonymous, then every person: a member of their orgs, or of none. */
async function callers(db: Queryable): Promise<Caller[]> {
  const people = await db.query<{ id: string; phone: string; orgs: string[]; roles: string }>(
    `select p.id::text, p.phone,
       array(select m.org_id::text from public.org_members m where m.user_id = p.id
             order by m.org_id) as orgs,
       coalesce((select string_agg(m.role, ',' order by m.org_id) from public.org_members m
                 where m.user_id = p.id), 'no org') as roles
     from public.profiles p order by p.id`,
  );
  const anon = toClaims({ role: "anon" });
  assert.ok(anon);
  return [
    { label: "anon", claims: anon, orgs: [] },
    ...people.map((person) => {
      // What the token verifier gives the database for a Supabase user's access token.
      const claims = toClaims({
        sub: person.id,
        role: "authenticated",
        aud: "authenticated",
        phone: person.phone.slice(1),
      });
      assert.ok(claims);
      return { label: `${person.roles} ${person.id}`, claims, orgs: person.orgs };
    }),
  ];
}

const describe = (effects: Effect[]) =>
  effects.map((effect) => `${effect.table} of ${effect.owner}`).join(", ");

let figures = "";
globalThis.addEventListener("unload", () => {
  if (figures) console.log(figures);
});

dbTest(
  "callable functions: none acts on another tenant, whoever calls with whatever ids",
  async (db, backend) => {
    await seedTenantFixtures(db);
    const functions = await callableFunctions(db);
    const unreviewed = functions.map((fn) => fn.signature).filter((sig) => !(sig in REVIEWED));
    const gone = Object.keys(REVIEWED).filter((sig) =>
      !functions.some((fn) => fn.signature === sig)
    );
    const watch = await Watch.start(db);

    // The watch itself: a write to the other org's row must show, one to the caller's must not.
    const seen = await rolledBack(db, async (tx) => {
      const xid = await transactionId(tx);
      await tx.query("update public.businesses set name = name || '!' where org_id = any($1)", [
        [TENANT_A.org, TENANT_B.org],
      ]);
      return await watch.foreignChanges(tx, xid, [TENANT_A.org]);
    });
    assert.deepEqual(
      seen,
      [{ table: "public.businesses", owner: TENANT_B.org }],
      "the watch must see a write to another org's row, and only that",
    );

    const orgs = (await db.query<{ id: string }>("select id::text from public.orgs order by id"))
      .map((row) => row.id);
    const values = new Map<string, OrgValues>();
    for (const org of orgs) values.set(org, await OrgValues.load(db, org));

    const everyone = await callers(db);
    const failures: string[] = [];
    const harness: string[] = [];
    const leaks: string[] = [];
    let probes = 0;
    let returned = 0;
    let effects = 0;
    for (const caller of everyone) {
      const targets = orgs.filter((org) => !caller.orgs.includes(org));
      const batches: Probe[][] = [];
      for (const fn of functions) {
        const batch: Probe[] = [];
        for (const target of targets) {
          const org = values.get(target)!;
          const candidates = [];
          for (const [i, type] of fn.argTypes.entries()) {
            candidates.push(await org.candidates(type, fn.argNames[i]));
          }
          for (const args of combinations(candidates)) batch.push({ fn, target, args });
        }
        batches.push(batch);
        probes += batch.length;
      }
      const results = await probeAs(db, caller, batches, watch);
      for (const [b, result] of results.entries()) {
        const batch = batches[b];
        for (const [i, { code, rows }] of result.outcomes.entries()) {
          const probe = batch[i];
          // Our own mistakes (no such function, an argument of the wrong type) would test nothing.
          if (code === "42883" || code === "42804" || code === "42725") {
            harness.push(`${probe.fn.signature} ${JSON.stringify(probe.args)}: ${code}`);
          }
          if (code !== null) continue;
          returned++;
          // What it answered holds nothing of the other org's but what it was given.
          const given = JSON.stringify(probe.args);
          const shown = values.get(probe.target)!.secrets.filter((secret) =>
            rows.includes(secret) && !given.includes(secret)
          );
          if (shown.length > 0) {
            leaks.push(
              `${probe.fn.signature} as ${caller.label} with ${given} returned ${shown.join(", ")}`,
            );
          }
        }
        if (result.effects.length === 0) continue;
        // Name the calls: replay them one by one.
        const alone = await probeAs(db, caller, batch.map((probe) => [probe]), watch);
        const named = batch.filter((_, i) => alone[i].effects.length > 0);
        for (const [i, probe] of batch.entries()) {
          if (alone[i].effects.length === 0) continue;
          failures.push(
            `${probe.fn.signature} as ${caller.label} with ${JSON.stringify(probe.args)} ` +
              `changed ${describe(alone[i].effects)}`,
          );
        }
        effects += Math.max(named.length, 1);
        if (named.length === 0) {
          failures.push(
            `${batch[0].fn.signature} as ${caller.label}: its calls together changed ${
              describe(result.effects)
            }`,
          );
        }
      }
    }
    figures = `callable functions [${backend}]: ${functions.length} functions, ` +
      `${everyone.length} callers, ${probes} probes (${returned} returned, the rest refused), ` +
      `${effects} cross-tenant effects, ${leaks.length} answers showing another org's rows`;
    console.log(figures);
    assert.deepEqual(failures, [], "cross-tenant effects");
    assert.deepEqual(leaks, [], "answers showing another org's rows");
    assert.deepEqual(harness, [], "probes that never reached their function");
    assert.deepEqual(
      unreviewed,
      [],
      "anon or authenticated may execute these: revoke them (only the service needs them), or " +
        "fence them (they act only for a caller who may act on the rows) and add them to REVIEWED",
    );
    assert.deepEqual(gone, [], "REVIEWED lists functions callers can no longer execute");
  },
);
