/**
 * Hostile tool inputs for property-based tests: arbitraries derived from a
 * tool's own JSON Schema (so most inputs get past the first checks and reach
 * deep into the tool), with leaves swapped for values that have broken
 * databases and parsers before — NUL bytes, lone surrogates, megabyte
 * strings, numbers beyond int8 or float range, expanded-year dates, deep
 * nesting, wrong types and extra keys.
 *
 * @module
 */
import fc from "fast-check";
import type { ToolResult } from "@shared/contract/mod.ts";
import { type JsonSchema, toJsonSchema } from "@shared/export/json_schema.ts";
import type { AnyTool } from "@shared/registry/registry.ts";

/** A megabyte of text (bigger than any field a tool accepts). */
export const MEGABYTE_STRING = "x".repeat(1 << 20);

// Nested `depth` levels deep, built iteratively.
function nested(depth: number, wrap: (inner: unknown) => unknown): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = wrap(value);
  return value;
}

/** Strings that have broken a database, a parser or a channel somewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "nul\u0000inside",
  "\u0000".repeat(64),
  "\ud800",
  "lone \udc00 low",
  "\ud83d",
  "\u001b[31mred",
  "\u007f\u0085\u2028\u2029",
  "\ufeff\u200b",
  "'; drop table orders; --",
  "%_\\",
  "${jndi:ldap://x}",
  "<script>alert(1)</script>",
  "+",
  "++250788123456",
  "abc",
  "1".repeat(30),
  "0".repeat(400),
  "+275760-09-13",
  "+275760-09-13T00:00:00Z",
  "-000001-01-01",
  "-000001-01-01T00:00:00Z",
  "0000-00-00T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "2025-02-30T00:00:00Z",
  "Infinity",
  "NaN",
  "-0",
  "1e309",
  "9223372036854775808",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "P99999999999999999999Y",
  "é".normalize("NFD").repeat(200),
  "🙏".repeat(5000),
  MEGABYTE_STRING,
];

/** Numbers at and beyond the edges of int4, int8, safe integers and doubles. */
export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  0.5,
  -0.000001,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53) - 1,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.EPSILON,
  123456789.123456789,
];

/** Values of the wrong type, including nesting deeper than any parser should follow. */
export const HOSTILE_SHAPES: readonly unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [null],
  { "": null },
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { constructor: { prototype: { polluted: true } } },
  nested(64, (inner) => [inner]),
  nested(5_000, (inner) => ({ a: inner })),
  nested(5_000, (inner) => [inner]),
  Array.from({ length: 10_000 }, (_, index) => index),
  Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`k${index}`, index])),
];

/** Any one hostile value: a string, a number or a wrong shape. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.constantFrom(...HOSTILE_SHAPES),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.double(),
    fc.bigInt().map((value) => Number(value)),
  );
}

/** Options for {@link fromJsonSchema}. */
export interface SchemaArbitraryOptions {
  /** Strings worth trying where a schema says only "string" (examples' values, column names). */
  words?: readonly string[];
  /** Ids worth trying where a schema says `format: uuid` (seeded rows). */
  ids?: readonly string[];
  /** How often a leaf is swapped for a hostile value, 0 to 1. @default 0.2 */
  hostileRate?: number;
}

/**
 * An arbitrary of values shaped by a JSON Schema (as `z.toJSONSchema` makes
 * them), each leaf swapped for a hostile value now and then, and objects
 * given an extra key now and then.
 *
 * @param schema The schema (2020-12, `$defs` not followed).
 * @param options Dictionaries and how hostile to be.
 * @returns An arbitrary of candidate inputs.
 */
export function fromJsonSchema(
  schema: JsonSchema,
  options: SchemaArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  const hostileWeight = Math.round((options.hostileRate ?? 0.2) * 100);
  const words = options.words?.length ? options.words : ["a"];
  const ids = options.ids?.length ? options.ids : ["00000000-0000-4000-8000-000000000001"];

  function maybeHostile(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
    if (hostileWeight === 0) return valid;
    return fc.oneof(
      { weight: 100 - hostileWeight, arbitrary: valid },
      { weight: hostileWeight, arbitrary: hostileValue() },
    );
  }

  function walk(node: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const variants = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
    if (variants) return fc.oneof(...variants.map((variant) => walk(variant, depth)));
    if (Array.isArray(node.enum)) return maybeHostile(fc.constantFrom(...node.enum));
    if ("const" in node) return maybeHostile(fc.constant(node.const));
    switch (node.type) {
      case "object": {
        const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
        const record = fc.record(
          Object.fromEntries(
            Object.entries(properties).map(([key, child]) => [key, walk(child, depth + 1)]),
          ),
          { requiredKeys: (node.required ?? []) as string[] },
        );
        const withExtra = fc.tuple(record, fc.constantFrom(...words), hostileValue()).map((
          [value, key, extra],
        ) => ({ ...value, [`${key}_extra`]: extra }));
        return maybeHostile(fc.oneof({ weight: 9, arbitrary: record }, {
          weight: 1,
          arbitrary: withExtra,
        }));
      }
      case "array": {
        const items = (node.items ?? {}) as JsonSchema;
        return maybeHostile(fc.array(walk(items, depth + 1), {
          minLength: Math.min(Number(node.minItems ?? 0), 3),
          maxLength: Math.min(Number(node.maxItems ?? 3), 3),
        }));
      }
      case "string":
        return maybeHostile(stringFor(node));
      case "integer":
        return maybeHostile(fc.integer({
          min: Math.max(Number(node.minimum ?? -1000), -(2 ** 31)),
          max: Math.min(Number(node.maximum ?? 1000), 2 ** 31 - 1),
        }));
      case "number":
        return maybeHostile(fc.double({
          min: Number(node.minimum ?? node.exclusiveMinimum ?? -1e6),
          max: Number(node.maximum ?? node.exclusiveMaximum ?? 1e6),
          noNaN: true,
          noDefaultInfinity: true,
        }));
      case "boolean":
        return maybeHostile(fc.boolean());
      case "null":
        return maybeHostile(fc.constant(null));
      default:
        return hostileValue();
    }
  }

  function stringFor(node: JsonSchema): fc.Arbitrary<unknown> {
    if (node.format === "uuid") return fc.oneof(fc.constantFrom(...ids), fc.uuid());
    if (node.format === "date-time") {
      return fc.date({
        min: new Date("1990-01-01"),
        max: new Date("2200-01-01"),
        noInvalidDate: true,
      })
        .map((date) => date.toISOString());
    }
    if (node.format === "duration") return fc.constantFrom("PT15M", "P1D", "PT0S");
    const maxLength = Math.min(Number(node.maxLength ?? 40), 40);
    return fc.oneof(
      fc.constantFrom(...words),
      fc.string({ minLength: Math.min(Number(node.minLength ?? 0), maxLength), maxLength }),
    );
  }

  return walk(schema, 0);
}

