/**
 * `order_status_update` (the tool catalog's commerce section): moves an order along the state machine
 * pending → confirmed → preparing → ready → delivered (cancel only before
 * preparing; fulfilment only once paid) and tells the customer on WhatsApp,
 * in their language, with the order number and the venue's name.
 *
 * Who may move it is decided in the database (`private.order_for_move`):
 * staff of the order's org or the venue's owner, or — for the venue
 * counterpart, a service call without a person — the venue's own WhatsApp
 * number in `venue_phone`. The tool runs as the service because it queues
 * the customer's message; the database also re-checks every move (trigger
 * `orders_guard_update`).
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, isUuid, text, ToolFailure } from "@shared/contract/mod.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import type { Language } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { MESSAGING, templateOut, textOut } from "@shared/capabilities/messaging/mod.ts";
import {
  checkTransition,
  ORDER_STATE_NAMES,
  ORDER_STATUSES,
  type OrderStatus,
} from "@shared/capabilities/order_states/mod.ts";
import { customerStatusText } from "./texts.ts";

/** An order number as people write it: `A-1042`. */
export const ORDER_NO = /^[A-Za-z]{1,3}-[0-9]{1,12}$/;

const input = z.object({
  order_id: z.string().trim().max(40).refine(
    (value) => isUuid(value) || ORDER_NO.test(value),
    "must be an order id or an order number like A-1042",
  ).describe("The order's id, or its number as the customer sees it (A-1042)."),
  status: z.enum(ORDER_STATUSES),
  notes: text({ max: 300 }).optional().describe("A short note for the customer."),
  venue_phone: e164Phone().optional().describe(
    "Service callers only: the venue's WhatsApp number when the venue moves the order itself.",
  ),
});

const output = z.object({
  order_id: z.uuid(),
  order_no: z.string(),
  status: z.enum(ORDER_STATUSES),
  updated_at: z.string(),
  venue_name: z.string(),
  changed: z.boolean().describe("False when the order already had this status (nothing sent)."),
});

interface OrderForMove {
  order_id: string;
  order_no: string;
  status: OrderStatus;
  payment_status: string;
  updated_at: Date | string;
  venue_name: string;
  customer_id: string | null;
  customer_wa_id: string | null;
  customer_locale: Language;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The `order_status_update` tool. */
export const orderStatusUpdate = defineTool({
  name: "order_status_update",
  title: "Update an order's status",
  description: "Move an order to its next status (confirmed, preparing, ready, delivered, or " +
    "cancelled before preparing) and tell the customer on WhatsApp. Only the venue's staff may " +
    "do this; preparing, ready and delivered need the order paid. Repeating a move changes nothing.",
  category: "commerce",
  input,
  output,
  examples: [{ input: { order_id: "A-1042", status: "ready" } }],
  sideEffects: "writes.order",
  // Queues the customer's WhatsApp message; private.order_for_move checks the caller.
  auth: "service",
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    if (args.venue_phone && ctx.user_id) {
      throw new ToolFailure("AUTH_ERROR", "venue_phone is set by the WhatsApp channel only");
    }
    const [order] = await ctx.db.query<OrderForMove>(
      "select * from private.order_for_move($1, $2, $3)",
      [ctx.org_id, args.order_id, args.venue_phone ? toWaId(args.venue_phone) : null],
    );
    const paid = order.payment_status === "settled";
    const check = checkTransition({ from: order.status, to: args.status, paid });
    const result = {
      order_id: order.order_id,
      order_no: order.order_no,
      status: order.status,
      updated_at: iso(order.updated_at),
      venue_name: order.venue_name,
      changed: false,
    };
    if (check.kind === "same") return result;
    if (check.kind === "invalid") {
      const now = ORDER_STATE_NAMES[order.status].en;
      throw new ToolFailure(
        "CONFLICT",
        check.allowed.length === 0
          ? `${order.order_no} is already ${now}`
          : `${order.order_no} is ${now}: it can only become ${check.allowed.join(" or ")}`,
        { details: { status: order.status, allowed: check.allowed } },
      );
    }
    if (check.kind === "unpaid") {
      throw new ToolFailure(
        "CONFLICT",
        `${order.order_no} is not paid yet: it can be ${args.status} once the payment is settled`,
        { details: { status: order.status, payment_status: order.payment_status } },
      );
    }
    const [moved] = await ctx.db.query<{ updated_at: Date | string }>(
      "update public.orders set status = $2 where id = $1 returning updated_at",
      [order.order_id, args.status],
    );
    if (order.customer_wa_id) {
      const language = order.customer_locale;
      const [conversation] = await ctx.db.query<{ id: string }>(
        `select id from public.conversations where org_id = $1 and user_id = $2
         order by updated_at desc limit 1`,
        [ctx.org_id, order.customer_id],
      );
      await ctx.services.get(MESSAGING).send(ctx.db, {
        orgId: ctx.org_id!,
        to: order.customer_wa_id,
        message: textOut(customerStatusText({
          venue: order.venue_name,
          orderNo: order.order_no,
          status: args.status,
          notes: args.notes,
          language,
        })),
        // For a customer the channel may not reach freely (WhatsApp's 24-hour window).
        fallback: templateOut({
          name: "order_status_update",
          language,
          parameters: [order.venue_name, order.order_no, ORDER_STATE_NAMES[args.status][language]],
        }),
        // One message per order and status: the state machine never returns to a status.
        idempotencyKey: `order-status:${order.order_id}:${args.status}`,
        conversationId: conversation?.id,
      });
    }
    return { ...result, status: args.status, updated_at: iso(moved.updated_at), changed: true };
  },
});
