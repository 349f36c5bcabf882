/**
 * `payment_status`: what we know of the caller's payments (the latest few,
 * or one by reference) and, given an order number, that order's fulfilment
 * and payment state. Reads as the caller: RLS shows a customer their own
 * orders and charges, staff their org's.
 *
 * @module
 */
import { z } from "zod";
import { text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

const payment = z.object({
  momo_ref: z.string(),
  amount: z.number(),
  status: z.enum(["pending", "settled", "failed", "expired"]),
  failure_reason: z.string().nullable(),
  payee: z.string().nullable(),
  order_no: z.string().nullable(),
  purpose: z.string().nullable().describe(
    "What the charge pays, as the flow that asked for it named it (insurance_certificate…).",
  ),
  created_at: z.string(),
  expires_at: z.string(),
  settled_at: z.string().nullable(),
});

const output = z.object({
  order: z.object({
    order_id: z.uuid(),
    order_no: z.string(),
    venue: z.string(),
    status: z.string(),
    payment_status: z.string(),
    total: z.number(),
  }).nullable(),
  payments: z.array(payment),
});

const PAYMENTS_SQL = `
  select p.momo_ref, p.amount::float8 as amount,
         -- A code past its expiry no longer pays anything, whether or not the sweep has run.
         case when p.status = 'pending' and p.expires_at <= now() then 'expired' else p.status end
           as status,
         p.failure_reason,
         coalesce(p.metadata->>'payee_name', p.payee_phone, p.payee_merchant_code) as payee,
         o.order_no, p.metadata->>'purpose' as purpose, to_jsonb(p.created_at) #>> '{}' as created_at,
         to_jsonb(p.expires_at) #>> '{}' as expires_at, to_jsonb(p.settled_at) #>> '{}' as settled_at
  from public.payments p
  left join public.orders o on o.id = p.order_id and o.org_id = p.org_id
  where p.org_id = $1
    and ($2::text is null or p.momo_ref = $2)
    and ($3::uuid is null or p.order_id = $3)
    and ($2::text is not null or $3::uuid is not null
         or (p.payer_id = (select auth.uid()) and p.created_at > now() - interval '7 days'))
  order by p.created_at desc
  limit 5`;

/** The `payment_status` tool. */
export const paymentStatus = defineTool({
  name: "payment_status",
  title: "Check payments and an order's state",
  description: "What we know of the user's recent MoMo payments (or one by reference), and, " +
    "given an order number like A-1042, the order's fulfilment and payment state.",
  category: "payments",
  input: z.object({
    order_no: text({ min: 3, max: 16 }).regex(
      /^[A-Za-z]{1,3}-?[0-9]{1,12}$/,
      "must look like A-1042",
    )
      .transform((value) => value.toUpperCase().replace(/^([A-Z]+)-?/, "$1-")).optional(),
    momo_ref: text({ min: 4, max: 32 }).transform((value) => value.toUpperCase()).optional(),
  }),
  output,
  examples: [{ input: {} }, { input: { order_no: "A-1042" } }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 200,
  async execute(args, ctx) {
    let order: z.output<typeof output>["order"] = null;
    let orderId: string | null = null;
    if (args.order_no) {
      const [row] = await ctx.db.query<
        {
          id: string;
          order_no: string;
          venue: string;
          status: string;
          payment_status: string;
          total: number;
        }
      >(
        `select o.id, o.order_no, b.name as venue, o.status, o.payment_status, o.total::float8 as total
         from public.orders o join public.businesses b on b.id = o.business_id
         where o.org_id = $1 and o.order_no = $2`,
        [ctx.org_id, args.order_no],
      );
      if (!row) throw new ToolFailure("NOT_FOUND", `No order ${args.order_no}`);
      orderId = row.id;
      const { id, ...rest } = row;
      order = { order_id: id, ...rest, total: Number(rest.total) };
    }
    const payments = await ctx.db.query<z.output<typeof payment>>(PAYMENTS_SQL, [
      ctx.org_id,
      args.momo_ref ?? null,
      orderId,
    ]);
    return { order, payments: payments.map((p) => ({ ...p, amount: Number(p.amount) })) };
  },
});
