/**
 * `sora_generate_video`: staff queue a short video ad from a structured
 * brief (seed 000 I). Every rule is checked here, before anything reaches
 * the provider, and each refusal is a `VALIDATION_ERROR` naming its field:
 *
 * - the model's sizes: `sora-2` renders 1280x720 and 720x1280; `sora-2-pro`
 *   adds 1024x1792 and 1792x1024. `seconds` is 4, 8 or 12;
 * - clip length and resolution are parameters only: a brief that states
 *   them ("10 seconds", "4K", "vertical 9:16", in en/rw/fr) is refused with
 *   the reason (`prompt_rules.ts`);
 * - the brand kit must be one of the caller's org; its palette, and any hex
 *   colour the brief names, must be within the country's palette
 *   (`country_palettes`, by `orgs.country`);
 * - a reference image that shows people needs a recorded, unrevoked consent
 *   for each of them (`video_consents`).
 *
 * The rules that need no data (sizes, stated length or resolution) are the
 * input's own, so such a brief is refused before anything else. A clip costs
 * money at the provider, so the tool is `confirmRequired`: the pipeline reads
 * back the model, size, length, brand kit and the estimated cost at the
 * provider's list price, and only a call carrying the confirmation token
 * queues the job (once per idempotency key).
 *
 * The job is stored `queued`; the background poll (`sora_video_poll`)
 * sends it to the provider, follows it and delivers the MP4 on WhatsApp.
 * Without a provider key the tool answers `SERVICE_UNAVAILABLE` and stores
 * nothing: no pretend job. Staff only (the table's policy too).
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/result.ts";
import type { Queryable } from "@shared/db/types.ts";
import { type Language, LANGUAGES } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { hexColours, statedFormat, statedFormatReason } from "./prompt_rules.ts";
import { studioCaller } from "./studio_access.ts";
import { say } from "./texts.ts";
import {
  estimatedCostUsd,
  SIZES_BY_MODEL,
  VIDEO_MODELS,
  VIDEO_SIZES,
  type VideoModel,
  type VideoSize,
} from "./video_provider.ts";
import { VIDEO_TASK } from "./video_job_status.ts";

/**
 * About how many minutes a clip of `seconds` takes to be ready: a minute of
 * queueing and half a minute per second of video (the estimate the tool
 * answers and the flow tells).
 */
export function estimatedMinutes(seconds: number): number {
  return Math.ceil((60 + seconds * 30) / 60);
}

/** The read-back's cost sentence: the provider's list price, or that it is not known. */
export function costText(model: string, size: string, seconds: number, language: Language): string {
  const usd = estimatedCostUsd(model, size, seconds);
  return usd === null
    ? say("costUnknown", language)
    : say("cost", language, { usd: usd.toFixed(2) });
}

const text = (max: number) => z.string().trim().min(1).max(max);

/** The structured brief: content, motion, light and style; never length or resolution. */
export const videoBrief = z.strictObject({
  scene: text(2000).describe("What is seen: setting, people, products, mood."),
  cinematography: z.strictObject({
    camera_shot: text(300).describe("Framing and camera motion, e.g. 'slow dolly-in, eye level'."),
    lighting_palette: text(300).describe(
      "Light and colour; hex colours (#RRGGBB) must be within the tenant's palette.",
    ),
  }),
  actions: z.array(z.strictObject({
    time: text(20).describe("When in the clip, e.g. '0-2s'."),
    description: text(500),
  })).min(1).max(12).describe("The beats, in order."),
  dialogue: text(1000).optional().describe("Spoken lines or on-screen text, if any."),
});

/** A brief, as a flow or the model gives it. */
export type VideoBrief = z.output<typeof videoBrief>;

/** A reference image: a file in the org's media, and the consents of the people it shows. */
export const referenceImage = z.strictObject({
  path: text(400).describe("`storage://media/<org>/…` or `<org>/…` in the media bucket."),
  shows_people: z.boolean().describe("Whether a person can be recognised in it."),
  consent_ids: z.array(z.uuid()).max(10).default([]).describe(
    "The recorded consent of each person it shows (video_consents).",
  ),
});

/** Every text of the brief with its field path, dotted as the contract names fields (the action times are the beats' own). */
function briefTexts(brief: VideoBrief): Array<[string, string]> {
  return [
    ["prompt.scene", brief.scene],
    ["prompt.cinematography.camera_shot", brief.cinematography.camera_shot],
    ["prompt.cinematography.lighting_palette", brief.cinematography.lighting_palette],
    ...brief.actions.map((action, index): [string, string] => [
      `prompt.actions.${index}.description`,
      action.description,
    ]),
    ...(brief.dialogue ? [["prompt.dialogue", brief.dialogue] as [string, string]] : []),
  ];
}

