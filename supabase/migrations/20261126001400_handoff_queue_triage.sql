-- Hand-offs that tell the person where they stand, and tickets staff can triage.
--
-- 1. Each tenant's emergency numbers (data, not code): a hand-off for theft,
--    violence, threats or an emergency gives them in the person's language.
--    A list of {"service": "police" | "ambulance" | "fire" | ..., "number": "112"};
--    empty for a tenant that has not set them (nothing is then said).
-- 2. A ticket's channels as a list: every ticket is in the Inbox, and an
--    urgent one also went to Slack and SMS. `channel` stays what was asked
--    for; `channels` is where it went, so the Inbox filter never hides an
--    urgent ticket. Derived on insert, whatever code raises the ticket.
-- 3. The agent the person was with and the language they wrote in, as the
--    ticket was raised (the conversation itself returns to the front desk).
alter table public.orgs
  add column emergency_numbers jsonb not null default '[]'::jsonb
    constraint orgs_emergency_numbers_check check (jsonb_typeof(emergency_numbers) = 'array');

comment on column public.orgs.emergency_numbers is
  'Emergency services told on a sensitive hand-off: [{"service": "police", "number": "112"}, ...].';

alter table public.staff_tickets
  add column channels text[] not null default array['inbox']
    constraint staff_tickets_channels_check
      check (channels <@ array['inbox', 'slack', 'sms'] and 'inbox' = any (channels)),
  add column agent_id text check (length(agent_id) <= 100),
  add column language text check (language in ('en', 'rw', 'fr'));

create function private.staff_ticket_channels() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.channels := array['inbox']
    || case when new.channel = 'slack' or new.priority = 'urgent' then array['slack'] else '{}' end
    || case when new.channel = 'sms' or new.priority = 'urgent' then array['sms'] else '{}' end;
  return new;
end;
$$;

-- A trigger function needs no grant to fire; nobody calls it directly.
revoke all on function private.staff_ticket_channels() from public;

create trigger staff_tickets_channels before insert on public.staff_tickets
  for each row execute function private.staff_ticket_channels();

update public.staff_tickets set channels = array['inbox']
    || case when channel = 'slack' or priority = 'urgent' then array['slack'] else '{}' end
    || case when channel = 'sms' or priority = 'urgent' then array['sms'] else '{}' end;

create index staff_tickets_channels_idx on public.staff_tickets using gin (channels);

-- A waiting ticket's place in its org's queue (1 = next), in the order the
-- Admin Inbox lists them: more urgent first, then oldest. Null once staff
-- claimed or resolved it. Counts other customers' tickets, which the caller
-- cannot read: only the number leaves, and only for an org they belong to.
create function private.ticket_queue_position(p_ticket_id uuid)
returns int
language sql stable security definer set search_path = ''
as $$
  select (select count(*)::int from public.staff_tickets o
          where o.org_id = t.org_id and o.status = 'open'
            and (array_position(array['urgent', 'high', 'medium', 'low'], o.priority),
                 o.created_at, o.id)
             <= (array_position(array['urgent', 'high', 'medium', 'low'], t.priority),
                 t.created_at, t.id))
  from public.staff_tickets t
  where t.id = p_ticket_id and t.status = 'open'
    -- A person learns only their own place; staff of the org and the service any ticket's.
    and ((select auth.role()) = 'service_role'
      or t.org_id in (select private.my_staff_org_ids())
      or t.requester_user_id = (select auth.uid())
      or exists (select 1 from public.conversations c
                 where c.id = t.convo_id and c.user_id = (select auth.uid())))
$$;
revoke all on function private.ticket_queue_position(uuid) from public;
grant execute on function private.ticket_queue_position(uuid) to authenticated, service_role;