/**
 * Mutations of a known-good input: one leaf (or the whole input) swapped for
 * a hostile value, or an extra key added. Reaches code a random input rarely
 * gets to (a valid table, column and operator with a NUL in the value).
 *
 * @param example A valid input.
 * @returns An arbitrary of mutated inputs.
 */
export function mutationsOf(example: unknown): fc.Arbitrary<unknown> {
  const paths = leafPaths(example);
  return fc.tuple(fc.constantFrom(...paths), hostileValue()).map(([path, hostile]) =>
    replaceAt(example, path, hostile)
  );
}

function leafPaths(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  const out: PropertyKey[][] = [path];
  if (Array.isArray(value)) {
    value.forEach((item, index) => out.push(...leafPaths(item, [...path, index])));
    out.push([...path, value.length]);
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) out.push(...leafPaths(item, [...path, key]));
    out.push([...path, "unexpected_key"]);
  }
  return out;
}

function replaceAt(value: unknown, path: PropertyKey[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: Record<PropertyKey, unknown> = Array.isArray(value)
    ? [...value] as unknown as Record<PropertyKey, unknown>
    : { ...(value as Record<PropertyKey, unknown>) };
  copy[head] = replaceAt(copy[head], rest, replacement);
  return copy;
}

/** Every string in a value, for the `words` dictionary. */
export function stringsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") out.add(value);
  else if (Array.isArray(value)) value.forEach((item) => stringsIn(item, out));
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.add(key);
      stringsIn(item, out);
    }
  }
  return out;
}

// A JavaScript stack frame, a source location or an engine error name.
const LEAK =
  /\n\s+at\s|\bat\s+\S+\s+\(|file:\/\/|\.ts:\d+|\b(?:TypeError|RangeError|SyntaxError|ReferenceError)\b|\bPostgresError\b|\berror:\s+(?:invalid|syntax)/;

/** Why a serialised result leaks internals, or null when it does not. */
export function leakIn(serialised: string): string | null {
  return LEAK.exec(serialised)?.[0] ?? null;
}

/** Counts results by code: `ok` or the error code. */
export class ResultTally {
  /** Calls made. */
  calls = 0;
  /** Results by `ok` / error code. */
  readonly byCode = new Map<string, number>();

  /** Records one result. */
  add(result: ToolResult): void {
    this.calls++;
    const code = result.ok ? "ok" : result.error.code;
    this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1);
  }

  /** `ok=3 VALIDATION_ERROR=40 …`, most frequent first. */
  toString(): string {
    return [...this.byCode].sort((a, b) => b[1] - a[1]).map(([code, count]) => `${code}=${count}`)
      .join(" ");
  }
}

/** Every id in the seed, so generated references sometimes hit real rows. */
export async function seededIds(): Promise<string[]> {
  const seed = await Deno.readTextFile(new URL("../supabase/seed.sql", import.meta.url));
  return [...new Set(seed.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g))];
}

/** Hostile inputs for one tool: schema-derived, and mutations of its examples. */
export function hostileInputs(tool: AnyTool, ids: readonly string[]): fc.Arbitrary<unknown> {
  const examples = tool.examples.map((example) => example.input);
  const words = [...stringsIn(examples), "+250788000004", "250788000004", "0788000004"];
  const derived = fromJsonSchema(toJsonSchema(tool), { words, ids });
  return examples.length === 0 ? derived : fc.oneof(derived, ...examples.map(mutationsOf));
}

/** The failure of a result, or null when it is one the contract allows. */
export function contractBreach(result: ToolResult): string | null {
  const serialised = JSON.stringify(result);
  if (!result.ok && result.error.code === "INTERNAL_ERROR") return "INTERNAL_ERROR";
  const leak = leakIn(serialised);
  return leak ? `leaks ${JSON.stringify(leak)}` : null;
}
