/**
 * The call: what one tool call carries through the pipeline's steps. The
 * invoker makes it from the request, each step reads what earlier steps
 * decided and writes what it decides (the tool, the checked arguments, the
 * rate buckets, where the tool's queries go), and the trace step reads it
 * when the call ends.
 *
 * It is one plain object per call, every field present from the start, so
 * the steps stay cheap (see docs/performance.md).
 *
 * @module
 */
import type { Caller } from "@shared/auth/caller.ts";
import type { JwtClaims, Queryable } from "@shared/db/types.ts";
import type { CallContext } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Next, Step } from "./compose.ts";
import type { BucketKey, CallLimits } from "./rate_limit.ts";

/** One call. */
export interface InvokeRequest {
  /** Tool name. */
  tool: string;
  /** Raw arguments, validated here. */
  args: unknown;
  /** Who calls. */
  caller: Caller;
  /** Attribution; a missing trace id is generated. */
  context?: Partial<Pick<CallContext, "trace_id" | "convo_id" | "agent_id">>;
  /** Required for side-effecting tools. */
  idempotencyKey?: string | null;
  /** A token from an earlier CONFIRMATION_REQUIRED answer. */
  confirmation?: string | null;
}

/** The buckets a call draws from and their limits. */
export interface Rate {
  /** Whose bucket: tenant, tool and user (or role). */
  bucket: BucketKey;
  /** The limits that apply to this caller. */
  limits: CallLimits;
}

/** A call on its way through the pipeline. */
export interface Call {
  /** What the caller sent. */
  readonly request: InvokeRequest;
  /** Attribution handed to the tool and to the trace. */
  readonly context: CallContext;
  /** `performance.now()` when the call arrived: the trace's duration counts from it. */
  readonly started: number;
  /**
   * When the tool's deadline counts from for a tool run in process: the
   * arrival, or the end of the last wait before the tool (a confirmation, a lease).
   */
  now: number;
  /** The tool, once the lookup found it. */
  tool: AnyTool | undefined;
  /** The arguments, once validated. */
  args: unknown;
  /** `${org}:${user or role}`: whose idempotency keys and confirmations these are. */
  scope: string;
  /** sha256 of the tool name and the canonical arguments (gated tools only). */
  fingerprint: string;
  /** The buckets and limits, once the rate limit step decided them. */
  rate: Rate | undefined;
  /** Where the tool's queries go, set by the step that runs it. */
  db: Queryable;
  /** Aborts when the call's deadline passes, set by the step that runs it. */
  signal: AbortSignal | undefined;
  /** The ledger key the tool sees (side-effecting tools only). */
  idempotencyKey: string | null;
  /** What the tool's `prepare` returned, or {@link NOT_PREPARED}. */
  prepared: unknown;
  /** Whether the answer came from the idempotency ledger. */
  replayed: boolean;
}

/** One step of the invoke pipeline. */
export type CallStep = Step<Call, ToolResult>;

/** The rest of the invoke pipeline after a step. */
export type NextStep = Next<Call, ToolResult>;

/** `prepared` before a tool's `prepare` ran (the execute step runs it then). */
export const NOT_PREPARED: unique symbol = Symbol("not prepared");

/** What a tool that declared `usesDatabase: false` gets as its database. */
export const NO_DATABASE: Queryable = {
  query: () => Promise.reject(new Error("this tool declared usesDatabase: false")),
};

/** A new call for a request, arriving at `started`. */
export function newCall(request: InvokeRequest, started: number): Call {
  return {
    request,
    context: {
      trace_id: request.context?.trace_id || crypto.randomUUID(),
      org_id: request.caller.org_id,
      user_id: request.caller.claims.sub ?? null,
      convo_id: request.context?.convo_id ?? null,
      agent_id: request.context?.agent_id ?? null,
    },
    started,
    now: started,
    tool: undefined,
    args: undefined,
    scope: "",
    fingerprint: "",
    rate: undefined,
    db: NO_DATABASE,
    signal: undefined,
    idempotencyKey: null,
    prepared: NOT_PREPARED,
    replayed: false,
  };
}

/** The claims the call's tool runs with: a service tool runs as the service role whoever asks. */
export function claimsOf(call: Call): JwtClaims {
  const claims = call.request.caller.claims;
  return call.tool!.auth === "service" ? { ...claims, role: "service_role" } : claims;
}
