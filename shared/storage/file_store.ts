/**
 * Files in Storage buckets, the one interface tools and channels use, and
 * its implementation over `@supabase/storage-js`, the Storage client inside
 * supabase-js (`supabase.storage`), imported alone: the whole of supabase-js
 * (auth, PostgREST and realtime clients) weighed 0.6 MiB in every function
 * and none of it was used. The same client talks to Supabase Storage when
 * deployed and to the local Storage server (`local_storage_server.ts`) in
 * the dev server and tests.
 *
 * Paths follow `<org_id>/<conversation_id>/<file>` (or `<org_id>/<folder>/…`):
 * the buckets' RLS policies read the first two segments.
 *
 * Failures are thrown as {@link ToolFailure} with a contract code: a missing
 * object (or one the caller may not see) is `NOT_FOUND`, a file over the
 * bucket's limit or of a refused type `VALIDATION_ERROR`, an existing path
 * without `upsert` `CONFLICT`, a refused key `AUTH_ERROR`, anything else
 * `SERVICE_UNAVAILABLE`. Messages never carry the key.
 *
 * @module
 */
import { StorageClient } from "@supabase/storage-js";
import { type ErrorCode, ToolFailure } from "@shared/contract/mod.ts";
import { serviceKey } from "@shared/registry/define_tool.ts";

/** Files in buckets: upload, download, a signed URL that expires, removal. */
export interface FileStore {
  /** Stores `bytes` at `bucket/path`; an existing path is refused unless `upsert`. */
  upload(
    o: { bucket: string; path: string; bytes: Uint8Array; contentType: string; upsert?: boolean },
  ): Promise<void>;
  /** The file's bytes and content type. */
  download(
    o: { bucket: string; path: string },
  ): Promise<{ bytes: Uint8Array; contentType: string }>;
  /** A URL anyone holding it may GET until `expiresAt`. */
  signedUrl(
    o: { bucket: string; path: string; expiresInSeconds: number },
  ): Promise<{ url: string; expiresAt: Date }>;
  /** Removes the files (absent ones are ignored). */
  remove(o: { bucket: string; paths: string[] }): Promise<void>;
}

/**
 * The platform's file store, for tools: `ctx.services.get(FILE_STORE)`. It
 * acts with the service role (RLS bypassed), so a tool keeps to its caller's
 * org in the paths it builds: `<ctx.org_id>/<ctx.convo_id>/…`.
 */
export const FILE_STORE = serviceKey<FileStore>("storage.file_store");

/** The buckets our migration creates (both private). */
export const BUCKETS = {
  /** WhatsApp media customers send: `media/<org>/<conversation>/<wamid>`. */
  media: "media",
  /** Documents we generate (PDF quotes, certificates, receipts). */
  documents: "documents",
} as const;

