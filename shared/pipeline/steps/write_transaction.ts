/**
 * The write-transaction step, for side-effecting tools: one transaction
 * holds the idempotency claim and the tool's writes, run as the caller (RLS)
 * under the tool's deadline (TIMEOUT). A completed call with the same key
 * and arguments is replayed from the ledger before any limit and without
 * taking a token; the same key with other arguments is CONFLICT; the rate
 * admission, sent beside the transaction, refuses with RATE_LIMIT and leaves
 * nothing in the ledger. Deterministic failures are stored in the ledger and
 * replayed; transient ones roll back so a retry runs again. Other tools pass
 * through.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import { isUuid } from "@shared/contract/uuid.ts";
import {
  type Database,
  type JwtClaims,
  type Queryable,
  setCallerScript,
} from "@shared/db/types.ts";
import type { ToolServices } from "@shared/registry/define_tool.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { type Call, type CallStep, claimsOf, type NextStep, NOT_PREPARED } from "../call.ts";
import type { Deadlines } from "../deadlines.ts";
import { claimKey, completeKey, type LedgerEntry, readKey, recordFailure } from "../idempotency.ts";
import { type Admission, admitCall, returnTokens } from "../rate_limit.ts";
import { guard, withDeadline } from "./_deadline.ts";
import { describe, failureResult, RateLimited, TRANSIENT } from "./_failure.ts";
import { prepareCall } from "./execute.ts";

/** Options for {@link writeTransactionStep}. */
export interface WriteTransactionStepOptions {
  /** The database. */
  db: Database;
  /** The shared timer. */
  deadlines: Deadlines;
  /** Adapters handed to a tool's `prepare`. */
  services: ToolServices;
  /** Where failures are logged. */
  log: Logger;
}

/** One admission shared by the calls in flight with one key; `used` once one of them ran on it. */
interface Flight {
  admission: Promise<Admission>;
  used: boolean;
}

/** The step that runs a side-effecting tool in one transaction with its ledger claim. */
export function writeTransactionStep(options: WriteTransactionStepOptions): CallStep {
  const { db, deadlines, services, log } = options;
  // Calls in flight with one key and the same arguments (a client's retries, parallel taps)
  // share one admission: each taking its own token, the duplicates' tokens could leave the one
  // call that runs limited although the caller asked for it once.
  const inFlight = new Map<string, Flight>();

  async function write(call: Call, next: NextStep): Promise<ToolResult> {
    const tool = call.tool!;
    const rate = call.rate!;
    const claims = claimsOf(call);
    const entry: LedgerEntry = {
      scope: call.scope,
      key: call.request.idempotencyKey!,
      tool: tool.name,
      fingerprint: call.fingerprint,
    };
    // Sent before the transaction opens, on its own connection: see rate_limit.ts.
    const flight = `${entry.scope}\u0000${entry.key}\u0000${entry.fingerprint}`;
    const joined = inFlight.get(flight);
    const shared: Flight = joined ??
      { admission: admitCall(db, rate.bucket, rate.limits, entry), used: false };
    const admission = shared.admission;
    admission.catch(() => {});
    if (!joined) inFlight.set(flight, shared);
    // Another instance's call held the key: this one replays it, and gives its token back.
    let claimLost = false;
    const controller = new AbortController();
    call.signal = controller.signal;
    call.idempotencyKey = entry.key;
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
          claimLost = true;
          await becomeCaller;
          await tx.query("reset role");
          return await readKey(tx, entry);
        }
        await becomeCaller;
        const admitted = await admission;
        if (admitted.kind === "replay") return admitted;
        shared.used = true;
        // Throwing rolls the claim back: a limited call leaves no trace in the ledger.
        if (admitted.kind === "limited") throw new RateLimited();
        call.db = guard(tx, controller.signal);
        call.prepared = preparedValue;
        const result = await next(call);
        const reset = tx.query("reset role");
        reset.catch(() => {});
        const confirmed = confirmedEvent(tx, call, result);
        confirmed?.catch(() => {});
        await Promise.all([reset, completeKey(tx, entry, result), confirmed]);
        return { kind: "done" as const, result };
      });
    // A tool's slow outside work runs once admitted and before its transaction
    // opens, so the transaction holds a connection only for the writes. Other
    // tools open theirs at once, right behind the admission already sent.
    const work = tool.prepare
      ? admission.then((admitted) =>
        admitted.kind === "granted"
          ? prepareWithReads(call, claims).then(transact)
          : transact(NOT_PREPARED)
      )
      : transact(NOT_PREPARED);
    work.catch(() => {}); // a late rejection is expected after a timeout

    try {
      const outcome = await withDeadline(deadlines, work, tool.timeoutMs, controller);
      if (claimLost && !joined && !shared.used) await giveBackToken(admission, call);
      if (outcome.kind === "done") return outcome.result;
      if (outcome.kind === "replay") {
        call.replayed = true;
        return outcome.result;
      }
      return fail("CONFLICT", "This idempotency key was already used for a different request");
    } catch (error) {
      const result = failureResult(error, call, log);
      if (!TRANSIENT.has(result.error.code)) {
        await recordFailure(db, entry, result).catch((failure) =>
          log.error("ledger_record_failed", {
            trace_id: call.context.trace_id,
            error: describe(failure),
          })
        );
      }
      return result;
    } finally {
      if (!joined) inFlight.delete(flight);
    }
  }

  async function giveBackToken(admission: Promise<Admission>, call: Call): Promise<void> {
    const admitted = await admission.catch(() => null);
    if (admitted?.kind !== "granted") return;
    await returnTokens(db, call.rate!.bucket, call.rate!.limits, 1).catch((error) =>
      log.warn("rate_token_return_failed", {
        trace_id: call.context.trace_id,
        error: describe(error),
      })
    );
  }

  // A side-effecting tool's prepare reads in transactions of its own, ended before the
  // call's transaction opens: PGlite's one connection is free for the slow work's own calls.
  async function prepareWithReads(call: Call, claims: JwtClaims): Promise<unknown> {
    const reads = db.openCallerReads(claims, { statementTimeoutMs: call.tool!.timeoutMs });
    try {
      return await prepareCall(call, guard(reads, call.signal!), services);
    } finally {
      await reads.end();
    }
  }

  return function writeTransaction(call: Call, next: NextStep): ToolResult | Promise<ToolResult> {
    if (!call.tool!.writes) return next(call);
    return write(call, next);
  };
}

