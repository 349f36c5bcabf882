/**
 * `process_vendor_reply`: the webhook hands every vendor message that answers
 * an open inquiry to this tool. It finds the inquiry the vendor is answering
 * (the WhatsApp reply context first, then the vendor's most recent
 * unanswered inquiry), parses the answer, records it, refreshes the vendor's
 * metrics, and tells the buyer when the vendor has the item.
 *
 * A first reply after the inquiry expired still reaches the buyer while they
 * have not chosen, for a day, as a shop on any marketplace answers when it
 * can. After the buyer chose, withdrew, or a day later, it is recorded
 * (`late`) but changes nothing the buyer sees; the vendor is told the request
 * had closed, or was withdrawn.
 *
 * A vendor may change their answer ("yego", then "OYA"; a new price) as a
 * shop on any marketplace may, until the buyer chooses: the buyer is told
 * the new answer. Once the buyer has chosen, the answer stands and the vendor
 * is told it is too late (or, when the buyer chose them, to tell the buyer
 * directly). A message that is no answer never erases one already given.
 *
 * Every message to the vendor is in the language of their answer when the
 * answer shows one ("oui 1500", "yego"), else the language they were asked in.
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import { buttonsOut, MESSAGING, textOut } from "@shared/capabilities/messaging/mod.ts";
import { type ParsedReply, parseVendorReply } from "./reply_parser.ts";
import {
  buyerConfirmedButtons,
  buyerConfirmedText,
  buyerVendorChangedText,
  type Language,
  vendorChangedText,
  vendorHintText,
  vendorLateText,
  vendorSameAnswerText,
  vendorThanksText,
  vendorTooLateText,
  vendorWithdrawnText,
} from "./texts.ts";
import { languageOf } from "@shared/contract/language.ts";

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
  /** The vendor's recorded price and quantity, when they said yes. */
  price: number | null;
  quantity: number | null;
  /** The buyer chose this vendor. */
  chosen: boolean;
  /** The buyer chose a vendor (this one or another) for this inquiry. */
  decided: boolean;
  /** The vendor was asked within the last day (CHANGE_WINDOW_HOURS). */
  recent: boolean;
}

/** How long after an inquiry a vendor may still change an answer they gave. */
const CHANGE_WINDOW_HOURS = 24;

const CANDIDATE_SQL = `
  select m.id, m.inquiry_id, m.org_id, m.business_id, b.name as business_name, m.reply_status,
         i.expires_at <= $3::timestamptz or i.cancelled_at is not null as expired,
         i.cancelled_at is not null as withdrawn, i.user_phone, i.language,
         m.sent_at > $3::timestamptz - make_interval(hours => $5) as recent,
         m.vendor_language, m.price::float8 as price, m.quantity,
         m.chosen_at is not null as chosen,
         exists (select 1 from public.market_vendor_inquiry_messages c
                 where c.inquiry_id = m.inquiry_id and c.chosen_at is not null) as decided,
         case when i.user_lat is not null and b.lat is not null then
           earth_distance(ll_to_earth(i.user_lat, i.user_lng), ll_to_earth(b.lat, b.lng)) / 1000
         end as distance_km
  from public.market_vendor_inquiry_messages m
  join public.market_vendor_inquiries i on i.id = m.inquiry_id
  join public.businesses b on b.id = m.business_id
  left join public.wa_outbox o on o.id = m.outbox_id
  where m.vendor_wa_id = $1
    and ($2::text is null or o.wamid = $2)
    -- An answer we could not read ('other') still awaits the real one the vendor was asked for;
    -- a new yes or no ($4) may also change an answer given in the last day.
    and ($2::text is not null or m.reply_status in ('pending', 'other')
      or ($4 and m.sent_at > $3::timestamptz - make_interval(hours => $5)))
  order by m.reply_status in ('pending', 'other') desc, m.sent_at desc
  limit 1`;

/**
 * Finds the inquiry a vendor's message answers, or null when there is none:
 * the one it replies to, else the latest still awaiting an answer, else, for
 * a message that is an answer (`isAnswer`), the latest answered in the last day.
 */
export async function findAnsweredInquiry(
  db: { query<T>(text: string, params?: readonly unknown[]): Promise<T[]> },
  vendorWaId: string,
  contextWamid: string | null,
  now: Date,
  isAnswer = false,
): Promise<Candidate | null> {
  for (const context of contextWamid ? [contextWamid, null] : [null]) {
    const [found] = await db.query<Candidate>(CANDIDATE_SQL, [
      vendorWaId,
      context,
      now.toISOString(),
      isAnswer,
      CHANGE_WINDOW_HOURS,
    ]);
    if (found) return found;
  }
  return null;
}

// "YES" and "NO" are not here: vendors of every language type them, as the inquiry's own
// wording spells them; they show no language.
const ANSWER_WORD_LANGUAGE: Array<[Language, RegExp]> = [
  ["rw", /^(yego+|ego+|oya+|ntabyo|ntabihari)\b/i],
  ["fr", /^(oui+|ouais|non+)\b/i],
];

/**
 * The language a vendor answered in: the answer word's ("yego", "oui"),
 * else the words around it, else `fallback` (a bare price, "YES 1500", a
 * tapped button titled in the language they were asked in).
 */
