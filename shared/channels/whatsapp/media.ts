/**
 * Inbound WhatsApp media: the Graph API's two-step download (`GET /<media-id>`
 * with the token → `{url, mime_type, sha256, file_size}` → `GET url` with the
 * token → bytes), checked against WhatsApp's own type and size limits and
 * Meta's sha256, then saved to Storage at `media/<org>/<conversation>/<wamid>`.
 *
 * Runs in inbound processing, never in the webhook: the webhook answers 200
 * once the message is stored. A lookup the Graph API refuses is thrown as a
 * {@link GraphMediaError} whose `kind` says whether it is the customer's file
 * (an unknown or expired id), our credentials or worth a retry; any other
 * download or Storage failure is thrown as it is, so the processor retries the
 * message. A type or size WhatsApp itself would not carry is refused: the
 * user is told in their language, nothing is stored.
 *
 * @module
 */
import { sha256Hex } from "@shared/runtime/canonical.ts";
import type { Language } from "@shared/contract/language.ts";
import type { FileStore } from "@shared/storage/file_store.ts";
import { GraphMediaError, readGraphError } from "./graph_media_error.ts";
import type { InboundContent, StoredMedia } from "./inbound.ts";

const MB = 1024 * 1024;

/**
 * The types and sizes accepted, after WhatsApp's media limits (Cloud API
 * "supported media types"). Documents: WhatsApp carries up to 100 MB; we cap
 * them at 25 MB (phone photos and scans are far smaller, and every byte is
 * stored).
 */
export const MEDIA_LIMITS: Readonly<
  Record<string, { types: readonly string[]; maxBytes: number }>
> = {
  image: { types: ["image/jpeg", "image/png"], maxBytes: 5 * MB },
  sticker: { types: ["image/webp"], maxBytes: 500 * 1024 },
  audio: {
    types: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"],
    maxBytes: 16 * MB,
  },
  video: { types: ["video/mp4", "video/3gpp"], maxBytes: 16 * MB },
  document: {
    types: [
      "application/pdf",
      "text/plain",
      "application/msword",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.ms-excel",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.ms-powerpoint",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ],
    maxBytes: 25 * MB,
  },
};

/** Why a file was not taken. */
export type MediaRefusal = "type" | "size";

/** A file fetched from WhatsApp. */
export interface FetchedMedia {
  /** The bytes. */
  bytes: Uint8Array;
  /** Meta's content type. */
  mimeType: string;
  /** sha256 of the bytes (hex), checked against Meta's. */
  sha256: string;
}

/** Fetches an inbound media id's bytes. */
export interface MediaSource {
  /**
   * The file, or why it is refused (type or size past `limits`).
   *
   * @throws {GraphMediaError} when the Graph API refused the id's lookup (see its `kind`).
   * @throws {Error} when the file could not be fetched or its sha256 does not match (retry).
   */
  fetch(mediaId: string, limits: { types: readonly string[]; maxBytes: number }): Promise<
    FetchedMedia | { refused: MediaRefusal }
  >;
}

/** Options for {@link createGraphMediaSource}. */
export interface GraphMediaOptions {
  /** The Graph API token. */
  token: string;
  /**
   * The Graph root; a function when it is known only later (the dev server's
   * local media endpoints on its own origin). @default https://graph.facebook.com/v21.0
   */
  baseUrl?: string | (() => string);
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Per request. @default 30000 */
  timeoutMs?: number;
}

