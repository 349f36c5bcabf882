/**
 * Payees as the payments pack's counterparts: a venue, driver or person who
 * was paid through a charge answers `PAID <ref>` (`YISHYUWE <ref>`,
 * `PAYÉ <ref>`) on WhatsApp once the money shows on their MoMo account. Only
 * that exact command, from a number that is the payee of that (recent)
 * charge, is claimed: anything else they write reaches their own customer
 * conversation.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Counterpart, CounterpartMessage } from "@shared/registry/pack.ts";
import { payeeActor } from "./settlement_tools.ts";

const PAID_COMMAND = /^\s*(?:paid|yishyuwe|pay[ée])\s*:?\s+([a-z0-9][a-z0-9-]{3,31})\s*[.!]?\s*$/i;

/** The reference of a `PAID <ref>` command, upper-cased, or null when the text is not one. */
export function paidCommandRef(text: string): string | null {
  const match = PAID_COMMAND.exec(text.normalize("NFC"));
  return match ? match[1].toUpperCase() : null;
}

/** Whether the message is `PAID <ref>` from the payee of that charge. */
export async function confirmsPayment(
  db: Queryable,
  message: CounterpartMessage,
): Promise<boolean> {
  if (message.location || message.choice) return false;
  const ref = paidCommandRef(message.text ?? "");
  if (!ref) return false;
  return (await payeeActor(db, ref, message.from)) !== null;
}

/** The payee counterpart. */
export const PAYEE_COUNTERPART: Counterpart = {
  id: "payee",
  claims: confirmsPayment,
  async handle(message, callTool) {
    await callTool("payment_confirm_by_payee", {
      momo_ref: paidCommandRef(message.text)!,
      phone: message.from,
      whatsapp_message_id: message.wamid,
    }, "paid");
  },
};
