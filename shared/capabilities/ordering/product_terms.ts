/**
 * What to search a venue's stock for, from a customer's words: "10 bags of
 * cement delivered, near Kimironko market" is about cement. Quantities,
 * units, delivery and place words are dropped; the remaining content words
 * are each tried, words the pack knows in another language first ("ciment",
 * "sima" → cement), so a message in Kinyarwanda or French finds products
 * named in English.
 *
 * @module
 */
import { normalizeWords } from "./order_lines.ts";

/**
 * A pack's synonyms: the product word as stock names it (English, singular)
 * → its words in en/rw/fr as customers type them.
 */
export type ProductSynonyms = Readonly<Record<string, readonly string[]>>;

/** Hardware, shop, stationery, pharmacy and electronics words in en/rw/fr. */
export const PRODUCT_SYNONYMS: ProductSynonyms = {
  cement: ["cement", "ciment", "sima", "isima"],
  paint: ["paint", "peinture", "irangi", "amarangi", "rangi"],
  nail: ["nail", "nails", "clou", "clous", "imisumari", "umusumari"],
  iron: ["iron", "fer", "fers", "ibyuma", "icyuma"],
  sheet: ["sheet", "sheets", "tole", "toles", "amabati", "ibati"],
  soap: ["soap", "savon", "isabune"],
  rice: ["rice", "riz", "umuceri"],
  sugar: ["sugar", "sucre", "isukari"],
  milk: ["milk", "lait", "amata"],
  oil: ["oil", "huile", "amavuta"],
  water: ["water", "eau", "amazi"],
  paper: ["paper", "papers", "papier", "papiers", "impapuro", "urupapuro"],
  envelope: ["envelope", "envelopes", "enveloppe", "enveloppes", "ibahasha", "amabahasha"],
  notebook: ["notebook", "notebooks", "cahier", "cahiers", "ikayi", "amakayi"],
  pen: ["pen", "pens", "stylo", "stylos", "ikaramu", "amakaramu"],
  paracetamol: ["paracetamol", "paracetamole", "parasetamoli"],
  charger: ["charger", "chargers", "chargeur", "chargeurs", "chaja", "chajeri"],
  phone: ["phone", "phones", "telephone", "telephones", "telefone", "telefoni", "terefone"],
  laptop: ["laptop", "laptops", "ordinateur", "ordinateurs", "mudasobwa"],
};

// Paper and envelope sizes: one letter, one or two digits.
const SIZE_CODE = /^[abc]\d{1,2}$/;

// Words that say how many, how much, how it comes or where: never the product.
const NOT_PRODUCT = new Set([
  // quantities and units
  "bag",
  "bags",
  "sac",
  "sacs",
  "imifuka",
  "umufuka",
  "piece",
  "pieces",
  "pcs",
  "kg",
  "kilo",
  "kilos",
  "litre",
  "litres",
  "liter",
  "liters",
  "box",
  "boxes",
  "carton",
  "cartons",
  "packet",
  "packets",
  "ream",
  "reams",
  "rame",
  "rames",
  "some",
  "few",
  "many",
  "quelques",
  // delivery
  "deliver",
  "delivered",
  "delivery",
  "livre",
  "livree",
  "livres",
  "livraison",
  "livrer",
  "kugeza",
  "bizanwe",
  "muzanzanire",
  "muzanire",
  // places and where-words
  "near",
  "nearby",
  "close",
  "market",
  "marche",
  "isoko",
  "hafi",
  "kuri",
  "pres",
  "vers",
  "town",
  "ville",
  "home",
  "house",
  "maison",
  "murugo",
  "please",
  "stp",
  "svp",
  "with",
  "avec",
  "and",
  "the",
  "for",
  "pour",
  "des",
  "les",
  "une",
  "cya",
  "bya",
]);

/**
 * The stock's (English) word for a word a customer typed in any of our languages ("chargeur",
 * "telefone" → "charger", "phone"), or null when the table does not know it.
 */
export function stockWord(
  word: string,
  synonyms: ProductSynonyms = PRODUCT_SYNONYMS,
): string | null {
  for (const [stock, words] of Object.entries(synonyms)) {
    if (words.includes(word)) return stock;
  }
  return null;
}

/**
 * The words to search stock for, best first: each content word as its
 * stock name where the pack knows it (a synonym), else as typed; longer
 * words before shorter ones.
 *
 * @param text What the customer wrote (filler before the name already dropped).
 * @param options `synonyms`: the pack's table; `exclude`: words known to be
 *   something else (the area the customer named).
 * @returns Search words, each at most once; empty when nothing is left.
 */
export function productTerms(
  text: string,
  options: { synonyms?: ProductSynonyms; exclude?: readonly string[] } = {},
): string[] {
  const synonyms = options.synonyms ?? PRODUCT_SYNONYMS;
  const byWord = new Map<string, string>();
  for (const [stock, words] of Object.entries(synonyms)) {
    for (const word of words) byWord.set(word, stock);
  }
  const exclude = new Set(options.exclude ?? []);
  const content = normalizeWords(text).filter((word) =>
    word.length >= 3 && !/\d/.test(word) && !NOT_PRODUCT.has(word) && !exclude.has(word)
  );
  // A size code (A4, A3, C5) names one product of a kind: tried before the kind ("paper"),
  // which would find the cheapest of every size first.
  const sizes = normalizeWords(text).filter((word) => SIZE_CODE.test(word) && !exclude.has(word));
  const known = content.filter((word) => byWord.has(word)).map((word) => byWord.get(word)!);
  const other = content.filter((word) => !byWord.has(word))
    .sort((a, b) => b.length - a.length);
  return [...new Set([...sizes, ...known, ...other])];
}
