/**
 * Staff tickets as outbound work. Code that must not lose a ticket (a
 * WhatsApp message given up, our Graph token refused) stages the request in
 * `notification_outbox` on the `inbox` channel with {@link stageStaffTicket},
 * inside the transaction that decides it; the notification dispatcher then
 * opens it through {@link createInboxTransport}, which calls `notify_staff`,
 * with the outbox's leases, backoff and attempts. A `notify_staff` call that
 * fails (rate limited, timed out) is retried like a Slack message that
 * failed, instead of being lost.
 *
 * The request's key is `notify_staff`'s idempotency key and unique among
 * requests waiting to be sent: staging the same key twice stages one row, a
 * row tried twice opens one ticket, and a key staged again after its ticket
 * was opened replays that ticket.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import type { InvokeRequest } from "@shared/pipeline/invoke.ts";
import type { NotificationTransport, SendResult, TicketRequest } from "./notification_transport.ts";

export type { TicketRequest };

/** Options for {@link stageStaffTicket}. */
export interface StageTicketOptions {
  /** The tenant. */
  orgId: string;
  /** The ticket. */
  ticket: TicketRequest;
  /**
   * Stage nothing while the org has a ticket with the same reason that staff
   * have not resolved, or one staged and not yet opened: one ticket per
   * incident, not per occurrence. @default false
   */
  unlessOpen?: boolean;
}

/**
 * Stages a ticket request in `tx`, for the notification dispatcher to open
 * after commit.
 *
 * @param tx The transaction that decides the ticket, as the connecting role.
 * @param options The org, the ticket, and whether an open ticket of the same reason suffices.
 * @returns Whether a row was staged (false: the key is waiting already, or a ticket is open).
 * @throws {TypeError} When the key, reason or summary is empty or too long.
 */
export async function stageStaffTicket(
  tx: Queryable,
  options: StageTicketOptions,
): Promise<boolean> {
  const { ticket } = options;
  if (typeof ticket.key !== "string" || ticket.key.length < 1 || ticket.key.length > 255) {
    throw new TypeError(
      `Cannot stage the ticket as key must be 1 to 255 characters: current value is ${
        JSON.stringify(ticket.key)
      }`,
    );
  }
  if (typeof ticket.reason !== "string" || ticket.reason.length < 1 || ticket.reason.length > 200) {
    throw new TypeError(
      `Cannot stage the ticket as reason must be 1 to 200 characters: current value is ${
        JSON.stringify(ticket.reason)
      }`,
    );
  }
  if (typeof ticket.summary !== "string" || ticket.summary.length < 1) {
    throw new TypeError("Cannot stage the ticket as summary is empty");
  }
  const request: TicketRequest = {
    ...ticket,
    summary: ticket.summary.slice(0, 2000),
    priority: ticket.priority ?? "high",
  };
  const rows = await tx.query(
    `insert into public.notification_outbox (org_id, channel, target, body, ticket_request)
     select $1::uuid, 'inbox', 'inbox', $2::text, $3::jsonb
      where not ($4::boolean and (
        exists (select 1 from public.staff_tickets
                 where org_id = $1::uuid and reason = $5::text and status <> 'resolved')
        or exists (select 1 from public.notification_outbox
                    where org_id = $1::uuid and channel = 'inbox' and status = 'recorded'
                      and ticket_request ->> 'reason' = $5::text)))
     on conflict ((ticket_request ->> 'key')) where channel = 'inbox' and status = 'recorded'
     do nothing
     returning id`,
    [
      options.orgId,
      `[${request.priority}] ${request.reason}: ${request.summary}`,
      request,
      options.unlessOpen ?? false,
      request.reason,
    ],
  );
  return rows.length > 0;
}

/** Options for {@link createInboxTransport}. */
export interface InboxTransportOptions {
  /** Runs a tool call through the pipeline (the platform's `call`). */
  call: (request: InvokeRequest) => Promise<ToolResult>;
}

// Failures of the pipeline or the database that a later attempt may not meet.
const TRANSIENT = new Set(["RATE_LIMIT", "TIMEOUT", "SERVICE_UNAVAILABLE", "INTERNAL_ERROR"]);

/**
 * The `inbox` channel's transport: opens the staged ticket with
 * `notify_staff` as the service role of the row's org, keyed by the
 * request's key. A rate limit, timeout or internal failure is retried; any
 * other refusal is final (the row is marked failed and logged as an error).
 *
 * @param options How to call tools.
 * @returns The transport.
 */
export function createInboxTransport(options: InboxTransportOptions): NotificationTransport {
  return {
    channel: "inbox",
    async send(message): Promise<SendResult> {
      const request = message.ticketRequest;
      if (!request) return { ok: false, retryable: false, reason: "no ticket_request" };
      const result = await options.call({
        tool: "notify_staff",
        args: {
          channel: "inbox",
          payload: {
            reason: request.reason,
            summary: request.summary,
            priority: request.priority ?? "high",
            ...(request.convo_id ? { convo_id: request.convo_id } : {}),
          },
        },
        caller: { claims: { role: "service_role" }, org_id: message.orgId },
        context: { trace_id: request.key },
        idempotencyKey: request.key,
      });
      if (result.ok) {
        const ticketId = (result.data as { ticket_id?: unknown }).ticket_id;
        return {
          ok: true,
          target: "inbox",
          ...(typeof ticketId === "string" ? { ticketId } : {}),
        };
      }
      return {
        ok: false,
        retryable: TRANSIENT.has(result.error.code),
        reason: `notify_staff failed: ${result.error.code}`,
      };
    },
  };
}
