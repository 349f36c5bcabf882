/**
 * `order_cancel`: a customer cancels their own unpaid order (the kernel
 * offers it when they leave an ordering flow with one open). A MoMo charge
 * still waiting for the order expires, so it is never shown as waiting nor
 * paid, and the venue is told on WhatsApp in its owner's language not to
 * prepare it.
 *
 * Runs as the customer: `private.cancel_my_order` touches only the caller's
 * own order (another customer's id is NOT_FOUND); a paid order, or one the
 * venue is already preparing, is CONFLICT.
 *
 * @module
 */
import { z } from "zod";
import { id, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** The `order_cancel` tool. */
export const orderCancel = defineTool({
  name: "order_cancel",
  title: "Cancel my unpaid order",
  description: "Cancel one of the user's own orders that is not paid yet and not being prepared: " +
    "a payment still waiting for it expires and the venue is told on WhatsApp. Cancelling a " +
    "cancelled order changes nothing. CONFLICT once it is paid or being prepared.",
  category: "commerce",
  input: z.strictObject({ order_id: id() }),
  output: z.object({
    order_id: z.uuid(),
    order_no: z.string(),
    venue_name: z.string(),
    status: z.literal("cancelled"),
    charges_expired: z.int().nonnegative().describe("Waiting MoMo charges that were expired."),
    venue_told: z.boolean(),
  }),
  examples: [{ input: { order_id: "d1000000-0000-4000-8000-000000000001" } }],
  sideEffects: "writes.order",
  // The venue's message and the charge are written by the definer function, for the caller's own
  // order only.
  auth: "user",
  openWorld: true,
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    const [done] = await ctx.db.query<{
      order_id: string;
      order_no: string;
      venue_name: string;
      already: boolean;
      charges_expired: number;
      venue_told: boolean;
    }>("select * from private.cancel_my_order($1)", [args.order_id]);
    if (!done) {
      throw new ToolFailure("NOT_FOUND", "No such order of yours", {
        fields: [{ path: "order_id", message: "not one of your orders" }],
      });
    }
    return {
      order_id: done.order_id,
      order_no: done.order_no,
      venue_name: done.venue_name,
      status: "cancelled" as const,
      charges_expired: done.charges_expired,
      venue_told: done.venue_told,
    };
  },
});
