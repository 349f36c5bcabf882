/**
 * Which of a tenant's places a question is about: the ones being ordered from, those of one kind,
 * or every place the caller reads; and the `search_supabase` filters on `businesses` that say so.
 * Shared by the answers that read places (opening hours, delivery).
 *
 * @module
 */

/** The places asked about. */
export interface PlaceScope {
  /** These places only (the one being ordered from). @default every place the caller reads */
  businessIds?: readonly string[];
  /** The places of this category only. @default every category */
  category?: string;
}

/** The `businesses` filters of a scope: its ids, else its category, else none. */
export function placeFilters(
  scope: PlaceScope,
): Array<{ column: string; op: "in" | "eq"; value: string | string[] }> {
  if (scope.businessIds) return [{ column: "id", op: "in", value: [...scope.businessIds] }];
  if (scope.category) return [{ column: "category", op: "eq", value: scope.category }];
  return [];
}
