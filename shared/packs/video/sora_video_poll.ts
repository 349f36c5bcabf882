/**
 * `sora_video_poll`: the background half of the studio, run by the
 * platform's sweep (`Pack.schedules`, every minute, per tenant running the
 * studio). For each open job of the org it:
 *
 * - sends a `queued` job to the provider (`create`, or `remix` of the
 *   finished job it changes), keyed `video-job:<id>` so a retried create
 *   makes no second clip;
 * - reads a submitted job's status: `queued` → `processing` → `complete` or
 *   `failed`;
 * - once complete, downloads the MP4 into Storage
 *   (`media/<org>/videos/<job>.mp4`) and sends it to the requester on
 *   WhatsApp as a video (a link when it is over WhatsApp's 16 MB);
 * - once failed (the provider's refusal, or no result after
 *   {@link JOB_TIMEOUT_MS}), tells the requester why and opens a staff
 *   ticket, so staff see it in the Admin Inbox as well as on the job;
 * - a job cancelled while its create was in flight (`video_job_cancel`
 *   committed between the create and this poll's write) stays cancelled:
 *   the provider job the create made is kept on it as
 *   `provider_discard = 'pending'`, and the next sweep deletes it at the
 *   provider. It is never read back, downloaded or delivered.
 *
 * Provider and Storage calls run in `prepare`, before the transaction (no
 * connection held while a clip downloads); `execute` re-reads the jobs under
 * lock and writes only what is still current. Messages are keyed by job, so
 * a job is delivered or reported once. A provider that is down (timeouts,
 * 5xx) changes nothing: the next sweep tries again, until the timeout.
 *
 * @module
 */
import { z } from "zod";
import { languageFromLocale } from "@shared/contract/language.ts";
import { ToolFailure } from "@shared/contract/result.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { MESSAGING, templateOut, textOut, videoOut } from "@shared/capabilities/messaging/mod.ts";
import { BUCKETS, FILE_STORE } from "@shared/storage/file_store.ts";
import { say } from "./texts.ts";
import {
  type ProviderVideo,
  VIDEO_PROVIDER,
  type VideoModel,
  VideoRefused,
  type VideoSize,
} from "./video_provider.ts";

/** A job with no result this long after it was queued fails as timed out. */
export const JOB_TIMEOUT_MS = 30 * 60_000;

/** How long the delivered video's link lasts. */
const LINK_SECONDS = 7 * 86_400;

/** WhatsApp's largest outbound video. */
const WHATSAPP_VIDEO_BYTES = 16 * 1024 * 1024;

/** At most this many jobs per sweep: the next sweep takes the rest. */
const BATCH = 10;

interface JobRow {
  id: string;
  status: "queued" | "processing" | "cancelled";
  provider_job_id: string | null;
  model: VideoModel;
  size: VideoSize;
  seconds: 4 | 8 | 12;
  prompt_text: string;
  reference_images: Array<{ path: string }>;
  remix_source: string | null;
  created_at: string;
  language: string;
  requester_id: string | null;
  requester_phone: string | null;
}

const DUE_SQL = `
  select j.id, j.status, j.provider_job_id, j.model, j.size, j.seconds, j.prompt_text,
         j.reference_images, s.provider_job_id as remix_source,
         to_jsonb(j.created_at) #>> '{}' as created_at, j.language, j.requester_id,
         p.phone as requester_phone
    from public.video_jobs j
    left join public.video_jobs s on s.org_id = j.org_id and s.id = j.remix_of
    left join public.profiles p on p.id = j.requester_id
   where j.org_id = $1
     and (j.status in ('queued', 'processing') or j.provider_discard = 'pending')
   order by j.created_at, j.id
   limit ${BATCH}`;

/** What the provider said of one job, decided in `prepare`. */
type Outcome =
  /** `submitted`: this poll's create (or remix) made the provider job. */
  | { kind: "moved"; video: ProviderVideo; submitted: boolean }
  /** A cancelled job's provider job is deleted (or was gone already). */
  | { kind: "discarded" }
  | { kind: "complete"; video: ProviderVideo; path: string; url: string; bytes: number }
  | { kind: "failed"; error: string; timedOut: boolean };

const output = z.object({
  submitted: z.int(),
  processing: z.int(),
  completed: z.array(z.uuid()),
  failed: z.array(z.uuid()),
  discarded: z.array(z.uuid()).describe(
    "Cancelled jobs whose provider job (made while the cancel raced its create) was deleted.",
  ),
});

function ourStatus(video: ProviderVideo): "queued" | "processing" {
  return video.status === "queued" ? "queued" : "processing";
}

