/**
 * `price_insurance` (the tool catalog's insurance section): quotes every active insurer of the tenant
 * for one cover, from the tariff version in effect at `as_of` (default now),
 * and stores each quote with the tariff id and version it used.
 *
 * Prices come from one SQL function, `private.insurance_price` (migration
 * 20261124000500): base (a fixed rate or a rate of the declared value,
 * prorated by days, never below the tariff's minimum) + fees (per policy) +
 * VAT (18 % of base and the fees marked taxable, rounded half up) = premium,
 * all whole RWF. The same function re-checks every stored quote.
 *
 * The seed's single-quote fields (`premium`, `breakdown`, `insurer`,
 * `validity`) describe the cheapest quote; `quotes` lists them all, cheapest
 * first, and `declined` the insurers whose rules refuse the request. When
 * every insurer refuses, the call is a `VALIDATION_ERROR` naming the fields.
 *
 * @module
 */
import { z } from "zod";
import { dateTime, int, text, ToolFailure } from "@shared/contract/mod.ts";
import type { FieldIssue } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { ruleBroken } from "./tariff_rules.ts";

/** The categories each product is sold in. */
export const INSURANCE_CATEGORIES = {
  motor: ["car", "moto", "minibus", "truck"],
  travel: ["regional", "schengen", "worldwide"],
  health: ["individual", "family"],
} as const;

/** The largest declared value accepted, RWF (an int column). */
const MAX_DECLARED_VALUE = 2_000_000_000;

const input = z.object({
  type: z.enum(["motor", "travel", "health"]).describe("The product."),
  category: text({ min: 1, max: 40 }).describe(
    "motor: car, moto, minibus, truck; travel: regional (EAC/COMESA), schengen, worldwide; " +
      "health: individual, family.",
  ),
  coverage_period_days: int({ min: 1, max: 3650 }).describe("Days of cover."),
  usage: z.enum(["private", "commercial"]).default("private")
    .describe("Motor: private, or commercial (taxi-moto, taxi, hire)."),
  cover: z.enum(["third_party", "comprehensive"]).optional()
    .describe("Motor only: third_party (default) or comprehensive."),
  declared_value: int({ min: 1, max: MAX_DECLARED_VALUE }).optional()
    .describe("The vehicle's value in whole RWF: needed for comprehensive cover."),
  vehicle: z.object({
    make: text({ min: 1, max: 40 }),
    model: text({ min: 1, max: 40 }),
    year: int({ min: 1900, max: 2200 }),
    plate: text({ max: 20 }).optional(),
  }).optional().describe("Motor: the vehicle (from its registration card)."),
  driver: z.object({
    age: int({ min: 0, max: 130 }),
    experience_years: int({ min: 0, max: 100 }).optional(),
  }).optional().describe("Motor: the main driver."),
  destination: text({ min: 1, max: 80 }).optional().describe("Travel: where to."),
  as_of: dateTime().optional().describe(
    "Price with the tariffs in effect at this instant (default now), e.g. to reproduce an " +
      "earlier quote. Never in the future.",
  ),
}).superRefine((args, ctx) => {
  const categories: readonly string[] = INSURANCE_CATEGORIES[args.type];
  if (!categories.includes(args.category)) {
    ctx.addIssue({
      code: "custom",
      path: ["category"],
      message: `${args.type} insurance comes in: ${categories.join(", ")}`,
    });
  }
  if (args.type === "motor") {
    if (!args.vehicle) {
      ctx.addIssue({
        code: "custom",
        path: ["vehicle"],
        message: "motor insurance needs the vehicle's make, model and year",
      });
    }
    if (args.cover === "comprehensive" && args.declared_value === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["declared_value"],
        message: "comprehensive cover needs the vehicle's value in RWF",
      });
    }
  } else {
    for (const field of ["cover", "declared_value", "vehicle", "driver"] as const) {
      if (args[field] !== undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: "applies to motor insurance only" });
      }
    }
    if (args.usage !== "private") {
      ctx.addIssue({ code: "custom", path: ["usage"], message: "applies to motor insurance only" });
    }
  }
  if (args.type === "travel" && !args.destination) {
    ctx.addIssue({
      code: "custom",
      path: ["destination"],
      message: "travel insurance needs the destination",
    });
  }
});

const feeItem = z.object({
  code: z.string(),
  label: z.object({ en: z.string(), fr: z.string(), rw: z.string() }),
  amount: z.int().nonnegative(),
  vat: z.boolean().describe("Whether VAT applies to it."),
});

const breakdown = z.object({
  base: z.int().nonnegative(),
  tax: z.int().nonnegative().describe("VAT, whole RWF."),
  fees: z.int().nonnegative().describe("The fee items' sum."),
});

