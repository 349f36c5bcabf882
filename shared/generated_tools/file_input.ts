/**
 * Files in a generated tool's input. A model's arguments are JSON, so a file
 * an operation takes (a `multipart/form-data` field of `format: binary` or
 * with a `contentMediaType`, or a whole body of bytes such as
 * `application/octet-stream` or `image/png`) is an object: the bytes in
 * base64 (`data`) or an `https` address to read them from (`url`), its media
 * type, and a file name. {@link fileInputSchema} writes that object in the
 * document's terms for the input mapper; {@link openFile} turns an argument
 * back into bytes when a call is sent, under the same size limit and, for an
 * address, the same SSRF rules as every call.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/result.ts";
import { type Resolver, safeFetch, SafeFetchError } from "./safe_fetch.ts";
import { decodeBase64 as decodeBase64Text } from "@shared/runtime/base64.ts";

/** Most bytes of one file, however it is given. */
export const MAX_FILE_BYTES = 3 * 1024 * 1024;

/** Longest base64 text of a file of {@link MAX_FILE_BYTES}. */
const MAX_BASE64_CHARS = Math.ceil(MAX_FILE_BYTES / 3) * 4;

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/**
 * The media types a file may have, from what the document declares: the
 * specific ones (`image/png`), none when any will do (`*\/*`, `image/*`, or
 * nothing declared).
 */
export function specificMediaTypes(declared: readonly string[]): string[] {
  const types = declared.flatMap((entry) => entry.split(","))
    .map((entry) => entry.split(";")[0].trim().toLowerCase())
    .filter(Boolean);
  if (types.length === 0 || types.some((type) => type.includes("*"))) return [];
  return [...new Set(types)];
}

/**
 * A file field as a schema of the document's kind (mapped like any other).
 *
 * @param options.mediaTypes The specific media types it takes (none: any).
 * @param options.description The document's words about it, if any.
 */
export function fileInputSchema(
  options: { mediaTypes: readonly string[]; description?: string },
): Record<string, unknown> {
  const { mediaTypes } = options;
  const which = mediaTypes.length
    ? `one of ${mediaTypes.join(", ")}`
    : "any type (say which, e.g. application/pdf)";
  const own = typeof options.description === "string" && options.description.trim()
    ? `${options.description.trim()} `
    : "";
  return {
    type: "object",
    description:
      `${own}A file, of ${which}: give its bytes in base64 as data, or an https url to ` +
      `read it from (exactly one), at most ${MAX_FILE_BYTES / 1024 / 1024} MiB.`,
    properties: {
      data: {
        type: "string",
        maxLength: MAX_BASE64_CHARS,
        description: "The file's bytes in base64 (without a data: prefix).",
      },
      url: {
        type: "string",
        format: "uri",
        description: "An https address to read the file from.",
      },
      media_type: mediaTypes.length
        ? { type: "string", enum: [...mediaTypes], description: "The file's media type." }
        : { type: "string", pattern: MEDIA_TYPE.source, description: "The file's media type." },
      filename: { type: "string", maxLength: 200, description: "The file's name." },
    },
    ...(mediaTypes.length === 1 ? {} : { required: ["media_type"] }),
    additionalProperties: false,
  };
}

/** A file ready to send. */
export interface OpenedFile {
  /** Its bytes. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Its media type. */
  mediaType: string;
  /** Its name (`file` when none was given). */
  filename: string;
}

/** What {@link openFile} needs to read a file given by address. */
export interface FileSource {
  /** Whether the tenant may reach private addresses. */
  allowPrivateNetwork: boolean;
  /** DNS resolution (tests inject one). */
  resolve?: Resolver;
  /** The call's cancellation. */
  signal?: AbortSignal;
}

/**
 * A file argument as bytes: `data` decoded, or `url` read (http/https only,
 * under the SSRF rules, at most {@link MAX_FILE_BYTES}).
 *
 * @param value The argument as validated (an object of {@link fileInputSchema}).
 * @param path The argument's path, for errors (`body.receipt`).
 * @param fallbackType The media type when the argument gives none (the one declared).
 * @throws {ToolFailure} `VALIDATION_ERROR` naming the path for neither or both of data and url,
 *   base64 that is not, or a file over the limit; `SERVICE_UNAVAILABLE` when the url cannot be read.
 */
export async function openFile(
  value: Record<string, unknown>,
  path: string,
  fallbackType: string,
  source: FileSource,
): Promise<OpenedFile> {
  const mediaType = typeof value.media_type === "string" ? value.media_type : fallbackType;
  const filename = typeof value.filename === "string" && value.filename ? value.filename : "file";
  const hasData = typeof value.data === "string";
  const hasUrl = typeof value.url === "string";
  if (hasData === hasUrl) {
    throw invalid(path, "Give the file either as data (base64) or as a url, exactly one");
  }
  if (hasData) {
    return { bytes: decodeBase64(value.data as string, `${path}.data`), mediaType, filename };
  }
  let response;
  try {
    response = await safeFetch(String(value.url), {}, {
      allowPrivateNetwork: source.allowPrivateNetwork,
      resolve: source.resolve,
      signal: source.signal,
      timeoutMs: 5_000,
      maxBytes: MAX_FILE_BYTES,
      accept: "bytes",
    });
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    if (error.kind === "too_large") {
      throw invalid(`${path}.url`, `The file is over ${MAX_FILE_BYTES} bytes`);
    }
    if (error.kind === "bad_url" || error.kind === "blocked_address") {
      throw invalid(`${path}.url`, `The file's address cannot be used: ${error.message}`);
    }
    throw new ToolFailure("SERVICE_UNAVAILABLE", `The file could not be read: ${error.message}`);
  }
  if (response.status < 200 || response.status > 299) {
    throw invalid(`${path}.url`, `The file's address answered HTTP ${response.status}`);
  }
  return { bytes: response.bytes!, mediaType, filename };
}

function decodeBase64(text: string, path: string): Uint8Array<ArrayBuffer> {
  const compact = text.replace(/\s+/g, "");
  if (compact.length > MAX_BASE64_CHARS) {
    throw invalid(path, `The file is over ${MAX_FILE_BYTES} bytes`);
  }
  try {
    return decodeBase64Text(compact);
  } catch {
    throw invalid(path, "Not base64");
  }
}

function invalid(path: string, message: string): ToolFailure {
  return new ToolFailure("VALIDATION_ERROR", `${path}: ${message}`, {
    fields: [{ path, message }],
  });
}
