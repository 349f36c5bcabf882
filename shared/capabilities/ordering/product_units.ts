/**
 * How a product's selling unit (`public.products.unit`: "glass", "plate",
 * "pack"…) is written beside its price, in the reader's language: a
 * Kinyarwanda menu says "2,000 RWF / ikirahuri", a French one "2 000 RWF /
 * verre", never "/ glass".
 *
 * Venues type their units in English; a unit this table does not know is
 * shown as typed to English readers and left out for rw and fr readers (the
 * price alone reads correctly; an English word would not). Add a unit here
 * when a venue starts using it; `product_units_test.ts` holds every unit in
 * `supabase/seed.sql` to a translation.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** Every unit we translate, by its stored (English) name. */
export const PRODUCT_UNITS: Readonly<Record<string, Readonly<Record<"rw" | "fr", string>>>> = {
  bag: { rw: "umufuka", fr: "sac" },
  bar: { rw: "igice", fr: "barre" },
  bottle: { rw: "icupa", fr: "bouteille" },
  box: { rw: "agakarito", fr: "boîte" },
  bucket: { rw: "indobo", fr: "seau" },
  cup: { rw: "igikombe", fr: "tasse" },
  glass: { rw: "ikirahuri", fr: "verre" },
  kg: { rw: "kilo", fr: "kg" },
  loaf: { rw: "umugati", fr: "pain" },
  pack: { rw: "ipaki", fr: "paquet" },
  piece: { rw: "igice", fr: "pièce" },
  plate: { rw: "isahani", fr: "assiette" },
  ream: { rw: "ipaki", fr: "rame" },
  sachet: { rw: "isashe", fr: "sachet" },
  sheet: { rw: "urupapuro", fr: "feuille" },
  stick: { rw: "agati", fr: "pique" },
  tin: { rw: "umukebe", fr: "boîte" },
  tube: { rw: "agacupa", fr: "tube" },
  unit: { rw: "kimwe", fr: "unité" },
};

/**
 * A product's unit in `language`, or `undefined` when there is nothing to
 * show: no unit, or (in rw and fr) a unit with no translation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { productUnit } from "@shared/capabilities/ordering/product_units.ts";
 * assert.equal(productUnit("glass", "rw"), "ikirahuri");
 * assert.equal(productUnit("Glass", "fr"), "verre");
 * assert.equal(productUnit("crate", "en"), "crate");
 * assert.equal(productUnit("crate", "fr"), undefined);
 * ```
 */
export function productUnit(
  unit: string | null | undefined,
  language: Language,
): string | undefined {
  const typed = unit?.trim();
  if (!typed) return undefined;
  if (language === "en") return typed;
  return PRODUCT_UNITS[typed.toLowerCase()]?.[language];
}
