/**
 * `momo_charge_cancel`: the payer cancels their own MoMo charge still
 * waiting (the kernel offers it when they leave a flow with one open: an
 * insurance premium, a consultation fee). The charge ends as failed with the
 * reason `CANCELLED`: never shown as waiting again, and no SMS or callback
 * settles it. Money that still arrives for it goes to staff as a payment
 * ticket to refund, and the payer is told (settlement.ts).
 *
 * Runs as the payer: `private.cancel_my_charge` touches only the caller's own
 * charge (another's reference is NOT_FOUND). A charge for an order or a ride
 * ends with it (`order_cancel`, `ride_cancel`): CONFLICT here.
 *
 * @module
 */
import { z } from "zod";
import { text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** The `momo_charge_cancel` tool. */
export const momoChargeCancel = defineTool({
  name: "momo_charge_cancel",
  title: "Cancel my waiting MoMo payment",
  description: "Cancel one of the user's own MoMo charges still waiting for payment, by its " +
    "reference (PAY-…): its code no longer pays anything. A charge that already ended " +
    "(paid, failed, expired or cancelled) is answered as it is, `already` true, unchanged. " +
    "CONFLICT for a charge that pays an order or a ride: cancel the order or the ride.",
  category: "payments",
  input: z.strictObject({
    momo_ref: text({ min: 4, max: 32 }).regex(
      /^[A-Za-z0-9][A-Za-z0-9-]{3,31}$/,
      "must look like PAY-7KQ2MX",
    )
      .transform((value) => value.toUpperCase()),
  }),
  output: z.object({
    momo_ref: z.string(),
    amount: z.number(),
    payee: z.string().nullable().describe("Who the charge would have paid, by name or number."),
    status: z.enum(["pending", "settled", "failed", "expired"]),
    failure_reason: z.string().nullable().describe("CANCELLED once cancelled."),
    already: z.boolean().describe("The charge had ended before this call: nothing changed."),
  }),
  examples: [{ input: { momo_ref: "PAY-7KQ2MX" } }],
  sideEffects: "writes.payment",
  // The charge's status is written by the definer function, for the caller's own charge only.
  auth: "user",
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const [done] = await ctx.db.query<{
      momo_ref: string;
      amount: number | string;
      payee: string | null;
      status: "pending" | "settled" | "failed" | "expired";
      failure_reason: string | null;
      already: boolean;
    }>("select * from private.cancel_my_charge($1)", [args.momo_ref]);
    if (!done) {
      throw new ToolFailure("NOT_FOUND", "No such payment of yours", {
        fields: [{ path: "momo_ref", message: "not one of your payments" }],
      });
    }
    return { ...done, amount: Number(done.amount) };
  },
});
