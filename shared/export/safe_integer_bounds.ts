/**
 * zod writes every `z.int()` with `minimum`/`maximum` of
 * ±`Number.MAX_SAFE_INTEGER`: they say nothing to a model and cost tokens,
 * so the provider dialects drop them. A stored (generated) schema records
 * where they are at registration ({@link safeIntegerBoundPaths}, kept with
 * the plan), so an instance's first listing copies those paths only instead
 * of walking every schema.
 *
 * @module
 */
import type { JsonSchema } from "./json_schema.ts";

/** A path inside a JSON Schema: object keys and array indices, from its root. */
export type SchemaPath = readonly (string | number)[];

const boundPaths = new WeakMap<object, readonly SchemaPath[]>();

/**
 * Records where a stored schema's integers carry the bounds (found at
 * registration by {@link safeIntegerBoundPaths} and stored with the plan):
 * {@link dropSafeIntegerBounds} then copies only those paths.
 *
 * @param json A stored schema, frozen when first exported (a preset one).
 * @param paths Every integer schema in it with a bound to drop (`[]`: none).
 */
export function presetSafeIntegerBoundPaths(json: JsonSchema, paths: readonly SchemaPath[]): void {
  boundPaths.set(json, paths);
}

/**
 * Removes the `minimum`/`maximum` of ±`Number.MAX_SAFE_INTEGER` that zod puts
 * on every `z.int()`: they say nothing to a model and cost tokens.
 *
 * Parts with nothing to remove are handed back as they are, not copied. A
 * frozen schema (a stored one: generated tools' are) gives a frozen result,
 * made once and shared by every dialect and listing after.
 */
export function dropSafeIntegerBounds<T>(value: T): T {
  if (!value || typeof value !== "object") return value;
  const frozen = Object.isFrozen(value);
  if (!frozen) return withoutBounds(value, false) as T;
  const made = withoutSafeBounds.get(value);
  if (made) return made as T;
  // Remembered for the whole schema only: its parts are not exported on their own, and a lookup
  // per part cost more than the walk. A stored schema says where its bounds are: only those paths
  // are copied (the walk was most of a new instance's first listing).
  const paths = boundPaths.get(value);
  const out = (paths ? withoutBoundsAt(value, paths) : withoutBounds(value, true)) as object;
  withoutSafeBounds.set(value, out);
  return out as T;
}

/**
 * Keywords whose values are data, not schemas: a bound-like value there is an
 * example or a constant and stays as written, and the walk does not go in
 * (an `enum` of thousands or an `examples` object was most of its time).
 */
const DATA_KEYWORDS = new Set([
  "const",
  "default",
  "description",
  "enum",
  "example",
  "examples",
  "format",
  "pattern",
  "required",
  "title",
  "$comment",
  "$ref",
]);

/** Keywords whose values map names (any text, `enum` included) to schemas. */
const SCHEMA_MAPS = new Set([
  "$defs",
  "definitions",
  "dependentSchemas",
  "patternProperties",
  "properties",
]);

/**
 * The walk of {@link dropSafeIntegerBounds}; `freeze`: what it copies is
 * frozen too; `names`: `value` maps names to schemas (`properties`), so its
 * keys are not keywords.
 */
function withoutBounds(value: unknown, freeze: boolean, names = false): unknown {
  if (!value || typeof value !== "object") return value;
  let out: unknown = value;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const kept = withoutBounds(value[index], freeze);
      if (!items && kept !== value[index]) items = value.slice(0, index);
      items?.push(kept);
    }
    if (items) out = items;
  } else {
    const record = value as JsonSchema;
    const types = names ? [] : Array.isArray(record.type) ? record.type : [record.type];
    const isInteger = types.includes("integer");
    let copy: JsonSchema | undefined;
    for (const key of Object.keys(record)) {
      const item = record[key];
      const dropped = isInteger &&
        ((key === "minimum" && item === -Number.MAX_SAFE_INTEGER) ||
          (key === "maximum" && item === Number.MAX_SAFE_INTEGER));
      const kept = dropped || (!names && DATA_KEYWORDS.has(key))
        ? (dropped ? undefined : item)
        : withoutBounds(item, freeze, !names && SCHEMA_MAPS.has(key));
      if (!copy && (dropped || kept !== item)) {
        // The first change: copy what came before it.
        copy = {};
        for (const earlier of Object.keys(record)) {
          if (earlier === key) break;
          copy[earlier] = record[earlier];
        }
      }
      if (copy && !dropped) copy[key] = kept;
    }
    if (copy) out = copy;
  }
  if (freeze && out !== value) Object.freeze(out);
  return out;
}

const withoutSafeBounds = new WeakMap<object, object>();

/** Whether {@link withoutBounds} drops this bound of this schema. */
function isSafeBound(schema: JsonSchema, key: "minimum" | "maximum"): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes("integer") &&
    schema[key] === (key === "minimum" ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER);
}

/**
 * Where {@link dropSafeIntegerBounds} drops bounds in a schema: the path of
 * every integer schema it changes, found by the same walk (registration
 * stores them with the plan, {@link presetSafeIntegerBoundPaths}).
 *
 * @param schema A bare 2020-12 schema.
 * @returns The paths, in the walk's order (`[]`: nothing to drop).
 */
export function safeIntegerBoundPaths(schema: JsonSchema): SchemaPath[] {
  const found: SchemaPath[] = [];
  const visit = (value: unknown, path: (string | number)[], names: boolean): void => {
    if (!value || typeof value !== "object") return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index], false));
      return;
    }
    const record = value as JsonSchema;
    if (!names && (isSafeBound(record, "minimum") || isSafeBound(record, "maximum"))) {
      found.push(path);
    }
    for (const key of Object.keys(record)) {
      if (!names && DATA_KEYWORDS.has(key)) continue;
      visit(record[key], [...path, key], !names && SCHEMA_MAPS.has(key));
    }
  };
  visit(schema, [], false);
  return found;
}

/**
 * {@link withoutBounds} of a frozen schema along known paths only: the
 * nodes on them are copied (frozen), the rest shared. A path that does not
 * lead to a bounded integer (never made by registration) changes nothing.
 */
function withoutBoundsAt(schema: object, paths: readonly SchemaPath[]): object {
  if (paths.length === 0) return schema;
  interface Trie {
    leaf: boolean;
    next: Map<string | number, Trie>;
  }
  const root: Trie = { leaf: false, next: new Map() };
  for (const path of paths) {
    let at = root;
    for (const key of path) {
      let next = at.next.get(key);
      if (!next) at.next.set(key, next = { leaf: false, next: new Map() });
      at = next;
    }
    at.leaf = true;
  }
  const copy = (node: unknown, trie: Trie): unknown => {
    if (!node || typeof node !== "object") return node;
    const out: Record<string | number, unknown> = Array.isArray(node)
      ? [...node] as unknown as Record<number, unknown>
      : { ...node as JsonSchema };
    for (const [key, next] of trie.next) {
      if (Object.hasOwn(out, key)) out[key] = copy(out[key], next);
    }
    if (trie.leaf && !Array.isArray(node)) {
      const record = node as JsonSchema;
      if (isSafeBound(record, "minimum")) delete out.minimum;
      if (isSafeBound(record, "maximum")) delete out.maximum;
    }
    return Object.freeze(out);
  };
  return copy(schema, root) as object;
}
