/**
 * `sora_remix_video`: a small change to a finished video ("make the sky
 * warmer", "the driver waves at the end") without briefing it again. The
 * provider's remix keeps the source's model, size and length, so the new job
 * copies them; the change obeys the brief's rules (no length or resolution,
 * colours within the palette), checked before any provider call. The source
 * must be a complete job of the caller's org. Like `sora_generate_video`, it
 * needs the staff member's confirmation (the read-back names the source, the
 * change, the format and the estimated cost) and queues a job the background poll sends (`remix` of the source's provider
 * id), follows and delivers on WhatsApp. Staff only.
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/result.ts";
import { LANGUAGES } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { hexColours, statedFormat, statedFormatReason } from "./prompt_rules.ts";
import { costText, estimatedMinutes } from "./sora_generate_video.ts";
import { say } from "./texts.ts";
import { studioCaller } from "./studio_access.ts";
import { VIDEO_TASK } from "./video_job_status.ts";

const input = z.strictObject({
  job_id: z.uuid().describe("The finished video to change (a complete job of your org)."),
  change: z.string().trim().min(3).max(1000).describe(
    "The small change, in words: content, motion, light or style; never length or resolution.",
  ),
  language: z.enum(LANGUAGES).optional().describe(
    "The staff member's language, for the confirmation's read-back and the delivery message.",
  ),
}).superRefine((args, ctx) => {
  // Refused before the read-back: a change that cannot be made is never offered for confirmation.
  const found = statedFormat(args.change);
  if (found) ctx.addIssue({ code: "custom", path: ["change"], message: statedFormatReason(found) });
});

const output = z.object({
  job_id: z.uuid(),
  remix_of: z.uuid(),
  status: z.enum(["queued", "processing", "complete", "failed"]),
  estimated_completion: z.string().optional(),
});

function refuse(path: string, message: string): never {
  throw new ToolFailure("VALIDATION_ERROR", `This remix breaks a rule: ${path} ${message}`, {
    fields: [{ path, message }],
  });
}

interface Source {
  id: string;
  status: string;
  model: string;
  size: string;
  seconds: number;
  brand_kit_id: string;
  allowed: string[] | null;
}

/** The `sora_remix_video` tool. */
export const soraRemixVideo = defineTool({
  name: "sora_remix_video",
  title: "Remix a finished video (Sora-2)",
  description: "Queues a small change to a finished video ad (same model, size and length): " +
    "say the change in words, never its length or resolution. The staff member gets the new " +
    "video on WhatsApp when it is ready. Staff only.",
  category: "video",
  input,
  output,
  examples: [{
    input: {
      job_id: "9a7c1f2e-4b3d-4e5f-8a6b-7c8d9e0f1a2b",
      change: "Make the morning light warmer and have the driver wave at the end.",
    },
  }],
  sideEffects: "writes.video_job",
  // The job row is followed as a task (MCP `tasks`) through video_job_status.
  task: VIDEO_TASK,
  auth: "staff",
  openWorld: true,
  // A remix is a new paid clip: the staff member reads back what is made first.
  confirmRequired: true,
  async confirmSummary(args, context) {
    const language = args.language ?? "en";
    const [source] = await context.read.query<
      { model: string; size: string; seconds: number; kit: string | null }
    >(
      `select j.model, j.size, j.seconds, k.name as kit
         from public.video_jobs j left join public.brand_kits k on k.id = j.brand_kit_id
        where j.id = $1`,
      [args.job_id],
    );
    return say("confirmRemix", language, {
      job: args.job_id.slice(0, 8),
      change: args.change.slice(0, 300),
      size: source?.size ?? "?",
      seconds: source?.seconds ?? "?",
      model: source?.model ?? "?",
      kit: source?.kit ?? say("unknownKit", language),
      cost: source
        ? costText(source.model, source.size, source.seconds, language)
        : say("costUnknown", language),
    });
  },
  latencyBudgetMs: 400,
  rateLimit: { perUser: { limit: 20, windowSec: 3600 } },
  async execute(args, ctx) {
    const { orgId, userId } = studioCaller(ctx);
    // Under RLS: another org's job is not found, whatever its id.
    const [source] = await ctx.db.query<Source>(
      `select j.id, j.status, j.model, j.size, j.seconds, j.brand_kit_id, p.colours as allowed
         from public.video_jobs j
         join public.orgs o on o.id = j.org_id
         left join public.country_palettes p on p.country = o.country
        where j.id = $1 and j.org_id = $2`,
      [args.job_id, orgId],
    );
    if (!source || source.status !== "complete") {
      refuse("job_id", "is not a finished video of your org (only a complete job can be remixed)");
    }
    const off = hexColours(args.change).filter((colour) => !source.allowed?.includes(colour));
    if (off.length) {
      refuse("change", `names ${off.join(", ")}, outside your country's palette`);
    }
    const [profile] = await ctx.db.query<{ locale: string }>(
      "select locale from public.profiles where id = $1",
      [userId],
    );
    const now = ctx.services.now();
    const [job] = await ctx.db.query<{ id: string }>(
      `insert into public.video_jobs (org_id, requester_id, model, size, seconds, prompt,
         prompt_text, brand_kit_id, remix_of, language, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $11)
       returning id`,
      [
        orgId,
        userId,
        source.model,
        source.size,
        source.seconds,
        { scene: args.change, remix_of: source.id },
        args.change,
        source.brand_kit_id,
        source.id,
        args.language ?? profile?.locale ?? "en",
        now.toISOString(),
      ],
    );
    const estimate = new Date(now.getTime() + estimatedMinutes(source.seconds) * 60_000);
    return {
      job_id: job.id,
      remix_of: source.id,
      status: "queued" as const,
      estimated_completion: estimate.toISOString(),
    };
  },
});
