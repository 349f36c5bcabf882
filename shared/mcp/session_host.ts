/**
 * The MCP sessions one instance holds, over the SDK's web-standard
 * Streamable HTTP transport.
 *
 * Functions are stateless and run as many instances, so what a session
 * needs (its tenant, its caller, the client's capabilities and protocol
 * version) is kept in `private.mcp_sessions`. A request naming a session
 * this instance does not hold restores it from there: a new protocol server
 * is brought to the initialized state with the client's own `initialize`
 * parameters, through the SDK's public transport, and then serves the request.
 *
 * `notifications/tools/list_changed` goes to every open session of a
 * tenant when the registry changes for that tenant (or globally). A change
 * made through another instance reaches this one because the host polls
 * `TenantToolSync.version` for the tenants of the sessions it holds and
 * syncs the registry when it moved; the registry's `subscribe` does the rest.
 *
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  type ClientCapabilities,
  type Implementation,
  type InitializeRequest,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { Platform } from "@shared/pipeline/platform.ts";
import type { Background } from "@shared/pipeline/deferred_calls.ts";
import { NO_RUNTIME_TOOLS, type TenantToolSync } from "@shared/registry/tenant_catalog.ts";
import { createMcpServer, type McpRequestContext } from "./mcp_server.ts";
import { McpToolCatalog } from "./tool_catalog.ts";

/** Options for {@link McpSessionHost}. */
export interface McpSessionHostOptions {
  /** The platform. */
  platform: Platform;
  /** Keeps this instance's registry in step with tenants' run-time tools. @default NO_RUNTIME_TOOLS */
  tenantSync?: TenantToolSync;
  /** How often the tenants of open sessions are checked for changes made elsewhere. @default 5000 */
  pollIntervalMs?: number;
  /** Tools per `tools/list` page. @default 100 */
  pageSize?: number;
  /** Tasks per `tasks/list` page. @default 50 */
  taskPageSize?: number;
  /** Sessions held in memory; the oldest beyond it is dropped (and restored from the database if used). @default 1000 */
  maxSessions?: number;
  /** How long a session lasts from its `initialize`; older rows are purged and answer 404. @default 30 days */
  sessionTtlMs?: number;
  /** Runs deferred tools' work after their tasks are answered (Supabase: `EdgeRuntime.waitUntil`). @default kept in this instance, awaited by `close` */
  background?: Background;
  /**
   * How often an instance waiting for answers to its own requests
   * (elicitation) looks for those that reached another instance. @default 250
   */
  answerPollMs?: number;
  /**
   * How long a confirmation asked in the client is waited for; then the call
   * answers with the confirmation token instead. @default 60000
   */
  elicitationTimeoutMs?: number;
}

/** How often an instance purges expired sessions, at most (on a new session). */
const PURGE_EVERY_MS = 60 * 60_000;

/** A session as the database keeps it. */
interface SessionRow {
  id: string;
  org_id: string;
  caller_key: string;
  agent_id: string | null;
  protocol_version: string;
  client_info: Implementation;
  client_capabilities: ClientCapabilities;
}

interface LiveSession {
  row: SessionRow;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Ids of requests this instance's server sent the client (elicitation), still unanswered. */
  asked: Map<string, number>;
}

/** A JSON-RPC response (result or error): the client's answer to a server request. */
type ClientAnswer = JSONRPCMessage & { id: string | number };

function isAnswer(message: unknown): message is ClientAnswer {
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
}

/** Whose session it is: the user, or the role for tokens without one (anon, service). */
function callerKey(context: McpRequestContext): string {
  return context.caller.claims.sub ?? `role:${context.caller.claims.role}`;
}

/** Whether the request's caller is the session's: the same user (or role) in the same org. */
function owns(row: SessionRow, context: McpRequestContext): boolean {
  return row.caller_key === callerKey(context) && row.org_id === context.caller.org_id;
}

