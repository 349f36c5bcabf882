/**
 * What the concierge says, in English, Kinyarwanda and French. Short and
 * plain: these go to WhatsApp, often read on a small phone.
 *
 * @module
 */

import type { Language } from "@shared/contract/language.ts";
import { formatRwf } from "@shared/capabilities/format/mod.ts";

export { type Language, LANGUAGES } from "@shared/contract/language.ts";

interface InquiryFacts {
  item: string;
  quantity?: number;
  budget?: number;
  area?: string;
  distanceKm?: number;
}

function itemLine(facts: InquiryFacts): string {
  return facts.quantity && facts.quantity > 1 ? `${facts.quantity} × ${facts.item}` : facts.item;
}

function context(facts: InquiryFacts, language: Language): string {
  const km = facts.distanceKm !== undefined ? `${facts.distanceKm.toFixed(1)} km` : "";
  const parts = [
    [facts.area, km].filter(Boolean).join(", "),
    facts.budget
      ? { en: "budget", rw: "ingengo", fr: "budget" }[language] +
        ` ${formatRwf(facts.budget, language)}`
      : "",
  ].filter(Boolean);
  if (!parts.length) return "";
  const who = { en: "customer", rw: "umukiriya", fr: "client" }[language];
  return `\n(${who}: ${parts.join(" · ")})`;
}

/**
 * The question a vendor gets, in the vendor's language, headed by the tenant
 * it is asked for: one short line with the item and quantity ("Beaver's
 * Choice: Do you have: 2 × A4 paper? Reply YES + price or NO"), then where
 * the customer is and their budget. Never the buyer's message or number.
 */
export function vendorInquiryText(
  facts: InquiryFacts,
  language: Language,
  brand: string | null,
): string {
  const line = itemLine(facts);
  const ask = {
    en: `Do you have: ${line}? Reply YES + price or NO.`,
    rw: `Mufite: ${line}? Subiza YEGO + igiciro cyangwa OYA.`,
    fr: `Avez-vous : ${line} ? Répondez OUI + prix ou NON.`,
  }[language];
  return signed(brand, language) + ask + context(facts, language);
}

// The tenant a vendor hears from, before the message ("Beaver's Choice: "; French sets a space
// before its colon). Without a brand the message goes unheaded rather than in another tenant's name.
function signed(brand: string | null, language: Language): string {
  if (!brand) return "";
  return language === "fr" ? `${brand} : ` : `${brand}: `;
}

/** The vendor's answer buttons: ids the code reads, titles in the vendor's language (≤ 20 characters). */
export function vendorButtons(language: Language): Array<{ id: string; title: string }> {
  const [yes, no] = { en: ["Yes", "No"], rw: ["Yego", "Oya"], fr: ["Oui", "Non"] }[language];
  return [{ id: "vendor_yes", title: yes }, { id: "vendor_no", title: no }];
}

/** What a vendor is told when their reply could not be read. */
export function vendorHintText(language: Language): string {
  return {
    en: "Sorry, we did not understand. Reply YES <price> <qty> (e.g. YES 1500 2) or NO.",
    rw:
      "Mutwihanganire, ntitwabyumvise. Subiza YEGO <igiciro> <umubare> (urugero: YEGO 1500 2) cyangwa OYA.",
    fr: "Désolé, nous n'avons pas compris. Répondez OUI <prix> <quantité> (ex. OUI 1500 2) ou NON.",
  }[language];
}

/** What the buyer is told when a vendor confirms: who, at what price, and how to choose them. */
export function buyerConfirmedText(
  reply: { businessName: string; price?: number; quantity?: number; distanceKm?: number },
  language: Language,
): string {
  const price = reply.price !== undefined ? formatRwf(reply.price, language) : "";
  const qty = reply.quantity !== undefined ? ` × ${reply.quantity}` : "";
  const km = reply.distanceKm !== undefined ? ` (${reply.distanceKm.toFixed(1)} km)` : "";
  const head = { en: "has it", rw: "irabifite", fr: "l'a" }[language];
  const tail = {
    en: "Choose them to get their contact, or wait for more answers.",
    rw: "Bahitemo ubone aho wabavugisha, cyangwa utegereze ibindi bisubizo.",
    fr: "Choisissez-le pour avoir son contact, ou attendez d'autres réponses.",
  }[language];
  // French sets a space before its colon ("l'a : 6 000 RWF").
  const colon = language === "fr" ? " : " : ": ";
  return `✅ ${reply.businessName}${km} ${head}${price ? `${colon}${price}${qty}` : ""}.\n${tail}`;
}

