/**
 * `create_vendor_inquiries_and_message_vendors` and
 * `get_vendor_inquiry_updates`: ask up to five vendors on the buyer's behalf
 * (with the buyer's explicit consent), then read back their answers ranked.
 *
 * @module
 */
import { z } from "zod";
import {
  e164Phone,
  id,
  int,
  latitude,
  longitude,
  moneyRwf,
  text,
  ToolFailure,
} from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { buttonsOut, MESSAGING, templateOut } from "@shared/capabilities/messaging/mod.ts";
import { requestedItem } from "./request_item.ts";
import { type Language, LANGUAGES, vendorButtons, vendorInquiryText } from "./texts.ts";
import { itemNameFor, type NamedProduct } from "./item_names.ts";

/** Most vendors one inquiry may reach (the tool catalog's guardrail). */
export const MAX_VENDORS = 5;

/** How long vendors have to answer, by default. */
export const DEFAULT_EXPIRY_SEC = 120;

const createInput = z.object({
  user_phone: e164Phone(),
  business_ids: z.array(id()).min(1).max(MAX_VENDORS, `at most ${MAX_VENDORS} vendors`)
    .refine((ids) => new Set(ids).size === ids.length, "vendors must be distinct"),
  request_type: z.enum(["product", "service", "medicine"]),
  request_summary: text({ min: 1, max: 300 }),
  structured_payload: z.object({
    item: text({ min: 1, max: 120 }).optional(),
    quantity: int({ min: 1, max: 100_000 }).optional(),
    budget: moneyRwf({ max: 100_000_000 }).optional().describe("Whole RWF."),
    timeframe: z.enum(["now", "today", "any"]).optional(),
    pickup_area: text({ max: 80 }).optional(),
    brand: text({ max: 60 }).optional(),
    constraints: z.array(text({ max: 80 })).max(5).optional(),
  }).default({}),
  user_lat: latitude().optional(),
  user_lng: longitude().optional(),
  language: z.enum(LANGUAGES).default("en"),
  consent: z.literal(true, { message: "the user's explicit consent is required" })
    .describe("True only after the user agreed that we contact these vendors."),
  expires_in_sec: int({ min: 30, max: 3600 }).default(DEFAULT_EXPIRY_SEC),
});

const createOutput = z.object({
  inquiry_id: z.uuid(),
  vendor_ids: z.array(z.uuid()),
  messages_sent: z.int(),
  expires_at: z.string(),
});

interface Vendor {
  id: string;
  name: string;
  owner_whatsapp: string | null;
  area: string | null;
  distance_km: number | null;
  language: Language;
}

/**
 * A vendor's language, as SQL over `b` (public.businesses): the owner's
 * profile locale, else the locale of the profile behind the shop's WhatsApp
 * number, else Kinyarwanda, the language every vendor in Rwanda reads.
 */
export const VENDOR_LANGUAGE_SQL = `coalesce(
  (select p.locale from public.profiles p where p.id = b.owner_user_id),
  (select p.locale from public.profiles p where p.phone = '+' || b.owner_whatsapp),
  'rw')`;