export function vendorAnswerLanguage(text: string | undefined, fallback: Language): Language {
  const trimmed = text?.trim() ?? "";
  for (const [language, word] of ANSWER_WORD_LANGUAGE) if (word.test(trimmed)) return language;
  return languageOf(trimmed, fallback);
}

/** Whether a new answer says something other than the one recorded. */
function changes(inquiry: Candidate, parsed: ParsedReply): boolean {
  return parsed.status !== inquiry.reply_status ||
    (parsed.status === "yes" &&
      ((parsed.price ?? null) !== inquiry.price || (parsed.quantity ?? null) !== inquiry.quantity));
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
    const parsed = parseVendorReply(
      args.button_id !== undefined ? { buttonId: args.button_id } : args.message_body!,
    );
    const inquiry = await findAnsweredInquiry(
      ctx.db,
      waId,
      args.context_wamid ?? null,
      now,
      parsed.status !== "other",
    );
    if (!inquiry) throw new ToolFailure("NOT_FOUND", "No open inquiry for this vendor");
    const text = args.message_body ?? parsed.text;
    const vendorLanguage = args.button_id !== undefined
      ? inquiry.vendor_language
      : vendorAnswerLanguage(args.message_body, inquiry.vendor_language);
    const answered = inquiry.reply_status === "yes" || inquiry.reply_status === "no";
    const messaging = ctx.services.get(MESSAGING);
    const key = `vendor-reply:${args.whatsapp_message_id ?? ctx.idempotency_key}`;
    const toBuyer = async (message: Parameters<typeof messaging.send>[1]["message"]) => {
      await messaging.send(ctx.db, {
        orgId: inquiry.org_id,
        to: inquiry.user_phone,
        message,
        idempotencyKey: `${key}:buyer`,
      });
    };

    // As on any marketplace, a shop answers when it can: after the question expired, a first
    // answer still reaches a buyer who has not chosen, and an answer already given may still
    // change until the buyer chooses; both for a day (CHANGE_WINDOW_HOURS), and the buyer hears.
    // A withdrawn question, a choice made, or a day gone closes it to first answers.
    const open = !inquiry.withdrawn && inquiry.recent && (answered || !inquiry.decided);
    const closed = inquiry.expired && !open;
    let toVendor: string;
    if (closed) {
      await ctx.db.query(
        `update public.market_vendor_inquiry_messages
         set late = true, reply_text = $2, replied_at = coalesce(replied_at, $3), reply_wamid = $4,
             vendor_language = $5
         where id = $1 and reply_status in ('pending', 'other')`,
        [inquiry.id, text, now.toISOString(), args.whatsapp_message_id ?? null, vendorLanguage],
      );
      toVendor = parsed.status === "other"
        ? vendorHintText(vendorLanguage)
        : inquiry.withdrawn
        ? vendorWithdrawnText(vendorLanguage)
        : vendorLateText(vendorLanguage);
    } else if (answered && parsed.status === "other") {
      // Words that are no answer ("ok", "thanks") leave the recorded answer as it is.
      toVendor = vendorHintText(vendorLanguage);
    } else if (answered && inquiry.decided && changes(inquiry, parsed)) {
      // The buyer acted on the first answer: it stands, and the vendor learns so.
      toVendor = vendorTooLateText(
        inquiry.chosen ? { chosenYou: true, buyerPhone: inquiry.user_phone } : { chosenYou: false },
        vendorLanguage,
      );
    } else {
      const changed = answered && changes(inquiry, parsed);
      await ctx.db.query(
        `update public.market_vendor_inquiry_messages
         set reply_status = $2, price = $3, quantity = $4, reply_text = $5,
             replied_at = coalesce(replied_at, $6), reply_wamid = $7, late = false,
             vendor_language = $8
         where id = $1`,
        [
          inquiry.id,
          parsed.status,
          parsed.price ?? null,
          parsed.quantity ?? null,
          text,
          now.toISOString(),
          args.whatsapp_message_id ?? null,
          vendorLanguage,
        ],
      );
      const reply = {
        businessName: inquiry.business_name,
        price: parsed.price,
        quantity: parsed.quantity,
        distanceKm: inquiry.distance_km ?? undefined,
      };
      if (parsed.status === "yes" && (changed || !answered)) {
        const confirmed = buyerConfirmedText(reply, inquiry.language);
        await toBuyer(buttonsOut(
          changed
            ? `${buyerVendorChangedText(reply, "yes", inquiry.language)}\n${confirmed}`
            : confirmed,
          buyerConfirmedButtons(inquiry.business_id, inquiry.language),
        ));
      } else if (parsed.status === "no" && changed) {
        await toBuyer(textOut(buyerVendorChangedText(reply, "no", inquiry.language)));
      }
      toVendor = parsed.status === "other"
        ? vendorHintText(vendorLanguage)
        : changed
        ? vendorChangedText(parsed.status, vendorLanguage)
        : answered
        ? vendorSameAnswerText(vendorLanguage)
        : vendorThanksText(parsed.status, vendorLanguage);
    }
    await ctx.db.query("select private.refresh_vendor_metrics($1)", [inquiry.business_id]);
    await messaging.send(ctx.db, {
      orgId: inquiry.org_id,
      to: waId,
      message: textOut(toVendor),
      idempotencyKey: `${key}:vendor`,
    });
    return {
      inquiry_id: inquiry.inquiry_id,
      parsed: parsed.status !== "other",
      status: parsed.status,
      late: closed,
    };
  },
});
