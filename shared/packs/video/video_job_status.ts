/**
 * `video_job_status`: where one of the org's video jobs stands (queued,
 * processing, complete, failed), its progress and, once done, where the
 * video is kept. Staff only (`auth: "staff"`), read under RLS. It is how the video tools' jobs
 * are followed as tasks (their descriptors' `task`).
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/result.ts";
import type { ToolJobStatus } from "@shared/registry/define_tool.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

const output = z.object({
  job_id: z.uuid(),
  status: z.enum(["queued", "processing", "complete", "failed", "cancelled"]),
  progress: z.number().int().min(0).max(100),
  error: z.string().nullable(),
  result_path: z.string().nullable().describe("Where the finished video is kept (Storage)."),
});

/** The `video_job_status` tool. */
export const videoJobStatus = defineTool({
  name: "video_job_status",
  title: "Video job status",
  description: "Staff only: where one of the org's video jobs stands (queued, processing, " +
    "complete, failed or cancelled), its progress, and where the finished video is kept.",
  category: "video",
  input: z.object({
    job_id: z.uuid().optional().describe("The job sora_generate_video or remix answered."),
    job_ids: z.array(z.uuid()).min(1).max(100).optional().describe(
      "Several jobs at once (at most 100): the answer is `jobs`, those of the org found.",
    ),
  }).refine((args) => (args.job_id === undefined) !== (args.job_ids === undefined), {
    message: "Give job_id or job_ids",
    path: ["job_id"],
  }),
  output: z.union([output, z.object({ jobs: z.array(output) })]),
  examples: [{ input: { job_id: "9a7c1f2e-4b3d-4e5f-8a6b-7c8d9e0f1a2b" } }],
  sideEffects: "none",
  auth: "staff",
  latencyBudgetMs: 200,
  async execute(args, ctx) {
    if (args.job_ids) {
      // One query for many (MCP tasks/list): a job of another org is simply not among them.
      const jobs = await ctx.db.query<z.output<typeof output>>(
        `select j.id as job_id, j.status, j.progress, j.error, j.result_path
           from public.video_jobs j
          where j.id = any($1::uuid[]) and j.org_id = $2
          order by j.id`,
        [args.job_ids, ctx.org_id],
      );
      return { jobs };
    }
    const [job] = await ctx.db.query<z.output<typeof output>>(
      `select j.id as job_id, j.status, j.progress, j.error, j.result_path
         from public.video_jobs j
        where j.id = $1 and j.org_id = $2`,
      [args.job_id, ctx.org_id],
    );
    if (!job) throw new ToolFailure("NOT_FOUND", "No such video job of your org");
    return job;
  },
});

/** A video job's state as a task's (the video tools' `task.state`). */
export function videoJobState(data: unknown): { status: ToolJobStatus; message?: string } {
  const job = data as z.output<typeof output>;
  if (job.status === "complete") return { status: "completed" };
  if (job.status === "failed") return { status: "failed", message: job.error ?? "Failed" };
  if (job.status === "cancelled") return { status: "cancelled" };
  return { status: "working", message: `${job.status} ${job.progress}%` };
}

/** The `task` of a tool whose data names a video job (`job_id`). */
export const VIDEO_TASK = {
  jobId: (data: { job_id: string }) => data.job_id,
  statusTool: "video_job_status",
  statusArgs: (jobId: string) => ({ job_id: jobId }),
  state: videoJobState,
  // tasks/list: a page's jobs in one status call.
  statusMany: {
    args: (jobIds: string[]) => ({ job_ids: jobIds }),
    split: (data: unknown) =>
      new Map(
        ((data as { jobs?: z.output<typeof output>[] }).jobs ?? []).map((job) => [job.job_id, job]),
      ),
  },
  pollIntervalMs: 15_000,
  // tasks/cancel: a job not yet sent to the provider is cancelled.
  cancel: { tool: "video_job_cancel", args: (jobId: string) => ({ job_id: jobId }) },
};
