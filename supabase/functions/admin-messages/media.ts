/**
 * What the Admin Inbox shows of a message's location, image or document, and
 * the staff member's access to the file itself.
 *
 * - {@link attachmentOf}: the transcript's view of a message payload: a
 *   location with its coordinates rounded to 3 decimals (about 100 m: enough
 *   to see the area, not the doorstep) and its name/address; a file with its
 *   type, name, caption and whether it was saved. Never the Storage path.
 * - {@link findMessageFile} + {@link signMessageFile}: a signed URL to one message's saved file, short-lived,
 *   for the staff member who may see it: the message is read as them (RLS on
 *   `public.messages`), and so is the file's `storage.objects` row (Storage's
 *   own policies); anything they may not see is `NOT_FOUND`, like a guessed id.
 *
 * Why a signed URL and not the bytes: the page shows a thumbnail with
 * `<img src>`, which cannot carry the staff member's bearer token, and a
 * 25 MB document would pass through the function's memory and CPU budget;
 * the signed URL is fetched from Storage directly and expires in minutes.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import type { FileStore } from "@shared/storage/file_store.ts";

/** How long a media link from the inbox lasts. */
export const MEDIA_LINK_SECONDS = 300;

/** A message's location or file, as the inbox shows it. */
export type Attachment =
  | {
    kind: "location";
    /** Rounded to 3 decimals. */
    latitude: number;
    /** Rounded to 3 decimals. */
    longitude: number;
    name?: string;
    address?: string;
  }
  | {
    kind: "image" | "document" | "audio" | "video" | "sticker";
    mime_type?: string;
    filename?: string;
    caption?: string;
    size?: number;
    /** Whether the file is in Storage (then `GET /messages/:id/media` links to it). */
    available: boolean;
  };

type Json = Record<string, unknown>;

function object(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? value as Json : {};
}

function optionalText(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.slice(0, 300) : undefined;
}

/** Coordinates to 3 decimals (±0.0005°, about 55 m). */
export function coarse(degrees: number): number {
  return Math.round(degrees * 1000) / 1000;
}

/**
 * The attachment in a stored message payload: an inbound location or file
 * (`{kind, content}`), or an outbound image or document (`{kind, body}`).
 */
export function attachmentOf(payload: unknown): Attachment | null {
  const stored = object(payload);
  const content = object(stored.content);
  if (content.kind === "location") {
    const { latitude, longitude } = content;
    if (typeof latitude !== "number" || typeof longitude !== "number") return null;
    const name = optionalText(content.name);
    const address = optionalText(content.address);
    return {
      kind: "location",
      latitude: coarse(latitude),
      longitude: coarse(longitude),
      ...(name ? { name } : {}),
      ...(address ? { address } : {}),
    };
  }
  if (content.kind === "media") {
    const saved = object(content.stored);
    const mime = optionalText(saved.mimeType) ?? optionalText(content.mimeType);
    const filename = optionalText(content.filename);
    const caption = optionalText(content.caption);
    return {
      kind: content.mediaType as Extract<Attachment, { available: boolean }>["kind"],
      ...(mime ? { mime_type: mime } : {}),
      ...(filename ? { filename } : {}),
      ...(caption ? { caption } : {}),
      ...(typeof saved.size === "number" ? { size: saved.size } : {}),
      available: typeof saved.path === "string",
    };
  }
  // An outbound image or document: what was sent (its link is the customer's, not shown).
  if (stored.kind === "image" || stored.kind === "document") {
    const media = object(object(stored.body)[stored.kind]);
    const filename = optionalText(media.filename);
    const caption = optionalText(media.caption);
    return {
      kind: stored.kind,
      ...(filename ? { filename } : {}),
      ...(caption ? { caption } : {}),
      available: false,
    };
  }
  return null;
}

/** A short-lived link to a message's file. */
export interface MediaLink {
  /** Signed URL; anyone holding it may GET the file until `expires_at`. */
  url: string;
  /** ISO time. */
  expires_at: string;
  /** The content type. */
  mime_type: string;
  /** The file name to save it under. */
  filename: string;
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
  "text/plain": "txt",
};

