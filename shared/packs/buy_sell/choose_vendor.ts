/**
 * `choose_vendor_for_inquiry`: the buyer picks one of the vendors who said
 * YES. Only now, because the buyer chose them, are contacts shared: the
 * vendor is sent the buyer's name, number and what was agreed (in the
 * vendor's language), and the buyer gets the vendor's name, number and
 * `wa.me` link, the agreed price and quantity, and — when the vendor stocks
 * the item — the product to order it by.
 *
 * @module
 */
import { z } from "zod";
import { id, type ToolError, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { MESSAGING, textOut } from "@shared/capabilities/messaging/mod.ts";
import { requestedItem } from "./request_item.ts";
import { type Language, vendorChosenText } from "./texts.ts";

const output = z.object({
  inquiry_id: z.uuid(),
  business_id: z.uuid(),
  business_name: z.string(),
  vendor_phone: z.string().describe("The vendor's WhatsApp number, E.164."),
  whatsapp_link: z.string().describe("https://wa.me/<digits>: opens a chat with the vendor."),
  item: z.string(),
  quantity: z.int().optional(),
  price: z.number().optional().describe("The vendor's quoted unit price, whole RWF."),
  total: z.number().optional().describe("price × quantity (× 1 when none was given), whole RWF."),
  product: z.object({
    sku: z.string(),
    name: z.string(),
    price: z.number(),
    available: z.boolean(),
  }).optional().describe("The vendor's stocked product matching the item, to order it by."),
});

interface Chosen {
  message_id: string;
  inquiry_user_id: string | null;
  user_phone: string;
  buyer_name: string | null;
  request_summary: string;
  structured_payload: { item?: string; quantity?: number };
  business_name: string;
  vendor_wa_id: string;
  vendor_language: Language;
  reply_status: string;
  late: boolean;
  price: number | null;
  quantity: number | null;
}

const BUYER = { en: "A customer", rw: "Umukiriya", fr: "Un client" } as const;

/**
 * The vendor a CONFLICT names as not having confirmed they have the item
 * (its `details.not_confirmed`), or null for any other error.
 */
export function vendorNotConfirmed(error: ToolError): string | null {
  const name = error.code === "CONFLICT" ? error.details?.not_confirmed : undefined;
  return typeof name === "string" ? name : null;
}

/** The `choose_vendor_for_inquiry` tool. */
export const chooseVendorForInquiry = defineTool({
  name: "choose_vendor_for_inquiry",
  title: "Choose a vendor",
  description: "After a vendor said YES to the user's inquiry and the user picked that vendor: " +
    "share contacts both ways (the vendor gets the user's name and number and what was agreed; " +
    "the result gives the vendor's number and wa.me link, price and quantity, and the stocked " +
    "product to order with order_create when there is one).",
  category: "buy_sell",
  input: z.object({
    inquiry_id: id(),
    business_id: id().describe("A vendor of that inquiry who answered YES."),
  }),
  output,
  examples: [{
    input: {
      inquiry_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d",
      business_id: "c0000000-0000-4000-8000-000000000006",
    },
  }],
  sideEffects: "writes.message",
  // Messages the vendor (another party); scoped below to the caller's own inquiry.
  auth: "service",
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    const [chosen] = await ctx.db.query<Chosen>(
      `select m.id as message_id, i.user_id as inquiry_user_id, i.user_phone,
              p.display_name as buyer_name, i.request_summary, i.structured_payload,
              b.name as business_name, m.vendor_wa_id, m.vendor_language, m.reply_status, m.late,
              m.price::float8 as price, m.quantity
       from public.market_vendor_inquiries i
       join public.market_vendor_inquiry_messages m on m.inquiry_id = i.id
       join public.businesses b on b.id = m.business_id
       left join public.profiles p on p.id = i.user_id
       where i.id = $1 and i.org_id = $2 and m.business_id = $3`,
      [args.inquiry_id, ctx.org_id, args.business_id],
    );
    // Someone else's inquiry is not found either: its existence is not ours to learn.
    if (!chosen || (ctx.user_id && chosen.inquiry_user_id !== ctx.user_id)) {
      throw new ToolFailure("NOT_FOUND", "No such inquiry or vendor");
    }
    if (chosen.reply_status !== "yes" || chosen.late) {
      throw new ToolFailure("CONFLICT", `${chosen.business_name} has not confirmed they have it`, {
        details: { not_confirmed: chosen.business_name },
      });
    }
    await ctx.db.query(
      `update public.market_vendor_inquiry_messages
       set chosen_at = coalesce(chosen_at, $2) where id = $1`,
      [chosen.message_id, ctx.services.now().toISOString()],
    );
    const asked = chosen.structured_payload.item
      ? { item: chosen.structured_payload.item, quantity: chosen.structured_payload.quantity }
      : requestedItem(chosen.request_summary);
    const quantity = chosen.quantity ?? asked.quantity ?? undefined;
    const price = chosen.price ?? undefined;
    // The vendor's own stock, if they keep the item: the order is placed by it.
    const [product] = await ctx.db.query<
      { sku: string; name: string; price: number; available: boolean }
    >(
      `select p.sku, p.name, p.price::float8 as price, (p.is_available and p.qty > 0) as available
       from public.products p
       where p.business_id = $1 and p.org_id = $2
         and (p.name ilike '%' || $3 || '%' or word_similarity($3, p.name) >= 0.6)
       order by word_similarity($3, p.name) desc, p.price
       limit 1`,
      [args.business_id, ctx.org_id, asked.item],
    );
    const buyerPhone = chosen.user_phone;
    const [tenant] = await ctx.db.query<{ brand: string }>(
      "select coalesce(o.brand_name, o.name) as brand from public.orgs o where o.id = $1",
      [ctx.org_id],
    );
    await ctx.services.get(MESSAGING).send(ctx.db, {
      orgId: ctx.org_id!,
      to: chosen.vendor_wa_id,
      message: textOut(vendorChosenText(
        {
          buyerName: chosen.buyer_name ?? BUYER[chosen.vendor_language],
          buyerPhone,
          item: product?.name ?? asked.item,
          price,
          quantity,
        },
        chosen.vendor_language,
        tenant?.brand ?? null,
      )),
      // One message per pick, however often the buyer taps.
      idempotencyKey: `chosen:${args.inquiry_id}:${args.business_id}`,
    });
    return {
      inquiry_id: args.inquiry_id,
      business_id: args.business_id,
      business_name: chosen.business_name,
      vendor_phone: `+${chosen.vendor_wa_id}`,
      whatsapp_link: `https://wa.me/${chosen.vendor_wa_id}`,
      item: product?.name ?? asked.item,
      ...(quantity !== undefined ? { quantity } : {}),
      ...(price !== undefined ? { price, total: price * (quantity ?? 1) } : {}),
      ...(product ? { product } : {}),
    };
  },
});