/** The buttons under {@link buyerConfirmedText}: choose this vendor, or see every answer. */
export function buyerConfirmedButtons(
  businessId: string,
  language: Language,
): Array<{ id: string; title: string }> {
  const [choose, all] = {
    en: ["Choose this one", "All answers"],
    rw: ["Hitamo uyu", "Ibisubizo byose"],
    fr: ["Choisir celui-ci", "Toutes les réponses"],
  }[language];
  return [{ id: `${PICK_PREFIX}${businessId}`, title: choose }, { id: UPDATES_BUTTON, title: all }];
}

/** A button or row id that picks a vendor: this prefix, then the business id. */
export const PICK_PREFIX = "concierge_pick:";

/** The button that shows every answer. */
export const UPDATES_BUTTON = "concierge_updates";

/** What the vendor the buyer chose is told: who, what was agreed, how to reach them. */
export function vendorChosenText(
  facts: { buyerName: string; buyerPhone: string; item: string; price?: number; quantity?: number },
  language: Language,
  brand: string | null,
): string {
  const deal = [
    facts.quantity && facts.quantity > 1 ? `${facts.quantity} × ${facts.item}` : facts.item,
    facts.price !== undefined ? formatRwf(facts.price, language) : "",
  ].filter(Boolean).join(" — ");
  const link = `https://wa.me/${facts.buyerPhone.replace(/^\+/, "")}`;
  return signed(brand, language) + {
    en: `${facts.buyerName} chose you for ${deal}.\n` +
      `Contact: ${facts.buyerPhone} · ${link}\n` +
      "They picked your answer, so we shared your contacts with each other.",
    rw: `${facts.buyerName} yabahisemo kuri ${deal}.\n` +
      `Aho mwamuvugisha: ${facts.buyerPhone} · ${link}\n` +
      "Yahisemo igisubizo cyanyu, bityo twahererekanyije nimero zanyu.",
    fr: `${facts.buyerName} vous a choisi pour ${deal}.\n` +
      `Contact : ${facts.buyerPhone} · ${link}\n` +
      "Il a choisi votre réponse : nous vous avons donc transmis vos contacts mutuels.",
  }[language];
}

/** What a vendor is told once their answer is recorded. */
export function vendorThanksText(status: "yes" | "no", language: Language): string {
  if (status === "yes") {
    return {
      en: "Thanks! We told the customer. If they choose you, we will send you their contact.",
      rw: "Murakoze! Twabibwiye umukiriya. Nabahitamo, turaboherereza aho mwamuvugisha.",
      fr:
        "Merci ! Nous avons prévenu le client. S'il vous choisit, nous vous enverrons son contact.",
    }[language];
  }
  return { en: "Thanks for answering.", rw: "Murakoze gusubiza.", fr: "Merci d'avoir répondu." }[
    language
  ];
}

/** What a vendor is told when they send the answer they already gave: nothing new reached the buyer. */
export function vendorSameAnswerText(language: Language): string {
  return {
    en: "Already noted: the customer has this answer from you.",
    rw: "Byari byanditswe: umukiriya yamaze kubona iki gisubizo cyanyu.",
    fr: "C'est déjà noté : le client a déjà cette réponse de votre part.",
  }[language];
}

/** What a vendor is told when their changed answer reached the buyer before the buyer chose. */
export function vendorChangedText(status: "yes" | "no", language: Language): string {
  if (status === "yes") {
    return {
      en:
        "Updated: we told the customer your new answer. If they choose you, we will send you their contact.",
      rw:
        "Twahinduye: twamenyesheje umukiriya igisubizo cyanyu gishya. Nabahitamo, turaboherereza aho mwamuvugisha.",
      fr:
        "C'est noté : nous avons transmis votre nouvelle réponse au client. S'il vous choisit, nous vous enverrons son contact.",
    }[language];
  }
  return {
    en: "Updated: we told the customer you no longer have it.",
    rw: "Twahinduye: twamenyesheje umukiriya ko mutakibifite.",
    fr: "C'est noté : nous avons prévenu le client que vous ne l'avez plus.",
  }[language];
}

