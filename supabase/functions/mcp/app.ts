/**
 * The `mcp` function: the platform's tools over the Model Context Protocol
 * (Streamable HTTP, the official SDK), for outside agents and MCP clients.
 * A view over the one registry and pipeline: `tools/list` is what the
 * tools function lists for the same caller, `tools/call` is `platform.call`.
 *
 * Identity comes from the same bearer tokens as the tools function (the org
 * from `x-org-id` when the user belongs to several; an agent's allowlist
 * from `x-agent-id`); anonymous callers see only the tools their tenant made
 * public. Without a token the answer is 401 with the
 * `WWW-Authenticate: Bearer resource_metadata=…` challenge MCP clients
 * follow to this function's OAuth Protected Resource Metadata (RFC 9728),
 * which names Supabase Auth as the authorization server.
 *
 * @module
 */
import { Hono } from "hono";
import type { z } from "zod";
import {
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { CallerResolver } from "@shared/auth/caller.ts";
import { SIGN_IN_REQUIRED } from "@shared/auth/caller.ts";
import { type BodyLimits, readBody } from "@shared/http/body.ts";
import type { Platform } from "@shared/platform/platform.ts";
import { callerTools } from "@shared/pipeline/caller_tools.ts";
import type { TenantToolSync } from "@shared/registry/tenant_catalog.ts";
import { McpSessionHost, rpcError } from "@shared/mcp/session_host.ts";
import type { Background } from "@shared/pipeline/deferred_calls.ts";
import { browserAccess, type CorsOrigins, originAllowed } from "@shared/http/cors.ts";

/** What the app needs. */
export interface McpAppOptions {
  /** The platform. */
  platform: Platform;
  /** Resolves bearer tokens to callers. */
  resolveCaller: CallerResolver;
  /**
   * Where clients reach this function, e.g. `https://<ref>.supabase.co/functions/v1/mcp`
   * (a function when it is known only once a server listens).
   */
  resourceUrl: string | (() => string);
  /** The authorization server clients get tokens from: Supabase Auth, `<SUPABASE_URL>/auth/v1`. */
  authorizationServer: string | (() => string);
  /** Keeps the registry in step with tenants' run-time tools. @default the platform's (`platform.runtimeTools`) */
  tenantSync?: TenantToolSync;
  /** How often open sessions' tenants are checked for tools changed elsewhere. @default 5000 */
  pollIntervalMs?: number;
  /** Tools per `tools/list` page. @default 100 */
  pageSize?: number;
  /** Tasks per `tasks/list` page. @default 50 */
  taskPageSize?: number;
  /** Body limits of a request. @default 256 KiB within 10 s */
  body?: Partial<BodyLimits>;
  /** How long a confirmation asked in the client is waited for; then the token goes back. @default 60000 */
  elicitationTimeoutMs?: number;
  /** How often an instance waiting for its clients' answers looks for those another instance kept. @default 250 */
  answerPollMs?: number;
  /** Runs deferred tools' work after their tasks are answered (Supabase: `EdgeRuntime.waitUntil`). @default kept in this instance */
  background?: Background;
  /**
   * Web origins allowed to call from a browser (`FUNCTIONS_CORS_ORIGINS`); a request whose
   * `Origin` is another is refused with 403, as MCP's transport requires. @default none
   */
  corsOrigins?: CorsOrigins;
}

/** The app and its sessions, closed with {@link McpApp.close}. */
export interface McpApp {
  /** Serves a request (mounted at `/mcp`, as Supabase hands it over). */
  fetch(request: Request): Promise<Response>;
  /** Closes every session and stops polling. */
  close(): Promise<void>;
  /** The sessions this instance holds. */
  readonly sessions: McpSessionHost;
}

const METADATA_PATH = "/.well-known/oauth-protected-resource";
const ALLOW = { allow: "GET, POST, DELETE" };

/** Builds the app, mounted at `/mcp` as Supabase serves it. */
export function createMcpApp(options: McpAppOptions): McpApp {
  const { platform, resolveCaller } = options;
  const resource = () =>
    (typeof options.resourceUrl === "string" ? options.resourceUrl : options.resourceUrl())
      .replace(/\/+$/, "");
  const authorizationServer = () =>
    typeof options.authorizationServer === "string"
      ? options.authorizationServer
      : options.authorizationServer();
  const limits: BodyLimits = { maxBytes: 256 * 1024, ...options.body };
  const sessions = new McpSessionHost({
    platform,
    tenantSync: options.tenantSync ?? platform.runtimeTools,
    pollIntervalMs: options.pollIntervalMs,
    pageSize: options.pageSize,
    taskPageSize: options.taskPageSize,
    background: options.background,
    elicitationTimeoutMs: options.elicitationTimeoutMs,
    answerPollMs: options.answerPollMs,
  });
  const app = new Hono().basePath("/mcp");
  const origins = options.corsOrigins ?? [];
  const access = browserAccess(origins, ["GET", "POST", "DELETE"]);
  if (access) app.use("*", access);
  // MCP's Streamable HTTP transport: a request whose Origin is present and not allowed is
  // refused with 403 (against DNS rebinding). Clients that are not browsers send none.
  app.use("/", async (c, next) => {
    const origin = c.req.header("origin");
    // A page of this function's own site is not cross-origin.
    const own = origin !== undefined &&
      (origin === new URL(resource()).origin || origin === new URL(c.req.url).origin);
    if (origin === undefined || own || originAllowed(origins, origin)) return await next();
    await c.req.raw.body?.cancel().catch(() => {});
    return rpcError(403, -32001, `Origin ${origin.slice(0, 200)} is not allowed`);
  });

  app.onError((error, c) => {
    platform.log.error("mcp_function_failed", { error: String(error), path: c.req.path });
    return rpcError(500, -32603, "Internal error");
  });

  // RFC 9728: where this resource's tokens come from (Supabase Auth issues them).
  const metadata = () =>
    Response.json({
      resource: resource(),
      authorization_servers: [authorizationServer()],
      bearer_methods_supported: ["header"],
      resource_name: "EasyMO tools",
    }, { headers: { "cache-control": "public, max-age=300" } });
  app.get(METADATA_PATH, metadata);
  app.get(`${METADATA_PATH}/*`, metadata);

  app.on(["GET", "POST", "DELETE"], "/", async (c) => {
    const request = c.req.raw;
    const caller = await resolveCaller(c.req.header("authorization"), c.req.header("x-org-id"));
    if ("ok" in caller) {
      await request.body?.cancel().catch(() => {});
      if (caller.error.msg === SIGN_IN_REQUIRED) {
        // RFC 6750 §3.1: a token that was sent and refused is `invalid_token`, so a client
        // refreshes it or signs in again instead of retrying the same one.
        const presented = /^bearer\s+\S/i.test(c.req.header("authorization") ?? "");
        const challenge = [
          `Bearer resource_metadata="${resource()}${METADATA_PATH}"`,
          ...(presented
            ? ['error="invalid_token"', 'error_description="The token is invalid or expired"']
            : []),
        ].join(", ");
        return Response.json(
          { jsonrpc: "2.0", error: { code: -32001, message: SIGN_IN_REQUIRED }, id: null },
          { status: 401, headers: { "www-authenticate": challenge } },
        );
      }
      return rpcError(403, -32001, caller.error.msg);
    }
    if (!caller.org_id) {
      await request.body?.cancel().catch(() => {});
      return rpcError(403, -32001, "Name an org in x-org-id");
    }
    const agent = c.req.header("x-agent-id") || undefined;
    if (agent && !callerTools(platform, caller, { agent }).ok) {
      await request.body?.cancel().catch(() => {});
      return rpcError(400, -32602, "Unknown agent");
    }
    let body: unknown;
    if (request.method === "POST") {
      const read = await readBody(request, limits);
      if (!read.ok) {
        return rpcError(read.status, read.status === 413 ? -32600 : -32700, read.result.error.msg);
      }
      try {
        body = JSON.parse(new TextDecoder().decode(read.bytes));
      } catch {
        return rpcError(400, -32700, "Parse error: the body is not JSON");
      }
      const invalid = invalidMessage(body);
      if (invalid) return rpcError(400, invalid.code, invalid.message, invalid.id);
    }
    return await sessions.handle(request, {
      caller,
      agent,
      idempotencyKey: c.req.header("idempotency-key") || undefined,
      traceId: c.req.header("x-trace-id") || undefined,
    }, body);
  });

  // The transport speaks GET, POST and DELETE; anything else is 405 naming them (the spec's
  // answer), not Hono's plain-text 404 that reads as a wrong URL.
  app.all("/", (c) => {
    if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: ALLOW });
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed" }, id: null },
      { status: 405, headers: ALLOW },
    );
  });

  return {
    fetch: (request) => Promise.resolve(app.fetch(request)),
    close: () => sessions.close(),
    sessions,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The requests this server answers, by method, as the SDK reads them. */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  // Without it an initialize missing clientInfo was told to send an Mcp-Session-Id.
  "initialize": InitializeRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tasks/list": ListTasksRequestSchema,
  "tasks/get": GetTaskRequestSchema,
  "tasks/result": GetTaskPayloadRequestSchema,
  "tasks/cancel": CancelTaskRequestSchema,
  "ping": PingRequestSchema,
};

