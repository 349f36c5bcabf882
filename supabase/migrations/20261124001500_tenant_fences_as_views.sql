-- The tenant fences read the caller's memberships from views, not functions.
--
-- Every policy of the public schema asked `org_id in (select
-- private.my_org_ids())` (or `my_staff_org_ids()`). A function call is opaque
-- to the planner: on every fenced statement Postgres entered the PL/pgSQL
-- function, ran its query through SPI, collected the rows in a tuplestore and
-- hashed them, which cost a third of a primary-key read. A view is planned
-- into the statement instead: one index probe on org_members(user_id),
-- prepared with the statement's plan.
--
-- The views run with their owner's rights (as the functions did with
-- `security definer`), so reading them does not recurse into org_members'
-- own policy, and they only ever show the caller's own rows.
-- `security_barrier` keeps a caller's predicates from being pushed below
-- that filter. Same memberships, same answers: the functions stay for the
-- storage policies and any SQL that calls them.

create view private.my_memberships with (security_barrier) as
  select m.org_id, m.role from public.org_members m where m.user_id = (select auth.uid());

create view private.my_staff_memberships with (security_barrier) as
  select m.org_id from public.org_members m
  where m.user_id = (select auth.uid()) and m.role in ('staff', 'admin');

revoke all on private.my_memberships, private.my_staff_memberships from public;
grant select on private.my_memberships, private.my_staff_memberships to authenticated, service_role;

-- Rewrites the policies in place (their deparsed form is the same on every
-- Postgres version we run), and fails the migration if one is missed.
do $$
declare
  p record;
  fenced_qual text;
  fenced_check text;
  rewritten int := 0;
begin
  for p in
    select pol.polname, c.relname,
      pg_get_expr(pol.polqual, pol.polrelid) as qual,
      pg_get_expr(pol.polwithcheck, pol.polrelid) as with_check
    from pg_policy pol
    join pg_class c on c.oid = pol.polrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public'
  loop
    fenced_qual := replace(replace(p.qual,
      'SELECT private.my_org_ids() AS my_org_ids',
      'SELECT my_memberships.org_id FROM private.my_memberships'),
      'SELECT private.my_staff_org_ids() AS my_staff_org_ids',
      'SELECT my_staff_memberships.org_id FROM private.my_staff_memberships');
    fenced_check := replace(replace(p.with_check,
      'SELECT private.my_org_ids() AS my_org_ids',
      'SELECT my_memberships.org_id FROM private.my_memberships'),
      'SELECT private.my_staff_org_ids() AS my_staff_org_ids',
      'SELECT my_staff_memberships.org_id FROM private.my_staff_memberships');
    if fenced_qual is distinct from p.qual then
      execute format('alter policy %I on public.%I using (%s)', p.polname, p.relname, fenced_qual);
      rewritten := rewritten + 1;
    end if;
    if fenced_check is distinct from p.with_check then
      execute format('alter policy %I on public.%I with check (%s)',
        p.polname, p.relname, fenced_check);
      rewritten := rewritten + 1;
    end if;
  end loop;
  if rewritten = 0 or exists (
    select 1 from pg_policy pol
    join pg_class c on c.oid = pol.polrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and (
      coalesce(pg_get_expr(pol.polqual, pol.polrelid), '') ~ 'private\.my_(staff_)?org_ids\(\)'
      or coalesce(pg_get_expr(pol.polwithcheck, pol.polrelid), '') ~ 'private\.my_(staff_)?org_ids\(\)'
    )
  ) then
    raise exception 'tenant fences: a policy still calls private.my_org_ids() or my_staff_org_ids()';
  end if;
end
$$;
