/**
 * The video provider the studio's tools speak to, as a port: create a clip,
 * read its status, download the MP4, remix a finished one. The OpenAI
 * adapter (`openai_videos.ts`) implements it with the `openai` package's
 * videos API and is provided where the background poll runs (the `agent`
 * function's sweep, the dev server); other functions, which only queue jobs,
 * get {@link videoProviderElsewhere} and so carry no `openai` client. Without
 * a key it is {@link NO_VIDEO_PROVIDER}, which says so and never pretends a
 * job was made.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/result.ts";
import { type ServiceKey, serviceKey } from "@shared/registry/pack.ts";

/** The models the studio renders with. */
export const VIDEO_MODELS = ["sora-2", "sora-2-pro"] as const;

/** A model name. */
export type VideoModel = typeof VIDEO_MODELS[number];

/** Every size a model may render, widest list first. */
export const VIDEO_SIZES = ["1280x720", "720x1280", "1024x1792", "1792x1024"] as const;

/** A size, `<width>x<height>`. */
export type VideoSize = typeof VIDEO_SIZES[number];

/** The clip lengths, in seconds. */
export const VIDEO_SECONDS = [4, 8, 12] as const;

/** The sizes each model renders: sora-2 landscape and portrait HD, sora-2-pro adds the tall ones. */
export const SIZES_BY_MODEL: Readonly<Record<VideoModel, readonly VideoSize[]>> = {
  "sora-2": ["1280x720", "720x1280"],
  "sora-2-pro": ["1280x720", "720x1280", "1024x1792", "1792x1024"],
};

/**
 * The provider's list price in US dollars per second of video, by model and
 * size, for the confirmation's cost estimate: OpenAI's published video
 * pricing (sora-2 $0.10/s; sora-2-pro $0.30/s at 720p, $0.50/s at the tall
 * sizes). An estimate only: the invoice is the provider's.
 */
export const PRICE_USD_PER_SECOND: Readonly<
  Record<VideoModel, Partial<Record<VideoSize, number>>>
> = {
  "sora-2": { "1280x720": 0.1, "720x1280": 0.1 },
  "sora-2-pro": { "1280x720": 0.3, "720x1280": 0.3, "1024x1792": 0.5, "1792x1024": 0.5 },
};

/** The estimated cost of a clip in US dollars, or null when the price is not known. */
export function estimatedCostUsd(model: string, size: string, seconds: number): number | null {
  const perSecond = (PRICE_USD_PER_SECOND as Record<string, Record<string, number | undefined>>)[
    model
  ]?.[size];
  return perSecond === undefined ? null : Math.round(perSecond * seconds * 100) / 100;
}

/** A job as the provider reports it. */
export interface ProviderVideo {
  /** The provider's id for the job. */
  id: string;
  /** Where it is. */
  status: "queued" | "in_progress" | "completed" | "failed";
  /** Approximate completion, 0 to 100. */
  progress: number;
  /** Why it failed, when it did. */
  error?: { code: string; message: string };
}

/** A reference image sent with a new job. */
export interface ReferenceImage {
  /** The file's bytes. */
  bytes: Uint8Array;
  /** Its type, e.g. `image/jpeg`. */
  mimeType: string;
  /** A file name for the upload. */
  name: string;
}

/** What {@link VideoProvider.create} sends. */
export interface CreateVideo {
  /** The model. */
  model: VideoModel;
  /** The size, one the model renders. */
  size: VideoSize;
  /** The clip's length. */
  seconds: typeof VIDEO_SECONDS[number];
  /** The prompt's text. */
  prompt: string;
  /** A reference image that guides the first frame. */
  reference?: ReferenceImage;
}

/** Per-call options: one key per job, so a retried create makes no second clip. */
export interface ProviderCallOptions {
  /** Sent as the request's idempotency key. */
  idempotencyKey?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** The provider port. */
export interface VideoProvider {
  /** False when no key is configured: every call then fails with SERVICE_UNAVAILABLE. */
  readonly configured: boolean;
  /** Starts a job. */
  create(input: CreateVideo, options?: ProviderCallOptions): Promise<ProviderVideo>;
  /** Reads a job's status. */
  retrieve(id: string, options?: ProviderCallOptions): Promise<ProviderVideo>;
  /** Downloads a finished job's MP4. */
  download(id: string, options?: ProviderCallOptions): Promise<Uint8Array>;
  /** Starts a job that changes a finished one by a small delta. */
  remix(id: string, prompt: string, options?: ProviderCallOptions): Promise<ProviderVideo>;
  /**
   * Deletes a job (`DELETE /v1/videos/{id}`): what a job cancelled while its
   * create was in flight leaves behind. An id the provider no longer knows is
   * {@link VideoRefused}, i.e. already gone.
   */
  delete(id: string, options?: ProviderCallOptions): Promise<void>;
}

/**
 * A provider answer that is final for the job (a refused prompt, an unknown
 * id): the job fails and the requester is told. Anything else thrown by a
 * provider is transient and the next sweep tries again.
 */
export class VideoRefused extends Error {
  /** The provider's code, e.g. `moderation_blocked`. */
  readonly code: string;

  /** @param code The provider's code. @param message Its explanation. */
  constructor(code: string, message: string) {
    super(message);
    this.name = "VideoRefused";
    this.code = code;
  }
}

/** The service under which the platform provides the provider. */
export const VIDEO_PROVIDER: ServiceKey<VideoProvider> = serviceKey<VideoProvider>(
  "video.provider",
);

function unavailable(): never {
  throw new ToolFailure(
    "SERVICE_UNAVAILABLE",
    "Video generation is not set up here: no OpenAI key is configured (OPENAI_API_KEY)",
  );
}

/** The provider of a deployment without a key: honest, it makes no job. */
export const NO_VIDEO_PROVIDER: VideoProvider = {
  configured: false,
  create: unavailable,
  retrieve: unavailable,
  download: unavailable,
  remix: unavailable,
  delete: unavailable,
};

/**
 * The provider of a function that only queues jobs (`tools`, `wa-webhook`):
 * configured when `OPENAI_API_KEY` is set, so `sora_generate_video` queues;
 * the calls themselves are made by the `agent` function's sweep, which has
 * the client. Called here, it answers SERVICE_UNAVAILABLE.
 */
export function videoProviderElsewhere(env: Pick<Deno.Env, "get"> = Deno.env): VideoProvider {
  if (!env.get("OPENAI_API_KEY")) return NO_VIDEO_PROVIDER;
  const elsewhere = (): never => {
    throw new ToolFailure(
      "SERVICE_UNAVAILABLE",
      "This function does not call the video provider: the agent function's sweep does",
    );
  };
  return {
    configured: true,
    create: elsewhere,
    retrieve: elsewhere,
    download: elsewhere,
    remix: elsewhere,
    delete: elsewhere,
  };
}