/** The `create_vendor_inquiries_and_message_vendors` tool. */
export const createVendorInquiries = defineTool({
  name: "create_vendor_inquiries_and_message_vendors",
  title: "Ask vendors",
  description: "With the user's explicit consent, ask up to 5 vendors on WhatsApp whether they " +
    "have what the user wants. Answers arrive within minutes; read them with " +
    "get_vendor_inquiry_updates.",
  category: "buy_sell",
  input: createInput,
  output: createOutput,
  examples: [{
    input: {
      user_phone: "+250788000001",
      business_ids: ["c0000000-0000-4000-8000-000000000001"],
      request_type: "medicine",
      request_summary: "Paracetamol 500mg, 2 packs",
      structured_payload: { item: "Paracetamol 500mg", quantity: 2 },
      language: "en",
      consent: true,
    },
  }],
  sideEffects: "writes.message",
  // Writes the outbox and other parties' metrics; scoped to the caller's org and phone below.
  auth: "service",
  openWorld: true,
  latencyBudgetMs: 600,
  // Each call messages several vendors: a buyer asks a few times, not a vendor flood.
  rateLimit: { perUser: { limit: 10, windowSec: 600 } },
  async execute(args, ctx) {
    if (ctx.user_id) {
      const [me] = await ctx.db.query<{ phone: string }>(
        "select phone from public.profiles where id = $1",
        [ctx.user_id],
      );
      if (me?.phone !== args.user_phone) throw new ToolFailure("AUTH_ERROR");
    }
    const vendors = await ctx.db.query<Vendor>(
      `select b.id, b.name, b.owner_whatsapp, b.area, ${VENDOR_LANGUAGE_SQL} as language,
              case when $3::float8 is not null and b.lat is not null then
                earth_distance(ll_to_earth($3::float8, $4::float8), ll_to_earth(b.lat, b.lng)) / 1000
              end as distance_km
       from public.businesses b
       where b.id = any($1::uuid[]) and b.org_id = $2 and b.is_active`,
      [args.business_ids, ctx.org_id, args.user_lat ?? null, args.user_lng ?? null],
    );
    const reachable = vendors.filter((vendor) => vendor.owner_whatsapp);
    if (reachable.length !== args.business_ids.length) {
      throw new ToolFailure("NOT_FOUND", "One of those vendors cannot be reached on WhatsApp");
    }
    const now = ctx.services.now();
    const expiresAt = new Date(now.getTime() + args.expires_in_sec * 1000);
    const [inquiry] = await ctx.db.query<{ id: string }>(
      `insert into public.market_vendor_inquiries
         (org_id, user_id, user_phone, request_type, request_summary, structured_payload,
          user_lat, user_lng, language, expires_at, trace_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
      [
        ctx.org_id,
        ctx.user_id,
        args.user_phone,
        args.request_type,
        args.request_summary,
        args.structured_payload,
        args.user_lat ?? null,
        args.user_lng ?? null,
        args.language,
        expiresAt.toISOString(),
        ctx.trace_id,
        now.toISOString(),
      ],
    );
    // Vendors hear from the tenant the buyer wrote to, by its brand.
    const [tenant] = await ctx.db.query<{ brand: string }>(
      "select coalesce(o.brand_name, o.name) as brand from public.orgs o where o.id = $1",
      [ctx.org_id],
    );
    // Vendors read a short question, never the buyer's whole message.
    const asked = args.structured_payload.item
      ? { item: args.structured_payload.item, quantity: args.structured_payload.quantity }
      : { ...requestedItem(args.request_summary), ...pick(args.structured_payload.quantity) };
    // The item by the name each vendor reads (`products.names`), the vendor's stock first.
    const products = await ctx.db.query<NamedProduct & { business_id: string }>(
      `select p.business_id, p.name, p.names from public.products p
       where p.org_id = $1 order by p.business_id = any($2::uuid[]) desc, p.name`,
      [ctx.org_id, args.business_ids],
    );
    for (const vendor of reachable) {
      const language = vendor.language;
      const ownFirst = [
        ...products.filter((product) => product.business_id === vendor.id),
        ...products.filter((product) => product.business_id !== vendor.id),
      ];
      const facts = {
        item: itemNameFor(asked.item, ownFirst, language),
        quantity: asked.quantity,
        budget: args.structured_payload.budget,
        area: args.structured_payload.pickup_area,
        distanceKm: vendor.distance_km ?? undefined,
      };
      const text = vendorInquiryText(facts, language, tenant?.brand ?? null);
      const outboxId = await ctx.services.get(MESSAGING).send(ctx.db, {
        orgId: ctx.org_id!,
        to: vendor.owner_whatsapp!,
        message: buttonsOut(text, vendorButtons(language)),
        // For a vendor the channel may not reach freely (WhatsApp's 24-hour window).
        fallback: templateOut({
          name: "vendor_inquiry",
          language,
          parameters: [
            facts.quantity && facts.quantity > 1 ? `${facts.quantity} × ${facts.item}` : facts.item,
          ],
          // The template's quick replies answer like the buttons of the free-form question.
          choiceIds: vendorButtons(language).map((button) => button.id),
        }),
        idempotencyKey: `inquiry:${inquiry.id}:${vendor.id}`,
        conversationId: ctx.convo_id ?? undefined,
      });
      await ctx.db.query(
        `insert into public.market_vendor_inquiry_messages
           (inquiry_id, org_id, business_id, vendor_wa_id, outbox_id, sent_at, vendor_language)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          inquiry.id,
          ctx.org_id,
          vendor.id,
          vendor.owner_whatsapp,
          outboxId,
          now.toISOString(),
          language,
        ],
      );
      await ctx.db.query("select private.refresh_vendor_metrics($1)", [vendor.id]);
    }
    return {
      inquiry_id: inquiry.id,
      vendor_ids: reachable.map((vendor) => vendor.id),
      messages_sent: reachable.length,
      expires_at: expiresAt.toISOString(),
    };
  },
});

const reply = z.object({
  business_id: z.uuid(),
  business_name: z.string(),
  business_phone: z.string(),
  status: z.enum(["yes", "no", "other", "pending"]),
  price: z.number().optional(),
  quantity: z.number().optional(),
  notes: z.string().optional(),
  distance_km: z.number().optional(),
  response_time_sec: z.number().optional(),
  replied_at: z.string().optional().describe("When the vendor answered (RFC 3339)."),
  chosen: z.boolean().optional().describe("True once the user chose this vendor."),
});

const updatesOutput = z.object({
  inquiry_id: z.uuid(),
  request_summary: z.string().describe("What the user asked for (the item, when named)."),
  status: z.enum(["pending", "partial", "complete", "expired", "cancelled"]),
  vendor_count: z.int(),
  replied_count: z.int(),
  confirmed_count: z.int(),
  expires_at: z.string(),
  replies: z.array(reply),
});

