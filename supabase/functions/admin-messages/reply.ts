/**
 * A staff reply to the user on WhatsApp. Authorisation is RLS's: the ticket
 * is read as the staff member and must be theirs. The message then goes
 * through the outbox like every other (idempotent by key, a template outside
 * the 24-hour window) and into the transcript, in the same transaction.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/mod.ts";
import type { Database, JwtClaims } from "@shared/db/types.ts";
import { enqueueMessage, relayTemplate, textMessage } from "@shared/channels/whatsapp/mod.ts";

/** What a reply produced. */
export interface ReplyResult {
  /** The transcript row. */
  message_id: string;
  /** The outbox row. */
  outbox_id: string;
  /** Free-form text inside the window, else the approved template. */
  sent_as: "text" | "template";
}

/** Options for {@link replyToUser}. */
export interface ReplyOptions {
  /** The staff member. */
  claims: JwtClaims;
  /** The org they act in. */
  orgId: string;
  /** The ticket. */
  ticketId: string;
  /** What to say. */
  text: string;
  /** The caller's idempotency key: one key, one message. */
  idempotencyKey: string;
}

/**
 * Sends a staff reply.
 *
 * @throws {ToolFailure} NOT_FOUND, CONFLICT (not claimed by the caller) or VALIDATION_ERROR.
 */
export async function replyToUser(db: Database, options: ReplyOptions): Promise<ReplyResult> {
  return await db.asCaller(options.claims, async (tx) => {
    const [ticket] = await tx.query<{
      assigned_to: string | null;
      convo_id: string | null;
      user_id: string | null;
      phone: string | null;
      locale: string | null;
      window_open: boolean;
    }>(
      // The reply goes to the conversation's customer, who is not always the requester (staff
      // may raise a ticket for someone's conversation); the schema keeps both in the ticket's org.
      `select t.assigned_to, t.convo_id, r.id as user_id, r.phone, r.locale,
              coalesce(c.last_inbound_at > now() - interval '24 hours', false) as window_open
       from public.staff_tickets t
       left join public.conversations cv on cv.id = t.convo_id and cv.org_id = t.org_id
       left join public.profiles r on r.id = cv.user_id
       left join public.wa_contacts c on c.org_id = t.org_id and c.wa_id = substr(r.phone, 2)
       where t.org_id = $1 and t.id = $2
       for update of t`,
      [options.orgId, options.ticketId],
    );
    if (!ticket) throw new ToolFailure("NOT_FOUND", "No such ticket");
    if (ticket.assigned_to !== options.claims.sub) {
      throw new ToolFailure("CONFLICT", "Claim the ticket before replying");
    }
    if (!ticket.phone || !ticket.convo_id || !ticket.user_id) {
      throw new ToolFailure(
        "VALIDATION_ERROR",
        "This ticket has no WhatsApp conversation to reply to",
      );
    }
    // From here the pipeline's own writes: the outbox is not writable by staff directly.
    await tx.query("reset role");
    const key = `staff-reply:${options.orgId}:${options.idempotencyKey}`;
    const [existing] = await tx.query<{ id: string; message_id: string | null }>(
      `select o.id, m.id as message_id from public.wa_outbox o
       left join public.messages m on m.payload ->> 'outbox_id' = o.id::text
       where o.idempotency_key = $1`,
      [key],
    );
    const sentAs = ticket.window_open ? "text" : "template";
    if (existing?.message_id) {
      return { message_id: existing.message_id, outbox_id: existing.id, sent_as: sentAs };
    }
    const language = ticket.locale === "rw" || ticket.locale === "fr" ? ticket.locale : "en";
    const outboxId = await enqueueMessage(tx, {
      orgId: options.orgId,
      to: ticket.phone,
      message: textMessage(options.text),
      idempotencyKey: key,
      conversationId: ticket.convo_id,
      fallbackTemplate: relayTemplate({ name: "staff_followup", language, text: options.text }),
    });
    const [message] = await tx.query<{ id: string }>(
      `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body, payload)
       values ($1, $2, $3, 'outbound', 'staff', $4, $5) returning id`,
      [
        options.orgId,
        ticket.convo_id,
        ticket.user_id,
        options.text,
        { outbox_id: outboxId, staff_id: options.claims.sub, ticket_id: options.ticketId },
      ],
    );
    return { message_id: message.id, outbox_id: outboxId, sent_as: sentAs };
  });
}
