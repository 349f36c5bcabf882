/**
 * What the concierge says, in English, Kinyarwanda and French. Short and
 * plain: these go to WhatsApp, often read on a small phone.
 *
 * @module
 */

import type { Language } from "@shared/contract/language.ts";

export { type Language, LANGUAGES } from "@shared/contract/language.ts";

interface InquiryFacts {
  item: string;
  quantity?: number;
  budget?: number;
  area?: string;
  distanceKm?: number;
}

function itemLine(facts: InquiryFacts): string {
  return facts.quantity && facts.quantity > 1 ? `${facts.item} × ${facts.quantity}` : facts.item;
}

function where(facts: InquiryFacts, language: Language): string {
  const km = facts.distanceKm !== undefined ? `${facts.distanceKm.toFixed(1)} km` : "";
  const parts = [facts.area, km].filter(Boolean).join(", ");
  if (!parts) return "";
  return { en: ` (${parts} away)`, rw: ` (${parts})`, fr: ` (à ${parts})` }[language];
}

/** The message a vendor gets: the request and how to answer. */
export function vendorInquiryText(facts: InquiryFacts, language: Language): string {
  const budget = facts.budget ? `${facts.budget} RWF` : "";
  switch (language) {
    case "rw":
      return `EasyMO: umukiriya${where(facts, language)} arashaka: ${itemLine(facts)}` +
        `${
          budget ? `, ingengo ${budget}` : ""
        }.\nMurabifite? Subiza YEGO <igiciro> <umubare> cyangwa OYA.`;
    case "fr":
      return `EasyMO : un client${where(facts, language)} cherche : ${itemLine(facts)}` +
        `${
          budget ? `, budget ${budget}` : ""
        }.\nL'avez-vous ? Répondez OUI <prix> <quantité> ou NON.`;
    default:
      return `EasyMO: a customer${where(facts, language)} is looking for: ${itemLine(facts)}` +
        `${budget ? `, budget ${budget}` : ""}.\nDo you have it? Reply YES <price> <qty> or NO.`;
  }
}

/** Button titles for the vendor's answer (≤ 20 characters). */
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

/** What the buyer is told when a vendor confirms. */
export function buyerConfirmedText(
  reply: { businessName: string; price?: number; quantity?: number; distanceKm?: number },
  language: Language,
): string {
  const price = reply.price !== undefined ? `${reply.price} RWF` : "";
  const qty = reply.quantity !== undefined ? ` × ${reply.quantity}` : "";
  const km = reply.distanceKm !== undefined ? ` (${reply.distanceKm.toFixed(1)} km)` : "";
  const head = { en: "has it", rw: "irabifite", fr: "l'a" }[language];
  const tail = {
    en: "Reply UPDATES to see every answer.",
    rw: "Andika AMAKURU urebe ibisubizo byose.",
    fr: "Répondez INFOS pour voir toutes les réponses.",
  }[language];
  return `✅ ${reply.businessName}${km} ${head}${price ? `: ${price}${qty}` : ""}. ${tail}`;
}

/** What a vendor is told once their answer is recorded. */
export function vendorThanksText(status: "yes" | "no", language: Language): string {
  if (status === "yes") {
    return {
      en: "Thanks! We told the customer; they may contact you.",
      rw: "Murakoze! Twabibwiye umukiriya; ashobora kubahamagara.",
      fr: "Merci ! Nous avons prévenu le client ; il pourra vous contacter.",
    }[language];
  }
  return { en: "Thanks for answering.", rw: "Murakoze gusubiza.", fr: "Merci d'avoir répondu." }[
    language
  ];
}

/** What a vendor is told when they answer after the request closed. */
export function vendorLateText(language: Language): string {
  return {
    en: "Thanks! This request has already closed; we will ask you again next time.",
    rw: "Murakoze! Iki cyifuzo cyarangiye; tuzongera kubabaza ubutaha.",
    fr: "Merci ! Cette demande est déjà close ; nous vous solliciterons la prochaine fois.",
  }[language];
}
