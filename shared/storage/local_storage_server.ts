/**
 * The embedded default for Supabase Storage: a hono app answering the
 * Storage REST endpoints `@supabase/storage-js` (supabase-js's Storage client) calls, so the same client
 * code ({@link createSupabaseFileStore}) runs locally, in tests and deployed.
 *
 * | request | what |
 * | --- | --- |
 * | `POST /storage/v1/object/<bucket>/<path>` (`x-upsert`) | upload (`PUT` updates) |
 * | `GET /storage/v1/object/<bucket>/<path>` | download with a bearer token |
 * | `POST /storage/v1/object/sign/<bucket>/<path>` `{expiresIn}` | a signed URL |
 * | `GET /storage/v1/object/sign/<bucket>/<path>?token=` | download by signed URL |
 * | `DELETE /storage/v1/object/<bucket>` `{prefixes}` | remove |
 *
 * Bytes live under a folder (the dev server's `.data/storage/`); metadata
 * lives in `storage.objects`, read and written as the caller (the bearer
 * token's claims, the service role for server-side uploads), so the
 * migration's RLS policies decide exactly as they do on Supabase. A file the
 * caller may not see is answered like one that does not exist. Signed URLs
 * carry an HMAC token over the object and its expiry, checked in constant
 * time. Upload bodies are read through `shared/http/body.ts`, never past the
 * bucket's limit.
 *
 * @module
 */
import { sha256Hex } from "@shared/runtime/canonical.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { TokenVerifier } from "@shared/auth/jwt.ts";
import type { Database, JwtClaims, Queryable } from "@shared/db/types.ts";
import { readBody } from "@shared/http/body.ts";
import { hmacKey } from "@shared/runtime/canonical.ts";
import { classifyDbError } from "@shared/db/errors.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { decodeBase64Url, encodeBase64Url as base64url } from "@shared/runtime/base64.ts";

/** Options for {@link createLocalStorageServer}. */
export interface LocalStorageServerOptions {
  /** The database holding `storage.buckets` / `storage.objects`. */
  db: Database;
  /** Verifies bearer tokens (the dev auth's). */
  verify: TokenVerifier;
  /** Folder the bytes are kept under (created when missing). */
  root: string;
  /** Signs download URLs (≥ 32 characters). */
  signingSecret: string;
  /** Largest upload, whatever the bucket allows. @default 100 MiB */
  maxUploadBytes?: number;
  /** The clock. @default the real one */
  now?: () => Date;
  /** Logs refusals worth a look (a file missing under a row). */
  log?: Logger;
}

/** The path prefix Supabase serves Storage under. */
export const STORAGE_PREFIX = "/storage/v1";

const JSON_LIMIT = 64 * 1024;
const DEFAULT_MAX_UPLOAD = 100 * 1024 * 1024;
const encoder = new TextEncoder();

/** A Storage API error body, as Supabase Storage writes them. */
function storageError(status: number, error: string, message: string): Response {
  return Response.json({ statusCode: String(status), error, message }, { status });
}

const notFound = () => storageError(404, "not_found", "Object not found");
const unauthorized = () => storageError(401, "Unauthorized", "Invalid JWT");

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return decodeBase64Url(text);
  } catch {
    return null;
  }
}

