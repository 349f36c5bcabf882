/**
 * The operators `search_supabase` knows, by column type. Which tables and
 * columns it reads is the packs' declaration (`Pack.tables`), joined by the
 * composition root: nothing outside that allowlist can be named, so no
 * identifier from a caller ever reaches SQL.
 *
 * @module
 */
import type { ColumnType } from "@shared/registry/pack.ts";

export type { ColumnType };

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
  // "ilike" on a jsonb column matches any text value of an object (a product's names per
  // language), never its keys; an array or scalar matches nothing.
  jsonb: ["ilike", "is_null"],
};
