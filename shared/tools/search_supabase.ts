/**
 * `search_supabase`: RLS-scoped reads over the tables the packs declare
 * (`Pack.tables`, joined by the composition root). The SQL is assembled only
 * from allowlisted identifiers; every value is a bound parameter.
 *
 * @module
 */
import { z } from "zod";
import { dateTime, isUuid, text } from "@shared/contract/mod.ts";
import { defineTool, type ToolExample } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { PackTables } from "@shared/registry/pack.ts";
import { identifier, type Queryable } from "@shared/db/types.ts";
import { type ColumnType, type Operator, OPERATORS, OPERATORS_BY_TYPE } from "./search_tables.ts";

// Values are compared as written: no trimming.
const value = () => text({ max: 200, trim: false });
const columnName = () => text({ max: 64 });

const scalar = z.union([value(), z.number(), z.boolean()]);

const filter = z.object({
  column: columnName().describe("A column of the table."),
  op: z.enum(OPERATORS),
  value: z.union([scalar, z.array(z.union([value(), z.number()])).max(50)])
    .optional()
    .describe("Omitted only for is_null. A list for `in` and `contains`."),
});

/** The input schema over `tables`. */
function searchInput(tables: PackTables) {
  const names = Object.keys(tables);
  if (names.length === 0) {
    throw new TypeError("Cannot define search_supabase as no pack declares a table");
  }
  return z.object({
    table: z.enum(names as [string, ...string[]]),
    columns: z.array(columnName()).max(20).optional().describe(
      "Columns to return; all by default.",
    ),
    filters: z.array(filter).max(10).default([]),
    limit: z.int().min(1).max(100).default(20),
    order: z.object({ column: columnName(), ascending: z.boolean().default(true) }).optional(),
  }).superRefine((args, issue) => {
    const columns = tables[args.table];
    const unknown = (column: string, path: PropertyKey[]) =>
      issue.addIssue({
        code: "custom",
        path,
        message: `"${column.slice(0, 64)}" is not a readable column of ${args.table}`,
      });
    args.columns?.forEach((column, index) => {
      if (!Object.hasOwn(columns, column)) unknown(column, ["columns", index]);
    });
    if (args.order && !Object.hasOwn(columns, args.order.column)) {
      unknown(args.order.column, ["order", "column"]);
    }
    args.filters.forEach((item, index) => {
      if (!Object.hasOwn(columns, item.column)) {
        return unknown(item.column, ["filters", index, "column"]);
      }
      const problem = checkFilter(columns[item.column], item.op, item.value);
      if (problem) issue.addIssue({ code: "custom", path: ["filters", index], message: problem });
    });
  });
}

/** A search call's arguments, once parsed. */
export type SearchArgs = z.output<ReturnType<typeof searchInput>>;

const output = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  count: z.int(),
});

/**
 * `search_supabase` as a flow calls it: its name and output schema (the tool
 * itself is built per pack list, by {@link createSearchSupabase}).
 */
export const searchSupabaseShape = { name: "search_supabase", output } as const;

// Date.parse accepts expanded years (+275760-09-13) Postgres cannot hold.
const TIMESTAMP = dateTime();

function checkFilter(type: ColumnType, op: Operator, value: unknown): string | null {
  if (!OPERATORS_BY_TYPE[type].includes(op)) {
    return `operator ${op} does not apply to a ${type} column`;
  }
  if (op === "is_null") {
    return typeof value === "boolean" || value === undefined
      ? null
      : "is_null takes true, false or nothing";
  }
  if (value === undefined) return `operator ${op} needs a value`;
  const values = op === "in" || op === "contains" ? value : [value];
  if (!Array.isArray(values)) return `operator ${op} needs a list`;
  for (const item of values) {
    const fits = type === "number"
      ? typeof item === "number"
      : type === "boolean"
      ? typeof item === "boolean"
      : type === "uuid"
      ? isUuid(item)
      : type === "timestamptz"
      ? typeof item === "string" && TIMESTAMP.safeParse(item).success
      : typeof item === "string";
    if (!fits) return `value does not fit a ${type} column`;
  }
  return null;
}

const SQL_TYPE: Record<ColumnType, string> = {
  text: "text",
  uuid: "uuid",
  number: "numeric",
  boolean: "boolean",
  timestamptz: "timestamptz",
  "text[]": "text[]",
  jsonb: "jsonb",
};

const COMPARISON: Partial<Record<Operator, string>> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
};

/** Options for {@link buildSearchQuery}. */
export interface SearchScope {
  /**
   * Keep to this tenant's rows (the table has an `org_id`): RLS lets a person who belongs to two
   * tenants read both, but a turn on one tenant's number answers from that tenant alone.
   */
  orgId?: string;
}

