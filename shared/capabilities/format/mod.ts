/**
 * How numbers, money and dates are written to people, one way per language,
 * a capability every pack and document shares: `formatMoney` is the one money
 * format ("26,000 RWF" in en and rw, "26 000 RWF" in fr, in the tenant's
 * currency), `formatMoneyRange` the one range of amounts ("1,500–2,000 RWF"),
 * `formatKigaliDate`
 * and `formatKigaliTime` the one way a reply names a day and a time, and
 * `formatLongDate` the same day written in full on a document.
 *
 * It sits above the kernel because it names a currency and a time zone; the
 * kernel names neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRwf } from "@shared/capabilities/format/mod.ts";
 *
 * assert.equal(formatRwf(26000, "en"), "26,000 RWF");
 * assert.equal(formatRwf(26000, "fr"), "26 000 RWF");
 * ```
 *
 * @module
 */
export {
  type AmountRange,
  DEFAULT_CURRENCY,
  formatKigaliDate,
  formatKigaliTime,
  formatMoney,
  formatMoneyRange,
  formatNumber,
  formatNumberRange,
  formatRwf,
  type KigaliDateOptions,
  KINYARWANDA_MONTHS,
  type MoneyOptions,
} from "./format.ts";
export { formatLongDate, instantOf } from "./document_date.ts";