/** The sessions of one instance. */
export class McpSessionHost {
  #platform: Platform;
  #sync: TenantToolSync;
  #pollIntervalMs: number;
  #pageSize: number | undefined;
  #taskPageSize: number | undefined;
  #maxSessions: number;
  #catalog: McpToolCatalog;
  #live = new Map<string, LiveSession>();
  #restoring = new Map<string, Promise<LiveSession | undefined>>();
  #versions = new Map<string, string>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #pollRun: Promise<void> | undefined;
  #ttlMs: number;
  #purged = -Infinity;
  #unsubscribe: () => void;
  #background: Background;
  #answerPollMs: number;
  #elicitationTimeoutMs: number | undefined;
  #answerTimer: ReturnType<typeof setTimeout> | undefined;
  #running = new Set<Promise<unknown>>();

  /** @param options The platform and how to keep it in step. */
  constructor(options: McpSessionHostOptions) {
    this.#platform = options.platform;
    this.#sync = options.tenantSync ?? NO_RUNTIME_TOOLS;
    this.#pollIntervalMs = options.pollIntervalMs ?? 5000;
    this.#pageSize = options.pageSize;
    this.#taskPageSize = options.taskPageSize;
    this.#maxSessions = options.maxSessions ?? 1000;
    this.#ttlMs = options.sessionTtlMs ?? 30 * 24 * 60 * 60_000;
    this.#catalog = new McpToolCatalog(options.platform.registry, options.platform.log);
    this.#answerPollMs = options.answerPollMs ?? 250;
    this.#elicitationTimeoutMs = options.elicitationTimeoutMs;
    this.#background = options.background ?? ((work) => {
      // Held so close() lets the work finish; an error is the work's own to record.
      const running = work().catch(() => {}).finally(() => this.#running.delete(running));
      this.#running.add(running);
    });
    this.#unsubscribe = options.platform.registry.subscribe((change) => {
      for (const live of this.#live.values()) {
        if (change.tenantId !== null && change.tenantId !== live.row.org_id) continue;
        // Sent on the session's standalone GET stream; without one the SDK drops it.
        live.server.sendToolListChanged().catch(() => {});
      }
    });
  }

  /** Sessions held in memory now. */
  get size(): number {
    return this.#live.size;
  }

  /** Whether the poll of tenants' catalog versions runs (only while sessions are held). */
  get polling(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Serves one MCP request of an authenticated caller.
   *
   * @param request The HTTP request (GET, POST or DELETE).
   * @param context The caller this request's token resolved to.
   * @param body The parsed JSON body of a POST (read within the endpoint's limits).
   */
  async handle(request: Request, context: McpRequestContext, body?: unknown): Promise<Response> {
    const authInfo: AuthInfo = {
      token: "",
      clientId: callerKey(context),
      scopes: [],
      extra: { mcp: context },
    };
    const sessionId = request.headers.get("mcp-session-id");
    if (!sessionId) {
      if (request.method === "POST" && isInitializeRequest(body)) {
        return await this.#open(request, context, body as InitializeRequest, authInfo);
      }
      return rpcError(400, -32600, "Bad Request: Mcp-Session-Id header is required");
    }
    const live = this.#live.get(sessionId) ?? await this.#restoreOnce(sessionId, context);
    // Someone else's session id answers as an unknown one: ids are not shared credentials.
    if (!live || !owns(live.row, context)) return rpcError(404, -32001, "Session not found");
    // The client's answer to a request another instance sent: kept for that instance to pick up.
    if (request.method === "POST" && await this.#keepAnswersForOthers(live, body)) {
      return new Response(null, { status: 202 });
    }
    // The session keeps the agent it was opened for, whatever a later request's header says.
    const session: McpRequestContext = { ...context, agent: live.row.agent_id ?? undefined };
    return await live.transport.handleRequest(request, {
      parsedBody: body,
      authInfo: { ...authInfo, extra: { mcp: session } },
    });
  }

  /** Closes every session this instance holds and stops polling. */
  async close(): Promise<void> {
    this.#unsubscribe();
    if (this.#answerTimer !== undefined) clearTimeout(this.#answerTimer);
    this.#answerTimer = undefined;
    this.#stopPolling();
    const live = [...this.#live.values()];
    this.#live.clear();
    await Promise.all(live.map((session) => session.transport.close().catch(() => {})));
    // Deferred calls started here finish (or their lease lets the sweep take them).
    while (this.#running.size) await Promise.all([...this.#running]);
  }

  async #open(
    request: Request,
    context: McpRequestContext,
    body: InitializeRequest,
    authInfo: AuthInfo,
  ): Promise<Response> {
    const orgId = context.caller.org_id;
    if (!orgId) return rpcError(403, -32001, "Name an org in x-org-id");
    const requested = body.params.protocolVersion;
    const row: SessionRow = {
      id: crypto.randomUUID(),
      org_id: orgId,
      caller_key: callerKey(context),
      agent_id: context.agent ?? null,
      protocol_version: SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
        ? requested
        : LATEST_PROTOCOL_VERSION,
      client_info: body.params.clientInfo as Implementation,
      client_capabilities: (body.params.capabilities ?? {}) as ClientCapabilities,
    };
    // A session starts with this tenant's run-time tools as the database holds them.
    await this.#catchUp(orgId);
    const live = await this.#connect(row);
    const response = await live.transport.handleRequest(request, { parsedBody: body, authInfo });
    if (response.ok) {
      await this.#platform.db.query(
        `insert into private.mcp_sessions
           (id, org_id, caller_key, agent_id, protocol_version, client_info, client_capabilities,
            created_at)
         values ($1, $2, $3, $4, $5, ($6::text)::jsonb, ($7::text)::jsonb, $8)`,
        [
          row.id,
          row.org_id,
          row.caller_key,
          row.agent_id,
          row.protocol_version,
          JSON.stringify(row.client_info ?? {}),
          JSON.stringify(row.client_capabilities),
          this.#platform.now().toISOString(),
        ],
      );
      this.#hold(live);
      await this.#purge();
    } else {
      await live.transport.close().catch(() => {});
    }
    return response;
  }

  /** One restore per session at a time: concurrent requests share it, so one server holds it. */
  #restoreOnce(sessionId: string, context: McpRequestContext): Promise<LiveSession | undefined> {
    let pending = this.#restoring.get(sessionId);
    if (!pending) {
      pending = this.#restore(sessionId, context).finally(() => this.#restoring.delete(sessionId));
      this.#restoring.set(sessionId, pending);
    }
    return pending;
  }

  async #restore(
    sessionId: string,
    context: McpRequestContext,
  ): Promise<LiveSession | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(sessionId)) return undefined;
    const rows = await this.#platform.db.query<SessionRow>(
      `select id, org_id, caller_key, agent_id, protocol_version, client_info, client_capabilities
         from private.mcp_sessions where id = $1 and created_at > $2`,
      [sessionId, this.#expiry()],
    );
    const row = rows[0];
    // Nothing is built for a caller who does not own the session.
    if (!row || !owns(row, context)) return undefined;
    await this.#catchUp(row.org_id);
    const live = await this.#connect(row);
    // The client's own initialize, replayed through the transport: the server is where it was.
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const init = await live.transport.handleRequest(
      new Request("http://mcp.local/", {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: "restore",
          method: "initialize",
          params: {
            protocolVersion: row.protocol_version,
            capabilities: row.client_capabilities,
            clientInfo: row.client_info,
          },
        }),
      }),
    );
    await init.text();
    const initialized = await live.transport.handleRequest(
      new Request("http://mcp.local/", {
        method: "POST",
        headers: {
          ...headers,
          "mcp-session-id": row.id,
          "mcp-protocol-version": row.protocol_version,
        },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      }),
    );
    await initialized.body?.cancel();
    // A row the server cannot initialize from (a client it would refuse today) is no session.
    if (!init.ok || !initialized.ok || !live.server.getClientVersion()) {
      await live.transport.close().catch(() => {});
      return undefined;
    }
    this.#hold(live);
    return live;
  }

  async #connect(row: SessionRow): Promise<LiveSession> {
    const tenant = this.#platform.tenants.get(row.org_id);
    const server = createMcpServer({
      platform: this.#platform,
      ...(tenant
        ? {
          tenant: { slug: tenant.slug, brand: tenant.profile?.brand ?? tenant.name ?? tenant.slug },
        }
        : {}),
      catalog: this.#catalog,
      pageSize: this.#pageSize,
      taskPageSize: this.#taskPageSize,
      background: this.#background,
      elicitationTimeoutMs: this.#elicitationTimeoutMs,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => row.id,
      onsessionclosed: async (id: string) => {
        this.#drop(id);
        await this.#platform.db.query(`delete from private.mcp_sessions where id = $1`, [id]);
      },
    });
    await server.connect(transport);
    const live: LiveSession = { row, server, transport, asked: new Map() };
    // What the server asks the client is noted, so that an answer arriving on another instance
    // is known to be someone else's, and this instance knows to look for it there.
    const send = transport.send.bind(transport);
    transport.send = async (...[message, sendOptions]: Parameters<typeof send>) => {
      if (isJSONRPCRequest(message)) {
        live.asked.set(String(message.id), performance.now());
        this.#watchAnswers();
      }
      return await send(withPlainErrorMessage(message), sendOptions);
    };
    const receive = transport.onmessage;
    transport.onmessage = (
      ...[message, extra]: Parameters<NonNullable<typeof receive>>
    ) => {
      if (isAnswer(message)) live.asked.delete(String(message.id));
      receive?.(message, extra);
    };
    return live;
  }

  /**
   * Keeps the answers in a POST that answer requests this instance did not
   * send (another instance asked), for the asker to pick up. True when the
   * body was only such answers (nothing left to serve here).
   */
  async #keepAnswersForOthers(live: LiveSession, body: unknown): Promise<boolean> {
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.length || !messages.every(isAnswer)) return false;
    const foreign = messages.filter((message) => !live.asked.has(String(message.id)));
    if (!foreign.length) return false;
    for (const message of foreign) {
      await this.#platform.db.query(
        `insert into private.mcp_responses (session_id, request_id, message, created_at)
         values ($1, $2, ($3::text)::jsonb, $4)
         on conflict (session_id, request_id) do nothing`,
        [
          live.row.id,
          String(message.id),
          JSON.stringify(message),
          this.#platform.now().toISOString(),
        ],
      );
    }
    // Answers to this instance's own requests in the same body are delivered here.
    const own = messages.filter((message) => live.asked.has(String(message.id)));
    for (const message of own) live.transport.onmessage?.(message);
    return true;
  }

  /** Looks for answers kept by other instances while this one waits for any. */
  #watchAnswers(): void {
    if (this.#answerTimer !== undefined) return;
    this.#answerTimer = setTimeout(async () => {
      try {
        await this.#pickUpAnswers();
      } catch (error) {
        this.#platform.log.warn("mcp_answer_poll_failed", { error: String(error).slice(0, 300) });
      }
      this.#answerTimer = undefined;
      if ([...this.#live.values()].some((live) => live.asked.size)) this.#watchAnswers();
    }, this.#answerPollMs);
  }

  async #pickUpAnswers(): Promise<void> {
    // A request the server stopped waiting for (its timeout) is no longer looked for.
    const oldest = performance.now() - (this.#elicitationTimeoutMs ?? 60_000) - 5000;
    for (const live of this.#live.values()) {
      for (const [id, at] of live.asked) if (at < oldest) live.asked.delete(id);
    }
    const waiting = [...this.#live.values()].filter((live) => live.asked.size);
    if (!waiting.length) return;
    const rows = await this.#platform.db.query<
      { session_id: string; request_id: string; message: ClientAnswer }
    >(
      `delete from private.mcp_responses
        where (session_id, request_id) in (select * from unnest($1::uuid[], $2::text[]))
        returning session_id, request_id, message`,
      // Each session with its own requests only: another's answer stays for its asker.
      [
        waiting.flatMap((live) => [...live.asked.keys()].map(() => live.row.id)),
        waiting.flatMap((live) => [...live.asked.keys()]),
      ],
    );
    for (const row of rows) {
      const live = this.#live.get(row.session_id);
      // Handed to the session's protocol as if the client had posted it here.
      if (live?.asked.has(row.request_id)) live.transport.onmessage?.(row.message);
    }
  }

  #expiry(): string {
    return new Date(this.#platform.now().getTime() - this.#ttlMs).toISOString();
  }

  /** Deletes expired sessions' rows, at most once an hour per instance. */
  async #purge(): Promise<void> {
    const now = this.#platform.now().getTime();
    if (now - this.#purged < PURGE_EVERY_MS) return;
    this.#purged = now;
    // Answers kept for an instance that never came for them are stale after an hour.
    await this.#platform.db.query(`delete from private.mcp_responses where created_at <= $1`, [
      new Date(now - PURGE_EVERY_MS).toISOString(),
    ]).catch((error) =>
      this.#platform.log.warn("mcp_answer_purge_failed", { error: String(error).slice(0, 300) })
    );
    await this.#platform.db.query(`delete from private.mcp_sessions where created_at <= $1`, [
      this.#expiry(),
    ]).catch((error) =>
      this.#platform.log.warn("mcp_session_purge_failed", { error: String(error).slice(0, 300) })
    );
  }

  #hold(live: LiveSession): void {
    this.#live.set(live.row.id, live);
    while (this.#live.size > this.#maxSessions) {
      const [oldest] = this.#live.keys();
      const dropped = this.#live.get(oldest)!;
      this.#live.delete(oldest);
      // Its row stays: the next request for it restores it.
      dropped.transport.close().catch(() => {});
    }
    this.#startPolling();
  }

  #drop(id: string): void {
    this.#live.delete(id);
    if (this.#live.size === 0) this.#stopPolling();
  }

  /** Syncs the tenant's run-time tools if the database's version moved since this instance looked. */
  async #catchUp(orgId: string): Promise<void> {
    try {
      const version = await this.#sync.version(orgId);
      if (this.#versions.get(orgId) === version) return;
      await this.#sync.sync(orgId, this.#platform.registry);
      this.#versions.set(orgId, version);
    } catch (error) {
      // The session is served with the tools this instance has; the next poll tries again.
      this.#platform.log.warn("mcp_tool_sync_failed", { error: String(error).slice(0, 300) });
    }
  }

  #startPolling(): void {
    if (this.#timer !== undefined || this.#live.size === 0) return;
    // A tick while the last poll still runs is skipped, never queued.
    this.#timer = setInterval(() => {
      if (!this.#pollRun) this.poll();
    }, this.#pollIntervalMs);
  }

  #stopPolling(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * One poll, as the interval runs it: syncs the tenants whose catalog moved
   * elsewhere, and lets go of sessions closed through another instance (their
   * rows are gone). Exposed so a caller (a test, a shutdown) may run it now.
   */
  async poll(): Promise<void> {
    // A run already going may have read before the change the caller waits for: run after it.
    while (this.#pollRun) await this.#pollRun;
    this.#pollRun = this.#pollOnce().finally(() => this.#pollRun = undefined);
    return await this.#pollRun;
  }

  async #pollOnce(): Promise<void> {
    const orgs = new Set([...this.#live.values()].map((live) => live.row.org_id));
    for (const orgId of orgs) await this.#catchUp(orgId);
    await this.#dropClosedElsewhere();
  }

  async #dropClosedElsewhere(): Promise<void> {
    const ids = [...this.#live.keys()];
    if (!ids.length) return;
    try {
      const rows = await this.#platform.db.query<{ id: string }>(
        `select id from private.mcp_sessions where id = any($1::uuid[])`,
        [ids],
      );
      const kept = new Set(rows.map((row) => row.id));
      for (const id of ids) {
        const live = this.#live.get(id);
        if (!live || kept.has(id)) continue;
        this.#drop(id);
        live.transport.close().catch(() => {});
      }
    } catch (error) {
      this.#platform.log.warn("mcp_session_check_failed", { error: String(error).slice(0, 300) });
    }
  }
}

/**
 * The message with its error's text as thrown, without the `MCP error <code>: ` prefix that
 * `McpError` adds: the SDK sends `error.message` as is, and every client adds the prefix again
 * ("MCP error -32602: MCP error -32602: Unknown tool: x"), while other clients show the code twice.
 */
function withPlainErrorMessage(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCErrorResponse(message)) return message;
  const prefix = `MCP error ${message.error.code}: `;
  if (!message.error.message.startsWith(prefix)) return message;
  return {
    ...message,
    error: { ...message.error, message: message.error.message.slice(prefix.length) },
  };
}

/**
 * A JSON-RPC error, as the transport itself answers protocol misuse: with no id unless the
 * request's id is known (JSON-RPC 2.0 §5: null only when the id could not be read), since a
 * client matches an answer to its pending request by id and would otherwise wait it out.
 */
export function rpcError(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id }, { status });
}
