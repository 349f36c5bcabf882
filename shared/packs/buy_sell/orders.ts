/**
 * `order_create`: places an order at a venue. Totals come from the stored
 * prices, never from the caller; the order needs the user's confirmation and
 * an idempotency key, and the venue is told through the WhatsApp outbox.
 *
 * @module
 */
import { z } from "zod";
import { id, int, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { languageFromLocale, LANGUAGES } from "@shared/contract/language.ts";
import { orderReadBack } from "./texts.ts";

const input = z.object({
  venue_id: id(),
  items: z.array(z.object({
    sku: text({ min: 1, max: 64 }),
    qty: int({ min: 1, max: 1000 }),
    name: text({ max: 120 }).optional().describe("Ignored: the stored name is used."),
    price: z.number().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe(
      "Ignored: the stored price is used.",
    ),
  })).min(1).max(50),
  table_no: text({ max: 10 }).optional(),
  notes: text({ max: 500, multiline: true }).optional(),
  language: z.enum(LANGUAGES).optional().describe(
    "The language the order is read back in before it is confirmed; defaults to the user's profile's.",
  ),
});

const output = z.object({
  order_id: z.uuid(),
  order_no: z.string().describe("The order's number as people see it, e.g. A-1042."),
  venue_name: z.string(),
  items: z.array(z.object({
    name: z.string(),
    qty: z.int(),
    unit_price: z.number(),
    line_total: z.number(),
  })).describe("What was ordered, by name, with the stored prices."),
  total: z.number().describe("Computed from the stored prices."),
  currency: z.string(),
  status: z.string(),
  estimated_time: z.string().optional(),
  venue_told: z.boolean().describe(
    "Whether the venue was sent the order on WhatsApp; false when it has no number to tell.",
  ),
});

interface Priced {
  id: string;
  sku: string;
  name: string;
  price: number;
  currency: string;
  qty: number;
  is_available: boolean;
}

/** The `order_create` tool. */
export const orderCreate = defineTool({
  name: "order_create",
  title: "Place an order",
  description: "Place an order at a venue (restaurant, pharmacy, hardware, shop) for the user. " +
    "Prices and the total come from the venue's stock; needs the user's confirmation.",
  category: "commerce",
  input,
  output,
  examples: [{
    input: {
      venue_id: "c0000000-0000-4000-8000-000000000002",
      items: [{ sku: "BRO-BEEF", qty: 2 }, { sku: "CAF-LAT", qty: 1 }],
      table_no: "4",
    },
  }],
  sideEffects: "writes.order",
  auth: "user",
  confirmRequired: true,
  openWorld: true,
  latencyBudgetMs: 500,
  // Read back in the caller's language with the stored names, read as the caller: a venue or
  // product they cannot see keeps the words the call gave.
  confirmSummary: async (args, { read }) => {
    const [facts] = await read.query<{ locale: string | null; venue: string | null }>(
      `select (select locale from public.profiles where id = (select auth.uid())) as locale,
              (select name from public.businesses where id = $1) as venue`,
      [args.venue_id],
    );
    const names = new Map(
      (await read.query<{ sku: string; name: string }>(
        "select sku, name from public.products where business_id = $1 and sku = any($2::text[])",
        [args.venue_id, args.items.map((item) => item.sku)],
      )).map((row) => [row.sku, row.name]),
    );
    return orderReadBack({
      venue: facts?.venue ?? null,
      items: args.items.map((item) => ({
        qty: item.qty,
        name: names.get(item.sku) ?? item.name ?? item.sku,
      })),
      table: args.table_no ?? null,
      language: args.language ?? languageFromLocale(facts?.locale),
    });
  },
  async execute(args, ctx) {
    const products = await ctx.db.query<Priced>(
      `select id, sku, name, price::float8 as price, currency, qty, is_available
       from public.products where business_id = $1 and sku = any($2::text[])`,
      [args.venue_id, args.items.map((item) => item.sku)],
    );
    const bySku = new Map(products.map((product) => [product.sku, product]));
    const missing = args.items.filter((item) => !bySku.has(item.sku)).map((item) => item.sku);
    if (missing.length) throw new ToolFailure("NOT_FOUND", `Not sold here: ${missing.join(", ")}`);
    for (const item of args.items) {
      const product = bySku.get(item.sku)!;
      if (!product.is_available || product.qty < item.qty) {
        throw new ToolFailure("CONFLICT", `Only ${product.qty} left of ${product.name}`);
      }
    }
    const lines = args.items.map((item) => {
      const product = bySku.get(item.sku)!;
      return { product, qty: item.qty, lineTotal: product.price * item.qty };
    });
    const total = lines.reduce((sum, line) => sum + line.lineTotal, 0);
    const [order] = await ctx.db.query<{ id: string; order_no: string; status: string }>(
      `insert into public.orders (org_id, business_id, customer_id, total, currency, table_no, notes, trace_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id, order_no, status`,
      [
        ctx.org_id,
        args.venue_id,
        ctx.user_id,
        total,
        lines[0].product.currency,
        args.table_no ?? null,
        args.notes ?? null,
        ctx.trace_id,
      ],
    );
    await ctx.db.query(
      `insert into public.order_items (order_id, org_id, product_id, sku, name, qty, unit_price, line_total)
       select $1, $2, l.product_id, l.sku, l.name, l.qty, l.unit_price, l.line_total
       from jsonb_to_recordset($3::jsonb) as l(product_id uuid, sku text, name text, qty int,
         unit_price bigint, line_total bigint)`,
      [
        order.id,
        ctx.org_id,
        lines.map((line) => ({
          product_id: line.product.id,
          sku: line.product.sku,
          name: line.product.name,
          qty: line.qty,
          unit_price: line.product.price,
          line_total: line.lineTotal,
        })),
      ],
    );
    // The venue hears about it through the outbox; the definer function checks the order is ours.
    const [notice] = await ctx.db.query<{ id: string | null }>(
      "select private.notify_venue_of_order($1) as id",
      [order.id],
    );
    const [venue] = await ctx.db.query<{ name: string }>(
      "select name from public.businesses where id = $1",
      [args.venue_id],
    );
    return {
      order_id: order.id,
      order_no: order.order_no,
      venue_name: venue?.name ?? "",
      items: lines.map((line) => ({
        name: line.product.name,
        qty: line.qty,
        unit_price: line.product.price,
        line_total: line.lineTotal,
      })),
      total,
      currency: lines[0].product.currency,
      status: order.status,
      venue_told: notice?.id != null,
    };
  },
});