/**
 * Why a message in the body (alone or in a batch) cannot be answered: not a
 * JSON-RPC message at all (-32600 Invalid Request, or an empty batch), or a
 * request whose params are of the wrong shape (-32602 Invalid params, naming
 * the field, with that request's id); null when each is well formed. The SDK
 * answers the first as a parse error and the second with -32603 "Internal
 * error" and a raw zod dump.
 */
function invalidMessage(
  body: unknown,
): { code: number; message: string; id: string | number | null } | null {
  if (Array.isArray(body) && body.length === 0) {
    return { code: -32600, message: "Invalid Request: an empty batch", id: null };
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    const id =
      isObject(message) && (typeof message.id === "string" || typeof message.id === "number")
        ? message.id
        : null;
    // A request of the wrong params is still a request: Invalid params, with its id.
    const call = isObject(message) && id !== null ? invalidToolCall(message) : null;
    if (call) return { code: -32602, message: call, id };
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      return { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message", id: null };
    }
    const schema = REQUEST_SCHEMAS[message.method as string];
    const parsed = schema?.safeParse(message);
    if (parsed && !parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue.path.map(String).join(".") || "params";
      return { code: -32602, message: `Invalid params: ${path}: ${issue.message}`, id };
    }
  }
  return null;
}

/** Why a `tools/call` cannot be a call, naming the field; null when it is one or not a call. */
function invalidToolCall(message: Record<string, unknown>): string | null {
  if (message.method !== "tools/call") return null;
  const params = message.params;
  if (!isObject(params)) return "Invalid params: params must be an object";
  if (typeof params.name !== "string") return "Invalid params: params.name must be a string";
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    return "Invalid params: params.arguments must be an object";
  }
  return null;
}
