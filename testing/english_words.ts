/**
 * English words a Kinyarwanda or French reply must not carry: units, roles
 * and the glue words code tends to build sentences with, plus English
 * weekday and month abbreviations (case-sensitive, as French writes
 * "mar." and "nov." in lower case). Venue and product names are names and
 * are not checked; none in the seed holds one of these words.
 *
 * @module
 */

const WORDS =
  /(?<!\p{L})(glass|plate|bottle|piece|cup|stick|vendors?|drivers?|riders?|ride|order|pay|payment|price|the|and|your|please|free|from)(?!\p{L})/giu;
const CALENDAR =
  /(?<!\p{L})(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)(?!\p{L})/gu;

/**
 * The English words `text` holds, in order. Placeholders (`{x}`), links and
 * reference codes (`PAY-FX2DW8`, `A-1001`) are not words a person reads.
 */
export function englishWords(text: string): string[] {
  const read = text.replace(/\{\w+\}/g, "").replace(/https?:\S+|tel:\S+/g, "")
    .replace(/\b[A-Z]{1,5}-[0-9A-Z]{4,}\b/g, "");
  return [...read.matchAll(WORDS), ...read.matchAll(CALENDAR)].map((match) => match[1]);
}
