/**
 * The item a vendor is asked about, named in the vendor's language: a buyer
 * writing Kinyarwanda ("chaja ya telefone") to a French-speaking vendor is
 * asked « Chargeur de téléphone » when a product stocked under one of those
 * names has a name in French (`products.names`). Without one, the buyer's
 * words, beside the stock name when they named it in another language.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** A product's names: the one it is stocked under, and per language (`products.names`). */
export interface NamedProduct {
  name: string;
  names: Partial<Record<string, string>>;
}

// Lowercase, no accents, words joined by single spaces: "Téléphone-chargeur" ≈ "telephone chargeur".
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

// Whether the buyer's words name the product: one of its names said whole, or the words
// at the start of a name that says more ("paracetamol 500mg" of "Paracetamol 500mg (10
// tablets)"), never one short word inside a long name ("a4" in "Carton de papier A4").
function names(asked: string, name: string): boolean {
  const given = plain(name);
  return given === asked || (asked.length >= 6 && given.startsWith(`${asked} `));
}

/**
 * The item as the vendor reads it.
 *
 * @param item The buyer's words for the item.
 * @param products The products it may be (the vendor's first).
 * @param language The vendor's language.
 */
export function itemNameFor(
  item: string,
  products: readonly NamedProduct[],
  language: Language,
): string {
  const asked = plain(item);
  if (!asked) return item;
  const product = products.find((candidate) =>
    [candidate.name, ...Object.values(candidate.names)].some((name) =>
      name !== undefined && names(asked, name)
    )
  );
  if (!product) return item;
  const own = product.names[language];
  if (own) return own;
  // No name in the vendor's language: the buyer's words when they are the stock name's;
  // words of another language go beside the stock name, which the vendor stocks it under.
  return names(asked, product.name) ? item : `${product.name} (“${item}”)`;
}
