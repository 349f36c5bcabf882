/**
 * What a buyer leaves open in buy & sell once they chose a vendor and asked
 * to order and pay: an order at the vendor still unpaid (the vendor stocks
 * the item), or a MoMo payment to the vendor's number still waiting (it does
 * not). On leaving, the kernel asks whether to cancel it or keep it, as it
 * does for every ordering flow; before a vendor is chosen, the open request
 * the vendors are asked about ({@link inquiryPending}) is the open work.
 *
 * Cancelling an order goes through the ordering capability (`order_cancel`:
 * its charge expires and the vendor is told); cancelling a payment to the
 * vendor's number ends the charge (`momo_charge_cancel`) and withdraws the
 * request (`vendor_inquiry_cancel`), which tells the chosen vendor the
 * purchase and its payment are off.
 *
 * @module
 */
import { formatRwf } from "@shared/capabilities/format/mod.ts";
import { cancelOpenOrder, findOpenOrder, orderPending } from "@shared/capabilities/ordering/mod.ts";
import { cancelOpenCharge, findOpenCharge } from "@shared/capabilities/waiting_charge/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import type {
  OfflineToolCaller,
  OpenWork,
  PendingContext,
  PendingWork,
} from "@shared/registry/pack.ts";
import { conciergeMemory, PURCHASE_PURPOSE } from "./concierge_flow.ts";
import { inquiryPending } from "./inquiry_pending.ts";

const say = phraseBook({
  openPayment: {
    en: "your MoMo payment of {amount} to {vendor} for {item}, still waiting ({ref})",
    rw: "ubwishyu bwawe bwa MoMo bwa {amount} kuri {vendor} bwa {item}, butarishyurwa ({ref})",
    fr: "votre paiement MoMo de {amount} à {vendor} pour {item}, toujours en attente ({ref})",
  },
  paymentCancelled: {
    en: "Payment {ref} is cancelled: its code pays nothing now, and {vendor} has been told.",
    rw: "Ubwishyu {ref} bwahagaritswe: kode yabwo ntikishyura, kandi {vendor} yabimenyeshejwe.",
    fr: "Le paiement {ref} est annulé : son code ne paie plus rien, et {vendor} a été prévenu.",
  },
  paymentAlreadyPaid: {
    en: "Payment {ref} had already arrived, so nothing was cancelled: {vendor} has your money.",
    rw: "Ubwishyu {ref} bwari bwamaze kugera, nta cyahagaritswe: {vendor} yabonye amafaranga yawe.",
    fr: "Le paiement {ref} était déjà arrivé, rien n'a été annulé : {vendor} a reçu votre argent.",
  },
  paymentNotCancelled: {
    en: "Sorry, I could not cancel payment {ref}: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika ubwishyu {ref}: {msg}",
    fr: "Désolé, je n'ai pas pu annuler le paiement {ref} : {msg}",
  },
});

// An order's open work is named apart from an inquiry's (both are uuids); a charge by its ref.
const ORDER = "order:";
const CHARGE = "charge:";

/** The concierge's request as kept in memory, or null on the visit's first turn (or unreadable). */
function requestOf(memory: Record<string, unknown>) {
  // Read by the flow's schema (a cleared key is kept as null).
  const kept = conciergeMemory.safeParse(
    Object.fromEntries(Object.entries(memory).filter(([, value]) => value !== null)),
  );
  return kept.success && kept.data.step ? kept.data.request ?? null : null;
}

async function openPurchase(
  context: PendingContext,
  callTool: OfflineToolCaller,
): Promise<OpenWork | null> {
  const { language, memory } = context;
  const request = requestOf(memory);
  const chosen = request?.chosen;
  // The order the concierge placed, else one a model placed (`order_create`'s kept result).
  const order = request?.order_id
    ? await findOpenOrder(callTool, request.order_id, language)
    : await orderPending.find(context, callTool);
  if (order) return { ...order, id: `${ORDER}${order.id}` };
  // An order's charge is ended with the order; a payment to the vendor's number on its own.
  if (request?.order_id || !chosen || !request.momo_ref) return null;
  const charge = await findOpenCharge(callTool, {
    purpose: PURCHASE_PURPOSE,
    memory: { momoRef: request.momo_ref },
  });
  if (!charge) return null;
  return {
    id: `${CHARGE}${charge.momoRef}`,
    summary: say("openPayment", language, {
      amount: formatRwf(charge.amount, language),
      vendor: chosen.business_name,
      item: chosen.item.slice(0, 80),
      ref: charge.momoRef,
    }),
  };
}

async function cancelPayment(
  ref: string,
  { language, memory }: PendingContext,
  callTool: OfflineToolCaller,
): Promise<string> {
  const request = requestOf(memory);
  const vendor = request?.chosen?.business_name ?? "";
  const result = await cancelOpenCharge(callTool, ref);
  if (!result.ok) return say("paymentNotCancelled", language, { ref, msg: result.error.msg });
  // Paid between the question and the answer: the vendor has the money, the purchase stands.
  if (result.data.status === "settled") {
    return say("paymentAlreadyPaid", language, { ref, vendor });
  }
  // The vendor was given the buyer's number and waits to be paid: withdrawing the request tells
  // them the purchase is off (a repeat tells nobody twice).
  if (request?.inquiry_id) {
    await callTool("vendor_inquiry_cancel", { inquiry_id: request.inquiry_id }, "purchase_told");
  }
  return say("paymentCancelled", language, { ref, vendor });
}

/**
 * Buy & sell's open work: the chosen vendor's unpaid order or waiting
 * payment, else the request the vendors are still asked about.
 */
export const buySellPending: PendingWork = {
  async find(context, callTool) {
    return await openPurchase(context, callTool) ?? await inquiryPending.find(context, callTool);
  },
  cancel(work, context, callTool) {
    if (work.id.startsWith(ORDER)) {
      return cancelOpenOrder(callTool, work.id.slice(ORDER.length), context.language);
    }
    if (work.id.startsWith(CHARGE)) {
      return cancelPayment(work.id.slice(CHARGE.length), context, callTool);
    }
    return inquiryPending.cancel(work, context, callTool);
  },
};
