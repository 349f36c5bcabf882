/**
 * The one invoke pipeline every tool call passes through, in this order:
 *
 * 1. the tool exists (NOT_FOUND)
 * 2. the caller's tenant, agent and role may use it; anonymous callers only
 *    the tools their tenant made public (AUTH_ERROR)
 * 3. input validation (VALIDATION_ERROR naming the fields); a map sent as
 *    JSON text, as Gemini's export asks, is read as the map
 * 4. confirmation gate for `confirmRequired` tools (CONFIRMATION_REQUIRED)
 * 5. a completed call with the same idempotency key and arguments is
 *    replayed from the ledger, before any limit and without taking a token
 * 6. rate limit per user and per tenant for the tool, shared through Postgres
 *    (RATE_LIMIT; see rate_limit.ts for what it costs)
 * 7. idempotency claim for side-effecting tools (concurrent replay or CONFLICT)
 *    and execution in the caller's RLS transaction under a hard timeout (TIMEOUT)
 * 8. output validation, inside the transaction so a bad result commits nothing
 * 9. a trace record, queued off the hot path
 *
 * Three ways to run, by what the tool declares: tools without a database run
 * in process with a leased token and no I/O; read-only database tools run
 * each query in its own read-only transaction as the caller, one round trip
 * each with the token taken in the first flight when the lease has none
 * (`Database.openCallerReads`); side-effecting tools run in one transaction
 * with the ledger claim. Deadlines share one timer (`Deadlines`).
 *
 * Anything unexpected becomes INTERNAL_ERROR; details go to the log with the
 * trace id and nothing else leaves.
 *
 * @module
 */
import type { z } from "zod";
import {
  type ErrorCode,
  fail,
  ok,
  ToolFailure,
  type ToolResult,
  validationFailure,
} from "@shared/contract/mod.ts";
import type { Caller } from "@shared/auth/caller.ts";
import {
  type Database,
  type JwtClaims,
  type Queryable,
  setCallerScript,
} from "@shared/db/types.ts";
import { classifyDbError } from "@shared/db/errors.ts";
import { decodeToolArguments } from "@shared/export/encoded_maps.ts";
import type { AgentDirectory } from "@shared/registry/agent_config.ts";
import type { CallContext, SummaryContext, ToolServices } from "@shared/registry/define_tool.ts";
import type { AnyTool, ToolRegistry } from "@shared/registry/registry.ts";
import {
  policyAllows,
  policyIsPublic,
  type TenantDirectory,
  type TenantPolicy,
} from "@shared/registry/tenant_policy.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { canonicalJson, sha256Hex } from "@shared/runtime/canonical.ts";
import type { ConfirmationSigner } from "./confirmation.ts";
import {
  claimKey,
  completeKey,
  type LedgerEntry,
  MAX_KEY_LENGTH,
  readKey,
  recordFailure,
} from "./idempotency.ts";
import { Deadlines } from "./deadlines.ts";
import {
  admitCall,
  type BucketKey,
  type CallLimits,
  callLimits,
  DEFAULT_TENANT_CEILING,
  type LeasedRateLimiter,
  RATE_GRANT_GUARD,
  type RateLimit,
  takeTokensStatement,
} from "./rate_limit.ts";
import type { TraceSink } from "./trace_sink.ts";

// Who calls is auth's concept (it resolves callers); the pipeline takes one with each request.
export type { Caller };

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

/** Everything the pipeline needs. */
export interface InvokerOptions {
  /** The database. */
  db: Database;
  /** The tools. */
  registry: ToolRegistry;
  /** Tenants and their policies. */
  tenants: TenantDirectory;
  /** Agents and their allowlists. */
  agents: AgentDirectory;
  /** Token leases for tools that use no database (the others take theirs in Postgres directly). */
  rateLimiter: LeasedRateLimiter;
  /**
   * The most calls of one tool all of a tenant's callers together may make,
   * unless the tool or the tenant's policy says otherwise. @default DEFAULT_TENANT_CEILING
   */
  tenantCeiling?: RateLimit;
  /** Confirmation tokens. */
  confirmations: ConfirmationSigner;
  /** Trace writer. */
  traces: TraceSink;
  /** Adapters handed to tools. */
  services: ToolServices;
  /** Logs. */
  log: Logger;
}