/** Builds the statement; identifiers come only from the allowlist `tables`. */
export function buildSearchQuery(
  args: SearchArgs,
  tables: PackTables,
  scope: SearchScope = {},
): { text: string; params: unknown[] } {
  const columns = tables[args.table];
  const params: unknown[] = [];
  const bind = (value: unknown) => `$${params.push(value)}`;
  const tenant = scope.orgId
    ? [`public.${identifier(args.table)}.org_id = ${bind(scope.orgId)}::uuid`]
    : [];
  const conditions = tenant.concat(args.filters.map(({ column, op, value }) => {
    const ident = identifier(column);
    const type = SQL_TYPE[columns[column]];
    switch (op) {
      case "is_null":
        return value === false ? `${ident} is not null` : `${ident} is null`;
      case "in":
        return `${ident} = any(${bind(value)}::${type}[])`;
      case "contains":
        return `${ident} @> ${bind(value)}::text[]`;
      case "ilike": {
        // A substring match: the caller's % and _ are literal.
        const pattern = bind(`%${String(value).replace(/[\\%_]/g, "\\$&")}%`);
        // A jsonb object matches when one of its text values does (names per language).
        return columns[column] === "jsonb"
          ? `exists (select 1 from jsonb_each_text(case when jsonb_typeof(${ident}) = 'object' then ${ident} else '{}'::jsonb end) as named(key, value) where named.value ilike ${pattern})`
          : `${ident} ilike ${pattern}`;
      }
      default:
        return `${ident} ${COMPARISON[op]} ${bind(value)}::${type}`;
    }
  }));
  // Rows as they are, but numbers and instants as JSON gives them (numeric a number, not
  // postgres.js's string; timestamptz ISO text, not a Date), the same on both adapters.
  // (A jsonb_agg over the rows gave the same values at a quarter of a primary-key read more.)
  const table = `public.${identifier(args.table)}`;
  const selected = (args.columns?.length ? args.columns : Object.keys(columns)).map((name) => {
    const ident = identifier(name);
    return columns[name] === "number" || columns[name] === "timestamptz"
      ? `to_jsonb(${table}.${ident}) as ${ident}`
      : `${table}.${ident}`;
  });
  const where = conditions.length ? ` where ${conditions.join(" and ")}` : "";
  // Qualified: a bare name would sort by the output column (the jsonb), not the table's.
  const order = args.order
    ? ` order by ${table}.${identifier(args.order.column)} ${args.order.ascending ? "asc" : "desc"}`
    : "";
  const text = `select ${selected.join(", ")} from ${table}${where}${order} limit ${
    bind(args.limit)
  }`;
  return { text, params };
}

const EXAMPLES: ToolExample<z.input<ReturnType<typeof searchInput>>, never>[] = [{
  description: "Pharmacies in Kimihurura",
  input: {
    table: "businesses",
    filters: [{ column: "category", op: "eq", value: "pharmacy" }, {
      column: "area",
      op: "ilike",
      value: "kimihurura",
    }],
    limit: 5,
  },
}, {
  description: "Cheapest available products",
  input: {
    table: "products",
    columns: ["sku", "name", "price"],
    filters: [{ column: "is_available", op: "eq", value: true }],
    order: { column: "price", ascending: true },
  },
}];

// Which allowlisted tables are a tenant's (have an org_id column): the schema is the
// migrations', fixed while the process runs, so each table is looked up once.
const ORG_OWNED = new Map<string, boolean>();
async function hasOrgId(db: Queryable, table: string): Promise<boolean> {
  const known = ORG_OWNED.get(table);
  if (known !== undefined) return known;
  const [row] = await db.query<{ owned: boolean }>(
    `select exists (select 1 from pg_catalog.pg_attribute
       where attrelid = to_regclass('public.' || quote_ident($1)) and attname = 'org_id'
         and not attisdropped) as owned`,
    [table],
  );
  ORG_OWNED.set(table, row?.owned === true);
  return row?.owned === true;
}

/**
 * The `search_supabase` tool over `tables` (table → readable column → type).
 *
 * @throws {TypeError} when `tables` is empty.
 */
export function createSearchSupabase(tables: PackTables): AnyTool {
  const input = searchInput(tables);
  // The examples whose tables are readable here; else a plain read of the first table.
  const examples = EXAMPLES.filter((example) => input.safeParse(example.input).success);
  return defineTool({
    name: "search_supabase",
    title: "Search records",
    description: `Read rows the caller may see from an allowlisted table (${
      Object.keys(tables).join(", ")
    }), with typed filters, ordering and a limit.`,
    category: "data",
    input,
    output,
    examples: examples.length ? examples : [{ input: { table: Object.keys(tables)[0] } }],
    sideEffects: "none",
    auth: "user",
    latencyBudgetMs: 300,
    async execute(args, ctx) {
      const tenantOwned = ctx.org_id ? await hasOrgId(ctx.db, args.table) : false;
      const { text, params } = buildSearchQuery(
        args,
        tables,
        tenantOwned ? { orgId: ctx.org_id! } : {},
      );
      const items = await ctx.db.query<Record<string, unknown>>(text, params);
      return { items: Array.from(items), count: items.length };
    },
  });
}
