/**
 * The payments pack's event for automations: a charge's status changed.
 * Written by a trigger on `public.payments` (migration
 * `20261130000400_automations.sql`) in the transaction that settles, fails
 * or expires the charge, keyed by the charge and its new status.
 *
 * @module
 */
import { z } from "zod";
import type { PackEvent } from "@shared/registry/pack.ts";

const PAYMENT_STATUS = z.enum(["pending", "settled", "failed", "expired"]);

/** A mobile-money charge's status changed. */
export const PAYMENT_STATUS_CHANGED: PackEvent = {
  name: "payment_status_changed",
  description: "A mobile-money charge was settled, failed or expired",
  payload: z.object({
    charge_id: z.uuid().describe("The charge (payment) id"),
    amount: z.number().describe("The amount, whole RWF"),
    currency: z.string().describe("ISO 4217 code"),
    payee: z.string().nullable().describe("Who is paid: a MoMoPay merchant code or a phone"),
    payer_phone: z.string().describe("The payer's mobile money number, E.164"),
    status_from: PAYMENT_STATUS.describe("The status before"),
    status_to: PAYMENT_STATUS.describe("The new status"),
    order_id: z.uuid().nullable().describe("The order it pays, if any"),
  }),
};
