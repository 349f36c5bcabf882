/**
 * Reads the confirmation SMS a merchant's mobile-money number receives (MTN
 * MoMo and Airtel Money, in English, French and Kinyarwanda) and matches it
 * to one open charge. USSD payments have no API: for small merchants this
 * text, forwarded by an SMS app, is the only evidence a payment arrived.
 *
 * The parser reads fields, not whole templates, so small wording changes do
 * not break it; anything it cannot read is `null` and goes to staff. A match
 * is made only when exactly one open charge fits, by reference first, then by
 * amount and payer; otherwise the SMS waits for staff and never settles by
 * itself.
 *
 * @module
 */

/** The network that sent the SMS, when it can be told. */
export type SmsProvider = "mtn" | "airtel";

/** The payer's number as the SMS shows it, often partly masked. */
export interface SmsPayerPhone {
  /** As written, e.g. `2507******12` or `0731234567`. */
  raw: string;
  /** `+2507XXXXXXXX` when no digit is masked. */
  e164: string | null;
  /** Digits before the first masked one, as an international number (`2507…`). */
  leading: string;
  /** Digits after the last masked one (all digits when unmasked). */
  trailing: string;
}

/** What a confirmation SMS says. */
export interface ParsedMomoSms {
  /** Network, from the wording or the sender hint. */
  provider: SmsProvider | null;
  /** Whole RWF received. */
  amount: number;
  /** The payer's number, when shown. */
  payerPhone: SmsPayerPhone | null;
  /** The payer's name, when shown. */
  payerName: string | null;
  /** The provider's transaction id. */
  transactionId: string | null;
  /** The sender's message or reference (where customers type the momo_ref). */
  reference: string | null;
  /** When, as an ISO instant (the SMS gives Kigali time, UTC+2). */
  at: string | null;
}

