/**
 * The rate limit step: the buckets the call draws from (per user and per
 * tenant for the tool, shared through Postgres) and their limits, from the
 * tool, the tenant's policy and the platform's ceiling. A tool without a
 * database takes its token here, from a lease with no I/O when it has one
 * (RATE_LIMIT when refused). Database tools take theirs where it costs no
 * round trip of its own: reads in their first flight (`caller_reads.ts`),
 * writes in an admission sent beside their transaction (`write_transaction.ts`),
 * after a replay from the ledger has had its chance.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { TenantDirectory, TenantPolicy } from "@shared/registry/tenant_policy.ts";
import type { Logger } from "@shared/runtime/log.ts";
import type { Call, CallStep, NextStep, Rate } from "../call.ts";
import {
  type CallLimits,
  callLimits,
  DEFAULT_TENANT_CEILING,
  type LeasedRateLimiter,
  type RateLimit,
} from "../rate_limit.ts";
import { failureResult } from "./_failure.ts";

/** Options for {@link rateLimitStep}. */
export interface RateLimitStepOptions {
  /** Tenants and their policies. */
  tenants: Pick<TenantDirectory, "get">;
  /** Token leases for tools that use no database. */
  rateLimiter: Pick<LeasedRateLimiter, "take">;
  /**
   * The most calls of one tool all of a tenant's callers together may make,
   * unless the tool or the tenant's policy says otherwise. @default DEFAULT_TENANT_CEILING
   */
  tenantCeiling?: RateLimit;
  /** Where a failed lease is logged. */
  log: Logger;
}

/** The step that decides the call's rate buckets and takes a no-database tool's token. */
export function rateLimitStep(options: RateLimitStepOptions): CallStep {
  const { tenants, rateLimiter, log } = options;
  const tenantCeiling = options.tenantCeiling ?? DEFAULT_TENANT_CEILING;

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

  function rateOf(call: Call): Rate {
    const tool = call.tool!;
    const context = call.context;
    const role = call.request.caller.claims.role;
    const tenant = tenants.get(context.org_id!)!;
    const identified = Boolean(context.user_id) || role === "anon";
    return {
      bucket: {
        orgId: context.org_id!,
        tool: tool.name,
        subject: context.user_id ?? `role:${role}`,
      },
      limits: limitsFor(tenant.policy!, tool, identified),
    };
  }

  // The slow path of a leased token: a new lease was needed (or refused, or failed).
  function afterLease(
    taken: Promise<boolean>,
    call: Call,
    next: NextStep,
  ): Promise<ToolResult> {
    return taken.then((granted) => {
      if (!granted) return fail("RATE_LIMIT");
      // The deadline counts from when the tool starts, not from before the lease's round trip.
      call.now = performance.now();
      return next(call);
    }, (error) => failureResult(error, call, log));
  }

  return function rateLimit(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    const rate = call.rate = rateOf(call);
    const tool = call.tool!;
    if (tool.writes || tool.usesDatabase) return next(call);
    const taken = rateLimiter.take(rate.bucket, rate.limits, call.now);
    if (taken === true) return next(call);
    if (taken === false) return fail("RATE_LIMIT");
    return afterLease(taken, call, next);
  };
}