/** A reply as read from the database. */
export interface ReplyRow {
  business_id: string;
  business_name: string;
  business_phone: string | null;
  reply_status: "pending" | "yes" | "no" | "other";
  price: number | null;
  quantity: number | null;
  reply_text: string | null;
  late: boolean;
  distance_km: number | null;
  response_time_sec: number | null;
  replied_at?: string | null;
  chosen?: boolean;
}

const STATUS_ORDER = { yes: 0, other: 1, pending: 2, no: 3 } as const;

/**
 * Orders replies usefully: confirmed first, then by price (cheapest first),
 * then by distance; then unclear answers, unanswered, and refusals.
 */
export function rankReplies(rows: readonly ReplyRow[]): z.output<typeof reply>[] {
  return rows.map((row) => {
    // A late answer is recorded but does not count: the inquiry had closed.
    const status = row.late ? "pending" : row.reply_status;
    return Object.fromEntries(
      Object.entries({
        business_id: row.business_id,
        business_name: row.business_name,
        business_phone: row.business_phone ?? "",
        status,
        price: status === "yes" ? row.price ?? undefined : undefined,
        quantity: status === "yes" ? row.quantity ?? undefined : undefined,
        notes: row.late ? "replied after the inquiry closed" : row.reply_text ?? undefined,
        distance_km: row.distance_km == null ? undefined : Math.round(row.distance_km * 100) / 100,
        response_time_sec: row.late ? undefined : row.response_time_sec ?? undefined,
        replied_at: row.late ? undefined : row.replied_at ?? undefined,
        chosen: row.chosen || undefined,
      }).filter(([, value]) => value !== undefined),
    ) as z.output<typeof reply>;
  }).sort((a, b) =>
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    (a.price ?? Infinity) - (b.price ?? Infinity) ||
    (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity)
  );
}

/** pending / partial / complete / expired, from the answers and the clock. */
export function inquiryStatus(
  counts: { vendors: number; replied: number },
  expiresAt: Date,
  now: Date,
): "pending" | "partial" | "complete" | "expired" {
  if (counts.vendors > 0 && counts.replied >= counts.vendors) return "complete";
  if (now >= expiresAt) return "expired";
  return counts.replied > 0 ? "partial" : "pending";
}

function pick(quantity: number | undefined): { quantity?: number } {
  return quantity === undefined ? {} : { quantity };
}

/** The `get_vendor_inquiry_updates` tool. */
export const getVendorInquiryUpdates = defineTool({
  name: "get_vendor_inquiry_updates",
  title: "Vendor answers",
  description: "Read the vendors' answers to an inquiry: who has it, at what price and quantity, " +
    "how far; confirmed vendors first, cheapest and closest first. Without an inquiry_id, the " +
    "user's latest inquiry. A withdrawn inquiry is cancelled.",
  category: "buy_sell",
  input: z.object({
    inquiry_id: id().optional().describe("Omit for the user's latest inquiry."),
  }),
  output: updatesOutput,
  examples: [{ input: { inquiry_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d" } }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    // Without an id, the caller's latest: what a buyer leaving the flow may still have open.
    const [inquiry] = await ctx.db.query<
      { id: string; expires_at: string; cancelled: boolean; request_summary: string }
    >(
      `select id, coalesce(structured_payload ->> 'item', request_summary) as request_summary, to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at,
              cancelled_at is not null as cancelled
       from public.market_vendor_inquiries
       where org_id = $2 and ($1::uuid is null or id = $1)
         and ($1::uuid is not null or user_id = $3)
       order by created_at desc limit 1`,
      [args.inquiry_id ?? null, ctx.org_id, ctx.user_id ?? null],
    );
    if (!inquiry) throw new ToolFailure("NOT_FOUND", "No such inquiry");
    const rows = await ctx.db.query<ReplyRow>(
      `select m.business_id, b.name as business_name, b.phone as business_phone, m.reply_status,
              m.price::float8 as price, m.quantity, m.reply_text, m.late,
              case when i.user_lat is not null and b.lat is not null then
                earth_distance(ll_to_earth(i.user_lat, i.user_lng), ll_to_earth(b.lat, b.lng)) / 1000
              end as distance_km,
              extract(epoch from (m.replied_at - m.sent_at))::float8 as response_time_sec,
              to_char(m.replied_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as replied_at,
              m.chosen_at is not null as chosen
       from public.market_vendor_inquiry_messages m
       join public.market_vendor_inquiries i on i.id = m.inquiry_id
       join public.businesses b on b.id = m.business_id
       where m.inquiry_id = $1`,
      [inquiry.id],
    );
    const replies = rankReplies(rows);
    const replied = replies.filter((r) => r.status !== "pending").length;
    return {
      inquiry_id: inquiry.id,
      request_summary: inquiry.request_summary,
      status: inquiry.cancelled ? "cancelled" as const : inquiryStatus(
        { vendors: rows.length, replied },
        new Date(inquiry.expires_at),
        ctx.services.now(),
      ),
      vendor_count: rows.length,
      replied_count: replied,
      confirmed_count: replies.filter((r) => r.status === "yes").length,
      expires_at: inquiry.expires_at,
      replies,
    };
  },
});
