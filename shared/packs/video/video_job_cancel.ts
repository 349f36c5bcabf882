/**
 * `video_job_cancel`: the org's staff cancel a video job the poll has not yet
 * sent to the provider (nothing is paid for it). A job already at the
 * provider, finished or failed is left as it is and said so: the provider
 * renders (and bills) a submitted job whatever we do. The change is made
 * under RLS as the caller (`video_jobs_cancel`: staff, queued and unsent
 * only). It is how a video tool's task is cancelled (MCP `tasks/cancel`).
 *
 * A cancel that lands while the poll's create is in flight wins: the poll
 * never overwrites a cancelled job and deletes the provider job its create
 * made (`sora_video_poll.ts`), so nothing is delivered after a cancel.
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/result.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

const output = z.object({
  job_id: z.uuid(),
  status: z.enum(["queued", "processing", "complete", "failed", "cancelled"]),
  changed: z.boolean().describe("False when the job had already left, ended or been cancelled."),
});

/** The `video_job_cancel` tool. */
export const videoJobCancel = defineTool({
  name: "video_job_cancel",
  title: "Cancel a video job",
  description: "Staff only: cancel one of the org's video jobs that has not been sent to the " +
    "provider yet (nothing is paid for it). A job already rendering or finished is not changed.",
  category: "video",
  auth: "staff",
  input: z.object({ job_id: z.uuid().describe("The job sora_generate_video or remix answered.") }),
  output,
  examples: [{ input: { job_id: "9a7c1f2e-4b3d-4e5f-8a6b-7c8d9e0f1a2b" } }],
  sideEffects: "writes.video_job",
  latencyBudgetMs: 200,
  async execute(args, ctx) {
    const [cancelled] = await ctx.db.query<{ id: string }>(
      `update public.video_jobs set status = 'cancelled', updated_at = $3
        where id = $1 and org_id = $2 and status = 'queued' and provider_job_id is null
        returning id`,
      [args.job_id, ctx.org_id, ctx.services.now()],
    );
    if (cancelled) return { job_id: args.job_id, status: "cancelled" as const, changed: true };
    // Not changed: the job as the caller may read it, or none.
    const [job] = await ctx.db.query<{ status: z.output<typeof output>["status"] }>(
      `select j.status from public.video_jobs j where j.id = $1 and j.org_id = $2`,
      [args.job_id, ctx.org_id],
    );
    if (!job) throw new ToolFailure("NOT_FOUND", "No such video job of your org");
    if (job.status === "queued" || job.status === "processing") {
      // At the provider already (or being sent there by the poll right now).
      throw new ToolFailure("CONFLICT", "The video is already being made: it cannot be cancelled");
    }
    return { job_id: args.job_id, status: job.status, changed: false };
  },
});