const input = z.strictObject({
  prompt: videoBrief,
  params: z.strictObject({
    model: z.enum(VIDEO_MODELS),
    size: z.enum(VIDEO_SIZES).describe(
      "sora-2: 1280x720 or 720x1280; sora-2-pro also 1024x1792 and 1792x1024.",
    ),
    seconds: z.union([z.literal(4), z.literal(8), z.literal(12)]),
  }),
  brand_kit_id: z.uuid(),
  // The provider takes one reference image per job.
  reference_images: z.array(referenceImage).max(1).default([]),
  language: z.enum(LANGUAGES).optional().describe(
    "The staff member's language, for the confirmation's read-back and the delivery message.",
  ),
}).superRefine((args, ctx) => {
  // The rules that need no data are checked with the arguments, before the read-back:
  // a brief that cannot be made is refused, never offered for confirmation.
  const { model, size } = args.params;
  if (!SIZES_BY_MODEL[model].includes(size)) {
    ctx.addIssue({
      code: "custom",
      path: ["params", "size"],
      message: `is not one ${model} renders (${SIZES_BY_MODEL[model].join(", ")})`,
    });
  }
  for (const [path, value] of briefTexts(args.prompt)) {
    const found = statedFormat(value);
    if (found) {
      ctx.addIssue({ code: "custom", path: path.split("."), message: statedFormatReason(found) });
    }
  }
});

const output = z.object({
  job_id: z.uuid(),
  status: z.enum(["queued", "processing", "complete", "failed"]),
  estimated_completion: z.string().optional(),
});

/** A field's refusal. */
function refuse(path: string, message: string, summary = "This video brief breaks a rule"): never {
  throw new ToolFailure("VALIDATION_ERROR", `${summary}: ${path} ${message}`, {
    fields: [{ path, message }],
  });
}

