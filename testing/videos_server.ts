/**
 * A loopback server that speaks OpenAI's videos API (`/v1/videos`), for
 * tests and the dev server: no provider is reachable from the build
 * machines, so the real `openai` client is pointed here. It answers
 * `POST /v1/videos` (multipart, as the client sends it),
 * `GET /v1/videos/{id}`, `GET /v1/videos/{id}/content` (an MP4) and
 * `POST /v1/videos/{id}/remix` (JSON) with the package's `Video` objects,
 * `DELETE /v1/videos/{id}` (the job is gone; later reads are 404),
 * checks the bearer key (401 in OpenAI's error envelope otherwise), honours
 * `Idempotency-Key` on creates, and records every request so a test can
 * assert what the provider was sent — or that it was sent nothing.
 *
 * Each job moves on when it is read: `queued`, then `in_progress`, then
 * after {@link VideosServerOptions.pollsToFinish} reads its outcome.
 *
 * @module
 */
import type OpenAI from "openai";

/** How a job ends. */
export type VideoOutcome =
  | { kind: "complete" }
  | { kind: "fail"; code: string; message: string }
  /** Never finishes (a provider that hangs on a job). */
  | { kind: "stuck" };

/** One request the server received. */
export interface RecordedVideoRequest {
  /** HTTP method. */
  method: string;
  /** URL path, e.g. `/v1/videos`. */
  path: string;
  /** Whether the bearer key matched. */
  authorized: boolean;
  /** Form fields (create) or JSON body (remix); files as `{ file, type, size }`. */
  body: Record<string, unknown> | null;
  /** The request's `Idempotency-Key` header. */
  idempotencyKey: string | null;
}

/** Options for {@link startVideosServer}. */
export interface VideosServerOptions {
  /** The bearer key accepted. @default a random `sk-test-…` key */
  apiKey?: string;
  /** Reads of a job before it reaches its outcome. @default 2 */
  pollsToFinish?: number;
  /** How each new job ends, from its create body. @default every job completes */
  outcome?: (body: Record<string, unknown>) => VideoOutcome;
  /** Answer creates with this HTTP error instead (e.g. 400 for a refused prompt, 500). */
  createError?: { status: number; code: string; message: string };
}

/** A running server. */
export interface VideosServer {
  /** What `OPENAI_BASE_URL` would be, including `/v1`. */
  baseURL: string;
  /** The accepted key. */
  apiKey: string;
  /** Every request so far. */
  requests: RecordedVideoRequest[];
  /** The MP4 bytes every finished job serves. */
  mp4: Uint8Array;
  /** Stops the server. */
  close(): Promise<void>;
}

interface Job {
  video: OpenAI.Videos.Video;
  reads: number;
  outcome: VideoOutcome;
}

/** A small, well-formed MP4 header (`ftyp` box) and a few bytes of payload. */
export function tinyMp4(): Uint8Array {
  const ftyp = [0, 0, 0, 24, ...new TextEncoder().encode("ftypmp42"), 0, 0, 0, 0];
  const brands = new TextEncoder().encode("mp42isom");
  const mdat = [0, 0, 0, 16, ...new TextEncoder().encode("mdat"), 1, 2, 3, 4, 5, 6, 7, 8];
  return new Uint8Array([...ftyp, ...brands, ...mdat]);
}

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { message, type: "invalid_request_error", code, param: null } }, {
    status,
  });
}

