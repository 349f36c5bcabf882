/**
 * A buyer's taxpayer identification number (TIN) as Rwandan schools and businesses write it on
 * a proforma or an invoice: 9 digits, often grouped ("102 345 678") or labelled ("TIN: …",
 * « NIF … », "nomero ya TIN …"). Read from the words a customer sends with their organisation's
 * name ("GS Kacyiru, TIN 102345678"), so the name and the number are kept apart.
 *
 * @module
 */
import { z } from "zod";

/** A TIN: exactly 9 digits. */
export const TIN_PATTERN = /^[0-9]{9}$/;

/** A TIN field: 9 digits; spaces, dots and dashes between groups are dropped. */
export function tin(): z.ZodType<string> {
  return z.preprocess(
    (value) => typeof value === "string" ? value.replace(/[\s.-]/g, "") : value,
    z.string().regex(TIN_PATTERN, "must be a TIN of 9 digits"),
  );
}

/** A name with the TIN written beside it, or what is wrong with the number. */
export type NameWithTin =
  | { ok: true; name: string; tin?: string }
  | { ok: false; digits: string };

// "TIN", "NIF", "tin no.", "TIN number", "nomero ya TIN", followed by the digits.
const LABEL =
  /(?:\b(?:nomero|numero|num[eé]ro|number|no\.?)\s+(?:ya\s+)?)?\b(?:tin|nif)\b\s*(?:no\.?|number|num[eé]ro|n°|#)?\s*[:=-]?\s*/i;
// Digits in groups (spaces, dots, dashes between them), at least 5 in all.
const DIGITS = /\d(?:[\s.-]?\d){4,}/;

/**
 * Splits a name and the TIN written with it: digits labelled as a TIN ("TIN", "NIF"), or an
 * unlabelled run of exactly 9. Labelled digits of any other count are refused with what was
 * read; a name without a TIN (other digits included) is returned whole.
 *
 * @example
 * ```ts
 * import { nameWithTin } from "@shared/contract/tax_id.ts";
 * nameWithTin("GS Kacyiru, TIN 102 345 678"); // { ok: true, name: "GS Kacyiru", tin: "102345678" }
 * nameWithTin("GS Kacyiru TIN 12345"); // { ok: false, digits: "12345" }
 * ```
 */
export function nameWithTin(text: string): NameWithTin {
  const labelled = new RegExp(LABEL.source + "(" + DIGITS.source + ")", "i").exec(text);
  const found = labelled ?? DIGITS.exec(text);
  if (!found) return { ok: true, name: tidy(text) };
  const digits = (labelled ? labelled[1] : found[0]).replace(/\D/g, "");
  if (!TIN_PATTERN.test(digits)) {
    return labelled ? { ok: false, digits } : { ok: true, name: tidy(text) };
  }
  const name = tidy(text.slice(0, found.index) + " " + text.slice(found.index + found[0].length));
  return { ok: true, name, tin: digits };
}

function tidy(text: string): string {
  return text.replace(/\s+/g, " ").replace(/^[\s,;:(\-–]+|[\s,;:(\-–]+$/g, "").replace(
    /\(\s*\)/g,
    "",
  )
    .trim();
}
