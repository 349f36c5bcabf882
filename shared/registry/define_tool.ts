/**
 * A tool is data: `defineTool({...})` checks a descriptor once and fills in
 * its defaults. The same definition feeds the registry, the invoke pipeline
 * and every export dialect.
 *
 * @module
 */
import type { z } from "zod";
import type { Queryable } from "@shared/db/types.ts";

/** What a tool changes, after the tool-surface design's descriptor. */
export type SideEffects = "none" | "read-only-nav" | `writes.${string}`;

/** Whose privileges a tool runs with. */
export type ToolAuth =
  /** Anyone, anonymous callers included; runs as the caller. */
  | "none"
  /** A signed-in user; runs as that user under RLS. */
  | "user"
  /**
   * The org's staff (staff or admin members) and service callers only; runs
   * as the caller under RLS. Anyone else is refused before the arguments are
   * read (AUTH_ERROR): no read-back, no rate token, nothing learned.
   */
  | "staff"
  /** Runs as `service_role` (RLS bypassed): the tool scopes rows itself. */
  | "service";

/** Who is calling, attributed on every call and trace. */
export interface CallContext {
  /** Trace id; generated when the caller gives none. */
  trace_id: string;
  /** The tenant the call acts in. */
  org_id: string | null;
  /** The signed-in user, if any. */
  user_id: string | null;
  /** The conversation the call belongs to, if any. */
  convo_id: string | null;
  /** The agent making the call, if any. */
  agent_id: string | null;
}

/**
 * A service a pack needs, declared by key so the kernel never names it: the
 * pack exports the key, the composition root provides the implementation.
 */
export interface ServiceKey<T> {
  /** Unique name, `<pack>.<service>`. */
  readonly id: string;
  /** Carries the type only. */
  readonly __type?: T;
}

/**
 * Declares a service key.
 *
 * @example
 * ```ts
 * import { serviceKey } from "@shared/registry/define_tool.ts";
 * const clock = serviceKey<{ now(): Date }>("example.clock");
 * ```
 */
export function serviceKey<T>(id: string): ServiceKey<T> {
  return { id };
}

/** What the platform hands every tool; packs' own services come through {@link ToolServices.get}. */
export interface ToolServices {
  /** Keyed hash for pseudonymising personal data (hex). */
  pseudonymise(value: string): Promise<string>;
  /** The clock, injectable for tests. */
  now(): Date;
  /**
   * A service a pack declared, as the composition root provided it.
   *
   * @throws {Error} when nothing provides `key` (the root refuses to start so).
   */
  get<T>(key: ServiceKey<T>): T;
}

/** What a tool's `execute` receives besides its arguments. */
export interface ExecutionContext extends CallContext {
  /**
   * The database as the caller (or as service for `auth: 'service'`): the call's one transaction
   * for side-effecting tools; for read-only tools each query runs in its own read-only transaction
   * (one round trip each; under read committed that changes no answer).
   */
  db: Queryable;
  /** Aborted when the hard timeout fires. */
  signal: AbortSignal;
  /** The call's idempotency key (side-effecting tools). */
  idempotency_key: string | null;
  /** Adapters. */
  services: ToolServices;
  /** What the tool's `prepare` answered, when it has one. */
  prepared?: unknown;
}

/** What a tool's `prepare` receives: the call without its transaction. */
export interface PrepareContext extends Omit<ExecutionContext, "db" | "prepared"> {
  /**
   * Read-only queries as the caller, each in its own short transaction: what
   * the slow work needs to know, with no connection held while it runs.
   * `execute` sees the rows again in its transaction and decides there.
   */
  read: Queryable;
}

/** What a confirmation's read-back may name besides the arguments. */
export interface SummaryContext {
  /** The tenant the call acts in, by name (e.g. who a payment naming no payee pays). */
  tenantName: string;
  /**
   * Read-only queries as the caller (row-level security applies), for what
   * the arguments hold only as ids: the venue an order pays. A read that
   * fails or finds nothing should fall back to the arguments' own words.
   */
  read: Queryable;
}

/** One example call, exported into JSON Schema `examples`. */
export interface ToolExample<I, O> {
  /** What the example shows. */
  description?: string;
  /** Valid input. */
  input: I;
  /** The data a successful call returns. */
  output?: O;
}

