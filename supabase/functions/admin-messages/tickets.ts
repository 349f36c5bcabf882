/**
 * Ticket queries and actions for the Admin Inbox. Every statement runs in a
 * transaction as the staff member (role and claims set, RLS on), so a staff
 * member of one org cannot see or touch another org's tickets whatever this
 * code does; the org filter only narrows to the org they act in.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import { attachmentOf } from "./media.ts";

/** A ticket as the inbox shows it. */
export interface TicketView {
  id: string;
  status: "open" | "claimed" | "resolved";
  priority: string;
  channel: string;
  /** Where the ticket went: always the Inbox, and Slack/SMS when asked or urgent. */
  channels: string[];
  /** The language the person writes in. */
  language: string | null;
  /** The person's latest message, as a preview. */
  last_message: string | null;
  reason: string;
  summary: string;
  created_at: string;
  updated_at: string;
  claimed_at: string | null;
  resolved_at: string | null;
  assigned_to: string | null;
  assigned_name: string | null;
  convo_id: string | null;
  /** The agent the person was with when the ticket was raised, else the conversation's. */
  agent_id: string | null;
  /** That agent's display name, filled in from the agent file. */
  agent_name?: string | null;
  /** The charge of a payment ticket (staff can confirm it). */
  payment?: { momo_ref: string; amount: number; status: string } | null;
  requester: { id: string; name: string | null; phone: string | null } | null;
  age_sec: number;
  window_open: boolean;
}

/** Filters of the queue. */
export interface TicketFilter {
  status?: "open" | "claimed" | "resolved" | "active" | "all";
  priority?: string;
  channel?: string;
  mine?: boolean;
  updatedSince?: string;
}

const VIEW = `
  select jsonb_build_object(
    'id', t.id, 'status', t.status, 'priority', t.priority, 'channel', t.channel,
    'reason', t.reason, 'summary', t.summary, 'created_at', t.created_at,
    'updated_at', t.updated_at, 'claimed_at', t.claimed_at, 'resolved_at', t.resolved_at,
    'assigned_to', t.assigned_to, 'assigned_name', a.display_name, 'convo_id', t.convo_id,
    'agent_id', coalesce(t.agent_id, cv.agent_id),
    'channels', t.channels, 'language', coalesce(t.language, r.locale),
    'last_message', (select left(m.body, 280) from public.messages m
      where m.conversation_id = t.convo_id and m.direction = 'inbound'
        and coalesce(m.body, '') <> ''
      order by m.created_at desc, m.seq desc limit 1),
    'payment', case when pm.id is null then null
      else jsonb_build_object('momo_ref', pm.momo_ref, 'amount', pm.amount, 'status', pm.status) end,
    'requester', case when r.id is null then null
      else jsonb_build_object('id', r.id, 'name', r.display_name, 'phone', r.phone) end,
    'age_sec', extract(epoch from now() - t.created_at)::int,
    'window_open', coalesce(c.last_inbound_at > now() - interval '24 hours', false)
  ) as ticket
  from public.staff_tickets t
  left join public.profiles a on a.id = t.assigned_to
  left join public.conversations cv on cv.id = t.convo_id
  left join public.profiles r on r.id = t.requester_user_id
  left join public.payments pm on pm.id = t.payment_id and pm.org_id = t.org_id
  left join public.wa_contacts c
    on c.org_id = t.org_id and c.wa_id = substr(r.phone, 2)`;

const PRIORITY_ORDER =
  "array_position(array['urgent', 'high', 'medium', 'low'], t.priority), t.created_at";

