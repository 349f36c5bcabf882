/**
 * What a client leaves open in Legal Intake: the consultation fee's MoMo
 * charge still waiting. The case itself stays filed whatever they answer
 * (the lawyers have it either way). On leaving, the kernel asks whether to
 * cancel the charge (`momo_charge_cancel`: its code pays nothing more, money
 * that still arrives goes to staff to refund) or keep it; a cancellation is
 * told to staff, who expect the fee for the case (`notify_staff`).
 *
 * @module
 */
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { cancelOpenCharge, findOpenCharge } from "@shared/capabilities/waiting_charge/mod.ts";
import type { PendingWork } from "@shared/registry/pack.ts";
import { say } from "./texts.ts";

/** The metadata purpose of a consultation fee's charge (legal_flow.ts asks for it). */
export const FEE_PURPOSE = "legal_consultation";

/** A consultation fee's charge still waiting is open work; an ended one never is. */
export const feePending: PendingWork = {
  async find({ language, memory }, callTool) {
    const charge = await findOpenCharge(callTool, { purpose: FEE_PURPOSE, memory });
    if (!charge) return null;
    return {
      id: charge.momoRef,
      summary: say("openFee", language, {
        amount: formatMoney(charge.amount, language),
        payee: charge.payee,
        ref: charge.momoRef,
      }),
    };
  },
  async cancel(work, { language, memory }, callTool) {
    const result = await cancelOpenCharge(callTool, work.id);
    if (!result.ok) {
      return say("feeNotCancelled", language, { ref: work.id, msg: result.error.msg });
    }
    if (result.data.already && result.data.failure_reason !== "CANCELLED") {
      return say("feeAlreadyEnded", language, { ref: work.id });
    }
    // Staff expect the fee for the case: they hear it will not come, once (a repeat is already).
    if (!result.data.already) {
      const reference = typeof memory.reference === "string" ? ` for case ${memory.reference}` : "";
      await callTool("notify_staff", {
        channel: "inbox",
        payload: {
          reason: "Legal: consultation fee cancelled by the client",
          summary: `The client cancelled the consultation fee payment ${work.id}${reference} ` +
            "when leaving the chat. The case stays filed; agree the fee with them directly.",
          priority: "medium",
        },
      }, "fee_cancelled_staff");
    }
    return say("feeCancelled", language, { ref: work.id });
  },
};