// Text before the amount says money came in (not sent, not withdrawn).
const RECEIVED = String.raw`(?:received|re[çc]u|wakiriye|mwakiriye)`;
const CURRENCY = String.raw`(?:RWF|Rwf|rwf|FRW|Frw|frw)`;
const NUMBER = String.raw`([0-9](?:[0-9]|[,.\u00a0\u202f ](?=[0-9]))*)`;
const AMOUNT_AFTER = new RegExp(`${RECEIVED}\\s*:?\\s*${CURRENCY}\\s*${NUMBER}`, "i");
const AMOUNT_BEFORE = new RegExp(`${RECEIVED}\\s*:?\\s*${NUMBER}\\s*${CURRENCY}`, "i");
// Masks vary in length (`2507******12`, `25078*****45`): only a full number has 8 digits after the 7.
const PHONE = /(?:^|[^0-9*xX])((?:\+?250|0)7[0-9*xX]{6,10}|\*{3,}[0-9]{2,4})(?![0-9*xX])/;
const TXN = new RegExp(
  String.raw`(?:Financial\s+Transaction\s+Id|Transaction\s+Id|Trans(?:action)?\.?\s*ID|TxId|` +
    String.raw`ID\s+de\s+(?:la\s+)?transaction(?:\s+financi[èe]re)?|` +
    String
      .raw`Nimero\s+y['’]igikorwa|Nomero\s+y['’]igikorwa)\s*[:：]?\s*([A-Za-z0-9][A-Za-z0-9.\-]{3,63})`,
  "i",
);
const REFERENCE = new RegExp(
  String.raw`(?:Message\s+from\s+sender|Message\s+de\s+l['’]exp[ée]diteur|` +
    String.raw`Ubutumwa\s+bw['’]uwohereje|Reference|R[ée]f[ée]rence|Ref)\s*[:：]\s*` +
    String.raw`(.*?)(?=\.\s|\.?$|\n)`,
  "i",
);
const NAME_MTN = /(?:from|de|kuri)\s+([A-Za-zÀ-ÿ'’. -]{2,80}?)\s*\(/i;
const NAME_AIRTEL =
  /(?:from|de|kuva\s+kuri)\s+(?:\+?250|0)7[0-9]{8}\s+([A-Za-zÀ-ÿ'’ -]{2,80}?)\s*[.,]/i;
const ISO_TIME = /(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/;
const DMY_TIME = /(\d{2})\/(\d{2})\/(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?/;
// Anything longer is not an SMS (a forwarder bug or an attack): not read.
const MAX_SMS = 2000;

/** Options for {@link parseMomoSms}. */
export interface ParseSmsOptions {
  /** The SMS sender as the phone showed it (`M-Money`, `AirtelMoney`), a hint for the provider. */
  sender?: string;
}

/**
 * Reads a mobile-money confirmation SMS; null when it is not a receipt of
 * money or its amount cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMomoSms } from "./momo_sms.ts";
 *
 * const sms = parseMomoSms(
 *   "You have received 5,000 RWF from JOHN DOE (2507******12) on your mobile money account " +
 *     "at 2026-11-23 10:15:01. Message from sender: PAY-7K3QX. Your new balance: 25,000 RWF. " +
 *     "Financial Transaction Id: 1234567890.",
 * );
 * assert.equal(sms?.amount, 5000);
 * assert.equal(sms?.reference, "PAY-7K3QX");
 * assert.equal(sms?.transactionId, "1234567890");
 * assert.equal(sms?.at, "2026-11-23T08:15:01.000Z");
 * ```
 */
export function parseMomoSms(text: string, options: ParseSmsOptions = {}): ParsedMomoSms | null {
  if (typeof text !== "string" || text.length === 0 || text.length > MAX_SMS) return null;
  const flat = text.replace(/\s+/g, " ").trim();
  const amountMatch = AMOUNT_AFTER.exec(flat) ?? AMOUNT_BEFORE.exec(flat);
  if (!amountMatch) return null;
  const amount = readAmount(amountMatch[1]);
  if (amount === null) return null;
  // Only what follows the amount describes this payment (not e.g. a greeting).
  const rest = flat.slice(amountMatch.index);
  return {
    provider: readProvider(flat, options.sender),
    amount,
    payerPhone: readPhone(rest),
    payerName: (NAME_MTN.exec(rest)?.[1] ?? NAME_AIRTEL.exec(rest)?.[1])?.trim() || null,
    transactionId: TXN.exec(rest)?.[1].replace(/[.\-]+$/, "") ?? null,
    reference: REFERENCE.exec(rest)?.[1].trim() || null,
    at: readTime(rest),
  };
}

function readAmount(written: string): number | null {
  let digits = written.replace(/[\u00a0\u202f ]/g, "");
  // "5,000.00" / "5 000,00": a decimal part, which must be zero for RWF.
  const decimals = /[.,]([0-9]{1,2})$/.exec(digits);
  if (decimals) {
    if (Number(decimals[1]) !== 0) return null;
    digits = digits.slice(0, decimals.index);
  }
  digits = digits.replace(/[.,]/g, "");
  if (!/^[0-9]{1,9}$/.test(digits)) return null;
  const amount = Number(digits);
  return amount > 0 ? amount : null;
}

function readProvider(text: string, sender: string | undefined): SmsProvider | null {
  const hint = `${sender ?? ""} ${text}`;
  if (/airtel/i.test(hint) || /Trans\.?\s*ID\s*:?\s*[A-Z]{2}[0-9]/i.test(text)) return "airtel";
  if (/\bMTN\b|M-?Money|MoMo|mobile money|Financial Transaction Id/i.test(hint)) return "mtn";
  return null;
}

function readPhone(text: string): SmsPayerPhone | null {
  const raw = PHONE.exec(text)?.[1];
  if (!raw) return null;
  let international = raw.replace(/^\+/, "");
  if (international.startsWith("07")) international = `250${international.slice(1)}`;
  const masked = /[*xX]/.test(international);
  const leading = masked ? /^[0-9]*/.exec(international)![0] : international;
  const trailing = masked ? /[0-9]*$/.exec(international)![0] : international;
  return {
    raw,
    e164: masked || !/^2507[0-9]{8}$/.test(international) ? null : `+${international}`,
    leading: /^2507/.test(leading) ? leading : "",
    trailing,
  };
}

function readTime(text: string): string | null {
  let parts: string[] | undefined;
  const iso = ISO_TIME.exec(text);
  if (iso) parts = [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6] ?? "00"];
  const dmy = iso ? null : DMY_TIME.exec(text);
  if (dmy) parts = [dmy[3], dmy[2], dmy[1], dmy[4], dmy[5], dmy[6] ?? "00"];
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts.map(Number);
  // Kigali is UTC+2 all year.
  const ms = Date.UTC(y, mo - 1, d, h - 2, mi, s);
  const check = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (
    Number.isNaN(ms) || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d ||
    h > 23 || mi > 59 || s > 59
  ) return null;
  return new Date(ms).toISOString();
}

/** An open (pending, unexpired) charge an SMS may settle. */
export interface OpenCharge {
  /** The payment row id. */
  id: string;
  /** The reference the payer was asked to type. */
  momoRef: string;
  /** Whole RWF. */
  amount: number;
  /** The payer's number, `+2507XXXXXXXX`. */
  payerPhone: string;
}

/** The outcome of {@link matchCharge}. */
export type ChargeMatch =
  | { kind: "matched"; charge: OpenCharge; by: "reference" | "amount_and_payer" }
  | { kind: "ambiguous"; candidates: OpenCharge[] }
  | { kind: "none"; reason: "amount_mismatch" | "no_candidate" | "payer_unknown" };

/**
 * Finds the one open charge an SMS pays: by a momo_ref in the reference
 * (with the same amount), else by the amount and the payer's (possibly
 * masked) number. More than one candidate is `ambiguous`; an SMS without a
 * reference or readable payer never matches on the amount alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchCharge, parseMomoSms } from "./momo_sms.ts";
 *
 * const sms = parseMomoSms("You have received RWF 5000 from 0731234567 ALICE. Ref: PAY-7K3QX. Trans ID: PP2611.1234.A00001.")!;
 * const open = [{ id: "p1", momoRef: "PAY-7K3QX", amount: 5000, payerPhone: "+250731234567" }];
 * assert.equal(matchCharge(sms, open).kind, "matched");
 * ```
 */
export function matchCharge(
  parsed: ParsedMomoSms,
  openCharges: readonly OpenCharge[],
): ChargeMatch {
  const reference = normaliseRef(parsed.reference ?? "");
  if (reference) {
    const byRef = openCharges.filter((charge) => refPattern(charge.momoRef).test(reference));
    if (byRef.length > 1) return { kind: "ambiguous", candidates: byRef };
    if (byRef.length === 1) {
      return byRef[0].amount === parsed.amount
        ? { kind: "matched", charge: byRef[0], by: "reference" }
        : { kind: "none", reason: "amount_mismatch" };
    }
  }
  const phone = parsed.payerPhone;
  if (!phone || phone.trailing.length < 2) return { kind: "none", reason: "payer_unknown" };
  const candidates = openCharges.filter((charge) => {
    const digits = charge.payerPhone.replace(/^\+/, "");
    return charge.amount === parsed.amount && digits.startsWith(phone.leading) &&
      digits.endsWith(phone.trailing);
  });
  if (candidates.length === 1) {
    return { kind: "matched", charge: candidates[0], by: "amount_and_payer" };
  }
  if (candidates.length > 1) return { kind: "ambiguous", candidates };
  return { kind: "none", reason: "no_candidate" };
}

function normaliseRef(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9-]+/g, " ");
}

function refPattern(momoRef: string): RegExp {
  const escaped = normaliseRef(momoRef).trim().replace(/[-]/g, "-?");
  return new RegExp(`(?:^|[^A-Z0-9])${escaped}(?![A-Z0-9])`);
}
