/**
 * The MoMo charge an order or a ride already has waiting: `momo_charge`
 * answers a second charge for the same order or ride with `CONFLICT` and the
 * waiting charge (the caller's own) in `details.pending`. Offline flows show
 * that charge's code again instead of an error, so tapping "Pay" twice never
 * leaves the payer without a code, nor with two charges.
 *
 * @module
 */
import { z } from "zod";
import type { ToolResult } from "@shared/contract/mod.ts";

const chargeCode = z.object({
  /** `tel:` link dialling the USSD code (`#` written `%23`). */
  payment_link: z.string(),
  /** The same code as text. */
  ussd_code: z.string().optional(),
  /** The charge's reference, e.g. `PAY-7KQ2MX`. */
  momo_ref: z.string(),
  /** Whole amount, in the charge's currency. */
  amount: z.number().optional(),
  /** When the charge expires (ISO 8601). */
  expires_at: z.string(),
  /** Who is paid, by name: the venue, the driver, the vendor or the tenant. */
  payee: z.string().optional(),
});

/** What a charge gives the payer to dial or tap (the `momo_charge` output's fields). */
export type ChargeCode = z.output<typeof chargeCode>;

/**
 * The charge already waiting, when `result` is `momo_charge`'s CONFLICT that
 * carries one; null otherwise (any other outcome is the caller's to word).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { waitingCharge } from "./waiting_charge.ts";
 *
 * const pending = { payment_link: "tel:*182*8*1*210045*1500%23", momo_ref: "PAY-7KQ2MX", expires_at: "2026-11-24T10:00:00Z" };
 * assert.deepEqual(waitingCharge({ ok: false, error: { code: "CONFLICT", msg: "waiting", details: { pending } } }), pending);
 * assert.equal(waitingCharge({ ok: false, error: { code: "CONFLICT", msg: "paid" } }), null);
 * ```
 */
export function waitingCharge(result: ToolResult): ChargeCode | null {
  if (result.ok || result.error.code !== "CONFLICT") return null;
  // Read by its schema: details of another shape carry no charge to show again.
  const pending = chargeCode.safeParse(result.error.details?.pending);
  return pending.success ? pending.data : null;
}
