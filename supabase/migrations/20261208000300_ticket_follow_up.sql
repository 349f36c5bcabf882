-- One request is one ticket: what a person adds to a request already with staff (the name to put
-- on a proforma asked a moment ago) is added to that ticket, not opened as a second one. A
-- customer may not update tickets (staff work them), so the addition goes through this function,
-- which touches only a ticket of the caller's own conversation that staff have not resolved.
create or replace function private.add_to_open_ticket(
  p_convo_id uuid, p_reason text, p_addition text
)
returns uuid
language sql volatile security definer set search_path = ''
as $$
  update public.staff_tickets t
     set summary = left(t.summary || E'\n' || p_addition, 2000)
   where t.id = (
     select o.id from public.staff_tickets o
      where o.convo_id = p_convo_id and o.reason = p_reason and o.status <> 'resolved'
        and ((select auth.role()) = 'service_role'
          or o.org_id in (select private.my_staff_org_ids())
          or o.requester_user_id = (select auth.uid()))
      order by o.created_at desc, o.id desc
      limit 1
      for update)
  returning t.id
$$;
revoke all on function private.add_to_open_ticket(uuid, text, text) from public;
grant execute on function private.add_to_open_ticket(uuid, text, text) to authenticated, service_role;