/**
 * What a vendor is told when they change their answer after the buyer chose:
 * the first answer stands; when the buyer chose them, they tell the buyer
 * themselves.
 */
export function vendorTooLateText(
  decision: { chosenYou: true; buyerPhone: string } | { chosenYou: false },
  language: Language,
): string {
  if (decision.chosenYou) {
    const phone = decision.buyerPhone;
    return {
      en:
        `Too late to change your answer here: the customer already chose you. If something changed, tell them directly on ${phone}.`,
      rw:
        `Ntibigishoboka guhindura igisubizo hano: umukiriya yamaze kubahitamo. Niba hari icyahindutse, mumubwire ubwanyu kuri ${phone}.`,
      fr:
        `Trop tard pour changer votre réponse ici : le client vous a déjà choisi. Si quelque chose a changé, prévenez-le directement au ${phone}.`,
    }[language];
  }
  return {
    en:
      "Too late to change your answer: the customer has already chosen another vendor. Thank you!",
    rw: "Ntibigishoboka guhindura igisubizo: umukiriya yamaze guhitamo undi mucuruzi. Murakoze!",
    fr: "Trop tard pour changer votre réponse : le client a déjà choisi un autre vendeur. Merci !",
  }[language];
}

/** What the buyer is told when a vendor changes their answer before the buyer chose. */
export function buyerVendorChangedText(
  reply: { businessName: string },
  status: "yes" | "no",
  language: Language,
): string {
  if (status === "yes") {
    return {
      en: `🔄 ${reply.businessName} changed their answer:`,
      rw: `🔄 ${reply.businessName} bahinduye igisubizo:`,
      fr: `🔄 ${reply.businessName} a changé sa réponse :`,
    }[language];
  }
  return {
    en: `🔄 ${reply.businessName} changed their answer: they no longer have it.`,
    rw: `🔄 ${reply.businessName} bahinduye igisubizo: ntibakibifite.`,
    fr: `🔄 ${reply.businessName} a changé sa réponse : il ne l'a plus.`,
  }[language];
}

/** What a vendor is told when they answer after the request closed. */
export function vendorLateText(language: Language): string {
  return {
    en: "Thanks! This request has already closed; we will ask you again next time.",
    rw: "Murakoze! Iki cyifuzo cyarangiye; tuzongera kubabaza ubutaha.",
    fr: "Merci ! Cette demande est déjà close ; nous vous solliciterons la prochaine fois.",
  }[language];
}

/** To a vendor who answers a request the buyer has withdrawn. */
export function vendorWithdrawnText(language: Language): string {
  return {
    en: "Thank you! The customer withdrew this request, so there is nothing to do.",
    rw: "Murakoze! Umukiriya yahagaritse iki cyifuzo, nta kindi mukeneye gukora.",
    fr: "Merci ! Le client a retiré cette demande : vous n'avez rien à faire.",
  }[language];
}

/** What an order's confirmation reads back. */
export interface OrderReadBackFacts {
  /** The venue's name, or null when the caller cannot read it. */
  venue: string | null;
  /** Each line, by the product's stored name. */
  items: Array<{ qty: number; name: string }>;
  /** The table the order is for, if any. */
  table: string | null;
  /** The caller's language. */
  language: Language;
}

const ORDER_READ_BACK = {
  order: { en: "Order", rw: "Gutumiza", fr: "Commander" },
  at: { en: " at {venue}", rw: " kuri {venue}", fr: " chez {venue}" },
  table: { en: ", table {table}", rw: ", ameza {table}", fr: ", table {table}" },
  colon: { en: ": ", rw: ": ", fr: " : " },
} as const;

/** An order's read-back before the person confirms it ("Order at Café Nyamirambo: 2 × Beef brochette"). */
export function orderReadBack(facts: OrderReadBackFacts): string {
  const { language } = facts;
  const at = facts.venue ? ORDER_READ_BACK.at[language].replace("{venue}", facts.venue) : "";
  const lines = facts.items.map((item) => `${item.qty} × ${item.name}`).join(", ");
  const table = facts.table ? ORDER_READ_BACK.table[language].replace("{table}", facts.table) : "";
  return `${ORDER_READ_BACK.order[language]}${at}${
    ORDER_READ_BACK.colon[language]
  }${lines}${table}`;
}
