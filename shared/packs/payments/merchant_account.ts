/**
 * A tenant's own MoMo merchant account (`orgs.momo_merchant_code` or
 * `orgs.momo_merchant_phone`): who is paid when a `momo_charge` names no
 * order, ride or payee, as the tool catalog's own call does. A tenant is data, so
 * the account lives on the tenant's row, not in the process environment.
 *
 * The columns' check constraints hold the same rules; {@link
 * checkMerchantAccounts} reads every tenant's account again at start, so a
 * database those constraints never reached stops the start naming the
 * tenant and the column instead of failing a customer's payment.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import { type MomoPayee, parseMomoPhone } from "./ussd.ts";

/** A tenant's account, as stored. */
export interface MerchantAccountRow {
  /** The org's slug, for messages. */
  slug: string;
  /** `orgs.momo_merchant_code`. */
  momo_merchant_code: string | null;
  /** `orgs.momo_merchant_phone`. */
  momo_merchant_phone: string | null;
}

const MERCHANT_CODE = /^[0-9]{4,10}$/;

/**
 * The payee a tenant's account pays, or null when it has none.
 *
 * A merchant code is 4 to 10 digits (MoMoPay codes are 5 or 6 today); a
 * number is a Rwandan MTN (078/079) or Airtel (072/073) mobile, written
 * `+2507…`, `2507…` or `07…`, and comes back as E.164.
 *
 * @throws {RangeError} naming the tenant and the column when a value is not
 *   one of those, or when both are set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { merchantPayee } from "./merchant_account.ts";
 *
 * assert.deepEqual(
 *   merchantPayee({ slug: "easymo", momo_merchant_code: "300400", momo_merchant_phone: null }),
 *   { kind: "merchant", merchantCode: "300400" },
 * );
 * assert.deepEqual(
 *   merchantPayee({ slug: "beaver", momo_merchant_code: null, momo_merchant_phone: "0788300500" }),
 *   { kind: "phone", phone: "+250788300500" },
 * );
 * assert.throws(
 *   () => merchantPayee({ slug: "beaver", momo_merchant_code: "12-34", momo_merchant_phone: null }),
 *   /tenant "beaver".*orgs\.momo_merchant_code/,
 * );
 * ```
 */
export function merchantPayee(row: MerchantAccountRow): MomoPayee | null {
  const code = row.momo_merchant_code;
  const phone = row.momo_merchant_phone;
  const refuse = (column: string, rule: string, value: string) =>
    new RangeError(
      `Cannot use the MoMo merchant account of tenant "${row.slug}" as orgs.${column} must be ${rule}: current value is ${
        JSON.stringify(value)
      }`,
    );
  if (code !== null && phone !== null) {
    throw refuse(
      "momo_merchant_phone",
      "empty when orgs.momo_merchant_code is set (one account, not two)",
      phone,
    );
  }
  if (code !== null) {
    if (!MERCHANT_CODE.test(code)) {
      throw refuse("momo_merchant_code", "a MoMoPay merchant code of 4 to 10 digits", code);
    }
    return { kind: "merchant", merchantCode: code };
  }
  if (phone !== null) {
    const parsed = parseMomoPhone(phone);
    if (!parsed || parsed.network === "unknown") {
      throw refuse(
        "momo_merchant_phone",
        "a Rwandan MTN or Airtel number like +250788123456",
        phone,
      );
    }
    return { kind: "phone", phone: parsed.e164 };
  }
  return null;
}

/**
 * Reads every tenant's account as the connecting role (the root's, at
 * start) and checks it with {@link merchantPayee}.
 *
 * @returns The slugs of tenants with no account, whose charges must name who is paid.
 * @throws {RangeError} for the first tenant whose account does not hold.
 */
export async function checkMerchantAccounts(db: Queryable): Promise<string[]> {
  const rows = await db.query<MerchantAccountRow>(
    "select slug, momo_merchant_code, momo_merchant_phone from public.orgs order by slug",
  );
  return rows.filter((row) => merchantPayee(row) === null).map((row) => row.slug);
}
