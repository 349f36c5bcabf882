/**
 * What a customer leaves open in the insurance flow: the premium's MoMo
 * charge still waiting. On leaving, the kernel asks whether to cancel it
 * (`momo_charge_cancel`: its code pays nothing more, no certificate is
 * issued, money that still arrives goes to staff to refund) or keep it (the
 * certificate comes once it is paid, and the flow shows the waiting charge
 * when they come back).
 *
 * @module
 */
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { cancelOpenCharge, findOpenCharge } from "@shared/capabilities/waiting_charge/mod.ts";
import type { PendingWork } from "@shared/registry/pack.ts";
import { say } from "./texts.ts";

/** The metadata purpose of a premium's charge (insurance_flow.ts asks for it). */
export const PREMIUM_PURPOSE = "insurance_certificate";

const ENDED = {
  settled: "statusSettled",
  expired: "statusExpired",
  failed: "statusFailed",
} as const;

/** A premium's charge still waiting is open work; a settled, expired or cancelled one never is. */
export const premiumPending: PendingWork = {
  async find({ language, memory }, callTool) {
    const charge = await findOpenCharge(callTool, { purpose: PREMIUM_PURPOSE, memory });
    if (!charge) return null;
    return {
      id: charge.momoRef,
      summary: say("openPremium", language, {
        premium: formatMoney(charge.amount, language),
        payee: charge.payee,
        ref: charge.momoRef,
      }),
    };
  },
  async cancel(work, { language }, callTool) {
    const result = await cancelOpenCharge(callTool, work.id);
    if (!result.ok) {
      return say("premiumNotCancelled", language, { ref: work.id, msg: result.error.msg });
    }
    // Paid (or ended) between the question and the answer: said as it is, nothing cancelled.
    if (
      result.data.already && result.data.failure_reason !== "CANCELLED" &&
      result.data.status !== "pending"
    ) {
      return say("premiumAlreadyEnded", language, {
        ref: work.id,
        status: say(ENDED[result.data.status], language),
      });
    }
    return say("premiumCancelled", language, { ref: work.id });
  },
};
