/**
 * Order and payment states in words, one table for every pack and flow that
 * names them, so a customer, a venue and the payments agent read the same
 * word for the same state. Kinyarwanda agrees with "itumiza" (an order,
 * class ri-) for order states and with the act of paying for payment states.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import { isOrderStatus, type OrderStatus } from "./order_states.ts";

/** An order status as a word, in each language. */
export const ORDER_STATE_NAMES: Readonly<Record<OrderStatus, Readonly<Record<Language, string>>>> =
  {
    pending: { en: "waiting for the venue", rw: "ritegereje", fr: "en attente du commerce" },
    confirmed: { en: "confirmed", rw: "ryemejwe", fr: "confirmée" },
    preparing: { en: "being prepared", rw: "riri gutegurwa", fr: "en préparation" },
    ready: { en: "ready", rw: "ryiteguye", fr: "prête" },
    delivered: { en: "delivered", rw: "ryagejejwe", fr: "livrée" },
    cancelled: { en: "cancelled", rw: "ryahagaritswe", fr: "annulée" },
  };

/** Every payment status an order or a charge can have. */
export const PAYMENT_STATUSES = ["unpaid", "pending", "settled", "failed", "expired"] as const;

/** A payment status (`orders.payment_status`, `momo_charges.status`). */
export type PaymentStatus = typeof PAYMENT_STATUSES[number];

/** A payment status as words, in each language. */
export const PAYMENT_STATE_NAMES: Readonly<
  Record<PaymentStatus, Readonly<Record<Language, string>>>
> = {
  unpaid: { en: "not paid yet", rw: "ntiryishyuwe", fr: "pas encore payée" },
  pending: { en: "waiting for MoMo", rw: "hategerejwe MoMo", fr: "en attente de MoMo" },
  settled: { en: "received", rw: "byakiriwe", fr: "reçu" },
  failed: { en: "failed", rw: "byanze", fr: "échoué" },
  expired: { en: "expired", rw: "byarengeje igihe", fr: "expiré" },
};

/**
 * An order status in words; a status the table does not know is shown as
 * it is rather than dropped (a newer database may add one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { orderStateName } from "@shared/capabilities/order_states/mod.ts";
 *
 * assert.equal(orderStateName("ready", "fr"), "prête");
 * assert.equal(orderStateName("archived", "en"), "archived");
 * ```
 */
export function orderStateName(status: string, language: Language): string {
  return isOrderStatus(status) ? ORDER_STATE_NAMES[status][language] : status;
}

/**
 * A payment status in words; an unknown status is shown as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paymentStateName } from "@shared/capabilities/order_states/mod.ts";
 *
 * assert.equal(paymentStateName("settled", "rw"), "byakiriwe");
 * ```
 */
export function paymentStateName(status: string, language: Language): string {
  return (PAYMENT_STATUSES as readonly string[]).includes(status)
    ? PAYMENT_STATE_NAMES[status as PaymentStatus][language]
    : status;
}
