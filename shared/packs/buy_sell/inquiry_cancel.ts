/**
 * `vendor_inquiry_cancel`: the buyer withdraws a request the vendors are
 * still being asked about (the kernel offers it when the buyer leaves the
 * buy & sell flow with an inquiry open). Every vendor asked who had not
 * refused is told, in the language they were asked in; a vendor who answers
 * afterwards is thanked and told the request was withdrawn, and the buyer
 * hears nothing more of it.
 *
 * Runs as the buyer: `private.cancel_my_inquiry` touches only the caller's
 * own inquiry, so another customer's id is NOT_FOUND.
 *
 * @module
 */
import { z } from "zod";
import { id, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** The `vendor_inquiry_cancel` tool. */
export const vendorInquiryCancel = defineTool({
  name: "vendor_inquiry_cancel",
  title: "Withdraw a request to vendors",
  description: "Withdraw one of the user's requests to vendors: every vendor asked who had not " +
    "refused is told on WhatsApp, and later answers no longer reach the user. Withdrawing a " +
    "withdrawn request changes nothing.",
  category: "buy_sell",
  input: z.strictObject({ inquiry_id: id() }),
  output: z.object({
    inquiry_id: z.uuid(),
    status: z.literal("cancelled"),
    vendors_told: z.int().nonnegative(),
  }),
  examples: [{ input: { inquiry_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d" } }],
  sideEffects: "writes.message",
  // The vendors' messages are written by the definer function, for the caller's own inquiry only.
  auth: "user",
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    const [done] = await ctx.db.query<{ inquiry_id: string; vendors_told: number }>(
      "select * from private.cancel_my_inquiry($1)",
      [args.inquiry_id],
    );
    if (!done) {
      throw new ToolFailure("NOT_FOUND", "No such request of yours", {
        fields: [{ path: "inquiry_id", message: "not one of your requests" }],
      });
    }
    return {
      inquiry_id: done.inquiry_id,
      status: "cancelled" as const,
      vendors_told: done.vendors_told,
    };
  },
});