/** Runs tool calls. */
export interface Invoker {
  /** Runs one call through every step; never throws. */
  invoke(request: InvokeRequest): Promise<ToolResult>;
}

class Timeout extends Error {}
class RateLimited extends Error {}

// How a call ended, and whether its answer came from the idempotency ledger.
interface Outcome {
  result: ToolResult;
  replayed: boolean;
}

// The buckets a call draws from and their limits.
interface Rate {
  bucket: BucketKey;
  limits: CallLimits;
}

// What a tool that declared `usesDatabase: false` gets as its database.
const NO_DATABASE: Queryable = {
  query: () => Promise.reject(new Error("this tool declared usesDatabase: false")),
};

// Deterministic failures are stored in the ledger and replayed; transient ones
// (our failure, timeouts, outages) roll back and let a retry run again.
const TRANSIENT: ReadonlySet<ErrorCode> = new Set([
  "INTERNAL_ERROR",
  "TIMEOUT",
  "SERVICE_UNAVAILABLE",
  "RATE_LIMIT",
]);

// `runTool` runs a tool's `prepare` itself unless the write path already did.
const NOT_PREPARED = Symbol("not prepared");

/** Builds the pipeline. */
export function createInvoker(options: InvokerOptions): Invoker {
  const { db, registry, tenants, agents, rateLimiter, confirmations, traces, services, log } =
    options;
  const deadlines = new Deadlines();
  const tenantCeiling = options.tenantCeiling ?? DEFAULT_TENANT_CEILING;

  // Each step runs synchronously until it must wait, and a call that never waits (a refusal,
  // a validation error) settles without a promise: every promise and await is a measurable
  // share of a no-database call (docs/performance.md).
  function invoke(request: InvokeRequest): Promise<ToolResult> {
    const started = performance.now();
    const context: CallContext = {
      trace_id: request.context?.trace_id || crypto.randomUUID(),
      org_id: request.caller.org_id,
      user_id: request.caller.claims.sub ?? null,
      convo_id: request.context?.convo_id ?? null,
      agent_id: request.context?.agent_id ?? null,
    };
    let tool: AnyTool | undefined;
    let outcome: Outcome | Promise<Outcome>;
    try {
      tool = registry.get(request.tool, { tenantId: context.org_id });
      outcome = tool ? run(tool, request, context, started) : {
        result: fail("NOT_FOUND", `Unknown tool "${safeName(request.tool)}"`),
        replayed: false,
      };
    } catch (error) {
      outcome = crashed(error, request, context);
    }
    if (!(outcome instanceof Promise)) {
      return Promise.resolve(finish(outcome, tool, request, context, started));
    }
    return outcome.then(
      (settled) => finish(settled, tool, request, context, started),
      (error) => finish(crashed(error, request, context), tool, request, context, started),
    );
  }

  function crashed(error: unknown, request: InvokeRequest, context: CallContext): Outcome {
    log.error("tool_pipeline_failed", {
      trace_id: context.trace_id,
      tool: request.tool,
      error: describe(error),
    });
    return { result: fail("INTERNAL_ERROR"), replayed: false };
  }

  // Every call, whatever its end, leaves its trace.
  function finish(
    outcome: Outcome,
    tool: AnyTool | undefined,
    request: InvokeRequest,
    context: CallContext,
    started: number,
  ): ToolResult {
    const { result, replayed } = outcome;
    const durationMs = performance.now() - started;
    traces.record({
      tool: tool?.name ?? safeName(request.tool),
      org_id: context.org_id,
      user_id: context.user_id,
      agent_id: context.agent_id,
      convo_id: context.convo_id,
      trace_id: context.trace_id,
      ok: result.ok,
      error_code: result.ok ? null : result.error.code,
      duration_ms: durationMs,
      result,
      over_budget: tool ? durationMs > tool.latencyBudgetMs : false,
      replayed,
    });
    return result;
  }

  function run(
    tool: AnyTool,
    request: InvokeRequest,
    context: CallContext,
    started: number,
  ): Outcome | Promise<Outcome> {
    const denied = authorize(tool, request.caller, context);
    if (denied) return { result: fail("AUTH_ERROR", denied), replayed: false };

    const parsed = parseArgs(tool, request.args ?? {});
    if (!parsed.success) return { result: validationFailure(parsed.error), replayed: false };
    if (tool.writes || tool.confirmRequired) return runGated(tool, parsed.data, request, context);
    return executeWithoutLedger(tool, parsed.data, request, context, started);
  }

  // Tools that write nothing: in process, or reads as the caller.
  function executeWithoutLedger(
    tool: AnyTool,
    args: unknown,
    request: InvokeRequest,
    context: CallContext,
    now: number,
  ): Promise<Outcome> {
    const rate = rateFor(tool, request.caller, context);
    return tool.usesDatabase
      ? executeRead(tool, args, claimsOf(tool, request.caller), context, rate)
      : executeInProcess(tool, args, context, rate, now);
  }

  // Side-effecting and confirmed tools: the idempotency key, the arguments' fingerprint and
  // the confirmation gate come before the write.
  async function runGated(
    tool: AnyTool,
    args: unknown,
    request: InvokeRequest,
    context: CallContext,
  ): Promise<Outcome> {
    const key = request.idempotencyKey ?? null;
    if (tool.writes) {
      const problem = checkKey(key);
      if (problem) {
        return {
          result: fail("VALIDATION_ERROR", problem, {
            fields: [{ path: "idempotency_key", message: problem }],
          }),
          replayed: false,
        };
      }
    }
    const scope = `${context.org_id}:${context.user_id ?? request.caller.claims.role}`;
    const fingerprint = await sha256Hex(`${tool.name}\n${canonicalJson(args)}`);

    if (tool.confirmRequired) {
      const tenant = tenants.get(context.org_id!)!;
      const gate = await confirmationGate(tool, args, request.confirmation ?? null, {
        tool: tool.name,
        scope,
        args: fingerprint,
        key,
      }, { tenantName: tenant.name ?? tenant.slug });
      if (gate) return { result: gate, replayed: false };
    }
    if (!tool.writes) {
      return await executeWithoutLedger(tool, args, request, context, performance.now());
    }
    const entry: LedgerEntry = { scope, key: key!, tool: tool.name, fingerprint };
    const rate = rateFor(tool, request.caller, context);
    return await executeWrite(tool, args, claimsOf(tool, request.caller), context, entry, rate);
  }

  function rateFor(tool: AnyTool, caller: Caller, context: CallContext): Rate {
    const tenant = tenants.get(context.org_id!)!;
    const identified = Boolean(context.user_id) || caller.claims.role === "anon";
    return {
      bucket: {
        orgId: context.org_id!,
        tool: tool.name,
        subject: context.user_id ?? `role:${caller.claims.role}`,
      },
      limits: limitsFor(tenant.policy!, tool, identified),
    };
  }

  // A service tool runs as the service role whoever asks (once the policy let them).
  function claimsOf(tool: AnyTool, caller: Caller): JwtClaims {
    return tool.auth === "service" ? { ...caller.claims, role: "service_role" } : caller.claims;
  }

  // Limits follow the tenant's policy object, which is replaced (not mutated) when it changes.
  const limitsCache = new WeakMap<object, WeakMap<AnyTool, [CallLimits, CallLimits]>>();
  function limitsFor(policy: TenantPolicy, tool: AnyTool, identified: boolean): CallLimits {
    let byTool = limitsCache.get(policy);
    if (!byTool) limitsCache.set(policy, byTool = new WeakMap());
    let pair = byTool.get(tool);
    if (!pair) {
      const limits = callLimits(tool.rateLimit, {
        policy: policy.rate_limits[tool.name],
        policyAll: policy.rate_limits["*"],
        ceiling: tenantCeiling,
      });
      // A service caller without a user (a webhook acting for many) answers to the tenant's limit only.
      pair = [limits, { ...limits, perUser: limits.perTenant }];
      byTool.set(tool, pair);
    }
    return identified ? pair[0] : pair[1];
  }

  function authorize(tool: AnyTool, caller: Caller, context: CallContext): string | null {
    if (!context.org_id) return "This call needs a tenant";
    const tenant = tenants.get(context.org_id);
    if (!tenant) return "Unknown tenant";
    if (!policyAllows(tenant.policy, tool.name)) {
      return "This tool is not enabled for your organisation";
    }
    if (context.agent_id) {
      if (!agents.get(tenant.slug, context.agent_id)) return "Unknown agent";
      if (!agents.allows(tenant.slug, context.agent_id, tool.name)) {
        return `This agent may not use ${tool.name}`;
      }
    }
    const role = caller.claims.role;
    if (tool.internal && role !== "service_role") return "This tool is not available";
    // Anonymous callers reach only what their tenant made public, and never service tools.
    if (role === "anon" && (!policyIsPublic(tenant.policy, tool.name) || tool.auth === "service")) {
      return "Please sign in first";
    }
    if (tool.auth !== "none" && role === "authenticated" && !caller.claims.sub) {
      return "Please sign in first";
    }
    return null;
  }

  async function confirmationGate(
    tool: AnyTool,
    args: unknown,
    token: string | null,
    claims: Parameters<ConfirmationSigner["check"]>[1],
    summaryContext: SummaryContext,
  ): Promise<ToolResult | null> {
    if (token) {
      const check = await confirmations.check(token, claims);
      if (check === "valid") return null;
      if (check === "forged") return fail("AUTH_ERROR", "Invalid confirmation");
    }
    const issued = await confirmations.issue(claims);
    const summary = tool.confirmSummary?.(args, summaryContext) ??
      `${tool.title}: ${canonicalJson(args)}`;
    return fail("CONFIRMATION_REQUIRED", `Please confirm: ${summary}`, {
      confirmation: { token: issued.token, summary, expires_at: issued.expiresAt.toISOString() },
    });
  }

  // Pure computation and outside APIs: a leased token, no database at all.
  function executeInProcess(
    tool: AnyTool,
    args: unknown,
    context: CallContext,
    rate: Rate,
    now: number,
  ): Promise<Outcome> {
    const taken = rateLimiter.take(rate.bucket, rate.limits, now);
    if (taken === true) return runInProcess(tool, args, context, now);
    // The deadline counts from when the tool starts, not from before the lease's round trip.
    return leaseRefused(taken, tool, context).then((refused) =>
      refused
        ? { result: refused, replayed: false }
        : runInProcess(tool, args, context, performance.now())
    );
  }

  function runInProcess(
    tool: AnyTool,
    args: unknown,
    context: CallContext,
    now: number,
  ): Promise<Outcome> {
    const controller = new AbortController();
    return withDeadline(
      runTool(tool, args, context, NO_DATABASE, controller.signal, null),
      tool.timeoutMs,
      controller,
      now,
    ).then(
      (result) => ({ result, replayed: false }),
      (error) => ({ result: failureResult(error, tool, context), replayed: false }),
    );
  }

  // Read-only tools: each query one round trip, its rate token taken in the
  // same flight unless the key's lease has one (see openCallerReads).
  async function executeRead(
    tool: AnyTool,
    args: unknown,
    claims: JwtClaims,
    context: CallContext,
    rate: Rate,
  ): Promise<Outcome> {
    const leased = rateLimiter.tryTake(rate.bucket);
    const want = leased ? 0 : rateLimiter.batchFor(rate.bucket, rate.limits);
    const reads = db.openCallerReads(claims, {
      statementTimeoutMs: tool.timeoutMs,
      before: leased ? undefined : takeTokensStatement(rate.bucket, rate.limits, want),
      guard: leased ? undefined : RATE_GRANT_GUARD,
    });
    const controller = new AbortController();
    let result: ToolResult | undefined;
    let failure: unknown;
    try {
      result = await withDeadline(
        runTool(tool, args, context, guard(reads, controller.signal), controller.signal, null),
        tool.timeoutMs,
        controller,
      );
    } catch (error) {
      failure = error;
    }
    try {
      const taken = reads.before();
      if (taken && failure instanceof Timeout) {
        // Settle the lease when the answer comes; the caller has waited long enough.
        taken.then((rows) => rateLimiter.credit(rate.bucket, rate.limits, want, granted(rows)))
          .catch(() => {});
      } else if (taken) {
        // The token decides first: a refused call is RATE_LIMIT whatever its query saw.
        const count = granted(await taken);
        rateLimiter.credit(rate.bucket, rate.limits, want, count);
        if (count < 1) return { result: fail("RATE_LIMIT"), replayed: false };
      }
    } catch (error) {
      failure ??= error;
    } finally {
      // Gives the connection back once its last commit has answered, off the caller's path.
      void reads.end();
    }
    if (result && failure === undefined) return { result, replayed: false };
    return { result: failureResult(failure, tool, context), replayed: false };
  }

  // Side-effecting tools: one transaction with the idempotency claim.
  async function executeWrite(
    tool: AnyTool,
    args: unknown,
    claims: JwtClaims,
    context: CallContext,
    entry: LedgerEntry,
    rate: Rate,
  ): Promise<Outcome> {
    // Sent before the transaction opens, on its own connection: see rate_limit.ts.
    const admission = admitCall(db, rate.bucket, rate.limits, entry);
    admission.catch(() => {});
    const controller = new AbortController();
    const transact = (preparedValue: unknown) =>
      db.transaction(async (tx) => {
        // Claim the key as the connecting role, then become the caller: pipelined.
        const claim = claimKey(tx, entry);
        const becomeCaller = tx.exec(
          setCallerScript(claims, { statementTimeoutMs: tool.timeoutMs }),
        );
        claim.catch(() => {});
        becomeCaller.catch(() => {});
        if (!(await claim)) {
          await becomeCaller;
          await tx.query("reset role");
          return await readKey(tx, entry);
        }
        await becomeCaller;
        const admitted = await admission;
        if (admitted.kind === "replay") return admitted;
        // Throwing rolls the claim back: a limited call leaves no trace in the ledger.
        if (admitted.kind === "limited") throw new RateLimited();
        const result = await runTool(
          tool,
          args,
          context,
          guard(tx, controller.signal),
          controller.signal,
          entry.key,
          preparedValue,
        );
        const reset = tx.query("reset role");
        reset.catch(() => {});
        await Promise.all([reset, completeKey(tx, entry, result)]);
        return { kind: "done" as const, result };
      });
    // A tool's slow outside work runs once admitted and before its transaction
    // opens, so the transaction holds a connection only for the writes. Other
    // tools open theirs at once, right behind the admission already sent.
    const work = tool.prepare
      ? admission.then((admitted) =>
        admitted.kind === "granted"
          ? prepareWithReads(tool, args, claims, context, controller.signal, entry.key)
            .then(transact)
          : transact(NOT_PREPARED)
      )
      : transact(NOT_PREPARED);
    work.catch(() => {}); // a late rejection is expected after a timeout

    try {
      const outcome = await withDeadline(work, tool.timeoutMs, controller);
      if (outcome.kind === "done") return { result: outcome.result, replayed: false };
      if (outcome.kind === "replay") return { result: outcome.result, replayed: true };
      return {
        result: fail("CONFLICT", "This idempotency key was already used for a different request"),
        replayed: false,
      };
    } catch (error) {
      const result = failureResult(error, tool, context);
      if (!TRANSIENT.has(result.error.code)) {
        await recordFailure(db, entry, result).catch((failure) =>
          log.error("ledger_record_failed", {
            trace_id: context.trace_id,
            error: describe(failure),
          })
        );
      }
      return { result, replayed: false };
    }
  }

  async function runTool(
    tool: AnyTool,
    args: unknown,
    context: CallContext,
    queryable: Queryable,
    signal: AbortSignal,
    idempotencyKey: string | null,
    prepared: unknown = NOT_PREPARED,
  ): Promise<ToolResult> {
    if (prepared === NOT_PREPARED && tool.prepare) {
      prepared = await prepare(tool, args, context, signal, idempotencyKey, queryable);
    }
    const data = await tool.execute(args, {
      trace_id: context.trace_id,
      org_id: context.org_id,
      user_id: context.user_id,
      convo_id: context.convo_id,
      agent_id: context.agent_id,
      db: queryable,
      signal,
      idempotency_key: idempotencyKey,
      services,
      prepared: prepared === NOT_PREPARED ? undefined : prepared,
    });
    if (signal.aborted) throw new Timeout();
    const output = (tool.output as z.ZodType).safeParse(data);
    if (!output.success) {
      throw new Error(`output does not match ${tool.name}'s schema: ${output.error.message}`);
    }
    return ok(output.data);
  }

  // A side-effecting tool's prepare reads in transactions of its own, ended before the
  // call's transaction opens: PGlite's one connection is free for the slow work's own calls.
  async function prepareWithReads(
    tool: AnyTool,
    args: unknown,
    claims: JwtClaims,
    context: CallContext,
    signal: AbortSignal,
    idempotencyKey: string | null,
  ): Promise<unknown> {
    const reads = db.openCallerReads(claims, { statementTimeoutMs: tool.timeoutMs });
    try {
      return await prepare(tool, args, context, signal, idempotencyKey, guard(reads, signal));
    } finally {
      await reads.end();
    }
  }

  function prepare(
    tool: AnyTool,
    args: unknown,
    context: CallContext,
    signal: AbortSignal,
    idempotencyKey: string | null,
    read: Queryable,
  ): Promise<unknown> {
    return tool.prepare!(args, {
      read,
      trace_id: context.trace_id,
      org_id: context.org_id,
      user_id: context.user_id,
      convo_id: context.convo_id,
      agent_id: context.agent_id,
      signal,
      idempotency_key: idempotencyKey,
      services,
    });
  }

  // Settles with `work`, or rejects with Timeout (and aborts the call) when
  // its deadline passes first; the deadline rides on the shared timer.
  function withDeadline<T>(
    work: Promise<T>,
    ms: number,
    controller: AbortController,
    now?: number,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const deadline = deadlines.add(ms, () => {
        controller.abort();
        reject(new Timeout());
      }, now);
      work.then(
        (value) => {
          deadlines.clear(deadline);
          resolve(value);
        },
        (error) => {
          deadlines.clear(deadline);
          reject(error);
        },
      );
    });
  }

  // The slow path of a leased token: a new lease was needed (or refused, or failed).
  async function leaseRefused(
    taken: false | Promise<boolean>,
    tool: AnyTool,
    context: CallContext,
  ): Promise<ToolResult | null> {
    try {
      return (await taken) ? null : fail("RATE_LIMIT");
    } catch (error) {
      return failureResult(error, tool, context);
    }
  }

  function failureResult(error: unknown, tool: AnyTool, context: CallContext) {
    if (error instanceof RateLimited) return fail("RATE_LIMIT");
    if (error instanceof Timeout) {
      log.warn("tool_timeout", {
        trace_id: context.trace_id,
        tool: tool.name,
        timeout_ms: tool.timeoutMs,
      });
      return fail("TIMEOUT");
    }
    if (error instanceof ToolFailure) {
      return fail(error.code, error.userMessage, {
        ...(error.fields ? { fields: error.fields } : {}),
        ...(error.details ? { details: error.details } : {}),
      });
    }
    const code = classifyDbError(error);
    if (code) {
      log.warn("tool_db_refused", {
        trace_id: context.trace_id,
        tool: tool.name,
        code,
        error: describe(error),
      });
      return fail(code);
    }
    log.error("tool_failed", {
      trace_id: context.trace_id,
      tool: tool.name,
      error: describe(error),
    });
    return fail("INTERNAL_ERROR");
  }

  return { invoke };
}

