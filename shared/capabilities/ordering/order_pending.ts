/**
 * What a customer leaves open in an ordering flow (Waiter AI, Pharmacy, Shop,
 * Hardware): an order placed but not paid, which the venue may be about to
 * prepare. On leaving, the kernel asks whether to cancel it (`order_cancel`:
 * a waiting MoMo charge expires, the venue is told) or keep it.
 *
 * @module
 */
import { z } from "zod";
import { formatRwf } from "@shared/capabilities/format/mod.ts";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { callTyped, isToolResult } from "@shared/registry/tool_call.ts";
import { ORDER_SUMMARY_COLUMNS, orderSummaryRows, venueNameOf } from "./order_steps.ts";
import type { OfflineToolCaller, OpenWork, PendingWork } from "@shared/registry/pack.ts";

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

// What the leave question reads of the conversation's memory (kept by the ordering steps or
// by a model's `order_create`), parsed: memory of another shape names no order.
const placedStep = z.object({ order: z.object({ id: z.string() }) });
const orderCreated = z.object({ order_id: z.string() });

// The commerce pack's `order_cancel`, as the answer to the question reads it.
const orderCancel = {
  name: "order_cancel",
  output: z.object({ order_no: z.string(), venue_name: z.string() }),
};

/**
 * The order the flow placed (its memory), or the one a model's `order_create` answered: still
 * in hand (`lastResult`), or already told to the user by the model (`lastConfirmed`).
 */
function orderIdOf(memory: Record<string, unknown>): string | null {
  const step = placedStep.safeParse(memory.step);
  if (step.success) return step.data.order.id;
  for (const kept of [memory.lastResult, memory.lastConfirmed]) {
    if (!isToolResult(kept) || !kept.ok) continue;
    const created = orderCreated.safeParse(kept.data);
    if (created.success) return created.data.order_id;
  }
  return null;
}

/**
 * The order `orderId` as open work while it is pending or confirmed and not paid, or null (an
 * order paid, cancelled, being prepared, or not the caller's). Another flow that placed an
 * order by `order_create` (buy & sell's chosen vendor) offers it through this, as the ordering
 * flows do. Calls tools as the customer; writes nothing.
 */
export async function findOpenOrder(
  callTool: OfflineToolCaller,
  orderId: string,
  language: Language,
): Promise<OpenWork | null> {
  const found = await callTyped(callTool, orderSummaryRows, {
    table: "orders",
    columns: [...ORDER_SUMMARY_COLUMNS],
    filters: [{ column: "id", op: "eq", value: orderId }],
    limit: 1,
  }, "open_order");
  const order = found.ok ? found.data.items[0] : undefined;
  if (!order || order.payment_status === "settled") return null;
  if (order.status !== "pending" && order.status !== "confirmed") return null;
  const name = await venueNameOf(callTool, order.business_id, "open_order_venue");
  return {
    id: order.id,
    // An order is prepared once paid: there is no time of it to move.
    movable: false,
    summary: say("openOrder", language, {
      no: order.order_no,
      venue: name,
      total: formatRwf(Number(order.total), language),
    }),
  };
}

/**
 * Cancels the customer's unpaid order `orderId` (`order_cancel`: its waiting charge expires and
 * the venue is told) and answers what to tell the customer, in their language.
 */
export async function cancelOpenOrder(
  callTool: OfflineToolCaller,
  orderId: string,
  language: Language,
): Promise<string> {
  const result = await callTyped(callTool, orderCancel, { order_id: orderId }, "order_cancel");
  if (!result.ok) {
    return say("orderNotCancelled", language, { msg: result.error.msg });
  }
  return say("orderCancelled", language, {
    no: result.data.order_no,
    venue: result.data.venue_name,
  });
}

// Kept work is named by its id; an order's is a uuid (other work of the same agent, a table,
// is named otherwise).
const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An order of this conversation still pending or confirmed and not paid is
 * open work: the one the flow has under way, else one the customer chose to
 * keep on an earlier leave (the latest kept first), so that "move it" or
 * "cancel it" later still finds it. Never an older order the customer
 * neither just left nor kept.
 */
export const orderPending: PendingWork = {
  async find({ language, memory, kept }, callTool) {
    const id = orderIdOf(memory);
    const current = id ? await findOpenOrder(callTool, id, language) : null;
    if (current) return current;
    for (const keptId of [...(kept ?? [])].reverse()) {
      if (keptId === id || !ORDER_ID.test(keptId)) continue;
      const open = await findOpenOrder(callTool, keptId, language);
      if (open) return open;
    }
    return null;
  },
  cancel(work, { language }, callTool) {
    return cancelOpenOrder(callTool, work.id, language);
  },
};
