/**
 * MTN MoMo USSD push strings and the `tel:` links that dial them, plus the
 * Rwandan mobile-money phone rule. A link is not a payment: settlement comes
 * from a callback, a forwarded confirmation SMS or a person confirming.
 *
 * - MoMoPay merchant: `*182*8*1*<merchant_code>*<amount>#`
 * - send to a phone: `*182*1*1*<07XXXXXXXX>*<amount>#`
 *
 * In a `tel:` URI `#` is the fragment delimiter, so it is written `%23`; `*`
 * is kept. iOS refuses to dial such links, so the plain code is always given
 * too, for copying.
 *
 * @module
 */
import { e164Phone } from "@shared/contract/validators.ts";

/** Which network a Rwandan mobile number's prefix suggests (portability makes it a hint). */
export type MomoNetwork = "mtn" | "airtel" | "unknown";

/** A Rwandan mobile-money number, normalised. */
export interface MomoPhone {
  /** `+2507XXXXXXXX`. */
  e164: string;
  /** `07XXXXXXXX`, as USSD codes and people write it. */
  local: string;
  /** The network the prefix suggests: 078/079 MTN, 072/073 Airtel. */
  network: MomoNetwork;
}

const rwandanMobile = e164Phone({ rwandanMobile: true });

/**
 * Reads a Rwandan mobile number written `+2507…`, `2507…` or `07…` (spaces
 * and dashes allowed), or null when it is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMomoPhone } from "./ussd.ts";
 *
 * assert.deepEqual(parseMomoPhone("0788 123 456"), {
 *   e164: "+250788123456", local: "0788123456", network: "mtn",
 * });
 * assert.equal(parseMomoPhone("+14155550100"), null);
 * ```
 */
export function parseMomoPhone(phone: string): MomoPhone | null {
  const parsed = rwandanMobile.safeParse(phone);
  if (!parsed.success) return null;
  const e164 = parsed.data;
  const local = `0${e164.slice(4)}`;
  const prefix = local.slice(0, 3);
  const network: MomoNetwork = prefix === "078" || prefix === "079"
    ? "mtn"
    : prefix === "072" || prefix === "073"
    ? "airtel"
    : "unknown";
  return { e164, local, network };
}

/** Who is paid. */
export type MomoPayee =
  | { kind: "merchant"; merchantCode: string }
  | { kind: "phone"; phone: string };

/** Options for {@link momoUssd}. */
export interface MomoUssdOptions {
  /** Who receives the money. */
  payee: MomoPayee;
  /** Whole RWF, above zero. */
  amount: number;
}

/** A USSD code in the forms a chat needs. */
export interface MomoUssd {
  /** The code as typed on the phone, e.g. `*182*8*1*123456*5000#`. */
  code: string;
  /** The `tel:` link, `#` written `%23`, e.g. `tel:*182*8*1*123456*5000%23`. */
  telLink: string;
}

const MERCHANT_CODE = /^[0-9]{4,10}$/;
const MAX_AMOUNT = 10_000_000;

/**
 * Builds the USSD code and `tel:` link that pay `amount` RWF to a MoMoPay
 * merchant or a phone.
 *
 * @throws {RangeError} When the amount is not a whole number of francs from 1
 *   to 10,000,000, the merchant code is not 4–10 digits, or the phone is not a
 *   Rwandan mobile: callers validate input first, so this is a programming error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { momoUssd } from "./ussd.ts";
 *
 * assert.deepEqual(momoUssd({ payee: { kind: "merchant", merchantCode: "123456" }, amount: 5000 }), {
 *   code: "*182*8*1*123456*5000#",
 *   telLink: "tel:*182*8*1*123456*5000%23",
 * });
 * assert.equal(
 *   momoUssd({ payee: { kind: "phone", phone: "+250788123456" }, amount: 1500 }).code,
 *   "*182*1*1*0788123456*1500#",
 * );
 * ```
 */
export function momoUssd(options: MomoUssdOptions): MomoUssd {
  const { payee, amount } = options;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT) {
    throw new RangeError(
      `Cannot build a MoMo code as amount must be whole RWF from 1 to ${MAX_AMOUNT}: current value is ${amount}`,
    );
  }
  let code: string;
  if (payee.kind === "merchant") {
    if (!MERCHANT_CODE.test(payee.merchantCode)) {
      throw new RangeError(
        `Cannot build a MoMo code as the merchant code must be 4 to 10 digits: current value is ${
          JSON.stringify(payee.merchantCode)
        }`,
      );
    }
    code = `*182*8*1*${payee.merchantCode}*${amount}#`;
  } else {
    const phone = parseMomoPhone(payee.phone);
    if (!phone) {
      throw new RangeError(
        `Cannot build a MoMo code as the payee must be a Rwandan mobile: current value is ${
          JSON.stringify(payee.phone)
        }`,
      );
    }
    code = `*182*1*1*${phone.local}*${amount}#`;
  }
  return { code, telLink: `tel:${code.replaceAll("#", "%23")}` };
}