/** Starts the server on 127.0.0.1 (a free port). */
export function startVideosServer(options: VideosServerOptions = {}): VideosServer {
  const apiKey = options.apiKey ?? `sk-test-${crypto.randomUUID()}`;
  const pollsToFinish = options.pollsToFinish ?? 2;
  const requests: RecordedVideoRequest[] = [];
  const jobs = new Map<string, Job>();
  const byKey = new Map<string, string>();
  const mp4 = tinyMp4();
  let counter = 0;

  function newJob(
    fields: { model: string; size: string; seconds: string; prompt: string },
    outcome: VideoOutcome,
    remixOf: string | null,
  ): Job {
    counter += 1;
    const video: OpenAI.Videos.Video = {
      id: `video_${counter.toString().padStart(4, "0")}${crypto.randomUUID().slice(0, 8)}`,
      object: "video",
      model: fields.model,
      size: fields.size as OpenAI.Videos.VideoSize,
      seconds: fields.seconds,
      prompt: fields.prompt,
      status: "queued",
      progress: 0,
      created_at: Math.floor(Date.now() / 1000),
      completed_at: null,
      expires_at: null,
      error: null,
      remixed_from_video_id: remixOf,
    };
    const job = { video, reads: 0, outcome };
    jobs.set(video.id, job);
    return job;
  }

  function advance(job: Job): void {
    job.reads += 1;
    const video = job.video;
    if (video.status === "completed" || video.status === "failed") return;
    if (job.reads < pollsToFinish || job.outcome.kind === "stuck") {
      video.status = "in_progress";
      video.progress = Math.min(90, job.reads * 40);
      return;
    }
    if (job.outcome.kind === "complete") {
      video.status = "completed";
      video.progress = 100;
      video.completed_at = Math.floor(Date.now() / 1000);
    } else {
      video.status = "failed";
      video.error = { code: job.outcome.code, message: job.outcome.message };
    }
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const authorized = request.headers.get("authorization") === `Bearer ${apiKey}`;
    const record: RecordedVideoRequest = {
      method: request.method,
      path: url.pathname,
      authorized,
      body: null,
      idempotencyKey: request.headers.get("idempotency-key"),
    };
    requests.push(record);
    if (request.method === "POST" && url.pathname === "/v1/videos") {
      const form = await request.formData();
      const body: Record<string, unknown> = {};
      for (const [name, value] of form.entries()) {
        body[name] = typeof value === "string"
          ? value
          : { file: value.name, type: value.type, size: value.size };
      }
      record.body = body;
    } else if (request.method === "POST") {
      record.body = await request.json().catch(() => null);
    }
    if (!authorized) return errorResponse(401, "invalid_api_key", "Incorrect API key provided");

    const parts = url.pathname.split("/").filter(Boolean); // v1, videos, id?, action?
    if (parts[0] !== "v1" || parts[1] !== "videos") return errorResponse(404, "not_found", "No");
    if (request.method === "POST" && parts.length === 2) {
      if (options.createError) {
        const { status, code, message } = options.createError;
        return errorResponse(status, code, message);
      }
      const key = record.idempotencyKey;
      if (key && byKey.has(key)) return Response.json(jobs.get(byKey.get(key)!)!.video);
      const body = record.body ?? {};
      const job = newJob(
        {
          model: String(body.model ?? "sora-2"),
          size: String(body.size ?? "720x1280"),
          seconds: String(body.seconds ?? "4"),
          prompt: String(body.prompt ?? ""),
        },
        options.outcome?.(body) ?? { kind: "complete" },
        null,
      );
      if (key) byKey.set(key, job.video.id);
      return Response.json(job.video);
    }
    const job = jobs.get(parts[2] ?? "");
    if (!job) return errorResponse(404, "video_not_found", `No video ${parts[2]}`);
    if (request.method === "DELETE" && parts.length === 3) {
      // Gone: later reads of it are 404, as at the provider.
      jobs.delete(job.video.id);
      return Response.json({ id: job.video.id, object: "video.deleted", deleted: true });
    }
    if (request.method === "GET" && parts.length === 3) {
      advance(job);
      return Response.json(job.video);
    }
    if (request.method === "GET" && parts[3] === "content") {
      if (job.video.status !== "completed") {
        return errorResponse(409, "video_not_ready", "The video is not ready");
      }
      return new Response(mp4.slice(), { headers: { "content-type": "video/mp4" } });
    }
    if (request.method === "POST" && parts[3] === "remix") {
      if (job.video.status !== "completed") {
        return errorResponse(400, "invalid_source", "Only a completed video can be remixed");
      }
      const key = record.idempotencyKey;
      if (key && byKey.has(key)) return Response.json(jobs.get(byKey.get(key)!)!.video);
      const source = job.video;
      const remix = newJob(
        {
          model: source.model,
          size: source.size,
          seconds: String(source.seconds),
          prompt: String((record.body ?? {}).prompt ?? ""),
        },
        { kind: "complete" },
        source.id,
      );
      if (key) byKey.set(key, remix.video.id);
      return Response.json(remix.video);
    }
    return errorResponse(404, "not_found", "No such route");
  }

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handle);
  const baseURL = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`;
  return {
    baseURL,
    apiKey,
    requests,
    mp4,
    async close() {
      await server.shutdown();
    },
  };
}