const quote = z.object({
  quote_id: z.uuid(),
  insurer: z.string(),
  insurer_id: z.uuid(),
  tariff_id: z.uuid(),
  tariff_version: z.int().positive(),
  cover: z.string(),
  premium: z.int().nonnegative(),
  currency: z.literal("RWF"),
  breakdown,
  fee_items: z.array(feeItem),
  vat_rate_pct: z.number().describe("VAT rate, percent of vat_base."),
  vat_base: z.int().nonnegative().describe("Base plus the fees VAT applies to."),
  valid_until: z.iso.datetime({ offset: true }),
});

const output = z.object({
  premium: z.int().nonnegative().describe("The cheapest quote's premium."),
  currency: z.literal("RWF"),
  breakdown: breakdown.describe("The cheapest quote's breakdown: base + tax + fees = premium."),
  insurer: z.string().describe("The cheapest quote's insurer."),
  validity: z.iso.datetime({ offset: true }).describe("Until when the cheapest quote holds."),
  quote_id: z.uuid().describe("The cheapest quote."),
  request_id: z.uuid().describe("This call's quotes, one per insurer."),
  as_of: z.iso.datetime({ offset: true }),
  quotes: z.array(quote).describe("Every insurer's quote, cheapest first."),
  declined: z.array(z.object({ insurer: z.string(), path: z.string(), reason: z.string() }))
    .describe("Insurers whose rules refuse this request, and why."),
});

interface TariffRow {
  id: string;
  insurer_id: string;
  insurer_name: string;
  version: number;
  cover: string;
  min_vehicle_year: number | null;
  max_vehicle_age_years: number | null;
  min_driver_age: number | null;
  max_driver_age: number | null;
  min_days: number;
  max_days: number;
  min_declared_value_rwf: number | null;
  max_declared_value_rwf: number | null;
  quote_valid_days: number;
  effective_to: string | Date | null;
  price: Price | null;
}

interface Price {
  base: number;
  fees: number;
  tax: number;
  premium: number;
  vat_base: number;
  vat_rate_bp: number;
  fee_items: Array<z.input<typeof feeItem>>;
}

// The version of each insurer's line in effect at $6: the highest effective one.
const TARIFFS_SQL = `
  select distinct on (t.insurer_id)
    t.id, t.insurer_id, i.name as insurer_name, t.version, t.cover,
    t.min_vehicle_year, t.max_vehicle_age_years, t.min_driver_age, t.max_driver_age,
    t.min_days, t.max_days, t.min_declared_value_rwf, t.max_declared_value_rwf,
    t.quote_valid_days, t.effective_to,
    private.insurance_price(t.id, $7, $8) as price
  from public.insurance_tariffs t
  join public.insurers i on i.org_id = t.org_id and i.id = t.insurer_id
  where t.org_id = $1 and i.is_active
    and t.product = $2 and t.category = $3 and t.usage = $4 and t.cover = $5
    and t.effective_from <= $6 and (t.effective_to is null or t.effective_to > $6)
  order by t.insurer_id, t.version desc`;

const INSERT_SQL = `
  insert into public.insurance_quotes
    (org_id, customer_id, request_id, insurer_id, tariff_id, tariff_version, product, category,
     usage, cover, coverage_days, declared_value_rwf, inputs, base_rwf, tax_rwf, fees_rwf,
     premium_rwf, priced_at, valid_until, trace_id)
  select $1, $2, $3, q.insurer_id, q.tariff_id, q.tariff_version, $4, $5, $6, $7, $8, $9, $10,
         q.base, q.tax, q.fees, q.premium, $11, q.valid_until, $12
  from jsonb_to_recordset($13::jsonb -> 'rows') as q(insurer_id uuid, tariff_id uuid, tariff_version int,
    base int, tax int, fees int, premium int, valid_until timestamptz)
  returning id, tariff_id`;

const DAY_MS = 86_400_000;

