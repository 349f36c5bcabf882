-- Staff queue WhatsApp messages to their own org's contacts (issue 28):
-- `payment_confirm_by_staff` now runs as the calling staff member (`auth:
-- 'staff'`), and tells the payer and the payee in the same transaction as the
-- confirmation. Until now it ran as the service because wa_outbox took no row
-- from a signed-in caller.
--
-- A staff member may queue a message only
--   * under an org they are staff of (the org's WhatsApp number), and
--   * to one of that org's contacts: a customer with a conversation there, or
--     a party of one of its payments (the payer, the phone paid, the venue of
--     its order, the matched driver of its ride);
--   * and, when the message is filed under a conversation, to that
--     conversation's own customer (never one customer's message in another's
--     thread).
-- Nobody else (customers, vendors, anonymous callers) queues anything, and
-- only the message's own columns are theirs to set: its status, attempts and
-- delivery record stay the sender's.

-- Whether `p_wa_id` is one of `p_org_id`'s contacts, for the org's staff and
-- the service only: anyone else learns nothing (false) about another org's
-- customers. A definer so the policy does not depend on the tables' own
-- select policies.
create function private.may_message_contact(p_org_id uuid, p_wa_id text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_org_id is not null and p_wa_id ~ '^[0-9]{6,15}$'
    and ((select auth.role()) = 'service_role'
         or exists (select 1 from private.my_staff_memberships v where v.org_id = p_org_id))
    and (
      exists (select 1 from public.conversations c join public.profiles p on p.id = c.user_id
              where c.org_id = p_org_id and p.phone = '+' || p_wa_id)
      or exists (select 1 from public.payments y
                 where y.org_id = p_org_id
                   and (y.payer_phone = '+' || p_wa_id or y.payee_phone = '+' || p_wa_id))
      or exists (select 1 from public.payments y
                 join public.orders o on o.id = y.order_id and o.org_id = y.org_id
                 join public.businesses b on b.id = o.business_id and b.org_id = o.org_id
                 where y.org_id = p_org_id
                   and coalesce(b.owner_whatsapp, substr(b.momo_phone, 2)) = p_wa_id)
      or exists (select 1 from public.payments y
                 join public.ride_requests r on r.id = y.ride_request_id and r.org_id = y.org_id
                 join public.drivers d on d.id = r.matched_driver_id and d.org_id = r.org_id
                 where y.org_id = p_org_id and d.phone = '+' || p_wa_id))
$$;
revoke all on function private.may_message_contact(uuid, text) from public, anon;
grant execute on function private.may_message_contact(uuid, text) to authenticated, service_role;

-- Whether the org's conversation is with `p_wa_id`; false for anyone but the
-- org's staff and the service.
create function private.is_conversation_with(p_org_id uuid, p_conversation_id uuid, p_wa_id text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select ((select auth.role()) = 'service_role'
          or exists (select 1 from private.my_staff_memberships v where v.org_id = p_org_id))
    and exists (select 1 from public.conversations c join public.profiles p on p.id = c.user_id
                where c.org_id = p_org_id and c.id = p_conversation_id
                  and p.phone = '+' || p_wa_id)
$$;
revoke all on function private.is_conversation_with(uuid, uuid, text) from public, anon;
grant execute on function private.is_conversation_with(uuid, uuid, text)
  to authenticated, service_role;

revoke insert on public.wa_outbox from anon, authenticated;
grant insert (org_id, to_wa_id, kind, body, fallback_template, idempotency_key, conversation_id,
              at_most_once, created_at)
  on public.wa_outbox to authenticated;
create policy wa_outbox_insert on public.wa_outbox for insert to authenticated
  with check (org_id in (select v.org_id from private.my_staff_memberships v)
              and private.may_message_contact(org_id, to_wa_id)
              and (conversation_id is null
                   or private.is_conversation_with(org_id, conversation_id, to_wa_id)));
