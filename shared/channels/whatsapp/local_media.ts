/**
 * The local stand-in for the Graph API's media endpoints, for the dev server:
 * the simulator uploads a file the way a business uploads to Meta
 * (`POST /<phone-number-id>/media`, multipart `file`, `type`,
 * `messaging_product`) and gets a media id; the worker then downloads it
 * through the production two-step path (`createGraphMediaSource`):
 * `GET /<media-id>` → `{url, mime_type, sha256, file_size, id}`, `GET url` →
 * the bytes, both with the bearer token. So a media message sent from
 * `deno task chat` is checked and saved to Storage exactly as in production.
 *
 * Files live under `root` (`<id>` and `<id>.json`); nothing leaves the
 * machine. Uploads are read through `shared/http/body.ts` up to
 * {@link LOCAL_MEDIA_MAX_BYTES}: the worker applies WhatsApp's own per-type
 * limits, so an oversized photo can be tried locally and is refused there.
 *
 * @module
 */
import { sha256Hex } from "@shared/runtime/canonical.ts";
import { timingSafeEqual } from "node:crypto";
import { readBody, refusalResponse } from "@shared/http/body.ts";

/** Where the dev server mounts it: the media source's base URL is `<origin>` + this. */
export const LOCAL_GRAPH_PREFIX = "/dev/v1/graph";

/** The largest upload: WhatsApp's largest file (a 100 MB document). */
export const LOCAL_MEDIA_MAX_BYTES = 100 * 1024 * 1024;

/** Options for {@link createLocalMediaServer}. */
export interface LocalMediaServerOptions {
  /** Folder holding the files. */
  root: string;
  /** The bearer token uploads and downloads must carry. */
  token: string;
  /** Largest upload. @default LOCAL_MEDIA_MAX_BYTES */
  maxBytes?: number;
}

/** The local media endpoints. */
export interface LocalMediaServer {
  /** Answers requests under {@link LOCAL_GRAPH_PREFIX}. */
  fetch(request: Request): Promise<Response>;
}

interface StoredFile {
  id: string;
  mime_type: string;
  sha256: string;
  file_size: number;
}

const encoder = new TextEncoder();

function sameToken(header: string | null, token: string): boolean {
  const a = encoder.encode(header ?? "");
  const b = encoder.encode(`Bearer ${token}`);
  return a.length === b.length && timingSafeEqual(a, b);
}

// Meta's error envelope, as the Graph API answers.
function graphError(status: number, code: number, message: string): Response {
  return Response.json({ error: { message, type: "OAuthException", code } }, { status });
}

function newMediaId(): string {
  const digits = crypto.getRandomValues(new Uint32Array(2));
  return `${digits[0]}${String(digits[1]).padStart(10, "0")}`.slice(0, 16).padStart(16, "1");
}

/**
 * Creates the local media endpoints.
 *
 * @example
 * ```ts ignore
 * const media = createLocalMediaServer({ root: ".data/wa_media/", token });
 * // in the dev server's router:
 * if (url.pathname.startsWith(LOCAL_GRAPH_PREFIX)) return media.fetch(request);
 * ```
 */
export function createLocalMediaServer(options: LocalMediaServerOptions): LocalMediaServer {
  const root = options.root.endsWith("/") ? options.root : `${options.root}/`;
  const maxBytes = options.maxBytes ?? LOCAL_MEDIA_MAX_BYTES;

  async function upload(request: Request): Promise<Response> {
    const read = await readBody(request, { maxBytes: maxBytes + 64 * 1024 });
    if (!read.ok) return refusalResponse(read);
    let form: FormData;
    try {
      form = await new Response(read.bytes.slice(), {
        headers: { "content-type": request.headers.get("content-type") ?? "" },
      }).formData();
    } catch {
      return graphError(400, 100, "(#100) The request must be multipart/form-data");
    }
    const file = form.get("file");
    if (form.get("messaging_product") !== "whatsapp") {
      return graphError(400, 100, "(#100) messaging_product must be whatsapp");
    }
    if (!(file instanceof File)) return graphError(400, 100, "(#100) Param file is required");
    const mimeType = String(form.get("type") ?? file.type).split(";")[0].trim().toLowerCase();
    if (!/^[a-z]+\/[a-z0-9.+-]+$/.test(mimeType)) {
      return graphError(400, 100, "(#100) Param type must be a MIME type");
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (bytes.byteLength > maxBytes) return graphError(400, 131053, "(#131053) File too large");
    const stored: StoredFile = {
      id: newMediaId(),
      mime_type: mimeType,
      sha256: await sha256Hex(bytes),
      file_size: bytes.byteLength,
    };
    await Deno.mkdir(root, { recursive: true });
    await Deno.writeFile(`${root}${stored.id}`, bytes);
    await Deno.writeTextFile(`${root}${stored.id}.json`, JSON.stringify(stored));
    return Response.json({ id: stored.id });
  }

  async function stored(id: string): Promise<StoredFile | null> {
    try {
      return JSON.parse(await Deno.readTextFile(`${root}${id}.json`)) as StoredFile;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }
  }

  return {
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname.slice(LOCAL_GRAPH_PREFIX.length);
      if (!sameToken(request.headers.get("authorization"), options.token)) {
        await request.body?.cancel();
        return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
      }
      if (request.method === "POST" && /^\/\d+\/media$/.test(path)) return await upload(request);
      const meta = /^\/(\d{1,20})$/.exec(path);
      if (request.method === "GET" && meta) {
        const file = await stored(meta[1]);
        if (!file) return graphError(400, 100, `(#100) Media ${meta[1]} not found`);
        return Response.json({
          messaging_product: "whatsapp",
          url: `${url.origin}${LOCAL_GRAPH_PREFIX}/attachments/${file.id}`,
          ...file,
        });
      }
      const download = /^\/attachments\/(\d{1,20})$/.exec(path);
      if (request.method === "GET" && download) {
        const file = await stored(download[1]);
        if (!file) return new Response("Not found", { status: 404 });
        const bytes = await Deno.readFile(`${root}${file.id}`);
        return new Response(bytes, {
          headers: { "content-type": file.mime_type, "content-length": String(bytes.length) },
        });
      }
      await request.body?.cancel();
      return graphError(400, 100, "(#100) Unsupported request");
    },
  };
}

/**
 * Uploads a file the way the Graph API takes one (multipart `file`, `type`,
 * `messaging_product`); answers the media id. The simulator's half.
 *
 * @throws {Error} when the server refuses the upload (its Graph error message).
 */
export async function uploadMedia(options: {
  /** The Graph root, e.g. `http://127.0.0.1:54321/dev/v1/graph`. */
  baseUrl: string;
  /** The business number's phone-number id. */
  phoneNumberId: string;
  /** The bearer token. */
  token: string;
  /** The bytes. */
  bytes: Uint8Array;
  /** Their content type. */
  mimeType: string;
  /** The file name. */
  filename: string;
}): Promise<string> {
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", options.mimeType);
  form.set(
    "file",
    new File([options.bytes.slice()], options.filename, { type: options.mimeType }),
  );
  const response = await fetch(`${options.baseUrl}/${options.phoneNumberId}/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.token}` },
    body: form,
  });
  const answer = await response.json().catch(() => null) as
    | { id?: unknown; error?: { message?: unknown } }
    | null;
  if (!response.ok || typeof answer?.id !== "string") {
    throw new Error(
      `media upload refused (${response.status}): ${
        String(answer?.error?.message ?? "no Graph answer")
      }`,
    );
  }
  return answer.id;
}