/** A message's saved file, found as the staff member. */
export interface MessageFile {
  /** The bucket. */
  bucket: string;
  /** The path in it. */
  path: string;
  /** The content type. */
  mimeType: string;
  /** The file name to save it under. */
  filename: string;
}

/**
 * The file of message `messageId`, read in the staff member's transaction
 * `tx` (RLS on): the message, then its `storage.objects` row.
 *
 * @throws {ToolFailure} NOT_FOUND when the message, its file or the right to see them is missing.
 */
export async function findMessageFile(
  tx: Queryable,
  options: { orgId: string; messageId: string },
): Promise<MessageFile> {
  const notFound = new ToolFailure("NOT_FOUND", "No such file");
  const [message] = await tx.query<{ content: Json | null }>(
    `select payload->'content' as content from public.messages
     where id = $1 and org_id = $2 and direction = 'inbound'`,
    [options.messageId, options.orgId],
  );
  const content = object(message?.content);
  const stored = object(content.stored);
  const bucket = stored.bucket;
  const path = stored.path;
  if (
    content.kind !== "media" || bucket !== "media" || typeof path !== "string" ||
    !path.startsWith(`${options.orgId}/`)
  ) {
    throw notFound;
  }
  // Storage's own policies, as the staff member: their org's files only.
  const [visible] = await tx.query(
    "select 1 from storage.objects where bucket_id = $1 and name = $2",
    [bucket, path],
  );
  if (!visible) throw notFound;
  const mimeType = optionalText(stored.mimeType) ?? "application/octet-stream";
  // deno-lint-ignore no-control-regex
  const filename = optionalText(content.filename)?.replace(/[\\/"\u0000-\u001f]/g, "_") ??
    `${content.mediaType}-${options.messageId.slice(0, 8)}.${EXTENSIONS[mimeType] ?? "bin"}`;
  return { bucket, path, mimeType, filename };
}

/**
 * A short-lived signed link to a file found by {@link findMessageFile}. Call
 * it after the staff member's transaction: signing may itself reach the
 * database (the local Storage server), which an open transaction would hold.
 */
export async function signMessageFile(files: FileStore, file: MessageFile): Promise<MediaLink> {
  const { url, expiresAt } = await files.signedUrl({
    bucket: file.bucket,
    path: file.path,
    expiresInSeconds: MEDIA_LINK_SECONDS,
  });
  return {
    url,
    expires_at: expiresAt.toISOString(),
    mime_type: file.mimeType,
    filename: file.filename,
  };
}

/** A legal case's document as the inbox shows it: a short-lived link and what it is. */
export interface CaseDocumentLink {
  /** Its place among the case's documents, from 1. */
  number: number;
  url: string;
  mime_type: string;
  /** Whether the page can show it as a picture. */
  image: boolean;
}

/**
 * Signed links to a legal case's documents (see `ticketCase`), for the
 * ticket's page. A file Storage cannot sign is left out and counted, so the
 * page says so rather than show a broken link.
 */
export async function signCase(
  files: FileStore,
  found: {
    reference_number: string;
    category: string;
    documents: Array<
      { position: number; bucket: string; path: string; mime_type: string; present: boolean }
    >;
  },
): Promise<{
  reference_number: string;
  category: string;
  documents: CaseDocumentLink[];
  unlinked: number;
}> {
  const documents: CaseDocumentLink[] = [];
  for (const document of found.documents) {
    // Absent for the staff member (gone from Storage, or not theirs): never signed.
    if (!document.present) continue;
    try {
      const { url } = await files.signedUrl({
        bucket: document.bucket,
        path: document.path,
        expiresInSeconds: MEDIA_LINK_SECONDS,
      });
      documents.push({
        number: document.position + 1,
        url,
        mime_type: document.mime_type,
        image: /^image\/(jpeg|png|webp|gif)$/.test(document.mime_type),
      });
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error;
    }
  }
  return {
    reference_number: found.reference_number,
    category: found.category,
    documents,
    unlinked: found.documents.length - documents.length,
  };
}
