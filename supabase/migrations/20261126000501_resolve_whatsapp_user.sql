-- Who is writing, in one statement. Every WhatsApp message resolved its sender
-- with a transaction of seven statements (begin, a lock, a lookup, three
-- inserts that are no-ops but for a new customer, a select, commit): on the
-- embedded database, where each statement is parsed and planned on the
-- server's own thread, a fifth of what a message cost there. The same steps,
-- in the same order, run here in one call.

-- The sender's user (created with their profile on first contact), their
-- membership of the org as a customer, and their open WhatsApp conversation
-- (opened when they have none). First contact is serialised per number, so
-- two racing deliveries create one user.
create function private.resolve_whatsapp_user(
  p_org_id uuid,
  p_wa_id text,
  p_profile_name text
) returns table (user_id uuid, locale text, conversation_id uuid, state jsonb, status text)
language plpgsql volatile set search_path = ''
as $$
#variable_conflict use_column
declare
  v_phone text := '+' || p_wa_id;
  v_user uuid;
  v_locale text;
begin
  perform pg_advisory_xact_lock(hashtext(v_phone));
  select p.id, p.locale into v_user, v_locale from public.profiles p where p.phone = v_phone;
  if v_user is null then
    with u as (
      insert into auth.users (id, phone) values (gen_random_uuid(), p_wa_id) returning id
    )
    insert into public.profiles (id, phone, display_name)
    select u.id, v_phone, left(p_profile_name, 200) from u
    returning profiles.id, profiles.locale into v_user, v_locale;
  end if;
  insert into public.org_members (org_id, user_id, role) values (p_org_id, v_user, 'customer')
  on conflict do nothing;
  insert into public.conversations (org_id, user_id, channel)
  values (p_org_id, v_user, 'whatsapp')
  on conflict (org_id, user_id) where channel = 'whatsapp' and status <> 'closed' do nothing;
  return query
    select v_user, v_locale, c.id, c.state, c.status from public.conversations c
    where c.org_id = p_org_id and c.user_id = v_user and c.channel = 'whatsapp'
      and c.status <> 'closed';
end
$$;

revoke all on function private.resolve_whatsapp_user(uuid, text, text) from public;