/** The `price_insurance` tool. */
export const priceInsurance = defineTool({
  name: "price_insurance",
  title: "Price insurance",
  description: "Quote motor, travel or health insurance from every insurer we sell for, with " +
    "itemised fees and 18 % VAT in whole RWF, cheapest first. Each quote is stored with the " +
    "tariff version it used and holds until its validity.",
  category: "insurance",
  input,
  output,
  examples: [{
    description: "Third-party cover for a 2015 Toyota RAV4 for a year",
    input: {
      type: "motor",
      category: "car",
      coverage_period_days: 365,
      vehicle: { make: "Toyota", model: "RAV4", year: 2015 },
      driver: { age: 34, experience_years: 10 },
    },
  }, {
    description: "Two weeks in the Schengen area",
    input: {
      type: "travel",
      category: "schengen",
      coverage_period_days: 14,
      destination: "France",
    },
  }],
  sideEffects: "writes.insurance_quote",
  auth: "user",
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    if (!ctx.user_id || !ctx.org_id) {
      throw new ToolFailure("AUTH_ERROR", "Sign in to get an insurance quote");
    }
    const now = ctx.services.now();
    const asOf = args.as_of ? new Date(args.as_of) : now;
    if (asOf.getTime() > now.getTime()) {
      throw new ToolFailure("VALIDATION_ERROR", "Invalid request: check as_of", {
        fields: [{ path: "as_of", message: "must not be in the future" }],
      });
    }
    const cover = args.type === "motor" ? args.cover ?? "third_party" : "standard";
    const rows = await ctx.db.query<TariffRow>(TARIFFS_SQL, [
      ctx.org_id,
      args.type,
      args.category,
      args.usage,
      cover,
      asOf.toISOString(),
      args.coverage_period_days,
      args.declared_value ?? null,
    ]);
    if (rows.length === 0) {
      throw new ToolFailure(
        "NOT_FOUND",
        `No insurer offers ${
          cover.replace("_", "-")
        } ${args.type} insurance for ${args.category} ` +
          `(${args.usage} use) yet`,
      );
    }
    const declined: Array<{ insurer: string; path: string; reason: string }> = [];
    const priced: Array<TariffRow & { price: Price; validUntil: Date }> = [];
    for (const row of rows) {
      const broken = ruleBroken({
        insurer: row.insurer_name,
        minVehicleYear: row.min_vehicle_year,
        maxVehicleAgeYears: row.max_vehicle_age_years,
        minDriverAge: row.min_driver_age,
        maxDriverAge: row.max_driver_age,
        minDays: row.min_days,
        maxDays: row.max_days,
        minDeclaredValue: row.min_declared_value_rwf,
        maxDeclaredValue: row.max_declared_value_rwf,
      }, {
        days: args.coverage_period_days,
        vehicleYear: args.vehicle?.year,
        driverAge: args.driver?.age,
        declaredValue: args.declared_value,
        asOf,
      });
      if (broken || !row.price) {
        const issue = broken ??
          { path: "declared_value", message: `${row.insurer_name} needs the declared value` };
        declined.push({ insurer: row.insurer_name, path: issue.path, reason: issue.message });
        continue;
      }
      const end = asOf.getTime() + row.quote_valid_days * DAY_MS;
      const to = row.effective_to === null ? end : new Date(row.effective_to).getTime();
      priced.push({ ...row, price: row.price, validUntil: new Date(Math.min(end, to)) });
    }
    if (priced.length === 0) throw refusal(declined);
    priced.sort((a, b) =>
      a.price.premium - b.price.premium || a.insurer_name.localeCompare(b.insurer_name)
    );

    const requestId = crypto.randomUUID();
    const stored = await ctx.db.query<{ id: string; tariff_id: string }>(INSERT_SQL, [
      ctx.org_id,
      ctx.user_id,
      requestId,
      args.type,
      args.category,
      args.usage,
      cover,
      args.coverage_period_days,
      args.declared_value ?? null,
      compact({ vehicle: args.vehicle, driver: args.driver, destination: args.destination }),
      asOf.toISOString(),
      ctx.trace_id,
      // An object, not an array: the drivers would send an array as a Postgres array.
      {
        rows: priced.map((row) => ({
          insurer_id: row.insurer_id,
          tariff_id: row.id,
          tariff_version: row.version,
          base: row.price.base,
          tax: row.price.tax,
          fees: row.price.fees,
          premium: row.price.premium,
          valid_until: row.validUntil.toISOString(),
        })),
      },
    ]);
    const quoteIds = new Map(stored.map((row) => [row.tariff_id, row.id]));
    const quotes = priced.map((row) => ({
      quote_id: quoteIds.get(row.id)!,
      insurer: row.insurer_name,
      insurer_id: row.insurer_id,
      tariff_id: row.id,
      tariff_version: row.version,
      cover: row.cover,
      premium: row.price.premium,
      currency: "RWF" as const,
      breakdown: { base: row.price.base, tax: row.price.tax, fees: row.price.fees },
      fee_items: row.price.fee_items,
      vat_rate_pct: row.price.vat_rate_bp / 100,
      vat_base: row.price.vat_base,
      valid_until: row.validUntil.toISOString(),
    }));
    const cheapest = quotes[0];
    return {
      premium: cheapest.premium,
      currency: "RWF" as const,
      breakdown: cheapest.breakdown,
      insurer: cheapest.insurer,
      validity: cheapest.valid_until,
      quote_id: cheapest.quote_id,
      request_id: requestId,
      as_of: asOf.toISOString(),
      quotes,
      declined,
    };
  },
});

// Every insurer refused: one issue per field, each insurer's reason kept.
function refusal(declined: Array<{ insurer: string; path: string; reason: string }>) {
  const byPath = new Map<string, string[]>();
  for (const entry of declined) {
    const reasons = byPath.get(entry.path) ?? [];
    if (!reasons.includes(entry.reason)) reasons.push(entry.reason);
    byPath.set(entry.path, reasons);
  }
  const fields: FieldIssue[] = [...byPath].map(([path, reasons]) => ({
    path,
    message: reasons.join("; "),
  }));
  return new ToolFailure(
    "VALIDATION_ERROR",
    `No insurer can cover this: ${fields.map((field) => field.message).join("; ")}`,
    { fields },
  );
}

function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
