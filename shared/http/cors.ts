/**
 * Browser access to the functions outside agents and MCP clients call (the
 * tools function and MCP): which web origins may call them, read from
 * `FUNCTIONS_CORS_ORIGINS`.
 *
 * The policy: exact origins (`https://app.example.com`), or `*` for any. The
 * functions authenticate with a bearer token in `Authorization`, never with
 * cookies, so `Access-Control-Allow-Credentials` is never sent: a page can
 * call them only with a token it holds itself, and `*` lets no page act with
 * a signed-in user's cookies. Without the setting no origin is allowed (a
 * browser cannot read the answers), as for the Admin Inbox's
 * `ADMIN_INBOX_ORIGINS`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/** The environment variable naming the origins (comma-separated). */
export const CORS_ORIGINS_ENV = "FUNCTIONS_CORS_ORIGINS";

/** The origins allowed to call from a browser: exact origins, or `"*"` for any. */
export type CorsOrigins = readonly string[] | "*";

/** Request headers a browser may send: the bearer token, the org and agent, MCP's session. */
export const CORS_ALLOW_HEADERS = [
  "authorization",
  "content-type",
  "accept",
  "apikey",
  "x-client-info",
  "x-org-id",
  "x-agent-id",
  "x-trace-id",
  "idempotency-key",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
] as const;

/**
 * Response headers a page may read: MCP's session id (a client sends it back),
 * the challenge that points a client at the OAuth metadata (RFC 9728), the
 * trace id, and how long to wait after a rate limit.
 */
export const CORS_EXPOSE_HEADERS = [
  "mcp-session-id",
  "mcp-protocol-version",
  "www-authenticate",
  "x-trace-id",
  "retry-after",
] as const;

/**
 * Reads the allowed origins from a comma-separated setting. An entry must be
 * an origin (`scheme://host[:port]`, no path) or `*` alone.
 *
 * @param value The setting, e.g. `https://app.example.com, http://localhost:6274`.
 * @returns The origins (none when empty or absent), or `"*"`.
 * @throws {Error} naming an entry that is not an origin, or `*` beside others.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCorsOrigins } from "./cors.ts";
 *
 * assert.deepEqual(parseCorsOrigins(" https://a.example , http://localhost:6274/ "), [
 *   "https://a.example",
 *   "http://localhost:6274",
 * ]);
 * assert.equal(parseCorsOrigins("*"), "*");
 * assert.deepEqual(parseCorsOrigins(undefined), []);
 * assert.throws(() => parseCorsOrigins("https://a.example/app"), /not an origin/);
 * ```
 */
export function parseCorsOrigins(value: string | undefined): CorsOrigins {
  const entries = (value ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  if (entries.includes("*")) {
    if (entries.length > 1) {
      throw new Error(`${CORS_ORIGINS_ENV}: "*" allows every origin; give it alone`);
    }
    return "*";
  }
  return entries.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const origin = url && (url.protocol === "https:" || url.protocol === "http:")
      ? url.origin
      : undefined;
    // A trailing slash is forgiven (a copied address); a path, query or user is not an origin.
    if (!origin || entry.replace(/\/$/, "").toLowerCase() !== origin.toLowerCase()) {
      throw new Error(
        `${CORS_ORIGINS_ENV}: ${JSON.stringify(entry)} is not an origin (scheme://host[:port])`,
      );
    }
    return origin;
  });
}

/** The origins allowed by `FUNCTIONS_CORS_ORIGINS` ({@link parseCorsOrigins}). */
export function corsOriginsFromEnv(): CorsOrigins {
  return parseCorsOrigins(Deno.env.get("FUNCTIONS_CORS_ORIGINS"));
}

/** Whether a request's `Origin` may call. */
export function originAllowed(origins: CorsOrigins, origin: string): boolean {
  return origins === "*" || origins.includes(origin);
}

/**
 * The CORS middleware of a function: preflights answered (204, the methods,
 * {@link CORS_ALLOW_HEADERS}, cached 10 minutes), the allowed origin echoed
 * (`*` when any is), {@link CORS_EXPOSE_HEADERS} exposed, never credentials.
 * A request from another origin gets no CORS headers, so its page cannot read
 * the answer. Nothing is added when no origin is allowed.
 *
 * @param origins The allowed origins.
 * @param methods The methods the function answers.
 */
export function browserAccess(
  origins: CorsOrigins,
  methods: readonly string[],
): MiddlewareHandler | undefined {
  if (origins !== "*" && origins.length === 0) return undefined;
  return cors({
    origin: origins === "*" ? "*" : [...origins],
    allowMethods: [...methods, "OPTIONS"],
    allowHeaders: [...CORS_ALLOW_HEADERS],
    exposeHeaders: [...CORS_EXPOSE_HEADERS],
    maxAge: 600,
    credentials: false,
  });
}
