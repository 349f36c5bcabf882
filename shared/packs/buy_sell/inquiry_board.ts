/**
 * `vendor_inquiry_board`: the vendor-reply side of buy & sell as staff see
 * it — the organisation's recent buyer requests, the vendors each was sent to
 * and what each vendor answered ("YES 1500 2", "oya", late, or nothing yet).
 * Read as the caller under RLS: staff see their organisation's inquiries, a
 * buyer only their own. The buy & sell function serves it at
 * `GET /wa-webhook-buy-sell/inquiries` (`routes.ts`).
 *
 * @module
 */
import { z } from "zod";
import { int } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

const input = z.object({
  hours: int({ min: 1, max: 168 }).default(24).describe("How far back, in hours."),
  limit: int({ min: 1, max: 100 }).default(50).describe("Most inquiries, newest first."),
});

const vendorAnswer = z.object({
  business_id: z.uuid(),
  business_name: z.string(),
  reply_status: z.enum(["pending", "yes", "no", "other"]),
  price: z.number().optional().describe("The quoted unit price, whole RWF."),
  quantity: z.int().optional(),
  reply_text: z.string().optional().describe("What the vendor wrote."),
  replied_at: z.string().optional(),
  late: z.boolean().describe("Answered after the inquiry had closed: recorded, not counted."),
  chosen: z.boolean().describe("The buyer chose this vendor (contacts were shared)."),
});

const output = z.object({
  inquiries: z.array(z.object({
    inquiry_id: z.uuid(),
    request_summary: z.string(),
    status: z.enum(["open", "expired", "cancelled"]),
    created_at: z.string(),
    expires_at: z.string(),
    vendors: z.array(vendorAnswer),
  })),
});

interface Row {
  inquiry_id: string;
  request_summary: string;
  status: "open" | "expired" | "cancelled";
  created_at: string;
  expires_at: string;
  business_id: string;
  business_name: string;
  reply_status: "pending" | "yes" | "no" | "other";
  price: number | null;
  quantity: number | null;
  reply_text: string | null;
  replied_at: string | null;
  late: boolean;
  chosen: boolean;
}

// The newest inquiries first, then their vendors in the order they were asked.
const BOARD_SQL = `
  with recent as (
    select i.id, i.request_summary, i.created_at, i.expires_at, i.cancelled_at
      from public.market_vendor_inquiries i
     where i.org_id = $1 and i.created_at > $2::timestamptz - make_interval(hours => $3)
     order by i.created_at desc, i.id
     limit $4
  )
  select r.id as inquiry_id, r.request_summary,
         case when r.cancelled_at is not null then 'cancelled'
              when r.expires_at <= $2::timestamptz then 'expired'
              else 'open' end as status,
         to_jsonb(r.created_at) #>> '{}' as created_at,
         to_jsonb(r.expires_at) #>> '{}' as expires_at,
         m.business_id, b.name as business_name, m.reply_status,
         m.price::float8 as price, m.quantity, m.reply_text,
         to_jsonb(m.replied_at) #>> '{}' as replied_at, m.late,
         m.chosen_at is not null as chosen
    from recent r
    join public.market_vendor_inquiry_messages m on m.inquiry_id = r.id
    join public.businesses b on b.id = m.business_id
   order by r.created_at desc, r.id, m.sent_at, b.name`;

/** The `vendor_inquiry_board` tool. */
export const vendorInquiryBoard = defineTool({
  name: "vendor_inquiry_board",
  title: "Vendor answers board",
  description: "List the organisation's recent buy & sell requests, newest first, with every " +
    "vendor asked and their answer (yes with price and quantity, no, other, or none yet). " +
    "For staff.",
  category: "buy_sell",
  input,
  output,
  examples: [{ input: { hours: 24, limit: 20 } }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const rows = await ctx.db.query<Row>(BOARD_SQL, [
      ctx.org_id,
      ctx.services.now().toISOString(),
      args.hours,
      args.limit,
    ]);
    const inquiries = new Map<string, z.output<typeof output>["inquiries"][number]>();
    for (const row of rows) {
      const inquiry = inquiries.get(row.inquiry_id) ?? {
        inquiry_id: row.inquiry_id,
        request_summary: row.request_summary,
        status: row.status,
        created_at: row.created_at,
        expires_at: row.expires_at,
        vendors: [],
      };
      inquiries.set(row.inquiry_id, inquiry);
      inquiry.vendors.push({
        business_id: row.business_id,
        business_name: row.business_name,
        reply_status: row.reply_status,
        ...(row.price !== null ? { price: Number(row.price) } : {}),
        ...(row.quantity !== null ? { quantity: row.quantity } : {}),
        ...(row.reply_text !== null ? { reply_text: row.reply_text } : {}),
        ...(row.replied_at !== null ? { replied_at: row.replied_at } : {}),
        late: row.late,
        chosen: row.chosen,
      });
    }
    return { inquiries: [...inquiries.values()] };
  },
});