/**
 * A confirmed call's `funnel_confirmed` event, for the agent that made it, in
 * the call's own transaction (as the connecting role, after `reset role`): it
 * exists exactly when the effect does. A call reaches here confirmed only with
 * a valid token (the confirmation step), and a replay never does. Calls that
 * name no agent are in no agent's funnel. In a conversation it is written once
 * per entry into the agent (none since its last `funnel_started`): an order
 * and then its payment, each confirmed, are one conversion, not two. The
 * person and the conversation are kept only when they belong to the org, so
 * attribution never fails the call.
 */
function confirmedEvent(
  tx: Queryable,
  call: Call,
  result: ToolResult,
): Promise<unknown> | null {
  const { context } = call;
  if (!call.tool!.confirmRequired || !result.ok || !context.agent_id || !context.org_id) {
    return null;
  }
  return tx.query(
    `with attributed as (
       select (select m.user_id from public.org_members m
               where m.org_id = $1 and m.user_id = $4::uuid) as user_id,
              (select c.id from public.conversations c
               where c.org_id = $1 and c.id = $5::uuid) as convo_id
     )
     insert into public.analytics_events (org_id, event, props, user_id, convo_id, trace_id)
     select $1, 'funnel_confirmed', jsonb_build_object('agent', $2::text, 'tool', $3::text),
            a.user_id, a.convo_id, $6
     from attributed a
     where a.convo_id is null or not exists (
       select 1 from public.analytics_events e
       where e.org_id = $1 and e.convo_id = a.convo_id and e.event = 'funnel_confirmed'
         and e.props->>'agent' = $2
         and e.id > coalesce((
           select max(s.id) from public.analytics_events s
           where s.org_id = $1 and s.convo_id = a.convo_id and s.event = 'funnel_started'
             and s.props->>'agent' = $2), 0))`,
    [
      context.org_id,
      context.agent_id,
      call.tool!.name,
      isUuid(context.user_id) ? context.user_id : null,
      isUuid(context.convo_id) ? context.convo_id : null,
      context.trace_id,
    ],
  );
}
