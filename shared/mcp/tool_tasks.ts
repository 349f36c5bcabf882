/**
 * Long-running tools as MCP tasks (2025-11-25 `tasks`), backed by the job
 * rows the tools already keep. A tool whose descriptor has a `task`
 * answers a task-augmented `tools/call` with a task whose id names the tool
 * and its job; `tasks/get` and `tasks/result` read the job through the
 * tool's status tool, as the caller, through the pipeline. Nothing is
 * stored here, so any instance answers for any task, and a task id is no
 * credential: another caller reads the job under their own RLS.
 *
 * @module
 */
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolFail, ToolResult } from "@shared/contract/mod.ts";
import type { ToolJobStatus } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { DeferredTask } from "@shared/pipeline/deferred_calls.ts";
import { decodeBase64Url, encodeBase64Url } from "@shared/runtime/base64.ts";

/** What a task id holds: the tool, its job, and when the task began. */
export interface TaskRef {
  /** The long-running tool. */
  tool: string;
  /** Its job's id. */
  job: string;
  /** When the call that started it returned (ISO 8601). */
  createdAt: string;
  /** The call's failure, when it started nothing (`{code, msg}` as JSON). */
  failure?: string;
}

/** The poll interval suggested when the tool names none. */
export const DEFAULT_TASK_POLL_MS = 5000;

/** Encodes a task id (base64url JSON: opaque to clients, readable by every instance). */
export function encodeTaskId(ref: TaskRef): string {
  const json = JSON.stringify([
    ref.tool,
    ref.job,
    ref.createdAt,
    ...(ref.failure ? [ref.failure] : []),
  ]);
  return encodeBase64Url(new TextEncoder().encode(json));
}

/**
 * Decodes a task id.
 *
 * @throws {McpError} InvalidParams when it is not one this server made.
 */
export function decodeTaskId(taskId: string): TaskRef {
  try {
    if (taskId.length > 1024) throw new Error("too long");
    const parsed = JSON.parse(new TextDecoder().decode(decodeBase64Url(taskId)));
    if (
      Array.isArray(parsed) && (parsed.length === 3 || parsed.length === 4) &&
      parsed.every((part) => typeof part === "string")
    ) {
      return {
        tool: parsed[0],
        job: parsed[1],
        createdAt: parsed[2],
        ...(parsed[3] ? { failure: parsed[3] } : {}),
      };
    }
  } catch {
    // Falls through to the same answer as a well-formed id of no task.
  }
  throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId.slice(0, 100)}`);
}

/** A task's state from its status tool's result. */
export function taskFromStatus(
  tool: AnyTool,
  ref: TaskRef,
  status: ToolResult,
  now: Date,
): Task {
  const spec = tool.task;
  if (!spec || spec.deferred) throw new McpError(ErrorCode.InvalidParams, "Task not found");
  let state: { status: ToolJobStatus; message?: string } | null;
  if (status.ok) {
    state = spec.state(status.data);
  } else if (status.error.code === "NOT_FOUND" || status.error.code === "AUTH_ERROR") {
    // Not this caller's job (or no job): the same answer as an id of no task.
    state = null;
  } else if (status.error.code === "RATE_LIMIT" || status.error.code === "TIMEOUT") {
    // The job may well be fine: the client looks again later.
    state = { status: "working", message: status.error.msg };
  } else {
    state = { status: "failed", message: status.error.msg };
  }
  if (!state) throw new McpError(ErrorCode.InvalidParams, "Task not found");
  return {
    taskId: encodeTaskId(ref),
    status: state.status,
    ttl: null,
    createdAt: ref.createdAt,
    lastUpdatedAt: now.toISOString(),
    pollInterval: spec.pollIntervalMs ?? DEFAULT_TASK_POLL_MS,
    ...(state.message ? { statusMessage: state.message } : {}),
  };
}

/**
 * The task of a deferred call, from its row: queued and running are both
 * `working` (the message says which), the rest as the row says.
 */
export function taskFromDeferred(tool: AnyTool, ref: TaskRef, row: DeferredTask): Task {
  const status = row.status === "queued" || row.status === "working" ? "working" : row.status;
  const message = row.status === "queued"
    ? "queued"
    : row.status === "working"
    ? "running"
    : row.result && !row.result.ok
    ? `${row.result.error.code}: ${row.result.error.msg}`
    : undefined;
  return {
    taskId: encodeTaskId(ref),
    status,
    ttl: null,
    createdAt: ref.createdAt,
    lastUpdatedAt: row.updated_at,
    pollInterval: tool.task?.pollIntervalMs ?? DEFAULT_TASK_POLL_MS,
    ...(message ? { statusMessage: message } : {}),
  };
}

/** The task of a call the pipeline refused: failed, with the refusal as its message. */
export function failedTask(tool: AnyTool, ref: TaskRef, refusal: ToolFail, now: Date): Task {
  return {
    taskId: encodeTaskId(ref),
    status: "failed",
    ttl: null,
    createdAt: ref.createdAt,
    lastUpdatedAt: now.toISOString(),
    pollInterval: tool.task?.pollIntervalMs ?? DEFAULT_TASK_POLL_MS,
    statusMessage: `${refusal.error.code}: ${refusal.error.msg}`,
  };
}

/** Whether a task's job is done, one way or another. */
export function isTerminal(status: Task["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** The task's result: the status tool's answer about the finished job, in the call contract. */
export function taskResult(task: Task, status: ToolResult): CallToolResult {
  const structured = status as unknown as Record<string, unknown>;
  return {
    structuredContent: structured,
    content: [{ type: "text", text: JSON.stringify(status) }],
    ...(task.status === "completed" && status.ok ? {} : { isError: true }),
    _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } },
  };
}
