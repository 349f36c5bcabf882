/**
 * The confirmation step, for `confirmRequired` tools: without a valid token
 * bound to this caller, tool, arguments and key, the call ends as
 * CONFIRMATION_REQUIRED carrying a new token and a summary to show; a forged
 * token is AUTH_ERROR. Other tools pass straight through.
 *
 * Asking reads the database as the caller (the summary's names), so asking is
 * rate limited like calling: from a bucket of its own beside the tool's
 * (`<tool>#confirm`, the same limits), so that asking never spends the
 * allowance of the calls it confirms and a caller asking in a loop is
 * refused (RATE_LIMIT) before any read.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { Database } from "@shared/db/types.ts";
import type { TenantDirectory } from "@shared/registry/tenant_policy.ts";
import { canonicalJson } from "@shared/runtime/canonical.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { type Call, type CallStep, claimsOf, type NextStep } from "../call.ts";
import { describe } from "./_failure.ts";
import type { ConfirmationSigner } from "../confirmation.ts";
import type { LeasedRateLimiter } from "../rate_limit.ts";

/** Options for {@link confirmationStep}. */
export interface ConfirmationStepOptions {
  /** Tenants (their names go into the summary). */
  tenants: Pick<TenantDirectory, "get">;
  /** Issues and checks confirmation tokens. */
  confirmations: Pick<ConfirmationSigner, "issue" | "check">;
  /** Where a summary reads, as the caller, the names its arguments hold as ids. */
  db: Pick<Database, "openCallerReads">;
  /** Where a summary that failed is logged (the read-back falls back to the arguments). */
  log: Logger;
  /** Tokens for asking, from the call's rate (set by the rate limit step before this one). */
  rateLimiter: Pick<LeasedRateLimiter, "take">;
}

/** The step that asks for confirmation (CONFIRMATION_REQUIRED, AUTH_ERROR when forged). */
export function confirmationStep(options: ConfirmationStepOptions): CallStep {
  const { tenants, confirmations, db, log, rateLimiter } = options;

  // Asking draws from its own bucket beside the tool's, with the tool's limits.
  function mayAsk(call: Call): boolean | Promise<boolean> {
    const rate = call.rate;
    if (!rate) return true;
    return rateLimiter.take(
      { ...rate.bucket, tool: `${rate.bucket.tool}#confirm` },
      rate.limits,
      call.now,
    );
  }

  async function summarise(call: Call, tenantName: string): Promise<string> {
    const tool = call.tool!;
    const fallback = `${tool.title}: ${canonicalJson(call.args)}`;
    if (!tool.confirmSummary) return fallback;
    const read = db.openCallerReads(claimsOf(call), { statementTimeoutMs: tool.timeoutMs });
    try {
      return await tool.confirmSummary(call.args, { tenantName, read });
    } catch (error) {
      // The person still gets a read-back of what they confirm, and staff see why it is plain.
      log.error("confirmation_summary_failed", {
        trace_id: call.context.trace_id,
        tool: tool.name,
        error: describe(error),
      });
      return fallback;
    } finally {
      await read.end();
    }
  }

  async function gate(call: Call): Promise<ToolResult | null> {
    const tool = call.tool!;
    const tenant = tenants.get(call.context.org_id!)!;
    const claims = {
      tool: tool.name,
      scope: call.scope,
      args: call.fingerprint,
      key: call.request.idempotencyKey ?? null,
    };
    const token = call.request.confirmation ?? null;
    if (token) {
      const check = await confirmations.check(token, claims);
      if (check === "valid") return null;
      if (check === "forged") return fail("AUTH_ERROR", "Invalid confirmation");
    }
    if (!await mayAsk(call)) return fail("RATE_LIMIT");
    const issued = await confirmations.issue(claims);
    const summary = await summarise(call, tenant.name ?? tenant.slug);
    return fail("CONFIRMATION_REQUIRED", `Please confirm: ${summary}`, {
      confirmation: { token: issued.token, summary, expires_at: issued.expiresAt.toISOString() },
    });
  }

  return function confirmation(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    if (!call.tool!.confirmRequired) return next(call);
    return gate(call).then((refused) => {
      if (refused) return refused;
      // A tool run in process counts its deadline from here, not from before the wait.
      call.now = performance.now();
      return next(call);
    });
  };
}
