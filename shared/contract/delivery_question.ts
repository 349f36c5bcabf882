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

// One word of delivering, whole.
const DELIVERY_WORD = new RegExp(`^(?:${DELIVERY_WORDS.source.replace(/\\b/g, "")})$`, "i");

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

// Words that say where ("to Nyamata", « à Kicukiro », "i Remera", "ku Kimironko").
const WHERE_WORDS = new Set([
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
const NOT_PLACE_WORDS = new Set([
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
    if (!WHERE_WORDS.has(words[i])) continue;
    const next = words[i + 1];
    if (next.length >= 3 && !NOT_PLACE_WORDS.has(next) && !/\d/.test(next)) return next;
  }
  return null;
}

// The words of a delivery question's frame, in en/fr/rw: who asks whom, how, for how much, when,
// courtesies and the where-words. What is left names the thing to bring ("sambusa").
const FRAME_WORDS = new Set([
  // en
  "do",
  "does",
  "did",
  "you",
  "u",
  "ur",
  "your",
  "we",
  "i",
  "can",
  "could",
  "will",
  "would",
  "is",
  "are",
  "there",
  "any",
  "how",
  "much",
  "what",
  "whats",
  "which",
  "where",
  "when",
  "the",
  "an",
  "of",
  "for",
  "me",
  "my",
  "us",
  "our",
  "it",
  "them",
  "this",
  "that",
  "here",
  "also",
  "too",
  "please",
  "pls",
  "plz",
  "fee",
  "fees",
  "cost",
  "costs",
  "charge",
  "charges",
  "price",
  "prices",
  "service",
  "services",
  "today",
  "tomorrow",
  "tonight",
  "now",
  "still",
  "and",
  "or",
  "free",
  "hi",
  "hello",
  "ok",
  "guys",
  "available",
  "possible",
  "have",
  "offer",
  "outside",
  "things",
  "stuff",
  "products",
  "items",
  "goods",
  "order",
  "orders",
  "also",
  "am",
  // fr
  "vous",
  "tu",
  "est",
  "ce",
  "que",
  "qu",
  "faites",
  "pouvez",
  "peux",
  "pourriez",
  "pourrez",
  "des",
  "du",
  "de",
  "la",
  "le",
  "les",
  "l",
  "un",
  "une",
  "chez",
  "moi",
  "nous",
  "m",
  "t",
  "combien",
  "coute",
  "quel",
  "quels",
  "quelle",
  "quelles",
  "prix",
  "frais",
  "tarif",
  "tarifs",
  "aussi",
  "aujourd",
  "hui",
  "demain",
  "maintenant",
  "il",
  "y",
  "bonjour",
  "salut",
  "possible",
  "c",
  "ca",
  "cela",
  "et",
  "ou",
  "encore",
  "faire",
  "service",
  "services",
  "est-ce",
  "disponible",
  "sont",
  "etes",
  "avez",
  "fait",
  "faut",
  "choses",
  "produits",
  "commande",
  "commandes",
  // rw
  "mukora",
  "murakora",
  "mwaba",
  "mushobora",
  "mubasha",
  "mwatanga",
  "mutanga",
  "ese",
  "hari",
  "ni",
  "angahe",
  "igiciro",
  "iki",
  "ibihe",
  "ryayo",
  "yayo",
  "se",
  "kandi",
  "hano",
  "uyu",
  "munsi",
  "ejo",
  "ubu",
  "rwose",
  "nkwinginze",
  "murakoze",
  "muraho",
  "mwiriwe",
  "mwaramutse",
  "amafaranga",
  "serivisi",
  "ya",
  "yo",
  "za",
  "na",
  "nayo",
  "bite",
  "iwanjye",
  "iwacu",
  "murugo",
  "mu",
  "rugo",
  "nta",
  "mufite",
  "ibintu",
  "ibicuruzwa",
  "itumiza",
  "byose",
  ...[...WHERE_WORDS],
  ...[...NOT_PLACE_WORDS],
]);

/**
 * What a delivery question asks to have brought, in its own words ("sambusa" in « vous livrez
 * des sambusa ? »), or null when it names nothing but the delivering, the asking and where
 * ("mukora delivery i Remera?", "do you deliver?"). The place named after a where-word, and the
 * capitalised names after it, are where, never what.
 *
 * @example
 * ```ts
 * import { deliveredThing } from "@shared/contract/delivery_question.ts";
 * deliveredThing("vous livrez des sambusa ?"); // "sambusa"
 * deliveredThing("do you deliver to Nyamata, how much?"); // null
 * ```
 */
export function deliveredThing(text: string): string | null {
  const written = text.normalize("NFD").replace(/\p{M}/gu, "").split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const kept: string[] = [];
  for (let i = 0; i < written.length; i++) {
    const lower = written[i].toLowerCase();
    if (WHERE_WORDS.has(lower)) {
      // The place: the word after, unless it is the frame's (« à la maison »), with the
      // capitalised words that go on naming it ("Kigali Heights").
      const next = written[i + 1];
      if (next !== undefined && (/^\p{Lu}/u.test(next) || !FRAME_WORDS.has(next.toLowerCase()))) {
        i++;
        while (i + 1 < written.length && /^\p{Lu}/u.test(written[i + 1])) i++;
      }
      continue;
    }
    if (FRAME_WORDS.has(lower) || DELIVERY_WORD.test(lower) || /^\d+$/.test(lower)) continue;
    kept.push(lower);
  }
  return kept.length ? kept.join(" ") : null;
}

/**
 * Whether `text` is a delivery question the business answers as a whole: one that names where
 * ("do you deliver to Nyamata?") or nothing to bring ("do you deliver?"). One naming a thing
 * ("vous livrez des sambusa ?") is for the agent that sells it, which says whether the places
 * that have it deliver. The router and the front desk read delivery questions by this one rule.
 *
 * @example
 * ```ts
 * import { asksWhereDelivered } from "@shared/contract/delivery_question.ts";
 * asksWhereDelivered("mukora delivery i Remera?"); // true
 * asksWhereDelivered("vous livrez des sambusa ?"); // false
 * ```
 */
export function asksWhereDelivered(text: string): boolean {
  return asksAboutDelivery(text) && deliveredThing(text) === null;
}
