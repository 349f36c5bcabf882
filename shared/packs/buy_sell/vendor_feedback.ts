/**
 * `log_user_feedback_on_vendor`: the buyer says whether the vendor's answer
 * held up; the vendor's confirmation accuracy is recomputed from all feedback.
 *
 * @module
 */
import { z } from "zod";
import { id, int, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** The `log_user_feedback_on_vendor` tool. */
export const logUserFeedbackOnVendor = defineTool({
  name: "log_user_feedback_on_vendor",
  title: "Feedback on a vendor",
  description: "Record the user's feedback after dealing with a vendor (accurate, inaccurate, " +
    "cancelled, complaint; optional 1–5 rating). Updates the vendor's quality score.",
  category: "buy_sell",
  input: z.object({
    inquiry_id: id().optional(),
    business_id: id(),
    feedback_type: z.enum(["accurate", "inaccurate", "cancelled", "complaint"]),
    rating: int({ min: 1, max: 5 }).optional(),
    comment: text({ max: 1000, multiline: true }).optional(),
  }),
  output: z.object({ feedback_id: z.uuid() }),
  examples: [{
    input: {
      business_id: "c0000000-0000-4000-8000-000000000001",
      feedback_type: "accurate",
      rating: 5,
    },
  }],
  sideEffects: "writes.feedback",
  auth: "user",
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    // Read as the caller: only a vendor of the caller's org, and only the caller's own inquiry
    // (or any of the org's, for staff). The database refuses the rest too; this names the field.
    const [found] = await ctx.db.query<{ business: boolean; inquiry: boolean }>(
      `select exists (select 1 from public.businesses where id = $1 and org_id = $3) as business,
              $2::uuid is null or exists (
                select 1 from public.market_vendor_inquiries where id = $2 and org_id = $3
              ) as inquiry`,
      [args.business_id, args.inquiry_id ?? null, ctx.org_id],
    );
    if (!found?.business) throw new ToolFailure("NOT_FOUND", "business_id: no such vendor");
    if (!found.inquiry) throw new ToolFailure("NOT_FOUND", "inquiry_id: no such inquiry");
    const [row] = await ctx.db.query<{ id: string }>(
      `insert into public.market_vendor_feedback
         (org_id, business_id, inquiry_id, user_id, feedback_type, rating, comment)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [
        ctx.org_id,
        args.business_id,
        args.inquiry_id ?? null,
        ctx.user_id,
        args.feedback_type,
        args.rating ?? null,
        args.comment ?? null,
      ],
    );
    await ctx.db.query("select private.refresh_vendor_metrics($1)", [args.business_id]);
    return { feedback_id: row.id };
  },
});