/** The descriptor a tool author writes. */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodType> {
  /** Unique name, `^[a-z][a-z0-9_.]{0,63}$` (dots for namespaces, as in `markets.get_price`). */
  name: string;
  /** Human title. */
  title: string;
  /** What it does and when to use it, for models and people. */
  description: string;
  /** Grouping, e.g. `messaging`, `commerce`. */
  category: string;
  /** Input schema: an object. */
  input: I;
  /** Output schema of `data`. */
  output: O;
  /** At least one valid example. */
  examples: ToolExample<z.input<I>, z.output<O>>[];
  /** What the tool changes. */
  sideEffects: SideEffects;
  /** Whose privileges it runs with. @default "user" */
  auth?: ToolAuth;
  /** Expected latency. @default 400 */
  latencyBudgetMs?: number;
  /** Hard timeout. @default 10 × latencyBudgetMs */
  timeoutMs?: number;
  /** Whether a repeat with the same key is safe (side-effecting tools replay via the ledger). @default true */
  idempotent?: boolean;
  /** Irreversible: the call runs only with an explicit confirmation bound to its arguments. @default false */
  confirmRequired?: boolean;
  /** Reaches outside our database (WhatsApp, payments, video provider). @default false */
  openWorld?: boolean;
  /**
   * Whether `execute` reads or writes the database. A read-only tool that
   * does not (pure computation, an outside API) skips the transaction.
   * Side-effecting tools always run in one, for the idempotency ledger. @default true
   */
  usesDatabase?: boolean;
  /**
   * Only service callers (webhooks, jobs) may call it: never offered to users
   * or agents, whatever the allowlists say. @default false
   */
  internal?: boolean;
  /** Read-back of the critical parameters shown before a confirmation. */
  confirmSummary?: (args: z.output<I>, context: SummaryContext) => string | Promise<string>;
  /**
   * Default rate limits; a tenant's policy may set its own. `perUser` stops
   * one caller's abuse (a customer, a staff member; all anonymous callers of
   * a tenant share one). `perTenant` is for a tool whose cost is a shared
   * capacity (an OCR engine): without it, all of a tenant's callers together
   * meet only the deployment's ceiling (`TOOL_TENANT_CEILING_PER_SEC`), so
   * the agents serving many customers never throttle one another.
   * @default perUser 120 calls per 60 s; perTenant the deployment's ceiling
   */
  rateLimit?: ToolRateLimitSpec;
  /**
   * Slow work outside the database (reading a file, an outside service) run
   * before `execute`, which gets its answer as `ctx.prepared`. For a
   * side-effecting tool it runs once the call is admitted and before its
   * transaction opens, so no connection is held meanwhile; a replay does not
   * run it. Throw `ToolFailure` for a contract error.
   */
  prepare?(args: z.output<I>, ctx: PrepareContext): Promise<unknown>;
  /**
   * The tool starts work that outlives the call (a render, a campaign, a
   * reading) and answers with the id of the job row that follows it: how
   * that job is read, so clients may follow it as a task (MCP `tasks`).
   */
  task?: ToolTask<O>;
  /** Runs the tool; throw `ToolFailure` for a contract error. */
  execute(args: z.output<I>, ctx: ExecutionContext): Promise<z.input<O>>;
}

/** Where a long-running tool's job stands, as its status tool's answer shows. */
export type ToolJobStatus = "working" | "completed" | "failed" | "cancelled";

/**
 * How a long-running tool's job is followed: the job's id in the tool's
 * data, and the tool that reads the job (called as the same caller, through
 * the pipeline, so RLS, rate limits and traces apply as to any call).
 */
export type ToolTask<O extends z.ZodType = z.ZodType> = ToolJobTask<O> | ToolDeferredTask;

/** A tool that starts its own job (a campaign, a render) and answers the job's id. */
export interface ToolJobTask<O extends z.ZodType = z.ZodType> {
  /** Not deferred: the call itself starts the job. */
  deferred?: false;
  /** The job's id in a successful call's data. */
  jobId(data: z.output<O>): string;
  /** The tool that reads the job. */
  statusTool: string;
  /** The status tool's arguments for a job. */
  statusArgs(jobId: string): Record<string, unknown>;
  /** The job's state from the status tool's data (`null` when it does not name the job). */
  state(data: unknown): { status: ToolJobStatus; message?: string } | null;
  /**
   * Reads many jobs in one call of the status tool, so that listing tasks
   * (MCP `tasks/list`) calls it once per page rather than once per task:
   * its arguments for the ids, and each job it found, by id, as the data
   * {@link ToolJobTask.state} reads for one job. A job it does not name is
   * not the caller's (or not there).
   * @default none: one status call per job
   */
  statusMany?: {
    /** The status tool's arguments for these jobs (at most 100). */
    args(jobIds: string[]): Record<string, unknown>;
    /** Each job the status tool's data names, by id, as one job's data. */
    split(data: unknown): Map<string, unknown>;
  };
  /**
   * The tool that stops the job (MCP `tasks/cancel`), called as the same
   * caller through the pipeline (a confirmation it needs is asked for).
   * @default none: the job cannot be cancelled as a task
   */
  cancel?: { tool: string; args(jobId: string): Record<string, unknown> };
  /** How often a client should look again. @default 5000 */
  pollIntervalMs?: number;
}

/**
 * A tool that does its slow work within the call (reading a page): as a
 * task, the call is recorded as a job row (`public.tool_tasks`), answered at
 * once, and run in the background through the pipeline as the caller. A
 * call that is not a task runs as before.
 */
