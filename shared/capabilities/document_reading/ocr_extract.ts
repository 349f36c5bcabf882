/**
 * `ocr_extract` (the tool catalog's insurance section): reads a customer's document photo from our own
 * Storage (never from an arbitrary URL: the reference names a bucket and a
 * path, which we read through the file store, so no address a caller gives
 * is ever fetched), extracts its fields with the OCR engine the platform
 * provides, records them with their confidence and validation notes, then
 * deletes the raw image and logs it ("raw media redacted post-extraction").
 *
 * A page that is not one of our documents, is too blurred to read, or is
 * another type of document than asked is `VALIDATION_ERROR` on `file_url`
 * with a message saying which and what to send instead: the image is the
 * invalid input, and the refusal is deterministic (the ledger replays it).
 * A file that is no picture at all (empty, cut off in transit, a PDF sent
 * as a photo) is refused as `damaged_file`, apart from a readable picture
 * of something else: the customer is asked to send the photo again, not
 * told their card is the wrong document.
 * Refused images are not deleted here: staff may need them, and the media
 * bucket's retention removes them.
 *
 * @module
 */
import { z } from "zod";
import { type ToolError, ToolFailure } from "@shared/contract/result.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { BUCKETS, FILE_STORE } from "@shared/storage/file_store.ts";
import { OCR_ENGINE } from "./ocr_engine.ts";
import { isWholePicture, MIN_SIDE_PX, pictureSize } from "./picture_size.ts";
import { DOCUMENT_TYPES, type DocumentReading, type DocumentType } from "./read_document.ts";

/** The largest image read: WhatsApp's own limit for images is 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/webp"]);

/** How each document type is named to a customer. */
export const DOCUMENT_NAMES: Record<DocumentType, string> = {
  vehicle_registration: "vehicle registration (carte jaune)",
  id_card: "national ID card",
  license: "driving licence",
  policy: "insurance policy",
};

/** A Storage object named by a file reference. */
export interface StorageReference {
  bucket: string;
  path: string;
}

/**
 * The Storage object a `file_url` names: `storage://<bucket>/<path>` or a
 * signed URL of our Storage (`…/storage/v1/object/sign/<bucket>/<path>?token=…`),
 * of which only the bucket and path are used. Anything else is null.
 */
export function storageReference(fileUrl: string): StorageReference | null {
  let url: URL;
  try {
    url = new URL(fileUrl);
  } catch {
    return null;
  }
  let rest: string;
  if (url.protocol === "storage:") {
    rest = `${url.host}${url.pathname}`;
  } else if (url.protocol === "https:" || url.protocol === "http:") {
    const match = /^\/storage\/v1\/object\/(?:sign|authenticated)\/(.+)$/.exec(url.pathname);
    if (!match) return null;
    rest = match[1];
  } else {
    return null;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null;
  }
  const [bucket, ...segments] = decoded.split("/");
  const path = segments.join("/");
  if (!Object.values(BUCKETS).includes(bucket as never) || segments.length < 2) return null;
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    return null;
  }
  return { bucket, path };
}

const input = z.object({
  file_url: z.string().min(1).max(2048).describe(
    "The photo as our Storage gave it: storage://media/<org>/<conversation>/<file>, or a signed URL of our Storage.",
  ),
  document_type: z.enum(DOCUMENT_TYPES).describe("What the customer says the photo shows."),
});

const output = z.object({
  extraction_id: z.uuid(),
  document_type: z.enum(DOCUMENT_TYPES),
  fields: z.record(z.string(), z.string()),
  field_confidence: z.record(z.string(), z.number().min(0).max(1)),
  notes: z.record(z.string(), z.string()).describe(
    "Why a field is doubtful: ask the user to check it.",
  ),
  missing: z.array(z.string()).describe("Fields of this document that could not be read."),
  confidence: z.number().min(0).max(1),
  provider: z.string(),
  raw_media: z.enum(["redacted", "kept"]).describe(
    "Whether the raw image was deleted after extraction.",
  ),
  extracted_at: z.iso.datetime({ offset: true }),
});

const INSERT_SQL = `
  insert into public.document_extractions
    (org_id, user_id, conversation_id, document_type, provider, fields, field_confidence, notes,
     confidence, source_bucket, source_path, raw_redacted_at, raw_redaction_note)
  values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9, $10, $11, $12, $13)
  returning id, extracted_at`;

