-- A person's place in the hand-off queue counts the people ahead of them, not tickets: their
-- own earlier open tickets (a proforma asked, then "talk to someone") never stand ahead of them,
-- and someone else's several tickets count once. Who may read a place is unchanged.
create or replace function private.ticket_queue_position(p_ticket_id uuid)
returns int
language sql stable security definer set search_path = ''
as $$
  select 1 + (select count(distinct coalesce(o.convo_id, o.id))::int
              from public.staff_tickets o
              where o.org_id = t.org_id and o.status = 'open'
                and o.convo_id is distinct from t.convo_id
                and (array_position(array['urgent', 'high', 'medium', 'low'], o.priority),
                     o.created_at, o.id)
                  < (array_position(array['urgent', 'high', 'medium', 'low'], t.priority),
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