/** Reads a response body up to `maxBytes`; null when it is longer. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Media through the Graph API's two-step download (also the dev server's local Graph). */
export function createGraphMediaSource(options: GraphMediaOptions): MediaSource {
  const base = options.baseUrl ?? "https://graph.facebook.com/v21.0";
  const rootUrl = () => (typeof base === "function" ? base() : base).replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers = { authorization: `Bearer ${options.token}` };
  return {
    async fetch(mediaId, limits) {
      // No lookup could ever succeed: the same as Meta refusing an unknown id.
      if (!/^[A-Za-z0-9._-]{1,128}$/.test(mediaId)) {
        throw new GraphMediaError(400, { message: "Malformed media id (not looked up)" });
      }
      const meta = await doFetch(`${rootUrl()}/${encodeURIComponent(mediaId)}`, {
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!meta.ok) throw new GraphMediaError(meta.status, await readGraphError(meta));
      const info = await meta.json() as {
        url?: unknown;
        mime_type?: unknown;
        sha256?: unknown;
        file_size?: unknown;
      };
      if (typeof info.url !== "string" || typeof info.mime_type !== "string") {
        throw new Error("Graph media lookup answered without url or mime_type");
      }
      const mimeType = info.mime_type.split(";")[0].trim().toLowerCase();
      if (!limits.types.includes(mimeType)) return { refused: "type" };
      if (typeof info.file_size === "number" && info.file_size > limits.maxBytes) {
        return { refused: "size" };
      }
      const download = await doFetch(info.url, {
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!download.ok) {
        await download.body?.cancel();
        throw new Error(`Graph media download failed: HTTP ${download.status}`);
      }
      const bytes = await readCapped(download, limits.maxBytes);
      if (!bytes) return { refused: "size" };
      const sha256 = await sha256Hex(bytes);
      if (typeof info.sha256 === "string" && info.sha256.toLowerCase() !== sha256) {
        throw new Error("Graph media sha256 does not match the bytes downloaded");
      }
      return { bytes, mimeType, sha256 };
    },
  };
}

/** What the user is told when a file is refused. */
export const MEDIA_REFUSED: Record<MediaRefusal, Record<Language, string>> = {
  type: {
    en:
      "Sorry, I can't take that kind of file. Please send a photo (JPEG or PNG) or a PDF document. Send 0 for the menu.",
    rw:
      "Twihanganire, ntidushobora kwakira ubwo bwoko bwa dosiye. Ohereza ifoto (JPEG cyangwa PNG) cyangwa inyandiko ya PDF. Andika 0 ubone menu.",
    fr:
      "Désolé, je ne peux pas recevoir ce type de fichier. Envoyez une photo (JPEG ou PNG) ou un document PDF. Envoyez 0 pour le menu.",
  },
  size: {
    en:
      "Sorry, that file is too large (photos up to 5 MB, documents up to 25 MB). Please send a smaller one. Send 0 for the menu.",
    rw:
      "Twihanganire, iyo dosiye ni nini cyane (amafoto kugeza kuri MB 5, inyandiko kugeza kuri MB 25). Ohereza intoya. Andika 0 ubone menu.",
    fr:
      "Désolé, ce fichier est trop volumineux (photos jusqu'à 5 Mo, documents jusqu'à 25 Mo). Envoyez-en un plus petit. Envoyez 0 pour le menu.",
  },
};

/**
 * What the user is told when Meta will not hand over their file: `gone` (an
 * unknown or expired media id: send it again), `credentials` (our token was
 * refused: our fault, staff are on it), for a photo or any other file.
 */
export const MEDIA_UNAVAILABLE: Record<
  "gone" | "credentials",
  Record<"photo" | "file", Record<Language, string>>
> = {
  gone: {
    photo: {
      en: "Sorry, I couldn't open your photo. Please send it again. Send 0 for the menu.",
      rw: "Twihanganire, sinashoboye gufungura ifoto yawe. Ongera uyohereze. Andika 0 ubone menu.",
      fr:
        "Désolé, je n'ai pas pu ouvrir votre photo. Merci de la renvoyer. Envoyez 0 pour le menu.",
    },
    file: {
      en: "Sorry, I couldn't open your file. Please send it again. Send 0 for the menu.",
      rw: "Twihanganire, sinashoboye gufungura dosiye yawe. Ongera uyohereze. Andika 0 ubone menu.",
      fr:
        "Désolé, je n'ai pas pu ouvrir votre fichier. Merci de le renvoyer. Envoyez 0 pour le menu.",
    },
  },
  credentials: {
    photo: {
      en:
        "Sorry, I couldn't open your photo because of a problem on our side. Our team has been told. Please send it again a little later. Send 0 for the menu.",
      rw:
        "Twihanganire, sinashoboye gufungura ifoto yawe kubera ikibazo kiri iwacu. Abakozi bacu babimenyeshejwe. Ongera uyohereze nyuma gato. Andika 0 ubone menu.",
      fr:
        "Désolé, je n'ai pas pu ouvrir votre photo à cause d'un problème de notre côté. Notre équipe est prévenue. Merci de la renvoyer un peu plus tard. Envoyez 0 pour le menu.",
    },
    file: {
      en:
        "Sorry, I couldn't open your file because of a problem on our side. Our team has been told. Please send it again a little later. Send 0 for the menu.",
      rw:
        "Twihanganire, sinashoboye gufungura dosiye yawe kubera ikibazo kiri iwacu. Abakozi bacu babimenyeshejwe. Ongera uyohereze nyuma gato. Andika 0 ubone menu.",
      fr:
        "Désolé, je n'ai pas pu ouvrir votre fichier à cause d'un problème de notre côté. Notre équipe est prévenue. Merci de le renvoyer un peu plus tard. Envoyez 0 pour le menu.",
    },
  },
};

/** Options for {@link storeInboundMedia}. */
export interface StoreMediaOptions {
  /** Where the bytes come from. */
  source: MediaSource;
  /** Where they go. */
  files: FileStore;
  /** The org of the business number. */
  orgId: string;
  /** The conversation the message belongs to. */
  conversationId: string;
  /** The message's wamid (the file's name: a retry overwrites the same file). */
  wamid: string;
  /** The parsed media content. */
  content: Extract<InboundContent, { kind: "media" }>;
}

/** Downloads, checks and saves one inbound file; the content with `stored`, or the refusal. */
export async function storeInboundMedia(
  options: StoreMediaOptions,
): Promise<{ content: Extract<InboundContent, { kind: "media" }> } | { refused: MediaRefusal }> {
  const { content } = options;
  const limits = MEDIA_LIMITS[content.mediaType];
  if (!limits) return { refused: "type" };
  // What the webhook said already settles a type WhatsApp would not carry.
  const declared = content.mimeType?.split(";")[0].trim().toLowerCase();
  if (declared && !limits.types.includes(declared)) return { refused: "type" };
  const fetched = await options.source.fetch(content.mediaId, limits);
  if ("refused" in fetched) return fetched;
  const stored: StoredMedia = {
    bucket: "media",
    path: `${options.orgId}/${options.conversationId}/${options.wamid}`,
    mimeType: fetched.mimeType,
    size: fetched.bytes.byteLength,
    sha256: fetched.sha256,
  };
  await options.files.upload({
    bucket: stored.bucket,
    path: stored.path,
    bytes: fetched.bytes,
    contentType: fetched.mimeType,
    upsert: true,
  });
  return { content: { ...content, stored } };
}
