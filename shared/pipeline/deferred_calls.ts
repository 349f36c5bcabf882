/**
 * Deferred calls: a tool whose descriptor has `task: {deferred: true}` does
 * its slow work within the call (ocr_extract reads a page for seconds). Run
 * as a task, the call is first recorded as a queued row of
 * `public.tool_tasks` (as the caller, under RLS; the same idempotency key
 * answers the same row), the caller gets the task at once, and the call
 * then runs through the pipeline as the same caller with the same key (so
 * policy, rate limits, idempotency, RLS and the trace apply as to any call),
 * its answer stored in the row.
 *
 * Nothing is lost on a restart: a run holds the row by a lease; a row whose
 * lease ran out (or that was never started) is run again by the platform
 * sweep ({@link resumeDeferredCalls}). The ledger makes the repeat safe: a
 * call that had committed replays its answer. After its last attempt a row
 * is marked failed, saying why.
 *
 * @module
 */
import { fail, type ToolResult, validationFailure } from "@shared/contract/mod.ts";
import type { Caller } from "@shared/auth/caller.ts";
import type { JwtClaims, Queryable } from "@shared/db/types.ts";
import type { Platform } from "./platform.ts";

/** A task row as callers read it. */
export interface DeferredTask {
  /** The row's id: the task's job. */
  id: string;
  /** The tenant. */
  org_id: string;
  /** Who started it (null for a service caller). */
  user_id: string | null;
  /** The tool. */
  tool: string;
  /** The tool's own job row, for a tool that keeps one (its state is read there); null for a deferred call. */
  job: string | null;
  /** Where a deferred call stands (a tracked job's row says `working`: read its own). */
  status: "queued" | "working" | "completed" | "failed" | "cancelled";
  /** The call's answer once it ran. */
  result: ToolResult | null;
  /** When it was queued. */
  created_at: string;
  /** When it last moved. */
  updated_at: string;
}

/** Columns of a {@link DeferredTask}, timestamps as ISO text on both engines. */
export const DEFERRED_TASK_COLUMNS = `id, org_id, user_id, tool, job, status, result,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at`;

/** What a deferred call needs. */
export interface DeferredCallRequest {
  /** The tool (its descriptor has `task.deferred`). */
  tool: string;
  /** Its arguments (validated against the tool's input before the row is written). */
  args: unknown;
  /** Who calls. */
  caller: Caller;
  /** The call's idempotency key: the task's, and the ledger's when it runs. */
  idempotencyKey: string;
  /** The trace the run joins. */
  traceId: string;
  /** The agent whose allowlist applies, if any. */
  agentId?: string;
  /**
   * The pipeline's confirmation token for a `confirmRequired` tool, obtained
   * before queuing (asked in the client, or given back by the caller); kept
   * with the row and handed to the pipeline when the call runs, which checks
   * it. Without one such a call's run answers `CONFIRMATION_REQUIRED`.
   */
  confirmation?: string | null;
}

/** Runs after the answer (Supabase: `EdgeRuntime.waitUntil`). */
export type Background = (work: () => Promise<unknown>) => void;

/** How many times a row is run before it is marked failed. */
export const MAX_ATTEMPTS = 2;

/**
 * Records a deferred call as a queued task, as the caller. The same caller,
 * tool and key answer the row already there; the same key with other
 * arguments is `CONFLICT`.
 */
export async function queueDeferredCall(
  platform: Platform,
  request: DeferredCallRequest,
): Promise<{ ok: true; task: DeferredTask } | (ToolResult & { ok: false })> {
  const tool = platform.get(request.tool, { tenantId: request.caller.org_id });
  if (!tool?.task?.deferred) return fail("NOT_FOUND", `${request.tool} does not run as a task`);
  const orgId = request.caller.org_id;
  if (!orgId) return fail("AUTH_ERROR", "Name an org");
  const claims = request.caller.claims;
  const service = claims.role === "service_role";
  if (!service && !claims.sub) return fail("AUTH_ERROR", "Sign in to run this as a task");
  // Bad arguments are refused now, not an hour later in the task's result.
  const parsed = tool.input.safeParse(request.args);
  if (!parsed.success) return validationFailure(parsed.error);
  const at = platform.now().toISOString();
  const insert = (tx: Queryable) =>
    tx.query<DeferredTask & { args: unknown }>(
      `insert into public.tool_tasks
         (org_id, user_id, tool, args, idempotency_key, agent_id, trace_id, created_at, updated_at,
          confirmation)
       values ($1, $2, $3, ($4::text)::jsonb, $5, $6, $7, $8, $8, $9)
       on conflict (org_id, coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid),
                    tool, idempotency_key) do nothing
       returning ${DEFERRED_TASK_COLUMNS}, args`,
      [
        orgId,
        service ? null : claims.sub,
        request.tool,
        JSON.stringify(request.args),
        request.idempotencyKey,
        request.agentId ?? null,
        request.traceId,
        at,
        request.confirmation ?? null,
      ],
    );
  const existing = (tx: Queryable) =>
    tx.query<DeferredTask & { args: unknown }>(
      `select ${DEFERRED_TASK_COLUMNS}, args from public.tool_tasks
        where org_id = $1 and user_id is not distinct from $2 and tool = $3
          and idempotency_key = $4`,
      [orgId, service ? null : claims.sub, request.tool, request.idempotencyKey],
    );
  const rows = await platform.db.asCaller(claims, async (tx) => {
    const inserted = await insert(tx);
    return inserted.length ? inserted : await existing(tx);
  });
  const row = rows[0];
  if (!row) return fail("AUTH_ERROR", "You cannot start this task here");
  if (JSON.stringify(canonical(row.args)) !== JSON.stringify(canonical(request.args))) {
    return fail("CONFLICT", "This idempotency key was used with other arguments");
  }
  const { args: _args, ...task } = row;
  return { ok: true, task };
}

