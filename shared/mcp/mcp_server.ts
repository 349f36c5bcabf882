/**
 * One MCP session's protocol server: the official SDK's low-level `Server`
 * answering `tools/list` and `tools/call` from the platform's one registry
 * and pipeline. Nothing here decides what a caller may see or do: the list
 * is {@link callerTools} (the tools function's own), a call is
 * `platform.call` (policy, validation, rate limit, confirmation,
 * idempotency, RLS as the caller, output check, trace).
 *
 * Each HTTP request brings its own verified caller (the endpoint resolves
 * the bearer token on every request and hands it over as `authInfo.extra`),
 * so a session never acts on a token older than the request's.
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CancelTaskRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Task,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  CancelTaskRequest,
  GetTaskPayloadRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListToolsRequest,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { fail, type ToolFail, type ToolResult } from "@shared/contract/mod.ts";
import type { Caller } from "@shared/auth/caller.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { ToolJobTask } from "@shared/registry/define_tool.ts";
import { callerTools } from "@shared/pipeline/caller_tools.ts";
import {
  type Background,
  cancelDeferredCall,
  type DeferredTask,
  listDeferredCalls,
  queueDeferredCall,
  readDeferredCall,
  runDeferredCall,
  trackJobTask,
} from "@shared/pipeline/deferred_calls.ts";
import { McpToolCatalog } from "./tool_catalog.ts";
import { callHints } from "./call_hints.ts";
import {
  decodeTaskId,
  DEFAULT_TASK_POLL_MS,
  failedTask,
  isTerminal,
  taskFromDeferred,
  taskFromStatus,
  type TaskRef,
  taskResult,
} from "./tool_tasks.ts";

/** What the endpoint hands each request's handlers (as `authInfo.extra`). */
export interface McpRequestContext {
  /** The caller this request's token resolved to. */
  caller: Caller;
  /** The agent whose allowlist narrows the tools, if the session named one. */
  agent?: string;
  /** The request's `Idempotency-Key` header, as the tools function accepts it. */
  idempotencyKey?: string;
  /** The request's `x-trace-id` header. */
  traceId?: string;
}

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  /** The platform. */
  platform: Platform;
  /** The tools' MCP definitions, shared by every session of an instance. */
  catalog: McpToolCatalog;
  /** Tools per `tools/list` page. @default 100 */
  pageSize?: number;
  /** The server's name and version in `initialize`. @default `<tenant slug>-tools`, else tools */
  serverInfo?: { name: string; version: string };
  /**
   * The tenant the session serves: its slug names the server and its brand the instructions, so
   * a tenant's staff never read another tenant's name. @default none (a generic name)
   */
  tenant?: { slug: string; brand: string };
  /**
   * Runs a deferred tool's work after its task is answered (Supabase:
   * `EdgeRuntime.waitUntil`). @default a promise left running
   */
  background?: Background;
  /** Tasks per `tasks/list` page. @default 50 */
  taskPageSize?: number;
  /** How long a confirmation asked in the client is waited for; then the token goes back. @default 60000 */
  elicitationTimeoutMs?: number;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the server tells clients it is, unless told otherwise (a tenant's slug prefixes it). */
export const SERVER_INFO = { name: "tools", version: "1.0.0" } as const;

/**
 * Builds the protocol server of one session.
 *
 * @throws {RangeError} when `pageSize` is not a whole number from 1 to 1,000.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { platform, catalog } = options;
  const pageSize = options.pageSize ?? 100;
  const taskPageSize = options.taskPageSize ?? 50;
  const background: Background = options.background ?? ((work) => void work());
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    throw new RangeError(
      `Cannot serve MCP as pageSize must be a whole number from 1 to 1000: current value is ${pageSize}`,
    );
  }
  const tenant = options.tenant;
  const info = options.serverInfo ??
    (tenant ? { ...SERVER_INFO, name: `${tenant.slug}-${SERVER_INFO.name}` } : SERVER_INFO);
  const server = new Server(info, {
    capabilities: {
      tools: { listChanged: true },
      // Long-running tools' jobs, read through their status tools (tool_tasks.ts); deferred
      // calls' rows are listed and, until they start, cancelled (deferred_calls.ts).
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    },
    instructions: `${tenant ? `${tenant.brand}'s tools` : "The tools of this tenant"}. ` +
      "Every result's structuredContent is {ok, data} or {ok: false, error: {code, msg}}.",
  });

  function visible(extra: Extra): AnyTool[] {
    const context = requestContext(extra);
    const listed = callerTools(platform, context.caller, { agent: context.agent });
    // A caller without an org, or naming an agent the tenant does not run, sees nothing.
    return listed.ok ? listed.tools : [];
  }

  server.setRequestHandler(
    ListToolsRequestSchema,
    async (request: ListToolsRequest, extra: Extra) => {
      // The tenant's generated tools as the database holds them (cheap when nothing moved).
      const orgId = requestContext(extra).caller.org_id;
      if (orgId) await platform.syncTools(orgId);
      const tools = visible(extra);
      const cursor = request.params?.cursor;
      let start = 0;
      if (cursor !== undefined) {
        const after = decodeCursor(cursor);
        if (after === null) throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
        // The registry's own order (localeCompare), so a page starts right after the last one
        // even when that tool has since been removed.
        start = tools.findIndex((tool) => tool.name.localeCompare(after) > 0);
        if (start < 0) start = tools.length;
      }
      const page = tools.slice(start, start + pageSize);
      const listed: McpTool[] = catalog.definitions(page);
      const more = start + pageSize < tools.length;
      return {
        tools: listed,
        ...(more ? { nextCursor: encodeCursor(page[page.length - 1].name) } : {}),
      };
    },
  );

  server.setRequestHandler(
    CallToolRequestSchema,
    async (request: CallToolRequest, extra: Extra) => {
      const context = requestContext(extra);
      const { name } = request.params;
      // Unknown and not-allowed tools answer alike: a caller learns nothing of tools it may not use.
      const tool = visible(extra).find((candidate) => candidate.name === name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      const hints = callHints(tool, request.params.arguments, request.params._meta);
      if (!hints.ok) return callResult(hints);
      const idempotencyKey = hints.idempotencyKey ?? context.idempotencyKey ?? null;
      if (
        hints.idempotencyKey && context.idempotencyKey &&
        hints.idempotencyKey !== context.idempotencyKey
      ) {
        return callResult(fail("VALIDATION_ERROR", "Two different idempotency keys given", {
          fields: [{ path: "idempotency_key", message: "Two different idempotency keys given" }],
        }));
      }
      const traceId = context.traceId ?? crypto.randomUUID();
      const call = (confirmation: string | null) =>
        platform.call({
          tool: name,
          args: hints.args,
          caller: context.caller,
          context: { trace_id: traceId, agent_id: context.agent },
          idempotencyKey,
          confirmation,
        });
      // A tool listed without `execution.taskSupport` forbids tasks: the spec's answer is -32601.
      if (request.params.task && !tool.task) {
        throw new McpError(ErrorCode.MethodNotFound, `${name} does not run as a task`);
      }
      if (request.params.task && tool.task?.deferred) {
        const createdAt = platform.now().toISOString();
        const refused = (result: ToolResult & { ok: false }) => {
          const ref: TaskRef = { tool: name, job: "", createdAt, failure: JSON.stringify(result) };
          return { task: failedTask(tool, ref, result, platform.now()) };
        };
        // A tool that needs confirmation is confirmed before anything is queued, as a direct
        // call is: asked in the client, or the read-back and token go back (a failed task whose
        // result is CONFIRMATION_REQUIRED) for the caller to call again with the token.
        let confirmation = hints.confirmation;
        if (tool.confirmRequired && !confirmation && idempotencyKey) {
          const asked = await confirmationFor(extra, await call(null));
          if (typeof asked === "string") confirmation = asked;
          else if (!asked.ok) return refused(asked);
          // Ok: the ledger already holds this call's answer; its run replays it.
        }
        // The work runs after the answer: the task is its queued row, holding the token.
        const queued = idempotencyKey
          ? await queueDeferredCall(platform, {
            tool: name,
            args: hints.args,
            caller: context.caller,
            idempotencyKey,
            traceId,
            agentId: context.agent,
            confirmation,
          })
          : fail("VALIDATION_ERROR", "An idempotency key is required", {
            fields: [{ path: "idempotency_key", message: "Required for a task" }],
          });
        if (!queued.ok) return refused(queued);
        const row = queued.task;
        if (row.status === "queued") {
          background(() => runDeferredCall(platform, row.id, { caller: context.caller }));
        }
        return { task: taskFromDeferred(tool, deferredRef(row), row) };
      }
      const result = await confirmed(extra, await call(hints.confirmation), call);
      if (!request.params.task) return callResult(result);
      let createdAt = platform.now().toISOString();
      const jobTask = tool.task && !tool.task.deferred ? tool.task : null;
      if (!result.ok || !jobTask) {
        const ref: TaskRef = { tool: name, job: "", createdAt, failure: JSON.stringify(result) };
        return { task: await readTask(ref, context) };
      }
      const job = jobTask.jobId(result.data);
      if (idempotencyKey) {
        // Kept with the caller's tasks so that tasks/list finds it; its state stays in its job.
        const tracked = await trackJobTask(platform, {
          tool: name,
          args: hints.args,
          caller: context.caller,
          idempotencyKey,
          traceId,
          agentId: context.agent,
          job,
        }).catch((error) => {
          platform.log.warn("mcp_task_track_failed", { error: String(error).slice(0, 300) });
          return null;
        });
        if (tracked?.job === job) createdAt = tracked.created_at;
      }
      return { task: await readTask({ tool: name, job, createdAt }, context) };
    },
  );

  /**
   * A confirmation the client can ask for is asked here (elicitation), then the
   * call runs again with the pipeline's own token; else the token goes back.
   */
  async function confirmed(
    extra: Extra,
    result: ToolResult,
    retry: (token: string) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const token = await confirmationFor(extra, result);
    return typeof token === "string" ? await retry(token) : token;
  }

  /**
   * The pipeline's token once the person confirmed in their client, when the
   * call's answer asks for a confirmation the client can ask for; else the
   * answer to give (the same one, CANCELLED when declined, or the token back
   * when no answer came in time).
   */
  async function confirmationFor(extra: Extra, result: ToolResult): Promise<string | ToolResult> {
    const asked = !result.ok && result.error.code === "CONFIRMATION_REQUIRED"
      ? result.error.confirmation
      : undefined;
    if (!asked || !server.getClientCapabilities()?.elicitation) return result;
    // The person confirms in their client; the pipeline's own token binds it to these arguments.
    // The answer may reach another instance: the session host brings it here (session_host.ts).
    const summary = asked.summary;
    const ask = () =>
      extra.sendRequest(
        {
          method: "elicitation/create",
          params: {
            message: summary,
            requestedSchema: {
              type: "object",
              properties: {
                confirm: {
                  type: "boolean",
                  title: "Confirm",
                  description: `Do this now: ${summary}`,
                },
              },
              required: ["confirm"],
            },
          },
        },
        ElicitResultSchema,
        { timeout: options.elicitationTimeoutMs ?? 60_000 },
      );
    let answer;
    try {
      answer = await ask();
    } catch (error) {
      if ((error as { code?: unknown }).code !== ErrorCode.RequestTimeout) throw error;
      // No answer in time: the token goes back, saying so; confirming with it does the same.
      return fail(
        "CONFIRMATION_REQUIRED",
        "No confirmation came from your client in time: confirm with the token instead",
        { confirmation: asked },
      );
    }
    if (answer.action !== "accept" || answer.content?.confirm !== true) {
      return fail("CANCELLED", "Not confirmed: nothing was done");
    }
    return asked.token;
  }

  /** The task's job as its status tool reads it for this caller, and that answer. */
  async function readJob(
    ref: TaskRef,
    context: McpRequestContext,
  ): Promise<{ task: Task; status: ToolResult }> {
    const now = platform.now();
    const tool = taskTool(ref, context);
    if (ref.failure) {
      // The call started nothing: a failed task whose result is the refusal.
      const status = JSON.parse(ref.failure) as ToolFail;
      return { task: failedTask(tool, ref, status, now), status };
    }
    if (tool.task?.deferred) {
      // The row, as the caller may read it (RLS): the task and, once done, the call's answer.
      const row = await readDeferredCall(platform, context.caller, ref.job);
      if (!row || row.tool !== ref.tool) {
        throw new McpError(ErrorCode.InvalidParams, "Task not found");
      }
      return { task: taskFromDeferred(tool, ref, row), status: deferredAnswer(row) };
    }
    if (!tool.task) throw new McpError(ErrorCode.InvalidParams, "Task not found");
    const status = await platform.call({
      tool: tool.task!.statusTool,
      args: tool.task!.statusArgs(ref.job),
      caller: context.caller,
      context: { trace_id: context.traceId ?? crypto.randomUUID(), agent_id: context.agent },
    });
    return { task: taskFromStatus(tool, ref, status, now), status };
  }

  type ManyStatuses = NonNullable<ToolJobTask["statusMany"]>;

  /**
   * The status of the page's jobs whose tools read many at once, each job's
   * as one job's answer, keyed `<status tool>\0<job>`: one call per status
   * tool (per 100 jobs). A job the answer does not name answers NOT_FOUND
   * (not the caller's).
   */
  async function jobStatuses(
    page: readonly DeferredTask[],
    tools: ReadonlyMap<string, AnyTool>,
    context: McpRequestContext,
  ): Promise<Map<string, ToolResult>> {
    const batches = new Map<string, { many: ManyStatuses; jobs: string[] }>();
    for (const row of page) {
      const task = tools.get(row.tool)?.task;
      if (!task || task.deferred || !task.statusMany || !row.job) continue;
      const batch = batches.get(task.statusTool) ?? { many: task.statusMany, jobs: [] };
      if (!batch.jobs.includes(row.job)) batch.jobs.push(row.job);
      batches.set(task.statusTool, batch);
    }
    const calls: Array<[string, ManyStatuses, string[]]> = [];
    for (const [statusTool, { many, jobs }] of batches) {
      // statusMany takes at most 100 ids; a page is usually far fewer.
      for (let i = 0; i < jobs.length; i += 100) {
        calls.push([statusTool, many, jobs.slice(i, i + 100)]);
      }
    }
    const statuses = new Map<string, ToolResult>();
    await Promise.all(calls.map(async ([statusTool, many, jobs]) => {
      const answer = await platform.call({
        tool: statusTool,
        args: many.args(jobs),
        caller: context.caller,
        context: { trace_id: context.traceId ?? crypto.randomUUID(), agent_id: context.agent },
      });
      const found = answer.ok ? many.split(answer.data) : null;
      for (const job of jobs) {
        const data = found?.get(job);
        statuses.set(
          `${statusTool}\u0000${job}`,
          !answer.ok
            ? answer
            : data === undefined
            ? fail("NOT_FOUND", "No such job of yours")
            : { ok: true, data },
        );
      }
    }));
    return statuses;
  }

  async function readTask(ref: TaskRef, context: McpRequestContext): Promise<Task> {
    return (await readJob(ref, context)).task;
  }

  // A task of a tool the caller may not use (now) is no task of theirs.
  function taskTool(ref: TaskRef, context: McpRequestContext): AnyTool {
    const listed = callerTools(platform, context.caller, { agent: context.agent });
    const tool = listed.ok ? listed.tools.find((candidate) => candidate.name === ref.tool) : null;
    if (!tool?.task) throw new McpError(ErrorCode.InvalidParams, "Task not found");
    return tool;
  }

  server.setRequestHandler(
    ListTasksRequestSchema,
    async (request: ListTasksRequest, extra: Extra) => {
      const context = requestContext(extra);
      const cursor = request.params?.cursor;
      let after: { createdAt: string; id: string } | undefined;
      if (cursor !== undefined) {
        after = decodeTaskCursor(cursor) ?? undefined;
        if (!after) throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
      }
      // One more than a page says whether there is a next one.
      const rows = await listDeferredCalls(platform, context.caller, {
        limit: taskPageSize + 1,
        after,
      });
      const page = rows.slice(0, taskPageSize);
      const listed = callerTools(platform, context.caller, { agent: context.agent });
      const tools = new Map((listed.ok ? listed.tools : []).map((tool) => [tool.name, tool]));
      const now = platform.now();
      // Tools' own jobs are read where they are kept, as the caller: one status call per
      // status tool for the page's jobs when the tool reads many at once, else one per task.
      const statuses = await jobStatuses(page, tools, context);
      const tasks: Task[] = [];
      for (const row of page) {
        // A task of a tool the caller may no longer use is not theirs to follow.
        const tool = tools.get(row.tool);
        if (!tool?.task) continue;
        if (tool.task.deferred) {
          tasks.push(taskFromDeferred(tool, deferredRef(row), row));
          continue;
        }
        if (!row.job) continue;
        const ref: TaskRef = { tool: row.tool, job: row.job, createdAt: row.created_at };
        try {
          const status = statuses.get(`${tool.task.statusTool}\u0000${row.job}`);
          tasks.push(
            status ? taskFromStatus(tool, ref, status, now) : await readTask(ref, context),
          );
        } catch (error) {
          if (!(error instanceof McpError)) throw error;
        }
      }
      const last = page[page.length - 1];
      return {
        tasks,
        ...(rows.length > taskPageSize
          ? { nextCursor: encodeTaskCursor({ createdAt: last.created_at, id: last.id }) }
          : {}),
      };
    },
  );

  server.setRequestHandler(
    CancelTaskRequestSchema,
    async (request: CancelTaskRequest, extra: Extra) => {
      const context = requestContext(extra);
      const ref = decodeTaskId(request.params.taskId);
      const tool = taskTool(ref, context);
      if (ref.failure) {
        throw new McpError(ErrorCode.InvalidParams, "Cannot cancel task: it already failed");
      }
      if (tool.task && !tool.task.deferred) {
        // The job is its tool's: stopped by the tool that stops it, as the caller.
        const stopper = tool.task.cancel;
        const { task } = await readJob(ref, context);
        if (isTerminal(task.status)) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `Cannot cancel task: already in terminal status '${task.status}'`,
          );
        }
        if (!stopper) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `Cannot cancel task: ${ref.tool}'s job cannot be stopped once started`,
          );
        }
        const cancel = (confirmation: string | null) =>
          platform.call({
            tool: stopper.tool,
            args: stopper.args(ref.job),
            caller: context.caller,
            context: { trace_id: context.traceId ?? crypto.randomUUID(), agent_id: context.agent },
            // One cancel per job: a repeat replays it.
            idempotencyKey: `task-cancel:${ref.tool}:${ref.job}`.slice(0, 255),
            confirmation,
          });
        const stopped = await confirmed(extra, await cancel(null), cancel);
        if (!stopped.ok) {
          const hint = stopped.error.code === "CONFIRMATION_REQUIRED"
            ? `: confirm by calling ${stopper.tool} with the token`
            : "";
          throw new McpError(
            ErrorCode.InvalidParams,
            `Cannot cancel task: ${stopped.error.code}: ${stopped.error.msg}${hint}`,
          );
        }
        return await readTask(ref, context);
      }
      const cancelled = await cancelDeferredCall(platform, context.caller, ref.job);
      if (!cancelled.ok) {
        if (cancelled.error.code === "NOT_FOUND") {
          throw new McpError(ErrorCode.InvalidParams, "Task not found");
        }
        throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task: ${cancelled.error.msg}`);
      }
      return taskFromDeferred(tool, ref, cancelled.task);
    },
  );

  server.setRequestHandler(GetTaskRequestSchema, async (request: GetTaskRequest, extra: Extra) => {
    return await readTask(decodeTaskId(request.params.taskId), requestContext(extra));
  });

  server.setRequestHandler(
    GetTaskPayloadRequestSchema,
    async (request: GetTaskPayloadRequest, extra: Extra) => {
      const ref = decodeTaskId(request.params.taskId);
      const context = requestContext(extra);
      // tasks/result waits for the job to finish; the client's cancel (or its going away) ends it.
      while (true) {
        const { task, status } = await readJob(ref, context);
        if (isTerminal(task.status)) return taskResult(task, status);
        await sleep(task.pollInterval ?? DEFAULT_TASK_POLL_MS, extra.signal);
      }
    },
  );

  return server;
}

/** A deferred call's task id: its tool and row. */
function deferredRef(row: DeferredTask): TaskRef {
  return { tool: row.tool, job: row.id, createdAt: row.created_at };
}

/** What a deferred call's task answers: the call's own answer once it ran. */
function deferredAnswer(row: DeferredTask): ToolResult {
  if (row.result) return row.result;
  if (row.status === "cancelled") return fail("CANCELLED", "Cancelled before it started");
  return fail("TIMEOUT", "Still running");
}

/** The cursor after a task row (newest first): opaque to clients, stable across instances. */
function encodeTaskCursor(after: { createdAt: string; id: string }): string {
  return btoa(`task:${after.createdAt}|${after.id}`);
}

function decodeTaskCursor(cursor: string): { createdAt: string; id: string } | null {
  try {
    const match = /^task:(\d{4}-\d\d-\d\dT[\d:.]+Z)\|([0-9a-f-]{36})$/i.exec(atob(cursor));
    return match ? { createdAt: match[1], id: match[2] } : null;
  } catch {
    return null;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new McpError(ErrorCode.RequestTimeout, "Cancelled"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    function abort() {
      clearTimeout(timer);
      reject(new McpError(ErrorCode.RequestTimeout, "Cancelled"));
    }
    signal.addEventListener("abort", abort, { once: true });
  });
}

/**
 * A pipeline result as an MCP tool result: the `{ok, data}` / `{ok: false,
 * error}` contract as `structuredContent`, the same JSON as text for
 * clients that read only text, and `isError` on failure. A confirmation the
 * client could not ask for says how to confirm by token.
 */
export function callResult(result: ToolResult): CallToolResult {
  const structured = result as unknown as Record<string, unknown>;
  if (result.ok) {
    return {
      structuredContent: structured,
      content: [{ type: "text", text: JSON.stringify(result) }],
    };
  }
  const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(result) }];
  const token = result.error.confirmation?.token;
  if (result.error.code === "CONFIRMATION_REQUIRED" && token) {
    content.push({
      type: "text",
      text: "To confirm, call the tool again with the same arguments and the idempotency key, " +
        'adding the token as `_meta: {"confirmation": "<token>"}` or as the argument ' +
        '`"confirmation"`.',
    });
  }
  return { structuredContent: structured, content, isError: true };
}

function requestContext(extra: Extra): McpRequestContext {
  const context = extra.authInfo?.extra?.mcp as McpRequestContext | undefined;
  // The endpoint always sets it; a server connected some other way serves no one.
  if (!context) throw new McpError(ErrorCode.InvalidRequest, "Sign in required");
  return context;
}

/** The cursor after `name`: opaque to clients, stable across instances. */
function encodeCursor(name: string): string {
  return btoa(`after:${name}`);
}

function decodeCursor(cursor: string): string | null {
  try {
    const text = atob(cursor);
    return text.startsWith("after:") ? text.slice("after:".length) : null;
  } catch {
    return null;
  }
}
