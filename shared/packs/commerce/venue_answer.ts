/**
 * `answer_venue_command` (internal): tells a venue, in its language, what
 * became of the order move it sent on WhatsApp — moved, already so, refused
 * with the reason as a sentence ("A-1042 is not paid yet: …"), or unknown —
 * with buttons for the order's next moves. Called by the venue counterpart
 * after `order_status_update`, in its own transaction, so a refused move
 * (which rolls back) is still answered.
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, text } from "@shared/contract/mod.ts";
import { type Language, LANGUAGES } from "@shared/contract/language.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { buttonsOut, MESSAGING, textOut } from "@shared/capabilities/messaging/mod.ts";
import {
  checkTransition,
  ORDER_STATE_NAMES,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  type OrderStatus,
} from "@shared/capabilities/order_states/mod.ts";
import { say, STATUS_BUTTONS } from "./texts.ts";
import { venueButtonId } from "./venue_commands.ts";

const input = z.object({
  venue_phone: e164Phone(),
  order_no: z.string().regex(/^[A-Z]{1,3}-[0-9]{1,12}$/, "must be an order number like A-1042"),
  status: z.enum(ORDER_STATUSES).describe("The status the venue asked for."),
  outcome: z.enum(["moved", "unchanged", "refused", "not_found", "failed"]),
  language: z.enum(LANGUAGES).optional().describe("The language the venue wrote in, if known."),
  reply_key: text({ min: 1, max: 200 }).describe("Names the answer in the outbox (the wamid)."),
});

const output = z.object({ sent: z.boolean() });

interface VenueOrder {
  order_no: string;
  status: OrderStatus;
  payment_status: string;
  locale: Language;
}

/** The `answer_venue_command` tool. */
export const answerVenueCommand = defineTool({
  name: "answer_venue_command",
  title: "Answer a venue's order command",
  description: "Tell a venue on WhatsApp what became of the order move it sent (service only).",
  category: "commerce",
  input,
  output,
  examples: [{
    input: {
      venue_phone: "+250788000005",
      order_no: "A-1042",
      status: "ready",
      outcome: "moved",
      reply_key: "wamid.HBgM",
    },
  }],
  sideEffects: "writes.message",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const waId = toWaId(args.venue_phone);
    // Only an order of the sender's own venue, in the business number's org.
    const [order] = await ctx.db.query<VenueOrder>(
      `select o.order_no, o.status, o.payment_status, coalesce(p.locale, 'en') as locale
       from public.orders o
       join public.businesses b on b.id = o.business_id
       left join public.profiles p on p.id = b.owner_user_id
       where o.org_id = $1 and o.order_no = $2
         and (b.owner_whatsapp = $3 or private.wa_id_of(b.phone) = $3)`,
      [ctx.org_id, args.order_no, waId],
    );
    const language = args.language ?? order?.locale ?? "en";
    const values = { order_no: args.order_no };
    let body: string;
    if (!order || args.outcome === "not_found") {
      body = say("venueUnknown", language, values);
    } else {
      const status = ORDER_STATE_NAMES[order.status][language];
      const check = checkTransition({
        from: order.status,
        to: args.status,
        paid: order.payment_status === "settled",
      });
      if (args.outcome === "moved") body = say("venueMoved", language, { ...values, status });
      else if (args.outcome === "failed") body = say("venueFailed", language, values);
      else if (check.kind === "same") body = say("venueSame", language, { ...values, status });
      else if (check.kind === "unpaid") body = say("venueUnpaid", language, values);
      else if (ORDER_TRANSITIONS[order.status].length === 0) {
        body = say("venueFinal", language, { ...values, status });
      } else {
        body = say("venueInvalid", language, {
          ...values,
          status,
          wanted: ORDER_STATE_NAMES[args.status][language],
        });
      }
    }
    const next = order ? ORDER_TRANSITIONS[order.status] : [];
    const message = next.length
      ? buttonsOut(
        `${body}\n${say("venueNext", language)}`,
        next.map((status) => ({
          id: venueButtonId(args.order_no, status as Exclude<OrderStatus, "pending">),
          title: STATUS_BUTTONS[status][language],
        })),
      )
      : textOut(body);
    await ctx.services.get(MESSAGING).send(ctx.db, {
      orgId: ctx.org_id!,
      to: waId,
      message,
      // The venue just wrote, so its window is open: no template needed.
      idempotencyKey: `venue-answer:${args.reply_key}`,
    });
    return { sent: true };
  },
});
