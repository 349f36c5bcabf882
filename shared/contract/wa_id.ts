/**
 * Phone numbers ↔ WhatsApp ids. A `wa_id` is the international number as
 * digits only (`250788123456`): what webhooks carry in `from` and what the
 * Graph API takes as `to`.
 *
 * @module
 */

const WA_ID = /^[1-9][0-9]{5,14}$/;

/**
 * Whether `value` is a wa_id: 6 to 15 digits, not starting with 0.
 *
 * @param value Anything.
 * @returns True for a digits-only international number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isWaId } from "./wa_id.ts";
 *
 * assert.equal(isWaId("250788123456"), true);
 * assert.equal(isWaId("+250788123456"), false);
 * ```
 */
export function isWaId(value: unknown): value is string {
  return typeof value === "string" && WA_ID.test(value);
}

/**
 * Normalises a phone number to a wa_id. Accepts international numbers with
 * or without `+` or `00` (spaces, dots, dashes and brackets are ignored) and
 * Rwandan local numbers (`07XXXXXXXX` → `2507XXXXXXXX`, and the common
 * `+250 07…` slip). Other local numbers (a leading 0) are rejected: their
 * country is unknown.
 *
 * @param phone The number as a person or a form wrote it.
 * @returns The digits-only wa_id.
 * @throws {TypeError} When the number cannot be read as an international number.
 *
 * @example The three usual forms
 * ```ts
 * import assert from "node:assert/strict";
 * import { toWaId } from "./wa_id.ts";
 *
 * assert.equal(toWaId("+250788123456"), "250788123456");
 * assert.equal(toWaId("250788123456"), "250788123456");
 * assert.equal(toWaId("0788 123 456"), "250788123456");
 * ```
 */
export function toWaId(phone: string): string {
  if (typeof phone !== "string") {
    throw new TypeError(
      `Cannot read the phone number as it must be a string: current value is ${
        JSON.stringify(phone)
      }`,
    );
  }
  const compact = phone.trim().replace(/[\s().\-\u00a0]/g, "");
  let digits: string;
  if (compact.startsWith("+")) digits = compact.slice(1);
  else if (compact.startsWith("00")) digits = compact.slice(2);
  else if (/^07[0-9]{8}$/.test(compact)) digits = `250${compact.slice(1)}`;
  else digits = compact;
  // "+250 0788…": the trunk 0 kept after the country code.
  if (/^25007[0-9]{8}$/.test(digits)) digits = `250${digits.slice(4)}`;
  if (!WA_ID.test(digits)) {
    throw new TypeError(
      `Cannot read the phone number as it must be international (+250788123456) or Rwandan ` +
        `local (0788123456): current value is ${JSON.stringify(phone)}`,
    );
  }
  return digits;
}

/**
 * Writes a wa_id in E.164 form.
 *
 * @param waId A wa_id (digits only).
 * @returns `+` followed by the digits.
 * @throws {TypeError} When `waId` is not a wa_id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toE164 } from "./wa_id.ts";
 *
 * assert.equal(toE164("250788123456"), "+250788123456");
 * ```
 */
export function toE164(waId: string): string {
  if (!isWaId(waId)) {
    throw new TypeError(
      `Cannot write the wa_id as E.164 as it must be 6 to 15 digits: current value is ${
        JSON.stringify(waId)
      }`,
    );
  }
  return `+${waId}`;
}