/** The org's Storage path of a reference image, or a refusal naming its field. */
export function referencePath(path: string, orgId: string, field: string): string {
  const bare = path.replace(/^storage:\/\/media\//, "");
  if (!bare.startsWith(`${orgId}/`) || bare.includes("..") || !/^[A-Za-z0-9._/-]+$/.test(bare)) {
    refuse(field, "must be a file in your org's media (storage://media/<org>/…)");
  }
  return bare;
}

/** The prompt's text the provider gets: the brief, then the brand. */
export function promptText(
  brief: VideoBrief,
  kit: { name: string; palette: string[]; tone: string | null },
): string {
  return [
    brief.scene,
    `Camera: ${brief.cinematography.camera_shot}.`,
    `Lighting and palette: ${brief.cinematography.lighting_palette}.`,
    ...brief.actions.map((action) => `[${action.time}] ${action.description}`),
    ...(brief.dialogue ? [`Dialogue: ${brief.dialogue}`] : []),
    `Brand: ${kit.name}; colours ${kit.palette.join(", ")}${
      kit.tone ? `; tone: ${kit.tone}` : ""
    }.`,
  ].join("\n");
}

interface Kit {
  name: string;
  palette: string[];
  tone: string | null;
  allowed: string[] | null;
}

/** The rules that need the database, in the caller's transaction. */
async function checkWithData(
  db: Queryable,
  orgId: string,
  args: z.output<typeof input>,
  now: Date,
): Promise<Kit> {
  const [kit] = await db.query<Kit>(
    `select k.name, k.palette, k.tone, p.colours as allowed
       from public.brand_kits k
       join public.orgs o on o.id = k.org_id
       left join public.country_palettes p on p.country = o.country
      where k.id = $1 and k.org_id = $2`,
    [args.brand_kit_id, orgId],
  );
  if (!kit) refuse("brand_kit_id", "is no brand kit of your org");
  if (!kit.allowed) {
    refuse("brand_kit_id", "cannot be checked: your country has no palette set (ask an admin)");
  }
  const outside = kit.palette.filter((colour) => !kit.allowed!.includes(colour));
  if (outside.length) {
    refuse(
      "brand_kit_id",
      `uses ${outside.join(", ")}, outside your country's palette (${kit.allowed.join(", ")})`,
    );
  }
  for (const [path, value] of briefTexts(args.prompt)) {
    const off = hexColours(value).filter((colour) => !kit.allowed!.includes(colour));
    if (off.length) {
      refuse(
        path,
        `names ${off.join(", ")}, outside your country's palette (${kit.allowed.join(", ")})`,
      );
    }
  }
  for (const [index, image] of args.reference_images.entries()) {
    const field = `reference_images[${index}]`;
    referencePath(image.path, orgId, `${field}.path`);
    if (image.shows_people && image.consent_ids.length === 0) {
      refuse(`${field}.consent_ids`, "must name the consent of each person the image shows");
    }
    const found = await db.query<{ id: string }>(
      `select id from public.video_consents
        where org_id = $1 and id = any($2::uuid[]) and revoked_at is null and given_at <= $3`,
      [orgId, image.consent_ids, now.toISOString()],
    );
    const valid = new Set(found.map((row) => row.id));
    image.consent_ids.forEach((id, at) => {
      if (!valid.has(id)) {
        refuse(`${field}.consent_ids[${at}]`, "is no recorded, unrevoked consent of your org");
      }
    });
  }
  return kit;
}

/** The `sora_generate_video` tool. */
export const soraGenerateVideo = defineTool({
  name: "sora_generate_video",
  title: "Generate a video ad (Sora-2)",
  description: "Queues a short video ad from a structured brief (scene, camera, light, beats, " +
    "dialogue) with a brand kit. Clip length and resolution are params only: never write them " +
    "in the brief. sora-2 renders 1280x720 or 720x1280; sora-2-pro also 1024x1792 and " +
    "1792x1024; seconds is 4, 8 or 12. People in reference images need a recorded consent. " +
    "The staff member gets the video on WhatsApp when it is ready. Staff only.",
  category: "video",
  input,
  output,
  examples: [{
    description: "An 8-second landscape ad in EasyMO's colours",
    input: {
      prompt: {
        scene: "A moto driver in a blue EasyMO vest picks up a smiling customer at Nyabugogo.",
        cinematography: {
          camera_shot: "Slow dolly-in at eye level",
          lighting_palette: "Soft morning light, #00A1DE and #FAD201 accents",
        },
        actions: [
          { time: "0-3s", description: "The customer taps the EasyMO button on her phone." },
          { time: "3-8s", description: "The moto arrives; she hops on and they ride off." },
        ],
      },
      params: { model: "sora-2", size: "1280x720", seconds: 8 },
      brand_kit_id: "f1000000-0000-4000-8000-000000000001",
    },
    output: {
      job_id: "9a7c1f2e-4b3d-4e5f-8a6b-7c8d9e0f1a2b",
      status: "queued",
      estimated_completion: "2026-11-27T08:04:00.000Z",
    },
  }],
  sideEffects: "writes.video_job",
  // The job row is followed as a task (MCP `tasks`) through video_job_status.
  task: VIDEO_TASK,
  auth: "staff",
  openWorld: true,
  // A clip costs money at the provider: the staff member reads back what is made first.
  confirmRequired: true,
  async confirmSummary(args, context) {
    const language = args.language ?? "en";
    const [kit] = await context.read.query<{ name: string }>(
      "select name from public.brand_kits where id = $1",
      [args.brand_kit_id],
    );
    return say("confirmGenerate", language, {
      brief: args.prompt.scene.slice(0, 300),
      kit: kit?.name ?? say("unknownKit", language),
      size: args.params.size,
      seconds: args.params.seconds,
      model: args.params.model,
      cost: costText(args.params.model, args.params.size, args.params.seconds, language),
    });
  },
  latencyBudgetMs: 400,
  rateLimit: { perUser: { limit: 20, windowSec: 3600 } },
  async execute(args, ctx) {
    const { orgId, userId } = studioCaller(ctx);
    const model: VideoModel = args.params.model;
    const size: VideoSize = args.params.size;
    const kit = await checkWithData(ctx.db, orgId, args, ctx.services.now());
    const [profile] = await ctx.db.query<{ locale: string }>(
      "select locale from public.profiles where id = $1",
      [userId],
    );
    const now = ctx.services.now();
    const [job] = await ctx.db.query<{ id: string }>(
      `insert into public.video_jobs (org_id, requester_id, model, size, seconds, prompt,
         prompt_text, brand_kit_id, reference_images, language, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb, $10, $11, $11)
       returning id`,
      [
        orgId,
        userId,
        model,
        size,
        args.params.seconds,
        args.prompt,
        promptText(args.prompt, kit),
        args.brand_kit_id,
        args.reference_images.map((image) => ({
          path: referencePath(image.path, orgId, "reference_images"),
          consent_ids: image.consent_ids,
        })),
        args.language ?? profile?.locale ?? "en",
        // The platform's clock: the poll's timeout is measured by the same one.
        now.toISOString(),
      ],
    );
    const estimate = new Date(now.getTime() + estimatedMinutes(args.params.seconds) * 60_000);
    return {
      job_id: job.id,
      status: "queued" as const,
      estimated_completion: estimate.toISOString(),
    };
  },
});
