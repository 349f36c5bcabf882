/**
 * The one invoke pipeline every tool call passes through: a chain of named
 * steps (`compose.ts`), each in its own module under `steps/`, read top to
 * bottom in {@link createInvoker}:
 *
 * 1. trace: every call leaves a trace record, queued off the hot path; a
 *    crash anywhere becomes INTERNAL_ERROR, its details in the log only
 * 2. lookup: the tool exists (NOT_FOUND)
 * 3. policy: the caller's tenant, agent and role may use it; anonymous
 *    callers only the tools their tenant made public (AUTH_ERROR)
 * 4. validation: the arguments match the tool's input (VALIDATION_ERROR
 *    naming the fields); a map sent as JSON text, as Gemini's export asks,
 *    is read as the map
 * 5. idempotency key: a side-effecting tool needs one (VALIDATION_ERROR);
 *    a gated call is fingerprinted
 * 6. rate limit: per user and per tenant for the tool, shared through
 *    Postgres (RATE_LIMIT; see rate_limit.ts for what it costs)
 * 7. confirmation: the gate for `confirmRequired` tools (CONFIRMATION_REQUIRED);
 *    asking is rate limited too, from a bucket of its own
 * 8. one of three ways to run, by what the tool declares, under its deadline
 *    (TIMEOUT; deadlines share one timer, `Deadlines`):
 *    - write transaction: side-effecting tools run in one transaction as the
 *      caller with the idempotency claim (a completed call replays before any
 *      limit and without a token; other arguments are CONFLICT);
 *    - caller reads: read-only database tools run each query in its own
 *      read-only transaction as the caller, the token in the first flight;
 *    - in process: tools without a database run with a leased token and no I/O
 * 9. execute: the tool runs and its output is checked, inside the
 *    transaction so a bad result commits nothing
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Caller } from "@shared/auth/caller.ts";
import type { Database } from "@shared/db/types.ts";
import type { AgentDirectory } from "@shared/registry/agent_config.ts";
import type { ToolServices } from "@shared/registry/define_tool.ts";
import type { ToolRegistry } from "@shared/registry/registry.ts";
import type { TenantDirectory } from "@shared/registry/tenant_policy.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { type InvokeRequest, newCall } from "./call.ts";
import { compose } from "./compose.ts";
import type { ConfirmationSigner } from "./confirmation.ts";
import { Deadlines } from "./deadlines.ts";
import type { LeasedRateLimiter, RateLimit } from "./rate_limit.ts";
import type { TraceSink } from "./trace_sink.ts";
import { callerReadsStep } from "./steps/caller_reads.ts";
import { confirmationStep } from "./steps/confirmation.ts";
import { executeStep } from "./steps/execute.ts";
import { idempotencyKeyStep } from "./steps/idempotency_key.ts";
import { inProcessStep } from "./steps/in_process.ts";
import { lookupStep } from "./steps/lookup.ts";
import { policyStep } from "./steps/policy.ts";
import { rateLimitStep } from "./steps/rate_limit.ts";
import { traceStep } from "./steps/trace.ts";
import { validationStep } from "./steps/validation.ts";
import { writeTransactionStep } from "./steps/write_transaction.ts";

// Who calls is auth's concept (it resolves callers); the pipeline takes one with each request.
export type { Caller, InvokeRequest };

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

/** Builds the pipeline. */
export function createInvoker(options: InvokerOptions): Invoker {
  const { db, registry, tenants, agents, rateLimiter, confirmations, traces, services, log } =
    options;
  const deadlines = new Deadlines();
  const run = compose([
    traceStep({ traces, log }),
    lookupStep({ registry }),
    // A tool the global registry lacks came from the tenant's own (generated from its APIs).
    policyStep({
      tenants,
      agents,
      db,
      isTenantTool: (name) => registry.get(name) === undefined,
    }),
    validationStep(),
    idempotencyKeyStep(),
    rateLimitStep({ tenants, rateLimiter, tenantCeiling: options.tenantCeiling, log }),
    confirmationStep({ tenants, confirmations, db, log, rateLimiter }),
    writeTransactionStep({ db, deadlines, services, log }),
    callerReadsStep({ db, rateLimiter, deadlines, log }),
    inProcessStep({ deadlines, log }),
    executeStep({ services }),
  ]);

  // A call that never waits (a refusal, a validation error) settles without a promise
  // until here: every promise and await is a measurable share of a no-database call.
  function invoke(request: InvokeRequest): Promise<ToolResult> {
    const answer = run(newCall(request, performance.now()));
    return answer instanceof Promise ? answer : Promise.resolve(answer);
  }

  return { invoke };
}