function guard(tx: Queryable, signal: AbortSignal): Queryable {
  return {
    query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      if (signal.aborted) return Promise.reject(new Timeout());
      return tx.query<T>(text, params);
    },
  };
}

function granted(rows: Record<string, unknown>[]): number {
  return Number(rows[0]?.granted ?? 0);
}

function checkKey(key: string | null): string | null {
  if (!key) return "An idempotency key is required for this action";
  if (key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    return `The idempotency key must be 1-${MAX_KEY_LENGTH} printable ASCII characters`;
  }
  return null;
}

// Echo back only a name-shaped prefix of what the caller sent.
function safeName(name: unknown): string {
  return typeof name === "string" ? name.replace(/[^A-Za-z0-9_.:-]/g, "").slice(0, 64) : "";
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(
    error,
  );
}

/**
 * The arguments checked against the tool's input. Arguments that fail are
 * read again with maps sent as JSON text decoded (Gemini cannot send a map:
 * its export asks for the JSON), so such a call validates, and is
 * fingerprinted, exactly like the native one; native calls never pay for it.
 */
function parseArgs(tool: AnyTool, args: unknown) {
  const parsed = tool.input.safeParse(args);
  if (parsed.success) return parsed;
  const decoded = decodeToolArguments(tool, args);
  return decoded === args ? parsed : tool.input.safeParse(decoded);
}
