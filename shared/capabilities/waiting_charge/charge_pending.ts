/**
 * A charge a flow asked for that pays no order and no ride (an insurance
 * premium, a consultation fee), as the open work the kernel asks about when
 * the payer leaves the flow: the one the flow's memory names (its own, or a
 * charge a model asked for and the payer confirmed), else the latest of the
 * payer's charges for the flow's purpose (`payment_status`), and cancelled by `momo_charge_cancel`. A charge that
 * settled, failed, expired or was cancelled is never open work.
 *
 * @module
 */
import { z } from "zod";
import type { ToolResult } from "@shared/contract/mod.ts";
import type { OfflineToolCaller } from "@shared/registry/pack.ts";
import { callTyped, isToolResult } from "@shared/registry/tool_call.ts";

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

// A charge a model asked for (`momo_charge`, confirmed): its result kept in the flow's memory.
const chargeMade = z.object({ momo_ref: z.string() });

/** The references a flow's memory names: the flow's own `momoRef`, or a model's confirmed charge. */
function refsIn(memory: Record<string, unknown>): string[] {
  const refs = typeof memory.momoRef === "string" ? [memory.momoRef] : [];
  for (const kept of [memory.lastResult, memory.lastConfirmed]) {
    if (!isToolResult(kept) || !kept.ok) continue;
    const made = chargeMade.safeParse(kept.data);
    if (made.success) refs.push(made.data.momo_ref);
  }
  return refs;
}

/** What {@link findOpenCharge} looks for. */
export interface OpenChargeQuery {
  /** The metadata `purpose` of the flow's charges (`insurance_certificate`). */
  purpose: string;
  /** The flow's memory: a charge it names (its own, or a model's) is the one looked at. */
  memory: Record<string, unknown>;
}

/**
 * The charge the flow left waiting, or null: the one its memory names when
 * it names one of the flow's purpose (or of none: a model's), else the
 * payer's latest charge for the purpose; null too when that charge has ended
 * or cannot be read. Calls tools as the payer; writes nothing.
 */
export async function findOpenCharge(
  callTool: OfflineToolCaller,
  query: OpenChargeQuery,
): Promise<OpenCharge | null> {
  // Memory is shared between agents: a charge it names that another flow asked for (another
  // purpose) is not this flow's work, and the flow's own is looked for by its purpose.
  const [named] = refsIn(query.memory);
  if (named) {
    const result = await callTyped(callTool, paymentStatus, { momo_ref: named }, "named_charge");
    const [charge] = result.ok ? result.data.payments : [];
    if (charge && (charge.purpose ?? query.purpose) === query.purpose) return openOf(charge);
  }
  const result = await callTyped(callTool, paymentStatus, {}, "open_charge");
  if (!result.ok) return null;
  // Latest first: an older charge for the same purpose is not the one just left.
  return openOf(result.data.payments.find((payment) => payment.purpose === query.purpose));
}

/** The charge as open work while it waits; null once it ended (or when there is none). */
function openOf(charge: z.output<typeof paymentStatus.output.shape.payments.element> | undefined) {
  if (charge?.status !== "pending") return null;
  return { momoRef: charge.momo_ref, amount: charge.amount, payee: charge.payee ?? "" };
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
