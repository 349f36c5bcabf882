/**
 * What a customer leaves open in an ordering flow (Waiter AI, Pharmacy, Shop,
 * Hardware): an order placed but not paid, which the venue may be about to
 * prepare. On leaving, the kernel asks whether to cancel it (`order_cancel`:
 * a waiting MoMo charge expires, the venue is told) or keep it.
 *
 * @module
 */
import { formatRwf } from "@shared/capabilities/format/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { ORDER_SUMMARY_COLUMNS, type OrderSummaryRow, venueNameOf } from "./order_steps.ts";
import type { PendingWork } from "@shared/registry/pack.ts";

const say = phraseBook({
  openOrder: {
    en: "your unpaid order {no} at {venue} ({total})",
    rw: "itumiza ryawe {no} kuri {venue} ritishyuwe ({total})",
    fr: "votre commande {no} chez {venue}, non payée ({total})",
  },
  orderCancelled: {
    en: "Order {no} is cancelled; {venue} has been told, and nothing will be charged.",
    rw: "Itumiza {no} ryahagaritswe; {venue} yabimenyeshejwe, kandi nta mafaranga uzishyuzwa.",
    fr: "La commande {no} est annulée ; {venue} a été prévenu, et rien ne sera débité.",
  },
  // The order is named in the question just asked; `cancel` has only its id.
  orderNotCancelled: {
    en: "Sorry, I could not cancel the order: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika itumiza: {msg}",
    fr: "Désolé, je n'ai pas pu annuler la commande : {msg}",
  },
});

/**
 * The order the flow placed (its memory), or the one a model's `order_create` answered: still
 * in hand (`lastResult`), or already told to the user by the model (`lastConfirmed`).
 */
function orderIdOf(memory: Record<string, unknown>): string | null {
  const step = memory.step as { order?: { id?: string } } | undefined;
  if (typeof step?.order?.id === "string") return step.order.id;
  for (const kept of [memory.lastResult, memory.lastConfirmed]) {
    const last = kept as { ok?: boolean; data?: { order_id?: unknown } } | null | undefined;
    if (last?.ok && typeof last.data?.order_id === "string") return last.data.order_id;
  }
  return null;
}

/**
 * An order of this conversation still pending or confirmed and not paid is
 * open work. Only the conversation's own order is offered, never an older
 * one the customer did not just leave.
 */
export const orderPending: PendingWork = {
  async find({ language, memory }, callTool) {
    const id = orderIdOf(memory);
    if (!id) return null;
    const found = await callTool("search_supabase", {
      table: "orders",
      columns: [...ORDER_SUMMARY_COLUMNS],
      filters: [{ column: "id", op: "eq", value: id }],
      limit: 1,
    }, "open_order");
    const order = found.ok ? (found.data as { items: OrderSummaryRow[] }).items[0] : undefined;
    if (!order || order.payment_status === "settled") return null;
    if (order.status !== "pending" && order.status !== "confirmed") return null;
    const name = await venueNameOf(callTool, order.business_id, "open_order_venue");
    return {
      id: order.id,
      summary: say("openOrder", language, {
        no: order.order_no,
        venue: name,
        total: formatRwf(Number(order.total), language),
      }),
    };
  },
  async cancel(work, { language }, callTool) {
    const result = await callTool("order_cancel", { order_id: work.id }, "order_cancel");
    if (!result.ok) {
      return say("orderNotCancelled", language, { msg: result.error.msg });
    }
    const data = result.data as { order_no: string; venue_name: string };
    return say("orderCancelled", language, { no: data.order_no, venue: data.venue_name });
  },
};
