/**
 * A price or stock question about the shop's products answered from its
 * stock, in the shop's words: "A4 paper (500 sheets): 6,500 RWF per ream at
 * Beaver Paper Warehouse, in stock." Said while an order's read-back waits,
 * and to a person waiting in the staff queue ("how much is a ream of A4?"),
 * so nobody waits for a person to read them a price.
 *
 * @module
 */
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { productTerms } from "./product_terms.ts";
import { productUnit } from "./product_units.ts";

const say = phraseBook({
  inStock: {
    en: "{name}: {price} per {unit} at {venue}, in stock.",
    rw: "{name}: {price} kuri {unit} kuri {venue}, birahari.",
    fr: "{name} : {price} par {unit} chez {venue}, en stock.",
  },
  outOfStock: {
    en: "{name}: {price} per {unit} at {venue}, out of stock right now.",
    rw: "{name}: {price} kuri {unit} kuri {venue}, ubu ntibihari.",
    fr: "{name} : {price} par {unit} chez {venue}, en rupture pour le moment.",
  },
  // The unit when a product names none.
  eachUnit: { en: "item", rw: "kimwe", fr: "pièce" },
});

/** A product as a price answer reads it. */
export interface PricedProduct {
  /** The name it is stocked under. */
  name: string;
  /** Its name per language (`products.names`). @default none */
  names?: Partial<Record<string, string>>;
  price: number;
  unit?: string | null;
  /** Whether it can be sold now (available, with stock). */
  inStock: boolean;
  /** The place that sells it. */
  venue: string;
}

/**
 * One product's price and stock, in the reader's language (the product's
 * name in it when the shop gave one).
 */
export function priceAnswer(
  product: PricedProduct,
  reader: { language: Language; currency?: string },
): string {
  const { language } = reader;
  return say(product.inStock ? "inStock" : "outOfStock", language, {
    name: product.names?.[language] ?? product.name,
    price: formatMoney(product.price, language, { currency: reader.currency }),
    unit: productUnit(product.unit ?? undefined, language) ?? say("eachUnit", language),
    venue: product.venue,
  });
}

// A price or stock asked in words, in en/fr/rw.
const PRICE_OR_STOCK =
  /\b(?:how much|price|prices|cost|costs|do you (?:have|sell)|in stock|available|combien|prix|co[uû]te|avez[- ]vous|vous avez|disponibles?|en stock|angahe|igiciro|ibiciro|mufite|murafite|birahari|bihari|biraboneka)\b/i;

/**
 * Whether `text` asks in words what something costs or whether it is stocked ("how much is",
 * « combien coûte », "ni angahe", "do you have", "birahari").
 */
export function namesPriceOrStock(text: string): boolean {
  return PRICE_OR_STOCK.test(text);
}

// The words around an item in a price or stock question, in en/fr/rw ("how much is the", « c'est
// combien le », "ni angahe", "do you have"): what is left is the item.
const QUESTION_FRAME = new Set([
  // en
  "how",
  "much",
  "is",
  "are",
  "the",
  "a",
  "an",
  "of",
  "for",
  "price",
  "prices",
  "cost",
  "costs",
  "do",
  "does",
  "you",
  "have",
  "sell",
  "what",
  "whats",
  "s",
  "it",
  "in",
  "stock",
  "available",
  "please",
  "pls",
  "per",
  "your",
  "there",
  "any",
  "i",
  "can",
  "get",
  "tell",
  "me",
  "and",
  // fr
  "c",
  "est",
  "ce",
  "combien",
  "coute",
  "coute-t-il",
  "le",
  "la",
  "les",
  "l",
  "un",
  "une",
  "du",
  "de",
  "des",
  "prix",
  "quel",
  "quelle",
  "vous",
  "avez",
  "avez-vous",
  "disponible",
  "disponibles",
  "en",
  "svp",
  "stp",
  "il",
  "elle",
  "y",
  "t",
  "pour",
  "fait",
  "ca",
  "et",
  "pardon",
  // rw
  "ni",
  "angahe",
  "igiciro",
  "ibiciro",
  "cya",
  "bya",
  "rya",
  "ya",
  "ese",
  "mufite",
  "murafite",
  "birahari",
  "bihari",
  "biraboneka",
  "kangahe",
  "amafaranga",
  "se",
  "na",
  "kuri",
]);

/**
 * The item a price or stock question names, as written, without the question's frame: "café
 * latte" in « c'est combien le café latte ? », "A4" in "impapuro A4 ni angahe?" keeps
 * "impapuro A4". Empty when the question names nothing.
 *
 * @example
 * ```ts
 * import { itemAsked } from "@shared/capabilities/ordering/price_answer.ts";
 * itemAsked("c'est combien le café latte ?"); // "café latte"
 * ```
 */
export function itemAsked(text: string): string {
  return text.split(/[^\p{L}\p{N}'’-]+/u).filter((word) => {
    const bare = wordsOf(word).join("-");
    return bare !== "" && !QUESTION_FRAME.has(bare) &&
      !wordsOf(word).every((part) => QUESTION_FRAME.has(part));
  }).join(" ");
}

// Lowercase words without accents, as names and questions are compared.
function wordsOf(text: string): string[] {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * The products a question names: those with the most of its search words in
 * one of their names (any language), in stock first, then cheapest; none
 * when no word of it is in any name.
 *
 * @param limit How many at most. @default 3
 */
export function productsAsked<P extends PricedProduct>(
  text: string,
  products: readonly P[],
  limit = 3,
): P[] {
  const terms = productTerms(text, { synonyms: {} }).map((term) => wordsOf(term).join(" "));
  const scored = products.map((product) => {
    const words = new Set(
      [product.name, ...Object.values(product.names ?? {})].flatMap((name) => wordsOf(name ?? "")),
    );
    return { product, score: terms.filter((term) => term && words.has(term)).length };
  });
  const best = Math.max(0, ...scored.map((entry) => entry.score));
  if (best === 0) return [];
  return scored.filter((entry) => entry.score === best).map((entry) => entry.product)
    .sort((a, b) => Number(b.inStock) - Number(a.inStock) || a.price - b.price)
    .slice(0, limit);
}