/** What `prepare` hands `execute`: the file read, its reading and the redaction done. */
interface Prepared {
  reference: StorageReference;
  reading: Extract<DocumentReading, { kind: "document" }>;
  provider: string;
  redaction: { at: Date | null; note: string };
}

/**
 * Why `ocr_extract` refused a file, in its error's `details.refusal`: callers
 * branch on it, never on the message's words.
 */
export type OcrRefusal =
  | "not_our_storage"
  | "not_an_image"
  | "damaged_file"
  | "too_large"
  | "unreadable"
  | "not_a_document"
  | "wrong_document_type";

const REFUSALS: ReadonlySet<string> = new Set<OcrRefusal>([
  "not_our_storage",
  "not_an_image",
  "damaged_file",
  "too_large",
  "unreadable",
  "not_a_document",
  "wrong_document_type",
]);

/** Why `ocr_extract` refused a file (its error's `details.refusal`), or null when it did not. */
export function ocrRefusal(error: ToolError): OcrRefusal | null {
  const refusal = error.details?.refusal;
  return typeof refusal === "string" && REFUSALS.has(refusal) ? refusal as OcrRefusal : null;
}

function refuse(
  message: string,
  reason: string,
  details: { refusal: OcrRefusal; document_type?: DocumentType },
): never {
  throw new ToolFailure("VALIDATION_ERROR", message, {
    fields: [{ path: "file_url", message: reason }],
    details,
  });
}

/** Refuses a file that did not come through as a picture (empty, cut off, not an image). */
function refuseDamaged(bytes: number): never {
  refuse(
    bytes === 0
      ? "The photo did not come through: the file is empty. Please send the photo again."
      : "The photo did not come through: the file is damaged or not a picture. Please send the photo again.",
    bytes === 0 ? "empty file" : "damaged file",
    { refusal: "damaged_file" },
  );
}