/** The `sora_video_poll` tool. */
export const soraVideoPoll = defineTool({
  name: "sora_video_poll",
  title: "Follow video jobs",
  description: "Sends queued video jobs to the provider, follows them, stores finished videos " +
    "and sends them to the staff member who asked on WhatsApp; failed or timed-out jobs are " +
    "reported to them and to staff. Run by the platform's sweep.",
  category: "video",
  input: z.strictObject({}),
  output,
  examples: [{ input: {} }],
  sideEffects: "writes.video_job",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 15_000,
  timeoutMs: 240_000,
  async prepare(_args, ctx): Promise<Map<string, Outcome>> {
    const orgId = ctx.org_id;
    if (!orgId) throw new ToolFailure("AUTH_ERROR", "The poll runs on one org");
    const provider = ctx.services.get(VIDEO_PROVIDER);
    const files = ctx.services.get(FILE_STORE);
    const now = ctx.services.now().getTime();
    const outcomes = new Map<string, Outcome>();
    for (const job of await ctx.read.query<JobRow>(DUE_SQL, [orgId])) {
      if (job.status === "cancelled") {
        if (!provider.configured) continue;
        try {
          await provider.delete(job.provider_job_id!, { signal: ctx.signal });
          outcomes.set(job.id, { kind: "discarded" });
        } catch (error) {
          // A refusal is final (an id the provider no longer knows is gone already);
          // anything else is transient and the next sweep deletes it.
          if (error instanceof VideoRefused) outcomes.set(job.id, { kind: "discarded" });
        }
        continue;
      }
      const timedOut = now - Date.parse(job.created_at) > JOB_TIMEOUT_MS;
      // A job never sent is not sent late; a sent one is read first, so a clip the provider
      // finished (and bills) is delivered even when this sweep comes after the timeout.
      if (timedOut && (!job.provider_job_id || !provider.configured)) {
        outcomes.set(job.id, { kind: "failed", error: "timed out", timedOut: true });
        continue;
      }
      if (!provider.configured) continue;
      const call = { idempotencyKey: `video-job:${job.id}`, signal: ctx.signal };
      try {
        if (!job.provider_job_id) {
          let video: ProviderVideo;
          if (job.remix_source) {
            video = await provider.remix(job.remix_source, job.prompt_text, call);
          } else {
            const image = job.reference_images[0];
            const reference = image
              ? await files.download({ bucket: BUCKETS.media, path: image.path })
              : undefined;
            video = await provider.create({
              model: job.model,
              size: job.size,
              seconds: job.seconds,
              prompt: job.prompt_text,
              ...(reference
                ? {
                  reference: {
                    bytes: reference.bytes,
                    mimeType: reference.contentType,
                    name: image.path.split("/").pop()!,
                  },
                }
                : {}),
            }, call);
          }
          outcomes.set(job.id, { kind: "moved", video, submitted: true });
          continue;
        }
        const video = await provider.retrieve(job.provider_job_id, { signal: ctx.signal });
        if (video.status === "failed") {
          const error = video.error?.message ?? video.error?.code ?? "the provider failed";
          outcomes.set(job.id, { kind: "failed", error, timedOut: false });
        } else if (video.status === "completed") {
          const bytes = await provider.download(job.provider_job_id, { signal: ctx.signal });
          const path = `${orgId}/videos/${job.id}.mp4`;
          await files.upload({
            bucket: BUCKETS.media,
            path,
            bytes,
            contentType: "video/mp4",
            upsert: true,
          });
          const link = await files.signedUrl({
            bucket: BUCKETS.media,
            path,
            expiresInSeconds: LINK_SECONDS,
          });
          outcomes.set(job.id, {
            kind: "complete",
            video,
            path,
            url: link.url,
            bytes: bytes.byteLength,
          });
        } else if (timedOut) {
          outcomes.set(job.id, { kind: "failed", error: "timed out", timedOut: true });
        } else {
          outcomes.set(job.id, { kind: "moved", video, submitted: false });
        }
      } catch (error) {
        if (error instanceof VideoRefused) {
          outcomes.set(job.id, {
            kind: "failed",
            error: `${error.message} (${error.code})`,
            timedOut: false,
          });
        } else if (error instanceof ToolFailure && error.code === "NOT_FOUND") {
          // The reference image is gone from Storage: asking again will not bring it back.
          outcomes.set(job.id, {
            kind: "failed",
            error: "its reference image is no longer in Storage",
            timedOut: false,
          });
        } else if (timedOut) {
          outcomes.set(job.id, { kind: "failed", error: "timed out", timedOut: true });
        }
        // Anything else is transient: the next sweep asks again, until the timeout.
      }
    }
    return outcomes;
  },
  async execute(_args, ctx) {
    const orgId = ctx.org_id!;
    const outcomes = ctx.prepared as Map<string, Outcome>;
    const messaging = ctx.services.get(MESSAGING);
    const now = ctx.services.now().toISOString();
    const result = {
      submitted: 0,
      processing: 0,
      completed: [] as string[],
      failed: [] as string[],
      discarded: [] as string[],
    };
    if (!outcomes.size) return result;
    // Seen again under lock: a poll running beside this one skips these jobs.
    const rows = await ctx.db.query<JobRow & { brief: string }>(
      `select j.id, j.status, j.provider_job_id, j.language, j.requester_id,
              p.phone as requester_phone, j.prompt ->> 'scene' as brief
         from public.video_jobs j
         left join public.profiles p on p.id = j.requester_id
        where j.org_id = $1 and j.id = any($2::uuid[])
          and j.status in ('queued', 'processing', 'cancelled')
        for update of j skip locked`,
      [orgId, [...outcomes.keys()]],
    );
    // A job this poll just submitted whose row was locked is most likely being cancelled right
    // now: wait for that cancel (a short transaction) instead of losing the provider job's id.
    // The row is matched by the status it had before the lock (queued), re-read after it: a
    // filter on 'cancelled' alone would pass over the uncommitted cancel without waiting.
    const seen = new Set(rows.map((job) => job.id));
    const waitFor = [...outcomes].filter(([id, outcome]) =>
      !seen.has(id) && outcome.kind === "moved" && outcome.submitted
    ).map(([id]) => id).sort();
    if (waitFor.length) {
      rows.push(
        ...await ctx.db.query<JobRow & { brief: string }>(
          `select j.id, j.status, j.provider_job_id, j.language, j.requester_id,
                  null as requester_phone, '' as brief
             from public.video_jobs j
            where j.org_id = $1 and j.id = any($2::uuid[])
              and j.status in ('queued', 'processing', 'cancelled')
            order by j.id
            for update of j`,
          [orgId, waitFor],
        ),
      );
    }
    for (const job of rows) {
      const outcome = outcomes.get(job.id)!;
      const lang = languageFromLocale(job.language);
      if (job.status === "cancelled") {
        // Cancelled while its create was in flight: keep the provider job to delete it there.
        if (outcome.kind === "moved" && outcome.submitted && !job.provider_job_id) {
          await ctx.db.query(
            `update public.video_jobs
                set provider_job_id = $2, provider_discard = 'pending', updated_at = $3
              where id = $1`,
            [job.id, outcome.video.id, now],
          );
        } else if (outcome.kind === "discarded") {
          await ctx.db.query(
            `update public.video_jobs set provider_discard = 'done', updated_at = $2
              where id = $1 and provider_discard = 'pending'`,
            [job.id, now],
          );
          result.discarded.push(job.id);
        }
        continue;
      }
      if (outcome.kind === "discarded") continue;
      if (outcome.kind === "moved") {
        const submitted = !job.provider_job_id;
        await ctx.db.query(
          `update public.video_jobs
              set provider_job_id = coalesce(provider_job_id, $2), status = $3, progress = $4,
                  updated_at = $5
            where id = $1`,
          [job.id, outcome.video.id, ourStatus(outcome.video), outcome.video.progress, now],
        );
        if (submitted) result.submitted += 1;
        else result.processing += 1;
        continue;
      }
      if (outcome.kind === "complete") {
        await ctx.db.query(
          `update public.video_jobs
              set status = 'complete', progress = 100, result_path = $2, result_bytes = $3,
                  completed_at = $4, updated_at = $4
            where id = $1`,
          [job.id, outcome.path, outcome.bytes, now],
        );
        if (job.requester_phone) {
          const brief = job.brief.length > 200 ? `${job.brief.slice(0, 199)}…` : job.brief;
          await messaging.send(ctx.db, {
            orgId,
            to: job.requester_phone,
            message: outcome.bytes <= WHATSAPP_VIDEO_BYTES
              ? videoOut({
                link: outcome.url,
                caption: say("ready", lang, { brief }),
                file: { mimeType: "video/mp4", size: outcome.bytes },
              })
              : textOut(say("readyLink", lang, {
                url: outcome.url,
                expires: new Date(ctx.services.now().getTime() + LINK_SECONDS * 1000)
                  .toISOString().slice(0, 10),
              })),
            // A requester who has not written for a day is outside the window: the approved
            // template gives the brief and the link (docs/whatsapp_templates.md).
            fallback: templateOut({
              name: "video_ready",
              language: lang,
              parameters: [brief, outcome.url],
            }),
            idempotencyKey: `video-job:${job.id}:ready`,
          });
        }
        result.completed.push(job.id);
        continue;
      }
      const error = outcome.timedOut ? say("timedOut", "en") : outcome.error;
      await ctx.db.query(
        `update public.video_jobs set status = 'failed', error = $2, updated_at = $3
          where id = $1`,
        [job.id, error.slice(0, 1000), now],
      );
      await ctx.db.query(
        `insert into public.staff_tickets
           (org_id, channel, reason, summary, priority, requester_user_id)
         values ($1, 'inbox', 'Video job failed', $2, 'medium', $3)`,
        [orgId, `Video job ${job.id} failed: ${error}`.slice(0, 2000), job.requester_id],
      );
      if (job.requester_phone) {
        const reason = outcome.timedOut ? say("timedOut", lang) : error;
        await messaging.send(ctx.db, {
          orgId,
          to: job.requester_phone,
          message: textOut(say("failed", lang, { reason })),
          fallback: templateOut({ name: "video_failed", language: lang, parameters: [reason] }),
          idempotencyKey: `video-job:${job.id}:failed`,
        });
      }
      result.failed.push(job.id);
    }
    return result;
  },
});
