/**
 * What the commerce pack says, in English, Kinyarwanda and French: the
 * customer's news about an order (a free-form text inside the 24-hour window,
 * the `order_status_update` template outside it) and the answers a venue
 * gets when it moves an order on WhatsApp.
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { ORDER_STATE_NAMES, type OrderStatus } from "@shared/capabilities/order_states/mod.ts";

/** Button titles for a venue's next move (≤ 20 characters). */
export const STATUS_BUTTONS: Record<OrderStatus, Record<Language, string>> = {
  pending: { en: "Pending", rw: "Ritegereje", fr: "En attente" },
  confirmed: { en: "Confirm", rw: "Emeza", fr: "Confirmer" },
  preparing: { en: "Preparing", rw: "Turimo gutegura", fr: "En préparation" },
  ready: { en: "Ready", rw: "Byiteguye", fr: "Prête" },
  delivered: { en: "Delivered", rw: "Byagejejwe", fr: "Livrée" },
  cancelled: { en: "Cancel", rw: "Hagarika", fr: "Annuler" },
};

/** Everything the pack says. */
export const COMMERCE_TEXTS = {
  customerConfirmed: {
    en: "✅ {venue} confirmed your order {order_no}.",
    rw: "✅ {venue} yemeje itumiza ryanyu {order_no}.",
    fr: "✅ {venue} a confirmé votre commande {order_no}.",
  },
  customerPreparing: {
    en: "👩‍🍳 {venue} is preparing your order {order_no}.",
    rw: "👩‍🍳 {venue} iri gutegura itumiza ryanyu {order_no}.",
    fr: "👩‍🍳 {venue} prépare votre commande {order_no}.",
  },
  customerReady: {
    en: "🍽️ {venue}: your order {order_no} is ready.",
    rw: "🍽️ {venue}: itumiza ryanyu {order_no} ryiteguye.",
    fr: "🍽️ {venue} : votre commande {order_no} est prête.",
  },
  customerDelivered: {
    en: "📦 {venue}: your order {order_no} was delivered. Enjoy!",
    rw: "📦 {venue}: itumiza ryanyu {order_no} ryagejejwe. Murakoze!",
    fr: "📦 {venue} : votre commande {order_no} a été livrée. Bon appétit !",
  },
  customerCancelled: {
    en: "❌ {venue} cancelled your order {order_no}.",
    rw: "❌ {venue} yahagaritse itumiza ryanyu {order_no}.",
    fr: "❌ {venue} a annulé votre commande {order_no}.",
  },
  customerNote: {
    en: "Note from {venue}: {notes}",
    rw: "Ubutumwa bwa {venue}: {notes}",
    fr: "Message de {venue} : {notes}",
  },
  backToMenu: {
    en: 'Type "menu" for the main menu.',
    rw: 'Andika "menu" usubire ku rutonde.',
    fr: "Écrivez « menu » pour revenir au menu.",
  },
  venueMoved: {
    en: "✅ {order_no} is now {status}. The customer has been told.",
    rw: "✅ {order_no} ubu {status}. Umukiriya yamenyeshejwe.",
    fr: "✅ {order_no} est maintenant {status}. Le client a été prévenu.",
  },
  venueSame: {
    en: "{order_no} is already {status}. Nothing changed.",
    rw: "{order_no} risanzwe {status}. Nta cyahindutse.",
    fr: "{order_no} est déjà {status}. Rien n'a changé.",
  },
  venueFinal: {
    en: "{order_no} is already {status}: it cannot change any more.",
    rw: "{order_no} risanzwe {status}: ntirigihinduka.",
    fr: "{order_no} est déjà {status} : elle ne peut plus changer.",
  },
  venueInvalid: {
    en: "{order_no} is {status}: it cannot become {wanted} now.",
    rw: "{order_no} ni {status}: ntirishobora kuba {wanted} ubu.",
    fr: "{order_no} est {status} : elle ne peut pas passer à {wanted} maintenant.",
  },
  venueUnpaid: {
    en: "{order_no} is not paid yet: start preparing once the payment is received.",
    rw: "{order_no} ntiririshyurwa: mutangire gutegura amafaranga amaze kwakirwa.",
    fr: "{order_no} n'est pas encore payée : préparez-la une fois le paiement reçu.",
  },
  venueUnknown: {
    en: "We found no order {order_no} for your venue. Check the number, e.g. READY A-1042.",
    rw: "Nta tumiza {order_no} twabonye ry'aho mukorera. Reba nimero, urugero: READY A-1042.",
    fr:
      "Aucune commande {order_no} pour votre établissement. Vérifiez le numéro, ex. READY A-1042.",
  },
  venueFailed: {
    en: "Sorry, {order_no} could not be updated. Please try again in a moment.",
    rw: "Twihanganire, {order_no} ntiryahinduwe. Mwongere mugerageze mu kanya.",
    fr: "Désolé, {order_no} n'a pas pu être mise à jour. Réessayez dans un instant.",
  },
  venueNext: {
    en: "Next:",
    rw: "Ibikurikira:",
    fr: "Ensuite :",
  },
} as const;

/** Says a commerce phrase in a language. */
export const say = phraseBook(COMMERCE_TEXTS);

const CUSTOMER_KEYS: Record<OrderStatus, keyof typeof COMMERCE_TEXTS | null> = {
  pending: null,
  confirmed: "customerConfirmed",
  preparing: "customerPreparing",
  ready: "customerReady",
  delivered: "customerDelivered",
  cancelled: "customerCancelled",
};

/** Options for {@link customerStatusText}. */
export interface CustomerStatusOptions {
  /** The venue's name. */
  venue: string;
  /** The order's number, e.g. `A-1042`. */
  orderNo: string;
  /** The order's new status. */
  status: OrderStatus;
  /** The venue's note, if any. */
  notes?: string;
  /** The customer's language. */
  language: Language;
}

/**
 * The customer's news about their order, with the venue's note and the way
 * back to the menu.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { customerStatusText } from "./texts.ts";
 *
 * const text = customerStatusText({ venue: "Café Neo", orderNo: "A-1042", status: "ready", language: "en" });
 * assert.match(text, /^🍽️ Café Neo: your order A-1042 is ready\./);
 * ```
 */
export function customerStatusText(options: CustomerStatusOptions): string {
  const { venue, orderNo, status, notes, language } = options;
  const key = CUSTOMER_KEYS[status];
  const lines = [
    key
      ? say(key, language, { venue, order_no: orderNo })
      : `${venue}: ${orderNo} — ${ORDER_STATE_NAMES[status][language]}`,
  ];
  if (notes) lines.push(say("customerNote", language, { venue, notes }));
  lines.push(say("backToMenu", language));
  return lines.join("\n");
}
