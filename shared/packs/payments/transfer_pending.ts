/**
 * What a payer leaves open with the Payments agent: a charge it made to a
 * number ("pay 5000 to 0788123456") still waiting. On leaving, the kernel
 * asks whether to cancel it (`momo_charge_cancel`: its code pays nothing
 * more, money that still arrives goes to staff to refund, the payer told) or
 * keep it (its code still pays until it expires).
 *
 * @module
 */
import { formatRwf } from "@shared/capabilities/format/mod.ts";
import { cancelOpenCharge, findOpenCharge } from "@shared/capabilities/waiting_charge/mod.ts";
import type { PendingWork } from "@shared/registry/pack.ts";
import { localPhone, say } from "./texts.ts";

/** The metadata purpose of a charge the Payments agent makes to a number. */
export const TRANSFER_PURPOSE = "transfer";

/** A transfer's charge still waiting is open work; an ended one never is. */
export const transferPending: PendingWork = {
  async find({ language, memory }, callTool) {
    const charge = await findOpenCharge(callTool, { purpose: TRANSFER_PURPOSE, memory });
    if (!charge) return null;
    return {
      id: charge.momoRef,
      summary: say("openTransfer", language, {
        amount: formatRwf(charge.amount, language),
        payee: /^\+2507/.test(charge.payee) ? localPhone(charge.payee) : charge.payee,
        ref: charge.momoRef,
      }),
    };
  },
  async cancel(work, { language }, callTool) {
    const result = await cancelOpenCharge(callTool, work.id);
    if (!result.ok) {
      return say("transferNotCancelled", language, { ref: work.id, msg: result.error.msg });
    }
    if (result.data.already && result.data.failure_reason !== "CANCELLED") {
      return say("transferEnded", language, { ref: work.id });
    }
    return say("transferCancelled", language, { ref: work.id });
  },
};