/**
 * Runs a task if no one holds it: takes its lease, calls the tool through
 * the pipeline as the caller who started it, and stores the answer. A row
 * taken elsewhere, finished or cancelled is left alone. Never throws.
 *
 * @returns whether this run took the row.
 */
export async function runDeferredCall(
  platform: Platform,
  id: string,
  options: { caller?: Caller } = {},
): Promise<boolean> {
  try {
    const now = platform.now();
    const [row] = await platform.db.query<{
      org_id: string;
      user_id: string | null;
      tool: string;
      args: Record<string, unknown>;
      idempotency_key: string;
      agent_id: string | null;
      trace_id: string | null;
      attempts: number;
      confirmation: string | null;
    }>(
      `update public.tool_tasks set status = 'working', attempts = attempts + 1,
              lease_until = $2, updated_at = $3
        where id = $1 and job is null and status in ('queued', 'working')
          and (lease_until is null or lease_until < $3)
        returning org_id, user_id, tool, args, idempotency_key, agent_id, trace_id, attempts,
                  confirmation`,
      [id, new Date(now.getTime() + leaseMs(platform, id)).toISOString(), now.toISOString()],
    );
    if (!row) return false;
    let result: ToolResult;
    if (row.attempts > MAX_ATTEMPTS) {
      result = fail(
        "TIMEOUT",
        "The work stopped before it finished (the server running it went away) and was not " +
          "tried again: start it again",
      );
    } else {
      const caller: Caller = options.caller ?? {
        claims: callerClaims(row.user_id),
        org_id: row.org_id,
      };
      result = await platform.call({
        tool: row.tool,
        args: row.args,
        caller,
        context: { trace_id: row.trace_id ?? undefined, agent_id: row.agent_id ?? undefined },
        idempotencyKey: row.idempotency_key,
        // A confirmed tool's token, checked by the pipeline: without a valid one nothing runs.
        confirmation: row.confirmation,
      });
    }
    await platform.db.query(
      `update public.tool_tasks set status = $2, result = ($3::text)::jsonb, lease_until = null,
              updated_at = $4, confirmation = null
        where id = $1 and status = 'working'`,
      [
        id,
        result.ok ? "completed" : "failed",
        JSON.stringify(result),
        platform.now().toISOString(),
      ],
    );
    return true;
  } catch (error) {
    // The lease runs out and the sweep tries again (or marks it failed).
    platform.log.error("deferred_call_failed", { task: id, error: String(error).slice(0, 300) });
    return false;
  }
}

/**
 * The sweep's part: runs every open task whose lease ran out (its instance
 * stopped) or that no instance started, one at a time. Never throws.
 *
 * @returns how many it ran.
 */
export async function resumeDeferredCalls(
  platform: Platform,
  options: { now: Date; limit?: number },
): Promise<number> {
  const rows = await platform.db.query<{ id: string }>(
    `select id from public.tool_tasks
      where status in ('queued', 'working') and job is null
        and (lease_until is null or lease_until < $1)
      order by created_at limit $2`,
    [options.now.toISOString(), options.limit ?? 20],
  );
  let ran = 0;
  for (const { id } of rows) if (await runDeferredCall(platform, id)) ran++;
  return ran;
}

/**
 * Cancels a task the caller can see, if it has not started.
 *
 * @returns the row after, or why not: `NOT_FOUND` (not theirs, or none), `CONFLICT` (started or done).
 */
