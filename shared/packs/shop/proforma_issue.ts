/**
 * `proforma_issue`: issues a proforma (a priced quotation) to the customer asking, from the
 * place's own stock: each line priced at the product's price now, named in the customer's
 * language, the total, valid for the tenant's `orgs.proforma_valid_days` (14 unless it sets
 * another), made out to a name and, for a school or company, its TIN. The database numbers it per
 * org and year (`PF-2026-000123`). Its PDF is `proforma_pdf`'s, rendered from this record outside
 * the write transaction (Storage is never waited on while the org's number counter is locked).
 * The figures never come from the caller, so nobody issues a proforma on the business's paper at
 * prices of their choosing (`generate_pdf` refuses the template to them).
 *
 * It runs as the customer under RLS: they read their tenant's places and stock, and keep and
 * read only their own proformas.
 *
 * @module
 */
import { z } from "zod";
import { type Language, LANGUAGES } from "@shared/contract/language.ts";
import { id, int, text, ToolFailure } from "@shared/contract/mod.ts";
import { tin } from "@shared/contract/tax_id.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

const input = z.object({
  business_id: id().describe("The place whose stock is quoted."),
  items: z.array(z.object({
    sku: text({ min: 1, max: 64 }).describe("The product's code at the place."),
    qty: int({ min: 1, max: 100_000 }),
  })).min(1).max(50).describe("What is quoted, each product once."),
  customer_name: text({ min: 2, max: 120 }).describe(
    "Whom the proforma is made out to: a school, a company or a person.",
  ),
  customer_tin: tin().optional().describe(
    "The buyer's taxpayer number (TIN, 9 digits), printed under its name; for a school or company.",
  ),
  language: z.enum(LANGUAGES).default("en").describe("The proforma's language: en, fr or rw."),
});

const line = z.object({
  sku: z.string(),
  name: z.string(),
  qty: z.int().positive(),
  unit_price: z.number().nonnegative(),
});

const output = z.object({
  proforma_id: z.uuid(),
  number: z.string().regex(/^PF-[0-9]{4}-[0-9]{6,}$/),
  lines: z.array(line),
  total: z.number().nonnegative(),
  currency: z.string(),
  customer_tin: z.string().optional(),
  issued_at: z.iso.datetime({ offset: true }),
  valid_until: z.iso.datetime({ offset: true }),
});

type Args = z.output<typeof input>;

interface ProductRow {
  sku: string;
  name: string;
  names: Record<string, unknown> | null;
  price: string | number;
  is_available: boolean;
}

function invalid(path: string, message: string): ToolFailure {
  return new ToolFailure("VALIDATION_ERROR", `Invalid request: ${path} ${message}`, {
    fields: [{ path, message }],
  });
}

function nameIn(product: ProductRow, language: Language): string {
  const named = product.names?.[language];
  return typeof named === "string" && named.trim() ? named : product.name;
}

function checkDistinct(args: Args): void {
  const seen = new Set<string>();
  for (const [index, item] of args.items.entries()) {
    if (seen.has(item.sku)) throw invalid(`items.${index}.sku`, "is listed twice");
    seen.add(item.sku);
  }
}

/** The `proforma_issue` tool. */
export const proformaIssue = defineTool({
  name: "proforma_issue",
  title: "Issue a proforma",
  description:
    "Issues a proforma invoice (a priced quotation, not a bill) for items of a place's " +
    "stock, made out to the customer's school, company or name, priced from the stock, numbered " +
    "(PF-2026-000123) and valid as long as the business's proformas are (14 days unless it sets " +
    "another); returns its id, number, lines, total and validity (proforma_pdf makes its PDF).",
  category: "commerce",
  input,
  output,
  examples: [{
    description: "A school's proforma for paper, in French",
    input: {
      business_id: "d0000000-0000-4000-8000-000000000001",
      items: [{ sku: "A4-500", qty: 200 }, { sku: "ENV-C5-50", qty: 50 }],
      customer_name: "Groupe Scolaire Remera",
      customer_tin: "102345678",
      language: "fr",
    },
  }],
  sideEffects: "writes.proforma",
  auth: "user",
  latencyBudgetMs: 1500,
  // Proformas of one org take turns on its number counter, whose row lock is held to each commit.
  timeoutMs: 20_000,
  // A school asks for a proforma or a few, not one a minute.
  rateLimit: { perUser: { limit: 10, windowSec: 3600 } },
  async execute(args, ctx) {
    const orgId = ctx.org_id;
    if (!orgId || !ctx.user_id) throw new ToolFailure("AUTH_ERROR");
    checkDistinct(args);
    const [place] = await ctx.db.query<
      { name: string; address: string | null; area: string | null }
    >(
      "select name, address, area from public.businesses where id = $1 and org_id = $2",
      [args.business_id, orgId],
    );
    if (!place) {
      throw new ToolFailure("NOT_FOUND", "business_id: no such place", {
        fields: [{ path: "business_id", message: "no such place" }],
      });
    }
    const products = await ctx.db.query<ProductRow>(
      `select sku, name, names, price, is_available from public.products
       where business_id = $1 and org_id = $2 and sku = any($3::text[])`,
      [args.business_id, orgId, args.items.map((item) => item.sku)],
    );
    const lines = args.items.map((item, index) => {
      const product = products.find((row) => row.sku === item.sku);
      if (!product) throw invalid(`items.${index}.sku`, "is not sold at this place");
      if (!product.is_available) throw invalid(`items.${index}.sku`, "is out of stock");
      return {
        sku: item.sku,
        name: nameIn(product, args.language),
        qty: item.qty,
        unit_price: Number(product.price),
      };
    });
    if (lines.some((entry) => !Number.isInteger(entry.unit_price))) {
      throw new ToolFailure("CONFLICT", "This place's prices are not in whole units");
    }
    const total = lines.reduce((sum, entry) => sum + entry.qty * entry.unit_price, 0);
    const [org] = await ctx.db.query<{ currency: string | null; valid_days: number }>(
      "select currency, proforma_valid_days as valid_days from public.orgs where id = $1",
      [orgId],
    );
    const currency = org?.currency ?? "RWF";
    const issuedAt = ctx.services.now();
    const validUntil = new Date(issuedAt.getTime() + (org?.valid_days ?? 14) * 86_400_000);
    const [issued] = await ctx.db.query<{ id: string; number: string }>(
      `insert into public.proformas (org_id, business_id, customer_id, customer_name, customer_tin,
         language, lines, total, currency, issued_at, valid_until, created_at)
       values ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9, $10, $11, $10)
       returning id, number`,
      [
        orgId,
        args.business_id,
        ctx.user_id,
        args.customer_name,
        args.customer_tin ?? null,
        args.language,
        JSON.stringify(lines),
        total,
        currency,
        issuedAt.toISOString(),
        validUntil.toISOString(),
      ],
    );
    return {
      proforma_id: issued.id,
      number: issued.number,
      lines,
      total,
      currency,
      ...(args.customer_tin ? { customer_tin: args.customer_tin } : {}),
      issued_at: issuedAt.toISOString(),
      valid_until: validUntil.toISOString(),
    };
  },
});
