/**
 * Schema fixtures for the export tests: tools whose `execute` returns fixed
 * data, chosen to cover nested objects, arrays of objects, enums, optional
 * and defaulted fields, a map, a dotted name, names that collide once
 * mapped, a recursive schema and an unrepresentable one; and
 * {@link tripDetails}, whose maps Gemini gets typed or as JSON text.
 *
 * @module
 */
import { z } from "zod";
import { Ajv2020 } from "ajv/dist/2020";
// ajv-formats is CommonJS: its plugin is `.default` of the default import, for types and at run time.
import ajvFormats from "ajv-formats";
import { withMapShape } from "@shared/export/map_shapes.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";

/** Read-only, dotted name, nested optional object, enum, default, regex, `z.int()`. */
export const getPrice = defineTool({
  name: "markets.get_price",
  title: "Get price",
  description: "Latest price of a listed symbol.",
  category: "markets",
  input: z.object({
    symbol: z.string().regex(/^[A-Z]{1,5}$/).describe("Ticker symbol"),
    currency: z.enum(["EUR", "USD", "GBP"]).default("EUR"),
    limit: z.int().min(1).max(100).default(10),
    window: z.object({ from: z.iso.date(), to: z.iso.date().optional() }).optional(),
  }),
  output: z.object({ symbol: z.string(), price: z.number(), currency: z.string() }),
  examples: [
    { description: "Just the symbol", input: { symbol: "ACME" } },
    {
      input: { symbol: "ACME", currency: "USD", window: { from: "2026-01-01" } },
      output: { symbol: "ACME", price: 12.5, currency: "USD" },
    },
  ],
  sideEffects: "none",
  execute: () => Promise.resolve({ symbol: "ACME", price: 12.5, currency: "EUR" }),
});

/** Irreversible write: arrays of objects, discriminated union, nullable, email format. */
export const createOrder = defineTool({
  name: "orders.create",
  title: "Create order",
  description: "Places an order and charges the customer.",
  category: "commerce",
  input: z.object({
    customer_email: z.email(),
    items: z.array(
      z.object({
        sku: z.string().min(1),
        qty: z.int().positive(),
        note: z.string().max(200).optional(),
      }),
    ).min(1).max(50),
    payment: z.discriminatedUnion("method", [
      z.object({ method: z.literal("card"), token: z.string() }),
      z.object({ method: z.literal("invoice"), due_days: z.int().min(0).max(90).default(30) }),
    ]),
    coupon: z.string().nullable(),
    website: z.url().optional(),
  }),
  output: z.object({ order_id: z.uuid(), total: z.number() }),
  examples: [{
    input: {
      customer_email: "a@example.com",
      items: [{ sku: "SKU-1", qty: 2 }],
      payment: { method: "card", token: "tok_1" },
      coupon: null,
    },
    output: { order_id: "6f1b2c3d-4e5f-4a1b-8c2d-3e4f5a6b7c8d", total: 20 },
  }],
  sideEffects: "writes.orders",
  confirmRequired: true,
  openWorld: true,
  idempotent: true,
  execute: () => Promise.resolve({ order_id: "6f1b2c3d-4e5f-4a1b-8c2d-3e4f5a6b7c8d", total: 20 }),
});

/** Collides with {@link aUnderscoreB} once `.` becomes `_`. */
export const aDotB = defineTool({
  name: "a.b",
  title: "A dot B",
  description: "Collision fixture (dotted).",
  category: "test",
  input: z.object({ x: z.string() }),
  output: z.object({ ok: z.boolean() }),
  examples: [{ input: { x: "1" } }],
  sideEffects: "none",
  execute: () => Promise.resolve({ ok: true }),
});

/** Collides with {@link aDotB}. */
export const aUnderscoreB = defineTool({
  name: "a_b",
  title: "A underscore B",
  description: "Collision fixture (underscored).",
  category: "test",
  input: z.object({ y: z.number() }),
  output: z.object({ ok: z.boolean() }),
  examples: [{ input: { y: 1 } }],
  sideEffects: "none",
  execute: () => Promise.resolve({ ok: true }),
});

/** A `z.record` map in the input and a non-object output: not strict-able, no MCP outputSchema. */
export const tagCounts = defineTool({
  name: "stats.tag_counts",
  title: "Tag counts",
  description: "Adds counts to tags.",
  category: "stats",
  input: z.object({ counts: z.record(z.string(), z.int().nonnegative()) }),
  output: z.array(z.object({ tag: z.string(), count: z.int() })),
  examples: [{ input: { counts: { red: 2 } }, output: [{ tag: "red", count: 2 }] }],
  sideEffects: "writes.tags",
  execute: () => Promise.resolve([{ tag: "red", count: 2 }]),
});

/** A recursive tree node (for {@link docsTree}). */
export interface TreeNode {
  /** Label. */
  title: string;
  /** Children. */
  children?: TreeNode[];
}

const TreeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ title: z.string(), children: z.array(TreeNode).optional() })
);

/** A recursive input (z.lazy): `$defs`/`$ref` in 2020-12, impossible for Gemini. */
export const docsTree = defineTool({
  name: "docs.save_tree",
  title: "Save outline",
  description: "Saves a document outline.",
  category: "docs",
  input: z.object({ root: TreeNode }),
  output: z.object({ nodes: z.int() }),
  examples: [{ input: { root: { title: "Intro", children: [{ title: "Why" }] } } }],
  sideEffects: "writes.docs",
  execute: () => Promise.resolve({ nodes: 2 }),
});

/** No arguments at all; read-only navigation. */
export const ping = defineTool({
  name: "system.ping",
  title: "Ping",
  description: "Checks that the service answers.",
  category: "system",
  input: z.object({}),
  output: z.object({ pong: z.literal(true) }),
  examples: [{ input: {}, output: { pong: true } }],
  sideEffects: "read-only-nav",
  execute: () => Promise.resolve({ pong: true as const }),
});

/** `z.date()` cannot be represented in JSON Schema: skipped by every exporter. */
export const badDate = defineTool({
  name: "calendar.add_event",
  title: "Add event",
  description: "Adds a calendar event.",
  category: "calendar",
  input: z.object({ at: z.date() }),
  output: z.object({ id: z.string() }),
  examples: [{ input: { at: new Date("2026-01-01T00:00:00Z") } }],
  sideEffects: "writes.calendar",
  execute: () => Promise.resolve({ id: "e1" }),
});

/**
 * Maps for Gemini, which has none: `details` declares its shape (one object
 * per trip kind), so it is typed there; `tags` (nullable) and each stop's
 * `extra` are free maps, sent as JSON text. Not in {@link ALL_TOOLS}.
 */
export const tripDetails = defineTool({
  name: "trips.file",
  title: "File a trip",
  description: "Files a trip with its details.",
  category: "trips",
  input: z.object({
    kind: z.enum(["car", "flight"]),
    details: withMapShape(
      z.record(z.string(), z.unknown()),
      z.union([
        z.object({ plate: z.string() }).describe("When kind is car."),
        z.object({ flight: z.string(), seat: z.string().optional() }).describe(
          "When kind is flight.",
        ),
      ]),
    ).describe("The trip's details."),
    tags: z.record(z.string(), z.string()).nullable().optional(),
    stops: z.array(
      z.object({ name: z.string(), extra: z.record(z.string(), z.int()).optional() }),
    ).optional(),
  }),
  output: z.object({ id: z.string() }),
  examples: [{
    input: {
      kind: "flight",
      details: { flight: "WB 464", seat: "3A" },
      tags: { purpose: "conference" },
      stops: [{ name: "Nairobi", extra: { hours: 2 } }, { name: "Kigali" }],
    },
  }, { input: { kind: "car", details: { plate: "RAD 123 A" }, tags: null } }],
  sideEffects: "none",
  execute: () => Promise.resolve({ id: "t1" }),
});

/** Every fixture, in a fixed order. */
export const ALL_TOOLS: readonly AnyTool[] = [
  getPrice,
  createOrder,
  aDotB,
  aUnderscoreB,
  tagCounts,
  docsTree,
  ping,
  badDate,
];

/** Fixtures zod can write as JSON Schema (all but {@link badDate}). */
export const REPRESENTABLE: readonly AnyTool[] = ALL_TOOLS.filter((tool) => tool !== badDate);

/** Fixtures every dialect carries: Gemini cannot take recursion ({@link docsTree}). */
export const EVERY_DIALECT: readonly AnyTool[] = REPRESENTABLE.filter((tool) => tool !== docsTree);

/**
 * Arguments as a Gemini model writes them for a declaration's `parameters`:
 * an object where the schema asks for a string (a map, asked for as JSON
 * text) becomes its JSON. Written from the Gemini schema alone, not from the
 * exporter's knowledge of maps.
 */
export function toGeminiArguments(value: unknown, schema: unknown): unknown {
  if (!isPlainObject(schema)) return value;
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf) {
      const converted = toGeminiArguments(value, branch);
      if (newAjv().validate(branch as object, converted)) return converted;
    }
    return value;
  }
  if (schema.type === "string" && isPlainObject(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map((item) => toGeminiArguments(item, schema.items));
  if (isPlainObject(value) && isPlainObject(schema.properties)) {
    const properties = schema.properties;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, toGeminiArguments(item, properties[key])]),
    );
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A 2020-12 Ajv that accepts annotation keywords such as `examples` and checks formats. */
export function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  return ajv;
}

/** Every key used anywhere in a JSON value, with its JSON pointer. */
export function allKeys(value: unknown, path = "#"): { key: string; path: string }[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => allKeys(item, `${path}/${index}`));
  }
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    { key, path: `${path}/${key}` },
    ...allKeys(item, `${path}/${key}`),
  ]);
}