/** The queue, most urgent and oldest first. */
export async function listTickets(
  tx: Queryable,
  orgId: string,
  filter: TicketFilter,
): Promise<TicketView[]> {
  const status = filter.status ?? "active";
  const rows = await tx.query<{ ticket: TicketView }>(
    `${VIEW}
     where t.org_id = $1
       and case $2::text when 'all' then true
                         when 'active' then t.status <> 'resolved'
                         else t.status = $2 end
       and ($3::text is null or t.priority = $3)
       and ($4::text is null or $4 = any (t.channels))
       and (not $5::boolean or t.assigned_to = (select auth.uid()))
       and ($6::timestamptz is null or t.updated_at > $6)
     order by ${PRIORITY_ORDER}
     limit 200`,
    [
      orgId,
      status,
      filter.priority ?? null,
      filter.channel ?? null,
      filter.mine ?? false,
      filter.updatedSince ?? null,
    ],
  );
  return rows.map((row) => row.ticket);
}

/** Counts for the queue header. */
export async function queueCounts(tx: Queryable, orgId: string) {
  const [row] = await tx.query<{ open: number; claimed: number; resolved_today: number }>(
    `select count(*) filter (where status = 'open')::int as open,
            count(*) filter (where status = 'claimed')::int as claimed,
            count(*) filter (where status = 'resolved' and resolved_at > date_trunc('day', now()))::int
              as resolved_today
     from public.staff_tickets where org_id = $1`,
    [orgId],
  );
  return row;
}

/**
 * One ticket.
 *
 * @throws {ToolFailure} NOT_FOUND when the caller cannot see it.
 */
export async function getTicket(tx: Queryable, orgId: string, id: string): Promise<TicketView> {
  const [row] = await tx.query<{ ticket: TicketView }>(
    `${VIEW} where t.org_id = $1 and t.id = $2`,
    [orgId, id],
  );
  if (!row) throw new ToolFailure("NOT_FOUND", "No such ticket");
  return row.ticket;
}

/**
 * The ticket's conversation transcript and internal notes. A message with a
 * location or file carries its `attachment` (`media.ts`), never its raw payload.
 */
export async function ticketThread(tx: Queryable, ticket: TicketView) {
  const rows = ticket.convo_id
    ? await tx.query<Record<string, unknown> & { payload: unknown }>(
      `select id, direction, sender, body, created_at, payload from public.messages
       where conversation_id = $1 order by created_at, seq limit 500`,
      [ticket.convo_id],
    )
    : [];
  const messages = rows.map(({ payload, ...message }) => ({
    ...message,
    attachment: attachmentOf(payload),
  }));
  const notes = await tx.query(
    `select n.id, p.display_name as author_name, n.body, n.created_at
     from public.ticket_notes n left join public.profiles p on p.id = n.author_id
     where n.ticket_id = $1 order by n.created_at`,
    [ticket.id],
  );
  return { messages, notes };
}

/** A legal case's document as the caller may see it: its Storage object, and what it is. */
export interface CaseDocument {
  position: number;
  bucket: string;
  path: string;
  mime_type: string;
  /** Whether the caller can see its Storage object (gone, or not theirs, when false). */
  present: boolean;
}

/** The legal case a ticket reviews, when it reviews one. */
export interface TicketCase {
  reference_number: string;
  category: string;
  documents: CaseDocument[];
}

/**
 * The legal case behind a ticket (`staff_tickets.legal_case_id`), with its
 * documents, read as the caller: the case's and Storage's own policies decide
 * what a staff member sees; a document whose file is not in Storage (or not
 * theirs to see) is marked absent, and never signed.
 */
export async function ticketCase(tx: Queryable, ticketId: string): Promise<TicketCase | null> {
  const [found] = await tx.query<{ id: string; reference_number: string; category: string }>(
    `select c.id, c.reference_number, c.category
     from public.staff_tickets t join public.legal_cases c on c.id = t.legal_case_id
     where t.id = $1`,
    [ticketId],
  );
  if (!found) return null;
  const documents = await tx.query<CaseDocument>(
    `select d.position, d.bucket, d.path,
            coalesce(o.metadata ->> 'mimetype', 'application/octet-stream') as mime_type,
            o.id is not null as present
     from public.legal_case_documents d
     left join storage.objects o on o.bucket_id = d.bucket and o.name = d.path
     where d.case_id = $1 order by d.position`,
    [found.id],
  );
  return { reference_number: found.reference_number, category: found.category, documents };
}

