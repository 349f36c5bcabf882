/**
 * Several items asked for in one message, each with its quantity, read against one place's whole
 * stock: "40 reams of A4 and 10 boxes of envelopes, can you deliver?", « 20 rames de papier A4 et
 * 5 paquets de papier cartonné », "impapuro A4 ipaki 40 na amabahasha 10". A part with no
 * quantity ("can you deliver?") is no item; a product is matched by its name in any language it
 * is named in, and the unit a part names ("reams", « boîtes », "ipaki") picks between products
 * its words fit equally (A4 paper by the ream, not the box of five reams).
 *
 * @module
 */
import { type Language, LANGUAGES } from "@shared/contract/language.ts";
import { nameScore, normalizeWords } from "./order_lines.ts";
import { PRODUCT_UNITS } from "./product_units.ts";

/** A product of the place, with every name it has. */
export interface NamedProduct {
  /** The place's internal code. */
  sku: string;
  /** Its name (the stored, English one). */
  name: string;
  /** Its names per language, when it has them. */
  names?: Partial<Record<Language, string>> | Record<string, unknown> | null;
  /** Its selling unit ("ream", "box"). */
  unit?: string | null;
}

/** What a message listing several items asked for. */
export interface ItemList<T extends NamedProduct> {
  /** The items understood, in the order asked (a product asked twice adds up). */
  lines: Array<{ product: T; qty: number }>;
  /** The parts with a quantity that name no product of the place (or two equally), as written. */
  unknown: string[];
}

// Parts split on commas, semicolons, "+", new lines and "and" in en/rw/fr.
const SEPARATORS = /\s*(?:[,;+\n]|\band\b|\bna\b|\bet\b|\bn['’])\s*/i;

// A number standing alone: never part of a name or a size ("A4", "C5", "200gsm").
const QUANTITY = /(?<![\p{L}\p{N}.,:])(\d{1,4})(?![\p{L}\p{N}]|[.,:]\d)/u;

// How people also write a unit: a box of paper is a carton, a ream « une rame », "ipaki".
const MORE_UNIT_WORDS: Readonly<Record<string, readonly string[]>> = {
  ream: ["rame", "ipaki", "amapaki"],
  box: ["boite", "carton", "ikarito", "amakarito", "udukarito"],
  pack: ["paquet", "amapaki"],
};

// Words that say how many of what, not which product, with the unit they name.
const UNIT_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries(PRODUCT_UNITS).flatMap(([unit, names]) =>
    [unit, names.rw, names.fr, ...(MORE_UNIT_WORDS[unit] ?? [])]
      .flatMap((word) => normalizeWords(word))
      .flatMap((word) => [word, `${word}s`, `${word}x`, `${word}es`])
      .map((word) => [word, unit] as const)
  ),
);

/** Whether `word` (normalised) names a selling unit in en/rw/fr ("reams", « rames », "ipaki"). */
export function isUnitWord(word: string): boolean {
  return UNIT_WORDS.has(word);
}

/**
 * The items a message lists, each with its quantity, or null when it lists fewer than
 * `minItems` (two by default: one item is read by the single-item search).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readItemList } from "./order_items.ts";
 * const stock = [
 *   { sku: "A4-500", name: "A4 paper (500 sheets)", unit: "ream" },
 *   { sku: "A4-BOX-5", name: "A4 printer paper box (5 reams)", unit: "box" },
 *   { sku: "ENV-C5-50", name: "C5 envelopes (50)", unit: "box" },
 * ];
 * const asked = readItemList("40 reams of A4 and 10 boxes of envelopes, can you deliver?", stock);
 * assert.deepEqual(asked?.lines.map((l) => [l.product.sku, l.qty]), [["A4-500", 40], ["ENV-C5-50", 10]]);
 * ```
 */
export function readItemList<T extends NamedProduct>(
  text: string,
  stock: readonly T[],
  options: { minItems?: number } = {},
): ItemList<T> | null {
  const lines: ItemList<T>["lines"] = [];
  const unknown: string[] = [];
  let parts = 0;
  for (const raw of text.split(SEPARATORS)) {
    const part = raw.trim();
    const found = QUANTITY.exec(part);
    if (!found) continue;
    const qty = Number(found[1]);
    // The item is named after its quantity ("50 reams of A4 for our school"), or before it
    // ("impapuro A4 ipaki 20"), up to a word that says for whom or where.
    const after = phrase(normalizeWords(part.slice(found.index + found[0].length)));
    const before = phrase(normalizeWords(part.slice(0, found.index)).reverse()).reverse();
    const units = new Set([...after, ...before].flatMap((word) => UNIT_WORDS.get(word) ?? []));
    const named = (words: string[]) => words.filter((word) => !UNIT_WORDS.has(word)).join(" ");
    if (qty < 1 || (!named(after) && !named(before))) continue;
    parts++;
    const product = (named(after) ? bestNamed(named(after), units, stock) : null) ??
      (named(before) ? bestNamed(named(before), units, stock) : null);
    if (!product) {
      unknown.push(part);
      continue;
    }
    const same = lines.find((line) => line.product.sku === product.sku);
    if (same) same.qty += qty;
    else lines.push({ product, qty });
  }
  return parts >= (options.minItems ?? 2) ? { lines, unknown } : null;
}

// Words that end an item's name: for whom, where, when, or a request's opening.
const NAME_ENDS = new Set(
  ("for pour to a au aux ku kuri i delivered deliver livre livres livrer livraison by par " +
    "before avant please svp stp ndashaka nshaka nkeneye need want voudrais veux would like " +
    "proforma devis quotation quote facture i je can pouvez mufite have avez").split(" "),
);

// The first words of `words` up to one that ends an item's name (at most five).
function phrase(words: string[]): string[] {
  const end = words.findIndex((word) => NAME_ENDS.has(word));
  return (end === -1 ? words : words.slice(0, end)).slice(0, 5);
}

// The product `asked` names best by any of its names, the unit asked breaking a tie; null when
// none fits or two fit equally.
function bestNamed<T extends NamedProduct>(
  asked: string,
  units: ReadonlySet<string>,
  stock: readonly T[],
): T | null {
  let best: T | null = null;
  let top = 0;
  let tie = false;
  for (const product of stock) {
    const score = Math.max(...namesOf(product).map((name) => nameScore(asked, name)));
    if (score === 0) continue;
    const scored = score + (product.unit && units.has(product.unit.toLowerCase()) ? 0.01 : 0);
    if (scored > top) [best, top, tie] = [product, scored, false];
    else if (scored === top) tie = true;
  }
  return tie ? null : best;
}

function namesOf(product: NamedProduct): string[] {
  const names = product.names ?? {};
  return [
    product.name,
    ...LANGUAGES.map((language) => (names as Record<string, unknown>)[language])
      .filter((name): name is string => typeof name === "string"),
  ];
}
