/**
 * A charge a flow asked for that pays no order and no ride (an insurance
 * premium, a consultation fee), as the open work the kernel asks about when
 * the payer leaves the flow: found by its purpose among the payer's recent
 * charges (`payment_status`), so a charge the model asked for counts as much
 * as the flow's own, and cancelled by `momo_charge_cancel`. A charge that
 * settled, failed, expired or was cancelled is never open work.
 *
 * @module
 */
import { z } from "zod";
import type { ToolResult } from "@shared/contract/mod.ts";
import type { OfflineToolCaller } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";

// The payments pack's tools, as these read them: the fields used, parsed on reading.
const paymentStatus = {
  name: "payment_status",
  output: z.object({
    payments: z.array(z.object({
      momo_ref: z.string(),
      amount: z.number(),
      status: z.string(),
      payee: z.string().nullable(),
      purpose: z.string().nullable().optional(),
    })),
  }),
};
const chargeCancel = {
  name: "momo_charge_cancel",
  output: z.object({
    momo_ref: z.string(),
    status: z.enum(["pending", "settled", "failed", "expired"]),
    failure_reason: z.string().nullable(),
    already: z.boolean(),
  }),
};

/** A charge still waiting for its payment. */
export interface OpenCharge {
  /** Its reference, e.g. `PAY-7KQ2MX`. */
  momoRef: string;
  /** Whole amount, in the charge's currency. */
  amount: number;
  /** Who it pays, by name or number. */
  payee: string;
}

/**
 * The payer's latest charge for `purpose` (its metadata's `purpose`) still
 * waiting, or null: none, or the charges cannot be read. Calls tools as the
 * payer; writes nothing.
 */
export async function findOpenCharge(
  callTool: OfflineToolCaller,
  purpose: string,
): Promise<OpenCharge | null> {
  const result = await callTyped(callTool, paymentStatus, {}, "open_charge");
  if (!result.ok) return null;
  // Latest first: an older charge for the same purpose is not the one just left.
  const latest = result.data.payments.find((payment) => payment.purpose === purpose);
  if (latest?.status !== "pending") return null;
  return { momoRef: latest.momo_ref, amount: latest.amount, payee: latest.payee ?? "" };
}

/** What cancelling a charge came to: cancelled now, ended before (and how), or refused. */
export type ChargeCancelled = ToolResult<z.output<typeof chargeCancel.output>>;

/** Cancels the payer's waiting charge `momoRef` (`momo_charge_cancel`); a repeat changes nothing. */
export function cancelOpenCharge(
  callTool: OfflineToolCaller,
  momoRef: string,
): Promise<ChargeCancelled> {
  return callTyped(callTool, chargeCancel, { momo_ref: momoRef }, "charge_cancel");
}
