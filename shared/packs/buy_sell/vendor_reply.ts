/**
 * `process_vendor_reply`: the webhook hands every vendor message that answers
 * an open inquiry to this tool. It finds the inquiry the vendor is answering
 * (the WhatsApp reply context first, then the vendor's most recent
 * unanswered inquiry), parses the answer, records it, refreshes the vendor's
 * metrics, and tells the buyer when the vendor has the item.
 *
 * A reply after the inquiry expired, or after the buyer withdrew it, is
 * recorded (`late`) but changes nothing the buyer sees; the vendor is told
 * the request had closed, or was withdrawn.
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import { buttonsOut, MESSAGING, textOut } from "@shared/capabilities/messaging/mod.ts";
import { parseVendorReply } from "./reply_parser.ts";
import {
  buyerConfirmedButtons,
  buyerConfirmedText,
  type Language,
  vendorHintText,
  vendorLateText,
  vendorThanksText,
  vendorWithdrawnText,
} from "./texts.ts";

interface Candidate {
  id: string;
  inquiry_id: string;
  org_id: string;
  business_id: string;
  business_name: string;
  reply_status: string;
  expired: boolean;
  /** The buyer withdrew the inquiry. */
  withdrawn: boolean;
  user_phone: string;
  /** The buyer's language. */
  language: Language;
  /** The language the vendor was asked in. */
  vendor_language: Language;
  distance_km: number | null;
}

const CANDIDATE_SQL = `
  select m.id, m.inquiry_id, m.org_id, m.business_id, b.name as business_name, m.reply_status,
         i.expires_at <= $3::timestamptz or i.cancelled_at is not null as expired,
         i.cancelled_at is not null as withdrawn, i.user_phone, i.language,
         m.vendor_language,
         case when i.user_lat is not null and b.lat is not null then
           earth_distance(ll_to_earth(i.user_lat, i.user_lng), ll_to_earth(b.lat, b.lng)) / 1000
         end as distance_km
  from public.market_vendor_inquiry_messages m
  join public.market_vendor_inquiries i on i.id = m.inquiry_id
  join public.businesses b on b.id = m.business_id
  left join public.wa_outbox o on o.id = m.outbox_id
  where m.vendor_wa_id = $1
    and ($2::text is null or o.wamid = $2)
    -- An answer we could not read ('other') still awaits the real one the vendor was asked for.
    and ($2::text is not null or m.reply_status in ('pending', 'other'))
  order by m.sent_at desc
  limit 1`;

/** Finds the inquiry a vendor's message answers, or null when there is none. */
export async function findAnsweredInquiry(
  db: { query<T>(text: string, params?: readonly unknown[]): Promise<T[]> },
  vendorWaId: string,
  contextWamid: string | null,
  now: Date,
): Promise<Candidate | null> {
  if (contextWamid) {
    const [byContext] = await db.query<Candidate>(CANDIDATE_SQL, [
      vendorWaId,
      contextWamid,
      now.toISOString(),
    ]);
    if (byContext) return byContext;
  }
  const [latest] = await db.query<Candidate>(CANDIDATE_SQL, [vendorWaId, null, now.toISOString()]);
  return latest ?? null;
}

const input = z.object({
  // Normalised here: an unreadable number ("+", letters, 30 digits) is the caller's mistake.
  vendor_phone: e164Phone().describe("The vendor's number, as WhatsApp gives it (wa_id) or E.164."),
  message_body: text({ max: 4096, multiline: true }).optional(),
  button_id: text({ max: 256 }).optional().describe("The id of a tapped reply button."),
  whatsapp_message_id: text({ max: 256 }).optional(),
  context_wamid: text({ max: 256 }).optional().describe("The message the vendor replied to."),
}).refine((args) => args.message_body !== undefined || args.button_id !== undefined, {
  message: "give the message text or the tapped button",
  path: ["message_body"],
});

const output = z.object({
  inquiry_id: z.uuid(),
  parsed: z.boolean(),
  status: z.enum(["yes", "no", "other"]),
  late: z.boolean(),
});

/** The `process_vendor_reply` tool. */
export const processVendorReply = defineTool({
  name: "process_vendor_reply",
  title: "Record a vendor's answer",
  description: "Record a vendor's WhatsApp answer (YES <price> <qty> / NO, in English, " +
    "Kinyarwanda or French) to the inquiry it answers. Called by the webhook.",
  category: "buy_sell",
  input,
  output,
  examples: [{
    input: {
      vendor_phone: "+250788000004",
      message_body: "YES 1500 2",
      whatsapp_message_id: "wamid.X",
    },
  }],
  sideEffects: "writes.inquiry",
  // The vendor is not the buyer: the answer is written across parties, scoped to the vendor's number.
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const waId = toWaId(args.vendor_phone);
    const now = ctx.services.now();
    const inquiry = await findAnsweredInquiry(ctx.db, waId, args.context_wamid ?? null, now);
    if (!inquiry) throw new ToolFailure("NOT_FOUND", "No open inquiry for this vendor");
    const parsed = parseVendorReply(
      args.button_id !== undefined ? { buttonId: args.button_id } : args.message_body!,
    );
    const text = args.message_body ?? parsed.text;
    if (inquiry.expired) {
      await ctx.db.query(
        `update public.market_vendor_inquiry_messages
         set late = true, reply_text = $2, replied_at = coalesce(replied_at, $3), reply_wamid = $4
         where id = $1 and reply_status in ('pending', 'other')`,
        [inquiry.id, text, now.toISOString(), args.whatsapp_message_id ?? null],
      );
    } else {
      await ctx.db.query(
        `update public.market_vendor_inquiry_messages
         set reply_status = $2, price = $3, quantity = $4, reply_text = $5,
             replied_at = coalesce(replied_at, $6), reply_wamid = $7, late = false
         where id = $1`,
        [
          inquiry.id,
          parsed.status,
          parsed.price ?? null,
          parsed.quantity ?? null,
          text,
          now.toISOString(),
          args.whatsapp_message_id ?? null,
        ],
      );
    }
    await ctx.db.query("select private.refresh_vendor_metrics($1)", [inquiry.business_id]);

    const key = `vendor-reply:${args.whatsapp_message_id ?? ctx.idempotency_key}`;
    if (!inquiry.expired && parsed.status === "yes") {
      await ctx.services.get(MESSAGING).send(ctx.db, {
        orgId: inquiry.org_id,
        to: inquiry.user_phone,
        message: buttonsOut(
          buyerConfirmedText({
            businessName: inquiry.business_name,
            price: parsed.price,
            quantity: parsed.quantity,
            distanceKm: inquiry.distance_km ?? undefined,
          }, inquiry.language),
          buyerConfirmedButtons(inquiry.business_id, inquiry.language),
        ),
        idempotencyKey: `${key}:buyer`,
      });
    }
    // The vendor hears back too, in their language: thanks, the request had closed, or how to answer.
    const toVendor = parsed.status === "other"
      ? vendorHintText(inquiry.vendor_language)
      : inquiry.withdrawn
      ? vendorWithdrawnText(inquiry.vendor_language)
      : inquiry.expired
      ? vendorLateText(inquiry.vendor_language)
      : vendorThanksText(parsed.status, inquiry.vendor_language);
    await ctx.services.get(MESSAGING).send(ctx.db, {
      orgId: inquiry.org_id,
      to: waId,
      message: textOut(toVendor),
      idempotencyKey: `${key}:vendor`,
    });
    return {
      inquiry_id: inquiry.inquiry_id,
      parsed: parsed.status !== "other",
      status: parsed.status,
      late: inquiry.expired,
    };
  },
});