/** Options for {@link createSupabaseFileStore}. */
export interface SupabaseFileStoreOptions {
  /** The project URL (`SUPABASE_URL`), or the dev server's base URL; a function when known later. */
  url: string | (() => string);
  /** The key requests carry: the service role key server-side, or a user's access token. */
  key: string;
  /** The fetch the client uses. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** The longest signed URL we hand out: 30 days. */
export const MAX_SIGNED_URL_SECONDS = 30 * 24 * 3600;

function failure(code: ErrorCode, message: string): ToolFailure {
  return new ToolFailure(code, message);
}

/** What Storage's error means in our codes (`status` and Storage's own `statusCode`). */
export function storageErrorCode(status: number, statusCode?: string): ErrorCode {
  const code = statusCode && /^\d{3}$/.test(statusCode) ? Number(statusCode) : status;
  if (code === 404 || statusCode === "not_found" || statusCode === "NoSuchKey") return "NOT_FOUND";
  if (code === 413 || code === 415 || statusCode === "EntityTooLarge") return "VALIDATION_ERROR";
  if (code === 409 || statusCode === "Duplicate") return "CONFLICT";
  if (code === 401 || code === 403) return "AUTH_ERROR";
  return "SERVICE_UNAVAILABLE";
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  NOT_FOUND: "File not found",
  VALIDATION_ERROR: "File too large or of a type this bucket does not take",
  CONFLICT: "A file already exists at that path",
  AUTH_ERROR: "Access to the file was refused",
  SERVICE_UNAVAILABLE: "File storage is unavailable, please try again",
};

function mapError(error: unknown): ToolFailure {
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === "number" ? e.status : 0;
  const statusCode = typeof e?.statusCode === "string" ? e.statusCode : undefined;
  const code = storageErrorCode(status, statusCode);
  return failure(code, MESSAGES[code] ?? "File storage failed");
}

function checkPath(path: string, field = "path"): void {
  const segments = path.split("/");
  if (
    !path || path.length > 1024 || path.startsWith("/") ||
    segments.some((s) => s === "" || s === "." || s === "..") ||
    // deno-lint-ignore no-control-regex
    /[\u0000-\u001f\\]/.test(path)
  ) {
    throw failure("VALIDATION_ERROR", `Invalid ${field}: ${JSON.stringify(path.slice(0, 80))}`);
  }
}

/**
 * A {@link FileStore} over Supabase Storage (storage-js).
 *
 * @example
 * ```ts ignore
 * const files = createSupabaseFileStore({
 *   url: Deno.env.get("SUPABASE_URL")!,
 *   key: Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!,
 * });
 * await files.upload({ bucket: "documents", path: `${org}/${convo}/q.pdf`, bytes, contentType: "application/pdf" });
 * const { url } = await files.signedUrl({ bucket: "documents", path: `${org}/${convo}/q.pdf`, expiresInSeconds: 3600 });
 * ```
 */
export function createSupabaseFileStore(options: SupabaseFileStoreOptions): FileStore {
  let client: StorageClient | null = null;
  let clientUrl = "";
  const storage = () => {
    const url = typeof options.url === "function" ? options.url() : options.url;
    if (!client || clientUrl !== url) {
      // The headers supabase-js sends for a key without a signed-in session.
      client = new StorageClient(
        `${url.replace(/\/+$/, "")}/storage/v1`,
        { apikey: options.key, Authorization: `Bearer ${options.key}` },
        options.fetch,
      );
      clientUrl = url;
    }
    return client;
  };

  // storage-js resolves {data, error}; a thrown network error is unavailability too.
  async function run<T>(
    operation: () => Promise<{ data: T | null; error: unknown }>,
  ): Promise<T> {
    let result: { data: T | null; error: unknown };
    try {
      result = await operation();
    } catch (error) {
      throw mapError(error);
    }
    if (result.error) throw mapError(result.error);
    return result.data as T;
  }

  return {
    async upload({ bucket, path, bytes, contentType, upsert }) {
      checkPath(path);
      await run(() =>
        storage().from(bucket).upload(path, bytes, { contentType, upsert: upsert ?? false })
      );
    },
    async download({ bucket, path }) {
      checkPath(path);
      const blob = await run(() => storage().from(bucket).download(path));
      return {
        bytes: new Uint8Array(await blob.arrayBuffer()),
        contentType: blob.type || "application/octet-stream",
      };
    },
    async signedUrl({ bucket, path, expiresInSeconds }) {
      checkPath(path);
      if (
        !Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 ||
        expiresInSeconds > MAX_SIGNED_URL_SECONDS
      ) {
        throw failure(
          "VALIDATION_ERROR",
          `expiresInSeconds must be a whole number from 1 to ${MAX_SIGNED_URL_SECONDS}`,
        );
      }
      const before = Date.now();
      const data = await run(() => storage().from(bucket).createSignedUrl(path, expiresInSeconds));
      return { url: data.signedUrl, expiresAt: new Date(before + expiresInSeconds * 1000) };
    },
    async remove({ bucket, paths }) {
      if (paths.length === 0) return;
      paths.forEach((path, i) => checkPath(path, `paths.${i}`));
      await run(() => storage().from(bucket).remove(paths));
    },
  };
}

/**
 * A store for a platform with no Storage configured: every call fails with
 * `SERVICE_UNAVAILABLE`, saying so, rather than pretending to keep a file.
 */
export function unconfiguredFileStore(): FileStore {
  const refuse = () =>
    Promise.reject(
      failure("SERVICE_UNAVAILABLE", "File storage is not configured (set SUPABASE_URL)"),
    );
  return { upload: refuse, download: refuse, signedUrl: refuse, remove: refuse };
}
