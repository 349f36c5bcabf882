/**
 * The video provider over OpenAI's videos API, through the `openai`
 * package (`client.videos`: create, retrieve, downloadContent, remix, delete), so
 * the wire format is the package's, not ours. `OPENAI_API_KEY` turns it on
 * and `OPENAI_BASE_URL` points it elsewhere (a compatible endpoint, or the
 * tests' loopback server `testing/videos_server.ts`).
 *
 * A 4xx answer about the job itself (a refused prompt, an unknown id) is
 * final: {@link VideoRefused}. Timeouts, 429 and 5xx stay plain errors the
 * next sweep retries.
 *
 * @module
 */
import OpenAI, { toFile } from "openai";
import {
  type CreateVideo,
  NO_VIDEO_PROVIDER,
  type ProviderCallOptions,
  type ProviderVideo,
  type VideoProvider,
  VideoRefused,
} from "./video_provider.ts";

/** Options for {@link createOpenAIVideoProvider}. */
export interface OpenAIVideoOptions {
  /** The API key. */
  apiKey: string;
  /** An OpenAI-compatible endpoint, including `/v1`. @default OpenAI's */
  baseURL?: string;
  /** Per-request timeout in milliseconds. @default 60000 */
  timeoutMs?: number;
}

function providerVideo(video: OpenAI.Videos.Video): ProviderVideo {
  return {
    id: video.id,
    status: video.status,
    progress: Math.max(0, Math.min(100, Math.round(Number(video.progress) || 0))),
    ...(video.error
      ? { error: { code: String(video.error.code), message: String(video.error.message) } }
      : {}),
  };
}

// A refusal about this job: the same request would be refused again.
function refusal(error: unknown): never {
  if (
    error instanceof OpenAI.APIError && error.status !== undefined && error.status >= 400 &&
    error.status < 500 && error.status !== 408 && error.status !== 409 && error.status !== 429
  ) {
    const body = error.error as { code?: unknown; message?: unknown } | undefined;
    throw new VideoRefused(
      String(body?.code ?? error.code ?? `http_${error.status}`),
      String(body?.message ?? error.message).slice(0, 500),
    );
  }
  throw error;
}

function requestOptions(options: ProviderCallOptions = {}) {
  return {
    // The client sends no idempotency header of its own for this API: ours, by name.
    ...(options.idempotencyKey ? { headers: { "Idempotency-Key": options.idempotencyKey } } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/**
 * The provider over OpenAI's videos API.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createOpenAIVideoProvider } from "./openai_videos.ts";
 *
 * const provider = createOpenAIVideoProvider({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9/v1" });
 * assert.equal(provider.configured, true);
 * ```
 */
export function createOpenAIVideoProvider(options: OpenAIVideoOptions): VideoProvider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 60_000,
    // The sweep is the retry: one more attempt here, then the next sweep.
    maxRetries: 1,
  });
  return {
    configured: true,
    async create(input: CreateVideo, call?: ProviderCallOptions) {
      const body: OpenAI.Videos.VideoCreateParams = {
        model: input.model,
        size: input.size,
        seconds: String(input.seconds) as OpenAI.Videos.VideoSeconds,
        prompt: input.prompt,
      };
      if (input.reference) {
        body.input_reference = await toFile(input.reference.bytes, input.reference.name, {
          type: input.reference.mimeType,
        });
      }
      return providerVideo(await client.videos.create(body, requestOptions(call)).catch(refusal));
    },
    async retrieve(id: string, call?: ProviderCallOptions) {
      return providerVideo(await client.videos.retrieve(id, requestOptions(call)).catch(refusal));
    },
    async download(id: string, call?: ProviderCallOptions) {
      const response = await client.videos.downloadContent(id, { variant: "video" }, {
        ...requestOptions(call),
      }).catch(refusal);
      return new Uint8Array(await response.arrayBuffer());
    },
    async remix(id: string, prompt: string, call?: ProviderCallOptions) {
      return providerVideo(
        await client.videos.remix(id, { prompt }, requestOptions(call)).catch(refusal),
      );
    },
    async delete(id: string, call?: ProviderCallOptions) {
      await client.videos.delete(id, requestOptions(call)).catch(refusal);
    },
  };
}

/**
 * The provider the environment configures: OpenAI's with `OPENAI_API_KEY`
 * (and `OPENAI_BASE_URL`, `OPENAI_VIDEO_TIMEOUT_MS`), else
 * {@link NO_VIDEO_PROVIDER}.
 *
 * @throws {RangeError} when `OPENAI_VIDEO_TIMEOUT_MS` is not a whole number from 1000 to 600000.
 */
export function videoProviderFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): VideoProvider {
  const apiKey = env.get("OPENAI_API_KEY");
  const timeout = env.get("OPENAI_VIDEO_TIMEOUT_MS");
  let timeoutMs: number | undefined;
  if (timeout !== undefined && timeout !== "") {
    timeoutMs = Number(timeout);
    if (!/^\d+$/.test(timeout) || timeoutMs < 1000 || timeoutMs > 600_000) {
      throw new RangeError(
        `Cannot read OPENAI_VIDEO_TIMEOUT_MS as it must be a whole number from 1000 to 600000: current value is "${timeout}"`,
      );
    }
  }
  if (!apiKey) return NO_VIDEO_PROVIDER;
  return createOpenAIVideoProvider({
    apiKey,
    baseURL: env.get("OPENAI_BASE_URL") || undefined,
    timeoutMs,
  });
}