export async function cancelDeferredCall(
  platform: Platform,
  caller: Caller,
  id: string,
): Promise<{ ok: true; task: DeferredTask } | (ToolResult & { ok: false })> {
  const visible = await readDeferredCall(platform, caller, id);
  if (!visible) return fail("NOT_FOUND", "Task not found");
  // Visible under RLS: the change itself is the platform's bookkeeping.
  const [row] = await platform.db.query<DeferredTask>(
    `update public.tool_tasks set status = 'cancelled', updated_at = $2
      where id = $1 and job is null and status = 'queued'
        and (lease_until is null or lease_until < $2)
      returning ${DEFERRED_TASK_COLUMNS}`,
    [id, platform.now().toISOString()],
  );
  if (!row) {
    return fail(
      "CONFLICT",
      `The task is ${visible.status}: only a task not started can be cancelled`,
    );
  }
  return { ok: true, task: row };
}

/**
 * Records the task of a tool that keeps its own job row, so that it is
 * listed with the caller's tasks (as the caller: RLS). The same key answers
 * the row already there.
 *
 * @returns the row, or null when the caller may not keep one (no user, no org).
 */
export async function trackJobTask(
  platform: Platform,
  request: DeferredCallRequest & { job: string },
): Promise<DeferredTask | null> {
  const orgId = request.caller.org_id;
  const claims = request.caller.claims;
  const service = claims.role === "service_role";
  if (!orgId || (!service && !claims.sub)) return null;
  const userId = service ? null : claims.sub;
  const at = platform.now().toISOString();
  const rows = await platform.db.asCaller(claims, async (tx) => {
    const inserted = await tx.query<DeferredTask>(
      `insert into public.tool_tasks
         (org_id, user_id, tool, args, idempotency_key, job, agent_id, trace_id, status,
          created_at, updated_at)
       values ($1, $2, $3, ($4::text)::jsonb, $5, $6, $7, $8, 'working', $9, $9)
       on conflict (org_id, coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid),
                    tool, idempotency_key) do nothing
       returning ${DEFERRED_TASK_COLUMNS}`,
      [
        orgId,
        userId,
        request.tool,
        JSON.stringify(request.args ?? {}),
        request.idempotencyKey,
        request.job,
        request.agentId ?? null,
        request.traceId,
        at,
      ],
    );
    if (inserted.length) return inserted;
    return await tx.query<DeferredTask>(
      `select ${DEFERRED_TASK_COLUMNS} from public.tool_tasks
        where org_id = $1 and user_id is not distinct from $2 and tool = $3
          and idempotency_key = $4`,
      [orgId, userId, request.tool, request.idempotencyKey],
    );
  });
  return rows[0] ?? null;
}

/** A task as the caller may read it (RLS), or null. */
export async function readDeferredCall(
  platform: Platform,
  caller: Caller,
  id: string,
): Promise<DeferredTask | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const rows = await platform.db.asCaller(caller.claims, (tx) =>
    tx.query<DeferredTask>(
      `select ${DEFERRED_TASK_COLUMNS} from public.tool_tasks where id = $1 and org_id = $2`,
      [id, caller.org_id],
    ));
  return rows[0] ?? null;
}

/**
 * The tasks a caller may read in their org (RLS: a customer's own, staff the
 * tenant's), newest first, `limit` after the row `after` names.
 */
export async function listDeferredCalls(
  platform: Platform,
  caller: Caller,
  options: { limit: number; after?: { createdAt: string; id: string } },
): Promise<DeferredTask[]> {
  const after = options.after;
  return await platform.db.asCaller(caller.claims, (tx) =>
    tx.query<DeferredTask>(
      `select ${DEFERRED_TASK_COLUMNS} from public.tool_tasks
        where org_id = $1
          and ($2::timestamptz is null or (created_at, id) < ($2::timestamptz, $3::uuid))
        order by created_at desc, id desc limit $4`,
      [caller.org_id, after?.createdAt ?? null, after?.id ?? null, options.limit],
    ));
}

/** How long a run holds its row: the tool's timeout, with room for the pipeline. */
function leaseMs(platform: Platform, _id: string): number {
  // The longest a deferred call may take is its tool's timeout; the row's tool is not known
  // before the update, so the longest of the deferred tools is used.
  let longest = 0;
  for (const tool of platform.list()) {
    if (tool.task?.deferred) longest = Math.max(longest, tool.timeoutMs);
  }
  return Math.max(longest, 30_000) * 2;
}

function callerClaims(userId: string | null): JwtClaims {
  return userId ? { sub: userId, role: "authenticated" } : { role: "service_role" };
}

/** Keys sorted, so the same arguments compare equal whatever their order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a < b ? -1 : 1)
        .map(([key, item]) => [key, canonical(item)]),
    );
  }
  return value;
}
