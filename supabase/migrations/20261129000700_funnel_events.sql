-- Analytics & Risk reads funnels and risks from public.analytics_events. The
-- facts it counts are already rows here; these triggers write the event in the
-- same transaction as the row, so no flow (tool, sweep, callback, staff
-- action) can make the fact and forget the event:
--
-- - payments: settled → `funnel_paid` (prop `agent`: the agent that asked for
--   the charge, now kept on the row); failed → `payment_failed` (prop `reason`);
-- - staff_tickets: a ticket opened for a person (a requester, not about a
--   payment) → `handoff_raised` (prop `agent` when the ticket names one);
-- - market_vendor_inquiry_messages: one row per vendor asked →
--   `vendor_inquiry_sent`; a vendor's first answer in time → `vendor_replied`.
--
-- `funnel_started` and `funnel_confirmed` are the agent layer's and the
-- pipeline's (see docs/agents.md). The functions run as their owner because
-- the fact may be made by someone the event's row does not belong to (staff
-- settling a customer's charge; the service answering a vendor), and
-- analytics_events admits a caller's own events only. The event takes the
-- person only when they are a member of the org (its key to org_members).

-- The agent whose tool call made the charge; immutable like the rest of the row
-- (payments_guard_change lets only the status columns change).
alter table public.payments add column agent_id text check (length(agent_id) between 1 and 100);

create function private.analytics_member(p_org_id uuid, p_user_id uuid) returns uuid
language sql stable security definer set search_path = ''
as $$
  select m.user_id from public.org_members m where m.org_id = p_org_id and m.user_id = p_user_id
$$;
revoke all on function private.analytics_member(uuid, uuid) from public;

create function private.payment_analytics() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.status = 'settled' and new.agent_id is not null then
    insert into public.analytics_events (org_id, event, props, user_id, trace_id)
    values (new.org_id, 'funnel_paid', jsonb_build_object('agent', new.agent_id),
            private.analytics_member(new.org_id, new.payer_id), new.trace_id);
  elsif new.status = 'failed' then
    insert into public.analytics_events (org_id, event, props, user_id, trace_id)
    values (new.org_id, 'payment_failed',
            jsonb_build_object('reason', new.failure_reason) ||
              case when new.agent_id is null then '{}'::jsonb
                else jsonb_build_object('agent', new.agent_id) end,
            private.analytics_member(new.org_id, new.payer_id), new.trace_id);
  end if;
  return null;
end
$$;
revoke all on function private.payment_analytics() from public;

-- A payment leaves pending once (payments_guard_change), so each fires once.
create trigger payments_analytics
  after update of status on public.payments
  for each row when (old.status = 'pending' and new.status in ('settled', 'failed'))
  execute function private.payment_analytics();

create function private.handoff_analytics() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.analytics_events (org_id, event, props, user_id, convo_id, trace_id)
  values (new.org_id, 'handoff_raised',
          case when new.agent_id is null then '{}'::jsonb
            else jsonb_build_object('agent', new.agent_id) end,
          private.analytics_member(new.org_id, new.requester_user_id),
          (select c.id from public.conversations c
           where c.org_id = new.org_id and c.id = new.convo_id),
          new.trace_id);
  return null;
end
$$;
revoke all on function private.handoff_analytics() from public;

-- A person handed to staff; the platform's own tickets (a risk, a broadcast
-- stopped, a payment to check) have no requester or are about a payment.
create trigger staff_tickets_handoff_analytics
  after insert on public.staff_tickets
  for each row when (new.requester_user_id is not null and new.payment_id is null)
  execute function private.handoff_analytics();

create function private.vendor_inquiry_analytics() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_user uuid;
  v_trace text;
begin
  select i.user_id, i.trace_id into v_user, v_trace
  from public.market_vendor_inquiries i where i.id = new.inquiry_id;
  insert into public.analytics_events (org_id, event, props, user_id, trace_id)
  values (new.org_id,
          case when tg_op = 'INSERT' then 'vendor_inquiry_sent' else 'vendor_replied' end,
          case when tg_op = 'INSERT' then '{}'::jsonb
            else jsonb_build_object('reply', new.reply_status) end,
          private.analytics_member(new.org_id, v_user), v_trace);
  return null;
end
$$;
revoke all on function private.vendor_inquiry_analytics() from public;

create trigger market_vendor_inquiry_sent_analytics
  after insert on public.market_vendor_inquiry_messages
  for each row execute function private.vendor_inquiry_analytics();

-- The first answer only (a vendor may correct it), and not one after the
-- inquiry expired: it is recorded, not counted, as the vendor's metrics do.
create trigger market_vendor_replied_analytics
  after update of replied_at, late on public.market_vendor_inquiry_messages
  for each row when (old.replied_at is null and new.replied_at is not null and not new.late)
  execute function private.vendor_inquiry_analytics();
