/**
 * What happens when the model cannot answer a turn (bad or expired key,
 * timeout, 5xx, unreachable endpoint): the turn is answered by the offline
 * flow, and the failure is logged with the turn's trace id, counted in
 * `public.model_failures` (once per turn), and — when failures repeat — raised
 * to staff as ONE ticket through `notify_staff`, keyed per period so a
 * continuing outage does not open a ticket per message. Turns the model's
 * circuit breaker skips (`model_breaker.ts`) never asked it and are not
 * recorded: during an outage only the failures that open the breaker and
 * the failed probes count.
 *
 * @module
 */
import type { Platform } from "@shared/pipeline/platform.ts";
import type { ModelUnavailableError } from "./model.ts";

/** Options for {@link createModelFailureMonitor}. */
export interface ModelFailureMonitorOptions {
  /** The platform (database, pipeline, log). */
  platform: Pick<Platform, "db" | "call" | "log">;
  /** Failures within {@link windowMs} that raise a ticket. @default 3 */
  threshold?: number;
  /** How far back failures count towards the threshold. @default 10 minutes */
  windowMs?: number;
  /** At most one ticket per org per period of this length. @default 1 hour */
  ticketPeriodMs?: number;
  /** The clock. @default the real one */
  now?: () => Date;
}

/** One turn the model could not answer. */
export interface ModelFailure {
  /** The org that owns the conversation. */
  orgId: string;
  /** The conversation, if any. */
  convoId: string | null;
  /** The turn's trace id (the inbound message's wamid). */
  traceId: string;
  /** The agent the turn was routed to. */
  agentId: string;
  /** What failed (its message never carries the API key). */
  error: ModelUnavailableError;
}

/** Records failed model turns; see the module documentation. */
export interface ModelFailureMonitor {
  /** Logs, counts and, when failures repeat, raises the staff ticket. Never throws. */
  record(failure: ModelFailure): Promise<void>;
}

/** The ticket's reason, so staff can filter on it. */
export const MODEL_FAILURE_REASON = "the AI model is failing";

/** Builds a {@link ModelFailureMonitor}. */
export function createModelFailureMonitor(
  options: ModelFailureMonitorOptions,
): ModelFailureMonitor {
  const { platform } = options;
  const threshold = options.threshold ?? 3;
  const windowMs = options.windowMs ?? 10 * 60_000;
  const periodMs = options.ticketPeriodMs ?? 60 * 60_000;
  const now = options.now ?? (() => new Date());

  async function raiseTicket(orgId: string, at: Date): Promise<void> {
    const periodStart = new Date(Math.floor(at.getTime() / periodMs) * periodMs);
    // The same arguments for everyone in the period: concurrent turns replay one ticket.
    const result = await platform.call({
      tool: "notify_staff",
      args: {
        channel: "inbox",
        payload: {
          reason: MODEL_FAILURE_REASON,
          summary: `The AI model failed ${threshold} times within ${windowMs / 60_000} minutes ` +
            `(period from ${periodStart.toISOString()}). Customers are answered by the offline ` +
            "menus meanwhile. Check OPENAI_API_KEY, OPENAI_BASE_URL and the provider's status; " +
            "each failure is logged as model_unavailable with its trace_id.",
          priority: "high",
        },
      },
      caller: { claims: { role: "service_role" }, org_id: orgId },
      context: { trace_id: `model-failures:${periodStart.toISOString()}` },
      idempotencyKey: `model-failures:${periodStart.toISOString()}`,
    });
    if (!result.ok && result.error.code !== "CONFLICT") {
      platform.log.error("model_failure_ticket_failed", { org_id: orgId, code: result.error.code });
    }
  }

  return {
    async record(failure) {
      const { error } = failure;
      platform.log.warn("model_unavailable", {
        trace_id: failure.traceId,
        org_id: failure.orgId,
        convo_id: failure.convoId,
        agent_id: failure.agentId,
        reason: error.reason,
        status: error.status,
        code: error.code,
        msg: error.message,
        fallback: "offline",
      });
      try {
        const at = now();
        const [inserted] = await platform.db.query(
          `insert into public.model_failures
             (org_id, convo_id, trace_id, agent_id, reason, http_status, code, created_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8)
           on conflict (org_id, trace_id) do nothing
           returning id`,
          [
            failure.orgId,
            failure.convoId,
            failure.traceId.slice(0, 200),
            failure.agentId.slice(0, 100),
            error.reason,
            error.status,
            error.code?.slice(0, 100) ?? null,
            at.toISOString(),
          ],
        );
        // This turn was counted before (the message is being re-processed).
        if (!inserted) return;
        const [recent] = await platform.db.query<{ n: number; open: boolean }>(
          `select count(*)::int as n,
                  exists (select 1 from public.staff_tickets t
                          where t.org_id = $1 and t.reason = $3 and t.status <> 'resolved') as open
           from public.model_failures
           where org_id = $1 and created_at > $2::timestamptz`,
          // No upper bound: turns failing at once stamp their times before they insert, so
          // the last to insert may hold an earlier time than the others. Counting every later
          // failure lets it see them all, and one of them raises the ticket.
          [
            failure.orgId,
            new Date(at.getTime() - windowMs).toISOString(),
            MODEL_FAILURE_REASON,
          ],
        );
        if (recent.n >= threshold && !recent.open) await raiseTicket(failure.orgId, at);
      } catch (cause) {
        // Counting must never cost the user their reply.
        platform.log.error("model_failure_not_recorded", {
          trace_id: failure.traceId,
          error: cause instanceof Error ? cause.message : String(cause),
        });
      }
    },
  };
}
