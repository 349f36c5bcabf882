/**
 * The video pack: the Sora-2 Video studio, a staff agent. Staff brief a short
 * ad, pick a brand kit, a format and a length, confirm, and get the video on
 * WhatsApp when it is ready. Tools: `sora_generate_video` (the rules, checked
 * before any provider call, then a queued job), `sora_remix_video` (a small
 * change to a finished video), `video_job_status` and `video_job_cancel` (a job
 * not yet sent to the provider), and `sora_video_poll` (the platform's sweep:
 * submit, follow, store, deliver or report). The provider
 * is a port (`video_provider.ts`) the platform provides: OpenAI's videos API
 * with a key, else an honest "not set up".
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { soraGenerateVideo } from "./sora_generate_video.ts";
import { soraRemixVideo } from "./sora_remix_video.ts";
import { soraVideoPoll } from "./sora_video_poll.ts";
import { videoJobStatus } from "./video_job_status.ts";
import { videoJobCancel } from "./video_job_cancel.ts";
import { VIDEO_TEXTS } from "./texts.ts";
import { VIDEO_PROVIDER } from "./video_provider.ts";
import { videoFlow } from "./video_flow.ts";
import { VIDEO_STAFF_WORK, VIDEO_STAFF_WORK_NAME } from "./staff_work.ts";

export {
  NO_VIDEO_PROVIDER,
  VIDEO_PROVIDER,
  type VideoProvider,
  videoProviderElsewhere,
} from "./video_provider.ts";

/** The video pack. */
export const VIDEO_PACK: Pack = {
  id: "sora_video",
  tools: [soraGenerateVideo, soraRemixVideo, soraVideoPoll, videoJobStatus, videoJobCancel],
  agents: [{
    id: "sora_video",
    name: "Sora-2 Video",
    description: "Produces short video ads from a brand kit.",
    audience: "staff",
    // What customers ask of it: learnt as staff work, answered "our team does that".
    staffWork: VIDEO_STAFF_WORK,
    staffWorkName: VIDEO_STAFF_WORK_NAME,
    tools: [
      "sora_generate_video",
      "sora_remix_video",
      "video_job_status",
      "video_job_cancel",
      "search_supabase",
      "analytics_log",
    ],
    // Staff reach it from the staff desk's menu; customers never see it.
    menuTitle: {
      en: "Video ads (Sora-2)",
      rw: "Amashusho yamamaza (Sora-2)",
      fr: "Vidéos pub (Sora-2)",
    },
    ...videoFlow,
  }],
  tables: {
    video_jobs: {
      id: "uuid",
      org_id: "uuid",
      requester_id: "uuid",
      model: "text",
      size: "text",
      seconds: "number",
      status: "text",
      progress: "number",
      error: "text",
      result_path: "text",
      remix_of: "uuid",
      brand_kit_id: "uuid",
      created_at: "timestamptz",
      completed_at: "timestamptz",
    },
    brand_kits: { id: "uuid", org_id: "uuid", name: "text", palette: "text[]", tone: "text" },
    video_consents: {
      id: "uuid",
      org_id: "uuid",
      person: "text",
      scope: "text",
      given_at: "timestamptz",
      revoked_at: "timestamptz",
    },
  },
  texts: VIDEO_TEXTS,
  services: [VIDEO_PROVIDER, FILE_STORE, MESSAGING],
  // Jobs move on in the background: submitted, followed, delivered or reported.
  schedules: [{ id: "poll_video_jobs", tool: "sora_video_poll", everyMinutes: 1 }],
};