export interface ToolDeferredTask {
  /** The call runs after the task is answered. */
  deferred: true;
  /** How often a client should look again. @default 5000 */
  pollIntervalMs?: number;
}

/** A limit: `limit` calls per `windowSec` seconds, bursts up to `limit`. */
export interface ToolRateLimit {
  /** Calls allowed per window. */
  limit: number;
  /** Window length in seconds. */
  windowSec: number;
}

/** A tool's default rate limits, as its descriptor declares them. */
export interface ToolRateLimitSpec {
  /** Each caller's own. @default 120 calls per 60 s */
  perUser?: ToolRateLimit;
  /** All of a tenant's callers together; `null` is the default. @default the deployment's ceiling */
  perTenant?: ToolRateLimit | null;
}

/** A tool's rate limits with the default filled in; `perTenant: null` is the ceiling. */
export interface ToolRateLimits {
  /** Each caller's own. */
  perUser: ToolRateLimit;
  /** All of a tenant's callers together; `null` for the deployment's ceiling. */
  perTenant: ToolRateLimit | null;
}

/**
 * A caller's limit unless the tool says otherwise: two calls a second,
 * bursts of 120. A person's turns need a few calls each; an agent looping on
 * one tool, or a script, meets it.
 */
export const DEFAULT_PER_USER_LIMIT: Readonly<ToolRateLimit> = { limit: 120, windowSec: 60 };

/** A checked tool with every default filled in. */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType>
  extends
    Required<Omit<ToolSpec<I, O>, "confirmSummary" | "prepare" | "rateLimit" | "task">>,
    Pick<ToolSpec<I, O>, "confirmSummary" | "prepare" | "task"> {
  /** Default rate limits. */
  readonly rateLimit: ToolRateLimits;
  /** Whether the pipeline runs it through the idempotency ledger. */
  readonly writes: boolean;
}

/** Tool names: lower-case, digits, `_` and `.`, starting with a letter. */
export const TOOL_NAME = /^[a-z][a-z0-9_.]{0,63}$/;

/**
 * Checks a tool descriptor and fills in defaults.
 *
 * @throws {TypeError} when the name, budget or examples are invalid.
 * @throws {RangeError} when a rate limit is not whole calls per 1 to 86,400 seconds.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodType>(
  spec: ToolSpec<I, O>,
): Tool<I, O> {
  if (!TOOL_NAME.test(spec.name)) {
    throw new TypeError(
      `Cannot define tool as its name must match ${TOOL_NAME}: current value is "${spec.name}"`,
    );
  }
  const latencyBudgetMs = spec.latencyBudgetMs ?? 400;
  if (!(latencyBudgetMs > 0)) {
    throw new TypeError(
      `Cannot define tool "${spec.name}" as latencyBudgetMs must be positive: current value is ${latencyBudgetMs}`,
    );
  }
  if (spec.examples.length === 0) {
    throw new TypeError(`Cannot define tool "${spec.name}" as it has no examples`);
  }
  for (const [index, example] of spec.examples.entries()) {
    const parsed = spec.input.safeParse(example.input);
    if (!parsed.success) {
      throw new TypeError(
        `Cannot define tool "${spec.name}" as example ${index} is not valid input: ${parsed.error.message}`,
      );
    }
  }
  return {
    ...spec,
    auth: spec.auth ?? "user",
    latencyBudgetMs,
    timeoutMs: spec.timeoutMs ?? latencyBudgetMs * 10,
    idempotent: spec.idempotent ?? true,
    confirmRequired: spec.confirmRequired ?? false,
    openWorld: spec.openWorld ?? false,
    usesDatabase: spec.usesDatabase ?? true,
    internal: spec.internal ?? false,
    rateLimit: {
      perUser: checkLimit(spec.name, "perUser", spec.rateLimit?.perUser) ??
        { ...DEFAULT_PER_USER_LIMIT },
      perTenant: checkLimit(spec.name, "perTenant", spec.rateLimit?.perTenant) ?? null,
    },
    writes: spec.sideEffects.startsWith("writes."),
  };
}

// A limit the buckets can hold: whole numbers, a window of at most a day.
function checkLimit(
  tool: string,
  name: string,
  limit: ToolRateLimit | null | undefined,
): ToolRateLimit | undefined {
  if (limit === undefined || limit === null) return undefined;
  const { limit: calls, windowSec } = limit;
  if (
    !Number.isInteger(calls) || calls < 1 || !Number.isInteger(windowSec) || windowSec < 1 ||
    windowSec > 86_400
  ) {
    throw new RangeError(
      `Cannot define tool "${tool}" as rateLimit.${name} must be whole calls per 1 to 86400 ` +
        `seconds: current value is ${JSON.stringify(limit)}`,
    );
  }
  return { limit: calls, windowSec };
}
