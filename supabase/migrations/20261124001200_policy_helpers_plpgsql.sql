-- The row-level security helpers were SQL functions. `security definer` and
-- `set search_path` keep the planner from inlining them, so every statement
-- that touched a fenced table planned the helper's query afresh (a SQL
-- function's plan lives only as long as the calling statement). In PL/pgSQL
-- the query's plan is prepared once per session and reused, which removes
-- that planning from every RLS-scoped statement. Same queries, same answers;
-- `create or replace` keeps the grants and the policies that name them.
create or replace function private.my_org_ids() returns setof uuid
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query
    select m.org_id from public.org_members m where m.user_id = (select auth.uid());
end
$$;

create or replace function private.my_staff_org_ids() returns setof uuid
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query
    select m.org_id from public.org_members m
    where m.user_id = (select auth.uid()) and m.role in ('staff', 'admin');
end
$$;

create or replace function private.my_conversation_ids() returns setof uuid
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query
    select c.id from public.conversations c where c.user_id = (select auth.uid());
end
$$;

create or replace function private.my_ride_ids() returns setof uuid
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query
    select r.id from public.ride_requests r where r.rider_id = (select auth.uid())
    union
    select o.request_id from public.ride_offers o
    join public.drivers d on d.id = o.driver_id
    where d.user_id = (select auth.uid());
end
$$;
