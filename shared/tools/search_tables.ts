/**
 * The explicit allowlist `search_supabase` reads from: which tables, which
 * columns (with their types) and which operators. Nothing outside it can be
 * named, so no identifier from a caller ever reaches SQL.
 *
 * @module
 */

/** Column types the filter builder knows how to compare. */
export type ColumnType = "text" | "uuid" | "number" | "boolean" | "timestamptz" | "text[]";

/** Filter operators. */
export const OPERATORS = [
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "in",
  "ilike",
  "contains",
  "is_null",
] as const;

/** A filter operator. */
export type Operator = typeof OPERATORS[number];

/** Which operators apply to which column type. */
export const OPERATORS_BY_TYPE: Record<ColumnType, readonly Operator[]> = {
  text: ["eq", "neq", "in", "ilike", "is_null"],
  uuid: ["eq", "neq", "in", "is_null"],
  number: ["eq", "neq", "gt", "gte", "lt", "lte", "in", "is_null"],
  boolean: ["eq", "neq", "is_null"],
  timestamptz: ["eq", "gt", "gte", "lt", "lte", "is_null"],
  "text[]": ["contains", "is_null"],
};

/** The readable tables and their readable columns. RLS still decides the rows. */
export const SEARCHABLE_TABLES = {
  businesses: {
    id: "uuid",
    name: "text",
    category: "text",
    tags: "text[]",
    address: "text",
    area: "text",
    lat: "number",
    lng: "number",
    phone: "text",
    is_active: "boolean",
  },
  products: {
    id: "uuid",
    business_id: "uuid",
    sku: "text",
    name: "text",
    price: "number",
    currency: "text",
    qty: "number",
    unit: "text",
    is_available: "boolean",
  },
  staff_tickets: {
    id: "uuid",
    convo_id: "uuid",
    channel: "text",
    reason: "text",
    summary: "text",
    priority: "text",
    status: "text",
    assigned_to: "uuid",
    created_at: "timestamptz",
    claimed_at: "timestamptz",
    resolved_at: "timestamptz",
  },
  conversations: {
    id: "uuid",
    channel: "text",
    agent_id: "text",
    status: "text",
    created_at: "timestamptz",
    updated_at: "timestamptz",
  },
} as const satisfies Record<string, Record<string, ColumnType>>;

/** A readable table's name. */
export type SearchableTable = keyof typeof SEARCHABLE_TABLES;

/** The readable tables' names. */
export const TABLE_NAMES = Object.keys(SEARCHABLE_TABLES) as [
  SearchableTable,
  ...SearchableTable[],
];

/** The columns of a table and their types. */
export function columnsOf(table: SearchableTable): Record<string, ColumnType> {
  return SEARCHABLE_TABLES[table];
}