/** A bucket and an object name taken from a request path, or null when malformed. */
function objectRef(pathname: string, prefix: string): { bucket: string; name: string } | null {
  if (!pathname.startsWith(prefix)) return null;
  let segments: string[];
  try {
    segments = pathname.slice(prefix.length).split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
  const [bucket, ...rest] = segments;
  const name = rest.join("/");
  const bad = (s: string) =>
    // deno-lint-ignore no-control-regex
    s === "" || s === "." || s === ".." || /[\u0000-\u001f\\]/.test(s) || s.length > 255;
  if (!bucket || bad(bucket) || rest.length === 0 || rest.some(bad) || name.length > 1024) {
    return null;
  }
  return { bucket, name };
}

/** Whether `type` is one of `allowed` (`image/*` style wildcards included); null allows all. */
function mimeAllowed(type: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const bare = type.split(";")[0].trim().toLowerCase();
  return allowed.some((entry) => {
    const a = entry.toLowerCase();
    return a.endsWith("/*") ? bare.startsWith(a.slice(0, -1)) : bare === a;
  });
}

/** The Storage app; mount it so it sees paths starting with `/storage/v1`. */
export function createLocalStorageServer(options: LocalStorageServerOptions): Hono {
  const { db, verify } = options;
  const now = options.now ?? (() => new Date());
  const root = options.root.endsWith("/") ? options.root : `${options.root}/`;
  const maxUpload = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD;
  const key = hmacKey(`storage-url:${options.signingSecret}`, ["sign", "verify"]);
  const fileOf = (bucket: string, name: string) => `${root}${bucket}/${name}`;

  async function sign(payload: string): Promise<string> {
    const mac = await crypto.subtle.sign("HMAC", await key, encoder.encode(payload));
    return base64url(new Uint8Array(mac));
  }

  /** `<payload>.<mac>`, payload = base64url JSON `{url, exp}` (exp in unix seconds). */
  async function signedToken(object: string, exp: number): Promise<string> {
    const payload = base64url(encoder.encode(JSON.stringify({ url: object, exp })));
    return `${payload}.${await sign(payload)}`;
  }

  /** Checks a token for `object`: "ok", "expired" or "invalid" (constant-time MAC check). */
  async function checkToken(token: string, object: string): Promise<"ok" | "expired" | "invalid"> {
    const [payload, mac, extra] = token.split(".");
    if (!payload || !mac || extra !== undefined || token.length > 2048) return "invalid";
    const macBytes = fromBase64url(mac);
    if (!macBytes) return "invalid";
    const valid = await crypto.subtle.verify(
      "HMAC",
      await key,
      macBytes,
      encoder.encode(payload),
    );
    if (!valid) return "invalid";
    let claims: { url?: unknown; exp?: unknown };
    try {
      claims = JSON.parse(new TextDecoder().decode(fromBase64url(payload)!));
    } catch {
      return "invalid";
    }
    if (claims.url !== object || typeof claims.exp !== "number") return "invalid";
    return claims.exp * 1000 > now().getTime() ? "ok" : "expired";
  }

  async function claimsOf(c: Context): Promise<JwtClaims | null> {
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
    const claims = match ? await verify(match[1]) : null;
    // Both buckets are private: an anonymous key reaches files only by signed URL.
    if (!claims || claims.role === "anon" || (claims.role !== "service_role" && !claims.sub)) {
      return null;
    }
    return claims;
  }

  /** Runs `fn` as the token's caller: the service role bypasses RLS, anyone else is fenced. */
  function asCaller<T>(claims: JwtClaims, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return claims.role === "service_role" ? db.asService(fn) : db.asCaller(claims, fn);
  }

  async function bucketOf(
    id: string,
  ): Promise<{ file_size_limit: string | null; allowed_mime_types: string[] | null } | null> {
    const [row] = await db.query<
      { file_size_limit: string | null; allowed_mime_types: string[] | null }
    >(
      "select file_size_limit::text, allowed_mime_types from storage.buckets where id = $1",
      [id],
    );
    return row ?? null;
  }

  /** The object's metadata if the caller may read it. */
  async function visible(
    claims: JwtClaims,
    bucket: string,
    name: string,
  ): Promise<{ metadata: Record<string, unknown> | null } | null> {
    const [row] = await asCaller(
      claims,
      (tx) =>
        tx.query<{ metadata: Record<string, unknown> | null }>(
          "select metadata from storage.objects where bucket_id = $1 and name = $2",
          [bucket, name],
        ),
    );
    return row ?? null;
  }

  async function stream(bucket: string, name: string, metadata: Record<string, unknown> | null) {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(fileOf(bucket, name), { read: true });
    } catch {
      options.log?.warn("storage_file_missing", { bucket, name });
      return notFound();
    }
    const size = (await file.stat()).size;
    return new Response(file.readable, {
      headers: {
        "content-type": String(metadata?.mimetype ?? "application/octet-stream"),
        "content-length": String(size),
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
      },
    });
  }

  async function upload(c: Context, ref: { bucket: string; name: string }, update: boolean) {
    const claims = await claimsOf(c);
    if (!claims) return unauthorized();
    const bucket = await bucketOf(ref.bucket);
    if (!bucket) return storageError(404, "Bucket not found", "Bucket not found");
    const limit = Math.min(maxUpload, Number(bucket.file_size_limit ?? maxUpload));
    const contentType = c.req.header("content-type") ?? "application/octet-stream";
    if (!mimeAllowed(contentType, bucket.allowed_mime_types)) {
      await c.req.raw.body?.cancel().catch(() => {});
      return storageError(415, "invalid_mime_type", `mime type ${contentType} is not supported`);
    }
    const read = await readBody(c.req.raw, { maxBytes: limit });
    if (!read.ok) {
      return read.status === 413
        ? storageError(413, "Payload too large", "The object exceeded the maximum allowed size")
        : storageError(read.status, "invalid_request", read.result.ok ? "" : read.result.error.msg);
    }
    const upsert = update || c.req.header("x-upsert") === "true";
    const sha256 = await sha256Hex(read.bytes);
    const metadata = {
      eTag: `"${sha256}"`,
      size: read.bytes.byteLength,
      mimetype: contentType,
      cacheControl: c.req.header("cache-control") ?? "no-cache",
      lastModified: now().toISOString(),
      contentLength: read.bytes.byteLength,
      httpStatusCode: 200,
    };
    const path = fileOf(ref.bucket, ref.name);
    try {
      const id = await asCaller(claims, async (tx) => {
        const sql = update
          ? `update storage.objects set metadata = $3::jsonb, updated_at = now()
             where bucket_id = $1 and name = $2 returning id`
          : `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
             values ($1, $2, $4::uuid, $4, $3::jsonb)
             on conflict (bucket_id, name) do ${
            upsert ? "update set metadata = excluded.metadata, updated_at = now()" : "nothing"
          }
             returning id`;
        const rows = await tx.query<{ id: string }>(sql, [
          ref.bucket,
          ref.name,
          metadata,
          claims.sub ?? null,
        ]);
        if (!rows[0]) return null;
        // The bytes land inside the transaction: a failed write rolls the row back.
        await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        const temp = `${path}.${crypto.randomUUID()}.part`;
        await Deno.writeFile(temp, read.bytes);
        await Deno.rename(temp, path);
        return rows[0].id;
      });
      if (!id) {
        return update ? notFound() : storageError(409, "Duplicate", "The resource already exists");
      }
      return c.json({ Key: `${ref.bucket}/${ref.name}`, Id: id });
    } catch (error) {
      const code = classifyDbError(error);
      if (code === "AUTH_ERROR") {
        return storageError(403, "Unauthorized", "new row violates row-level security policy");
      }
      if (code === "CONFLICT") {
        return storageError(409, "Duplicate", "The resource already exists");
      }
      throw error;
    }
  }

  const app = new Hono().basePath(STORAGE_PREFIX);

  app.post("/object/sign/*", async (c) => {
    const ref = objectRef(new URL(c.req.url).pathname, `${STORAGE_PREFIX}/object/sign/`);
    if (!ref) return storageError(400, "invalid_key", "Invalid object name");
    const claims = await claimsOf(c);
    if (!claims) return unauthorized();
    const read = await readBody(c.req.raw, { maxBytes: JSON_LIMIT });
    let expiresIn: unknown;
    try {
      expiresIn = read.ok ? JSON.parse(new TextDecoder().decode(read.bytes)).expiresIn : null;
    } catch {
      expiresIn = null;
    }
    if (typeof expiresIn !== "number" || !Number.isInteger(expiresIn) || expiresIn < 1) {
      return storageError(400, "invalid_request", "expiresIn must be a positive whole number");
    }
    if (!(await visible(claims, ref.bucket, ref.name))) return notFound();
    const exp = Math.floor(now().getTime() / 1000) + expiresIn;
    const object = `${ref.bucket}/${ref.name}`;
    const token = await signedToken(object, exp);
    return c.json({ signedURL: `/object/sign/${object}?token=${token}` });
  });

  app.get("/object/sign/*", async (c) => {
    const ref = objectRef(new URL(c.req.url).pathname, `${STORAGE_PREFIX}/object/sign/`);
    if (!ref) return storageError(400, "invalid_key", "Invalid object name");
    const token = c.req.query("token") ?? "";
    const verdict = await checkToken(token, `${ref.bucket}/${ref.name}`);
    if (verdict === "expired") return storageError(400, "InvalidJWT", "jwt expired");
    if (verdict === "invalid") return storageError(400, "InvalidJWT", "invalid signature");
    const [row] = await db.asService((tx) =>
      tx.query<{ metadata: Record<string, unknown> | null }>(
        "select metadata from storage.objects where bucket_id = $1 and name = $2",
        [ref.bucket, ref.name],
      )
    );
    return row ? await stream(ref.bucket, ref.name, row.metadata) : notFound();
  });

  app.post("/object/*", async (c) => {
    const ref = objectRef(new URL(c.req.url).pathname, `${STORAGE_PREFIX}/object/`);
    if (!ref) return storageError(400, "invalid_key", "Invalid object name");
    return await upload(c, ref, false);
  });

  app.put("/object/*", async (c) => {
    const ref = objectRef(new URL(c.req.url).pathname, `${STORAGE_PREFIX}/object/`);
    if (!ref) return storageError(400, "invalid_key", "Invalid object name");
    return await upload(c, ref, true);
  });

  app.get("/object/*", async (c) => {
    const pathname = new URL(c.req.url).pathname.replace(
      `${STORAGE_PREFIX}/object/authenticated/`,
      `${STORAGE_PREFIX}/object/`,
    );
    const ref = objectRef(pathname, `${STORAGE_PREFIX}/object/`);
    if (!ref) return storageError(400, "invalid_key", "Invalid object name");
    const claims = await claimsOf(c);
    if (!claims) return unauthorized();
    const row = await visible(claims, ref.bucket, ref.name);
    return row ? await stream(ref.bucket, ref.name, row.metadata) : notFound();
  });

  app.delete("/object/:bucket", async (c) => {
    const bucket = c.req.param("bucket");
    const claims = await claimsOf(c);
    if (!claims) return unauthorized();
    const read = await readBody(c.req.raw, { maxBytes: JSON_LIMIT });
    let prefixes: unknown;
    try {
      prefixes = read.ok ? JSON.parse(new TextDecoder().decode(read.bytes)).prefixes : null;
    } catch {
      prefixes = null;
    }
    if (
      !Array.isArray(prefixes) || prefixes.length > 1000 ||
      prefixes.some((p) => typeof p !== "string" || !objectRef(`/${bucket}/${p}`, "/"))
    ) {
      return storageError(400, "invalid_request", "prefixes must be a list of object names");
    }
    const removed = await asCaller(
      claims,
      (tx) =>
        tx.query<{ id: string; name: string; bucket_id: string }>(
          `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning id, name, bucket_id`,
          [bucket, prefixes],
        ),
    );
    for (const row of removed) {
      await Deno.remove(fileOf(bucket, row.name)).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    }
    return c.json(removed);
  });

  app.notFound(() => storageError(404, "not_found", "Not found"));
  app.onError((error) => {
    options.log?.error("storage_request_failed", { error: String(error) });
    return storageError(500, "internal", "Internal error");
  });
  return app;
}
