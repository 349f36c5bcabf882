/**
 * Delivery asked about, before anything is ordered: "do you deliver to Nyamata, how much?",
 * « vous livrez à Kicukiro ? », "mukora delivery i Remera?". A question about the business,
 * answered from its own delivery data, never an item to search. An order that asks for delivery
 * ("40 reams of A4 delivered to Remera") names quantities and is no such question: the order
 * offers delivery once placed. This module only reads the question and the place it names.
 *
 * @module
 */
import { normalizeText, wordsOf } from "./normalize_text.ts";

// Paying when the goods come ("can I pay on delivery?", « payer à la livraison ») asks how to
// pay, not whether the business delivers.
const PAY_ON_DELIVERY =
  /\b(?:pay(?:ing|ment)?|payer|paiement|r[eé]gler|cash)\b[^.?!]{0,20}?(?:\bon\s+delivery\b|[aà]\s+la\s+livraison\b)/gi;

// Bringing goods to someone, in en/fr/rw ("deliver", « livrez », "mugeza", "munzanira",
// "delivery", which Kinyarwanda writers borrow).
const DELIVERY_WORDS =
  /\b(?:deliver(?:s|y|ies|ing|ed)?|livr\w*|\w*(?:geza|gereza|gezaho)\w*|\w*nzanir\w*|\w*zanira\w*|kuzana|muzana|mwazana)\b/i;

// Asked, not told: a question mark, a question's opening, or its cost asked.
const ASKED =
  /\?|\b(?:do|does|can|could|is|are|any|how|which|what|where|est[- ]ce|pouvez|faites|combien|quels?|quelles?|frais|fee|fees|cost|charge|price|prix|tarif|igiciro|angahe|ese|mwaba|mushobora|murakora|mukora)\b|\bvous\s+livr|\blivrez[- ]vous\b/i;

// A quantity with an item: an order, not a question about the service ("40 reams … delivered").
const QUANTITY = /(?<![\p{L}\p{N}.,:])\d{1,4}(?![\p{L}\p{N}]|[.,:]\d)/u;

/**
 * Whether `text` asks whether, where or for how much the business delivers.
 *
 * @example
 * ```ts
 * import { asksAboutDelivery } from "@shared/contract/delivery_question.ts";
 * asksAboutDelivery("vous livrez à Kicukiro ?"); // true
 * asksAboutDelivery("40 reams of A4 delivered to Remera"); // false
 * ```
 */
export function asksAboutDelivery(text: string): boolean {
  const asked = text.replace(PAY_ON_DELIVERY, " ");
  return DELIVERY_WORDS.test(asked) && ASKED.test(asked) && !QUANTITY.test(asked);
}

/**
 * `text` without its words of delivering: what else it names ("des médicaments") is what a
 * reader of the whole platform should place, not the delivering, which leans to meals.
 */
export function withoutDeliveryWords(text: string): string {
  return text.replace(new RegExp(DELIVERY_WORDS.source, "gi"), " ").replace(/\s+/g, " ").trim();
}

// Words that say where ("to Nyamata", « à Kicukiro », "i Remera", "ku Kimironko").
const WHERE = new Set([
  "to",
  "in",
  "at",
  "around",
  "a",
  "au",
  "aux",
  "en",
  "vers",
  "sur",
  "jusqu",
  "i",
  "ku",
  "kuri",
  "mu",
]);

// Words after "to"/« à » that name no place.
const NOT_PLACES = new Set([
  "you",
  "me",
  "us",
  "my",
  "our",
  "the",
  "home",
  "house",
  "office",
  "school",
  "domicile",
  "maison",
  "bureau",
  "ecole",
  "how",
  "much",
  "combien",
  "quel",
  "prix",
  "angahe",
  "iki",
  "ibihe",
  "he",
  "delivery",
  "livraison",
  "deliver",
  "livrer",
  "please",
  "svp",
  "stp",
  "kigali",
]);

/**
 * The place a delivery question names after a word that says where, as written ("Nyamata"),
 * or null when it names none.
 *
 * @example
 * ```ts
 * import { deliveryPlaceAsked } from "@shared/contract/delivery_question.ts";
 * deliveryPlaceAsked("mukora delivery i Remera?"); // "remera"
 * ```
 */
export function deliveryPlaceAsked(text: string): string | null {
  const words = wordsOf(normalizeText(text));
  for (let i = words.length - 2; i >= 0; i--) {
    if (!WHERE.has(words[i])) continue;
    const next = words[i + 1];
    if (next.length >= 3 && !NOT_PLACES.has(next) && !/\d/.test(next)) return next;
  }
  return null;
}
