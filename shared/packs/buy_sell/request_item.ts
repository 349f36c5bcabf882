/**
 * What a buyer asks for, as a vendor should read it: the item and the
 * quantity, without the greeting and the "I am looking for" around it
 * ("Hello, I need 2 Fanta 50cl please" → `2 × Fanta 50cl`). Vendors get a
 * short question, never the buyer's whole message.
 *
 * @module
 */

/** The item and quantity a request names. */
export interface RequestedItem {
  /** The item, as the buyer wrote it (trimmed of filler words). */
  item: string;
  /** How many, when the buyer said so. */
  quantity?: number;
}

// Longest first: "i am looking for" before "looking for".
const LEADS = [
  "i am looking for",
  "i'm looking for",
  "im looking for",
  "looking for",
  "i would like to buy",
  "i would like",
  "i'd like",
  "i want to buy",
  "i want",
  "i need to buy",
  "i need",
  "do you sell",
  "do you have",
  "where can i find",
  "where can i buy",
  "who sells",
  "who has",
  "find me",
  "i'm searching for",
  "searching for",
  "buy",
  "ndashaka kugura",
  "nshaka kugura",
  "ndashaka",
  "nshaka",
  "nkeneye",
  "mufite",
  "mucuruza",
  "ese mufite",
  "nshakira",
  "je cherche",
  "je voudrais acheter",
  "je voudrais",
  "je veux acheter",
  "je veux",
  "j'ai besoin de",
  "j'ai besoin d'",
  "vous vendez",
  "vendez-vous",
  "avez-vous",
  "avez vous",
  "il me faut",
  "acheter",
];
const GREETING =
  /^(hi|hello|hey|good (morning|afternoon|evening)|muraho|mwaramutse|mwiriwe|bonjour|bonsoir|salut)\b[\s,.!:;-]*/i;
const POLITE =
  /[\s,]*\b(please|pls|plz|merci|murakoze|s'il (vous|te) pla[iî]t|svp|ndabinginze)\b[\s.!]*$/i;
const ARTICLE = /^(a|an|some|the|un|une|des|du|de la|de l'|le|la|les)\s+/i;
// A count and no unit right after it: "2 fanta", "2 x fanta", "2× fanta" (not "50cl").
const LEADING_QTY = /^(\d{1,5})\s*(?:x|×|\*)?\s+(?=\D)|^(\d{1,5})\s*(?:x|×|\*)\s*(?=\D)/i;
// "fanta x2", "fanta × 2", "fanta x 2"; a bare trailing number ("iphone 12") is not a count.
const TRAILING_QTY = /\s*(?:x|×|\*)\s*(\d{1,5})$/i;
const MAX_ITEM = 80;

function stripLead(text: string): string {
  const lower = text.toLowerCase();
  for (const lead of LEADS) {
    if (lower.startsWith(lead) && /^[\s,:;-]|^$/.test(text.slice(lead.length, lead.length + 1))) {
      return text.slice(lead.length).replace(/^[\s,:;-]+/, "");
    }
  }
  return text;
}

// Words that say "at, in, near" before a place, in en, fr and rw ("à Remera", "i Kimironko",
// "hafi ya Nyabugogo").
const LOCATIVE =
  "(?:in|at|near|around|à|a|au|en|vers|pr[eè]s de|du côté de|i|mu|muri|ku|kuri|hafi ya|hafi y')";
// A place told at the end, by its capitalised name after such a word: "à Remera", "in Kigali City".
const TRAILING_PLACE = new RegExp(
  `\\s+${LOCATIVE}\\s+(\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)$`,
  "u",
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The request without the place it names: the place the router found in the message (`place`,
 * from the packs' gazetteer, however it is written) with the word before it, or a capitalised
 * name told at the end after "in", « à », "i" and the like. "chargeur de téléphone à Remera"
 * asks for a "chargeur de téléphone"; where is the place's.
 */
export function withoutPlace(text: string, place?: string): string {
  let rest = text;
  if (place?.trim()) {
    const named = new RegExp(
      `(?:\\s+${LOCATIVE})?\\s+${escapeRegExp(place.trim())}(?=$|[\\s,.!?])`,
      "iu",
    );
    rest = rest.replace(named, "");
  }
  rest = rest.replace(/[?!.\s]+$/, "").replace(TRAILING_PLACE, "");
  return rest.trim() || text;
}

/**
 * The place a request names, to search around: the router's (`place`, from the packs'
 * gazetteer), or a capitalised name told at the end after "in", « à », "i" and the like
 * ("chargeur de téléphone à Remera": "Remera"); null when it names none.
 */
export function placeNamed(text: string, place?: string): string | null {
  if (place?.trim()) return place.trim();
  return TRAILING_PLACE.exec(text.replace(/[?!.\s]+$/, ""))?.[1] ?? null;
}

/**
 * The item and quantity a buyer's request names, without the place it names (`place`: the
 * router's, see {@linkcode withoutPlace}).
 *
 * @example
 * ```ts
 * import { requestedItem } from "./request_item.ts";
 * requestedItem("Hello, I need 2 Fanta 50cl please"); // { item: "Fanta 50cl", quantity: 2 }
 * ```
 */
export function requestedItem(request: string, options: { place?: string } = {}): RequestedItem {
  const original = request.replace(/\s+/g, " ").trim();
  let text = withoutPlace(original.replace(GREETING, ""), options.place);
  text = stripLead(text).replace(POLITE, "").replace(/[?!.]+$/, "").trim();
  text = stripLead(text); // "hello, please, I need" leaves one more lead
  text = text.replace(ARTICLE, "");
  let quantity: number | undefined;
  const leading = LEADING_QTY.exec(text);
  if (leading) {
    quantity = Number(leading[1] ?? leading[2]);
    text = text.slice(leading[0].length);
  } else {
    const trailing = TRAILING_QTY.exec(text);
    if (trailing) {
      quantity = Number(trailing[1]);
      text = text.slice(0, trailing.index);
    }
  }
  text = text.replace(ARTICLE, "").trim();
  const item = (text || original).slice(0, MAX_ITEM).trim();
  return quantity !== undefined && quantity > 0 ? { item, quantity } : { item };
}

/** `2 × Fanta 50cl`, or the item alone for one. */
export function itemLine(item: RequestedItem): string {
  return item.quantity && item.quantity > 1 ? `${item.quantity} × ${item.item}` : item.item;
}