/** The actions staff take on a ticket. */
export type TicketAction = "claim" | "release" | "resolve" | "reopen";

const ACTIONS: Record<TicketAction, { set: string; when: string; conversation: string | null }> = {
  // Claiming a ticket hands its conversation to people: the agent stays silent.
  claim: {
    set:
      "status = 'claimed', assigned_to = (select auth.uid()), claimed_at = coalesce(claimed_at, now())",
    when: "status <> 'resolved' and (assigned_to is null or assigned_to = (select auth.uid()))",
    conversation: "handoff",
  },
  release: {
    set: "status = 'open', assigned_to = null",
    when: "status = 'claimed' and assigned_to = (select auth.uid())",
    conversation: "open",
  },
  resolve: {
    set: "status = 'resolved', resolved_at = now()",
    when: "status <> 'resolved'",
    conversation: "open",
  },
  reopen: {
    set: "status = 'open', resolved_at = null, assigned_to = null",
    when: "status = 'resolved'",
    conversation: null,
  },
};

/**
 * Applies an action.
 *
 * @throws {ToolFailure} NOT_FOUND when invisible, CONFLICT when the ticket is not in a state for it.
 */
export async function actOnTicket(
  tx: Queryable,
  orgId: string,
  id: string,
  action: TicketAction,
): Promise<TicketView> {
  const rule = ACTIONS[action];
  const [done] = await tx.query<{ convo_id: string | null }>(
    `update public.staff_tickets set ${rule.set}
     where org_id = $1 and id = $2 and ${rule.when}
     returning convo_id`,
    [orgId, id],
  );
  if (!done) {
    const ticket = await getTicket(tx, orgId, id);
    const holder = ticket.assigned_name ? ` by ${ticket.assigned_name}` : "";
    throw new ToolFailure("CONFLICT", `This ticket is ${ticket.status}${holder}`);
  }
  if (rule.conversation && done.convo_id) {
    await tx.query(
      `update public.conversations
       set status = $2, assigned_staff_id = case when $2 = 'handoff' then (select auth.uid()) end,
           updated_at = now()
       where id = $1 and status <> 'closed'`,
      [done.convo_id, rule.conversation],
    );
  }
  return await getTicket(tx, orgId, id);
}

/**
 * Assigns the ticket to a staff member of the org.
 *
 * @throws {ToolFailure} VALIDATION_ERROR when that person is not staff here.
 */
export async function assignTicket(
  tx: Queryable,
  orgId: string,
  id: string,
  staffId: string,
): Promise<TicketView> {
  const [staff] = await tx.query(
    `select 1 from public.org_members
     where org_id = $1 and user_id = $2 and role in ('staff', 'admin')`,
    [orgId, staffId],
  );
  if (!staff) throw new ToolFailure("VALIDATION_ERROR", "That person is not staff here");
  const [done] = await tx.query(
    `update public.staff_tickets
     set status = 'claimed', assigned_to = $3, claimed_at = coalesce(claimed_at, now())
     where org_id = $1 and id = $2 and status <> 'resolved' returning id`,
    [orgId, id, staffId],
  );
  if (!done) {
    await getTicket(tx, orgId, id).then(() => {
      throw new ToolFailure("CONFLICT", "This ticket is resolved");
    });
  }
  return await getTicket(tx, orgId, id);
}

/** Adds an internal note. */
export async function addNote(tx: Queryable, orgId: string, id: string, text: string) {
  await getTicket(tx, orgId, id);
  await tx.query(
    `insert into public.ticket_notes (ticket_id, org_id, author_id, body)
     values ($1, $2, (select auth.uid()), $3)`,
    [id, orgId, text],
  );
  return await getTicket(tx, orgId, id);
}
