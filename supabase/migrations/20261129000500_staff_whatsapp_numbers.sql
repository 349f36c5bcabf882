-- Staff on WhatsApp: the numbers an org's staff write from, as data per org.
--
-- A staff member writing to their org's business number from a number
-- registered here is recognised as themselves (their staff principal, so
-- their tools run under RLS with staff rights) and reaches the org's staff
-- agents. The registration is the org's, not the person's: a profile's phone
-- is the person's own to change, so it cannot be what grants staff rights
-- on WhatsApp. Only the org's admins (or the service) register a number; the
-- member must still be staff or admin of the org when a message arrives, so
-- a demotion ends it at once. The same number writing to another org's
-- business number is a customer there.

create table public.staff_whatsapp_numbers (
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- E.164, as profiles keep phones.
  phone text not null check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  user_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (org_id, phone),
  -- The person is a member of this org (person_refs: a row names only its org's people).
  foreign key (org_id, user_id) references public.org_members (org_id, user_id) on delete cascade
);
create index staff_whatsapp_numbers_user_idx on public.staff_whatsapp_numbers (org_id, user_id);
create index staff_whatsapp_numbers_user_id_idx on public.staff_whatsapp_numbers (user_id);

alter table public.staff_whatsapp_numbers enable row level security;

-- Staff see their org's registrations; only admins add or remove them.
create policy staff_whatsapp_numbers_select on public.staff_whatsapp_numbers
  for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy staff_whatsapp_numbers_insert on public.staff_whatsapp_numbers
  for insert to authenticated
  with check (org_id in (select v.org_id from private.my_memberships v where v.role = 'admin'));
create policy staff_whatsapp_numbers_delete on public.staff_whatsapp_numbers
  for delete to authenticated
  using (org_id in (select v.org_id from private.my_memberships v where v.role = 'admin'));

-- The staff member a sender is in this org, with their open WhatsApp
-- conversation (opened when they have none); no row when the number is not
-- registered in the org or its member is no longer staff there. Called by
-- the channel's service connection only.
create function private.resolve_whatsapp_staff(
  p_org_id uuid,
  p_wa_id text
) returns table (user_id uuid, locale text, conversation_id uuid, state jsonb)
language plpgsql volatile set search_path = ''
as $$
#variable_conflict use_column
declare
  v_user uuid;
  v_locale text;
begin
  select s.user_id, p.locale into v_user, v_locale
  from public.staff_whatsapp_numbers s
  join public.org_members m on m.org_id = s.org_id and m.user_id = s.user_id
  join public.profiles p on p.id = s.user_id
  where s.org_id = p_org_id and s.phone = '+' || p_wa_id and m.role in ('staff', 'admin');
  if v_user is null then
    return;
  end if;
  insert into public.conversations (org_id, user_id, channel)
  values (p_org_id, v_user, 'whatsapp')
  on conflict (org_id, user_id) where channel = 'whatsapp' and status <> 'closed' do nothing;
  return query
    select v_user, v_locale, c.id, c.state from public.conversations c
    where c.org_id = p_org_id and c.user_id = v_user and c.channel = 'whatsapp'
      and c.status <> 'closed';
end
$$;

revoke all on function private.resolve_whatsapp_staff(uuid, text) from public;

-- Who is writing, in one statement still (see 20261126000501_resolve_whatsapp_user.sql): the
-- org's staff member on a number it registered for them, else the customer, as before.
create function private.resolve_whatsapp_sender(
  p_org_id uuid,
  p_wa_id text,
  p_profile_name text
) returns table (
  user_id uuid, locale text, conversation_id uuid, state jsonb, status text, is_staff boolean
)
language plpgsql volatile set search_path = ''
as $$
begin
  return query
    select s.user_id, s.locale, s.conversation_id, s.state, 'open'::text, true
    from private.resolve_whatsapp_staff(p_org_id, p_wa_id) s;
  if found then
    return;
  end if;
  return query
    select u.user_id, u.locale, u.conversation_id, u.state, u.status, false
    from private.resolve_whatsapp_user(p_org_id, p_wa_id, p_profile_name) u;
end
$$;

revoke all on function private.resolve_whatsapp_sender(uuid, text, text) from public;
