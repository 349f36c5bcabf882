/**
 * Staff confirm a payment by its reference from the Admin Inbox (a payment
 * ticket's "Confirm payment"): `private.confirm_payment_manually(ref,
 * 'staff')` runs as the staff member, so the database checks they are staff
 * of the charge's org and records who confirmed; then the payer and the
 * payee are told, once, as for any other settlement.
 *
 * @module
 */
import type { JwtClaims, Queryable } from "@shared/db/types.ts";
import { ToolFailure } from "@shared/contract/mod.ts";
import { lockCharge, notifyParties } from "@shared/platform/payments.ts";
import { whatsappMessaging } from "@shared/channels/whatsapp/messaging.ts";

/** What a confirmation answers. */
export interface ConfirmedPayment {
  momo_ref: string;
  status: string;
}

const REF = /^[A-Z0-9][A-Z0-9-]{3,31}$/;

/**
 * Confirms `momoRef` as the staff member of `claims`.
 *
 * @throws {ToolFailure} NOT_FOUND for a malformed reference; the database's
 *   errors otherwise (another org's charge: 42501, unknown: P0002).
 */
export async function confirmPaymentAsStaff(
  db: {
    asCaller<T>(claims: JwtClaims, fn: (tx: Queryable) => Promise<T>): Promise<T>;
    asService<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  },
  claims: JwtClaims,
  momoRef: string,
): Promise<ConfirmedPayment> {
  const ref = momoRef.trim().toUpperCase();
  if (!REF.test(ref)) throw new ToolFailure("NOT_FOUND", "No such payment");
  const [row] = await db.asCaller(claims, (tx) =>
    tx.query<{ status: string }>(
      "select private.confirm_payment_manually($1, 'staff') as status",
      [ref],
    ));
  if (row.status === "settled") {
    // Once per charge and outcome (outbox keys), so a repeated confirm tells nobody twice.
    await db.asService(async (tx) => {
      const charge = await lockCharge(tx, ref);
      if (charge) await notifyParties(tx, charge, whatsappMessaging);
    });
  }
  return { momo_ref: ref, status: row.status };
}
