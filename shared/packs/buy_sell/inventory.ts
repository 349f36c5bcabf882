/**
 * `inventory_check`: availability, price and stock for items by SKU or name,
 * at one venue or across the tenant. Items not found are listed, not fatal.
 *
 * @module
 */
import { z } from "zod";
import { id, text } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

const item = z.object({
  sku: text({ min: 1, max: 64 }).optional(),
  name: text({ min: 2, max: 120 }).optional(),
}).refine((value) => value.sku !== undefined || value.name !== undefined, "give a sku or a name");

const found = z.object({
  sku: z.string(),
  name: z.string(),
  price: z.number(),
  currency: z.string(),
  qty: z.number(),
  unit: z.string(),
  available: z.boolean(),
  venue_id: z.uuid(),
});

/** The `inventory_check` tool. */
export const inventoryCheck = defineTool({
  name: "inventory_check",
  title: "Check stock",
  description: "Check availability, price and stock of items by SKU or name, at one venue or " +
    "across all venues. Returns what was found and lists what was not.",
  category: "commerce",
  input: z.object({
    items: z.array(item).min(1).max(20),
    venue_id: id().optional(),
  }),
  output: z.object({
    items: z.array(found),
    not_found: z.array(z.object({ sku: z.string().optional(), name: z.string().optional() })),
  }),
  examples: [{
    input: {
      items: [{ sku: "PARA-500" }, { name: "vitamin c" }],
      venue_id: "c0000000-0000-4000-8000-000000000001",
    },
  }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    // One statement for all items: exact SKU first, else the closest name.
    const rows = await ctx.db.query<z.output<typeof found> & { idx: number }>(
      `select q.idx, p.sku, p.name, p.price::float8 as price, p.currency, p.qty, p.unit,
              (p.is_available and p.qty > 0) as available, p.business_id as venue_id
       from jsonb_to_recordset($1::jsonb) as q(idx int, sku text, name text)
       cross join lateral (
         select * from public.products p
         where ($2::uuid is null or p.business_id = $2)
           and ((q.sku is not null and p.sku = q.sku)
             or (q.sku is null and p.name ilike '%' || q.name || '%'))
         order by (p.is_available and p.qty > 0) desc, word_similarity(coalesce(q.name, ''), p.name) desc, p.price
         limit 1
       ) p`,
      [args.items.map((entry, idx) => ({ idx, ...entry })), args.venue_id ?? null],
    );
    const hit = new Set(rows.map((row) => row.idx));
    return {
      items: rows.sort((a, b) => a.idx - b.idx).map(({ idx: _idx, ...row }) => row),
      not_found: args.items.filter((_, idx) => !hit.has(idx)),
    };
  },
});