/** The `ocr_extract` tool. */
export const ocrExtract = defineTool({
  name: "ocr_extract",
  title: "Read a document photo",
  description:
    "Read the fields of a vehicle registration (carte jaune), national ID card, driving licence " +
    "or insurance policy from a photo the customer sent. Answers each field with its confidence and " +
    "notes on doubtful ones; show them to the customer to confirm or correct before using them. " +
    "A photo that is not such a document, or too blurred to read, is refused with what to send instead.",
  category: "insurance",
  input,
  output,
  examples: [{
    description: "A carte jaune the customer sent on WhatsApp",
    input: {
      file_url: "storage://media/00000000-0000-4000-8000-000000000001/conversation/wamid.HBg.jpg",
      document_type: "vehicle_registration",
    },
  }],
  sideEffects: "writes.document_extraction",
  auth: "user",
  // Measured: tesseract reads a page in ~2.5 s wall on the 2-core build machine (docs/ocr.md).
  latencyBudgetMs: 4000,
  // As an MCP task the reading runs after the answer, followed through its tool_tasks row.
  task: { deferred: true, pollIntervalMs: 1000 },
  openWorld: true,
  // A customer sends a few photos; the engine is shared by the tenant, which it caps (two a
  // second take more than the build machine's two cores).
  rateLimit: { perUser: { limit: 10, windowSec: 60 }, perTenant: { limit: 120, windowSec: 60 } },
  // Download, OCR and the photo's deletion run before the transaction opens (they take seconds
  // and reach Storage and the provider); the transaction only records the extraction.
  async prepare(args, ctx): Promise<Prepared> {
    const reference = storageReference(args.file_url);
    if (!reference) {
      refuse(
        "Send the photo through WhatsApp: only files our Storage holds can be read",
        "must be storage://<bucket>/<org>/… or a signed URL of our Storage",
        { refusal: "not_our_storage" },
      );
    }
    // The file store acts as the service: the caller's org must own the path.
    if (reference.path.split("/")[0] !== ctx.org_id) {
      throw new ToolFailure("AUTH_ERROR", "That file belongs to another organisation");
    }
    if (!ctx.user_id) throw new ToolFailure("AUTH_ERROR", "Sign in required");
    const files = ctx.services.get(FILE_STORE);
    const file = await files.download(reference);
    if (!IMAGE_TYPES.has(file.contentType.split(";")[0].trim().toLowerCase())) {
      refuse("Please send a photo (JPEG or PNG) of the document", "not an image", {
        refusal: "not_an_image",
      });
    }
    if (file.bytes.length > MAX_IMAGE_BYTES) {
      refuse("The photo is too large: send one under 5 MB", "over 5 MB", { refusal: "too_large" });
    }
    // Empty bytes (a download that came through with nothing), bytes that are no picture (a PDF
    // sent as a photo) or a picture cut off in transit are no engine's to read (nor to pay an
    // API for): asked again at once.
    if (!isWholePicture(file.bytes)) refuseDamaged(file.bytes.length);
    // A thumbnail or sticker cannot hold a card's print: refused before any engine (local, or a
    // paid API) spends time on it, and counted as an unreadable photo.
    const size = pictureSize(file.bytes);
    if (size && Math.min(size.width, size.height) < MIN_SIDE_PX) {
      refuse(
        `The photo is too small to read (${size.width} × ${size.height} pixels). ` +
          "Please send the photo itself, flat, in good light and in focus.",
        "unreadable",
        { refusal: "unreadable" },
      );
    }
    const engine = ctx.services.get(OCR_ENGINE);
    const wanted = DOCUMENT_NAMES[args.document_type];
    let reading: DocumentReading;
    try {
      reading = await engine.read({
        bytes: file.bytes,
        contentType: file.contentType,
        documentType: args.document_type,
        today: ctx.services.now(),
        signal: ctx.signal,
      });
    } catch (error) {
      // An engine refuses input only when the bytes do not decode (a photo cut off in transit,
      // its header whole): the file is damaged, not a picture of the wrong thing.
      if (error instanceof ToolFailure && error.code === "VALIDATION_ERROR") {
        refuseDamaged(file.bytes.length);
      }
      throw error;
    }
    if (reading.kind === "not_a_document") {
      refuse(
        `This picture is not a document we can read. Please send a clear photo of your ${wanted}.`,
        "not a document",
        { refusal: "not_a_document" },
      );
    }
    if (reading.type !== args.document_type) {
      refuse(
        `This looks like a ${
          DOCUMENT_NAMES[reading.type]
        }, not a ${wanted}. Please send your ${wanted}.`,
        `wrong document type: ${reading.type}`,
        { refusal: "wrong_document_type", document_type: reading.type },
      );
    }
    if (reading.kind === "unreadable") {
      refuse(
        `The photo is too blurred or dark to read (${reading.found} of ${reading.expected} details). ` +
          "Please retake it flat, in good light and in focus.",
        "unreadable",
        { refusal: "unreadable" },
      );
    }
    // Raw media redacted post-extraction: the fields are kept, the photo goes. A deletion that
    // fails keeps the extraction; the row says so and the media bucket's retention removes it.
    let redaction: Prepared["redaction"];
    try {
      await files.remove({ bucket: reference.bucket, paths: [reference.path] });
      redaction = { at: ctx.services.now(), note: "raw media redacted post-extraction" };
    } catch {
      redaction = { at: null, note: "deletion failed: removed by the media bucket's retention" };
    }
    return { reference, reading, provider: engine.provider, redaction };
  },
  async execute(_args, ctx) {
    const { reference, reading, provider, redaction } = ctx.prepared as Prepared;
    const fields: Record<string, string> = {};
    const confidence: Record<string, number> = {};
    const notes: Record<string, string> = {};
    for (const [name, field] of Object.entries(reading.fields)) {
      fields[name] = field.value;
      confidence[name] = field.confidence;
      if (field.note) notes[name] = field.note;
    }
    const [row] = await ctx.db.query<{ id: string; extracted_at: Date | string }>(INSERT_SQL, [
      ctx.org_id,
      ctx.user_id,
      ctx.convo_id,
      reading.type,
      provider,
      fields,
      confidence,
      notes,
      reading.confidence,
      reference.bucket,
      reference.path,
      redaction.at,
      redaction.note,
    ]);
    return {
      extraction_id: row.id,
      document_type: reading.type,
      fields,
      field_confidence: confidence,
      notes,
      missing: reading.missing,
      confidence: reading.confidence,
      provider,
      raw_media: redaction.at ? "redacted" as const : "kept" as const,
      extracted_at: new Date(row.extracted_at).toISOString(),
    };
  },
});
