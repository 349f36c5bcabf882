-- Leaving a flow ends what it started (issue 24, item 4): a buyer who leaves
-- the buy & sell flow while vendors are being asked, or a customer who leaves
-- an ordering flow with an unpaid order, may cancel it; the other side is told
-- on WhatsApp in its own language. Both run as the customer: these definer
-- functions touch only the caller's own inquiry or order (auth.uid()), and
-- write what the customer may not write directly (other parties' outbox rows,
-- the payment's status).

-- A withdrawn inquiry: vendors who answer later are thanked and told so, and
-- the buyer hears nothing more of it.
alter table public.market_vendor_inquiries add column cancelled_at timestamptz;

-- Withdraws the caller's inquiry and tells every vendor asked who had not
-- refused, in the language they were asked in. Returns how many were told;
-- null when it is not the caller's. Repeating it tells nobody twice.
create function private.cancel_my_inquiry(p_inquiry_id uuid)
returns table (inquiry_id uuid, vendors_told integer, already boolean)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_inquiry record;
  v_told integer;
begin
  select i.id, i.org_id, i.cancelled_at, coalesce(i.structured_payload ->> 'item', i.request_summary)
           as item
    into v_inquiry
  from public.market_vendor_inquiries i
  where i.id = p_inquiry_id and v_uid is not null and i.user_id = v_uid
  for update;
  if not found then
    return;
  end if;
  if v_inquiry.cancelled_at is not null then
    return query select v_inquiry.id, 0, true;
    return;
  end if;
  update public.market_vendor_inquiries set cancelled_at = now() where id = v_inquiry.id;
  with told as (
    insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
    select v_inquiry.org_id, m.vendor_wa_id, 'text',
      jsonb_build_object('type', 'text', 'text', jsonb_build_object('preview_url', false, 'body',
        case m.vendor_language
          when 'en' then 'EasyMO: the customer withdrew their request for ' || left(v_inquiry.item, 120)
            || '. No need to answer it. Thank you!'
          when 'fr' then 'EasyMO : le client a retiré sa demande de ' || left(v_inquiry.item, 120)
            || '. Inutile d''y répondre. Merci !'
          else 'EasyMO: umukiriya yahagaritse icyifuzo cye cya ' || left(v_inquiry.item, 120)
            || '. Ntimukeneye kugisubiza. Murakoze!'
        end)),
      'inquiry-withdrawn:' || m.id
    from public.market_vendor_inquiry_messages m
    where m.inquiry_id = v_inquiry.id and m.reply_status <> 'no'
    on conflict (idempotency_key) do nothing
    returning 1)
  select count(*)::integer into v_told from told;
  return query select v_inquiry.id, v_told, false;
end
$$;
revoke all on function private.cancel_my_inquiry(uuid) from public;
grant execute on function private.cancel_my_inquiry(uuid) to authenticated, service_role;

-- Cancels the caller's unpaid order (pending or confirmed, payment not
-- settled): a charge still waiting for it expires, so no one is shown it as
-- waiting or can pay it, and the venue is told in its owner's language.
-- Returns the order; nothing when it is not the caller's. A settled or
-- fulfilled order is refused by the order guard (P0409) or here (P0402).
create function private.cancel_my_order(p_order_id uuid)
returns table (order_id uuid, order_no text, venue_name text, already boolean,
  charges_expired integer, venue_told boolean)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_order record;
  v_expired integer;
  v_told uuid;
begin
  select o.id, o.org_id, o.order_no, o.status, o.payment_status, o.total, b.name as venue_name,
         coalesce(b.owner_whatsapp, private.wa_id_of(b.phone)) as venue_wa_id,
         coalesce(owner.locale, 'en') as venue_locale
    into v_order
  from public.orders o
  join public.businesses b on b.id = o.business_id
  left join public.profiles owner on owner.id = b.owner_user_id
  where o.id = p_order_id and v_uid is not null and o.customer_id = v_uid
  for update of o;
  if not found then
    return;
  end if;
  if v_order.status = 'cancelled' then
    return query select v_order.id, v_order.order_no, v_order.venue_name, true, 0, false;
    return;
  end if;
  if v_order.payment_status = 'settled' then
    raise exception 'order % is paid: ask the venue to cancel it', v_order.order_no
      using errcode = 'P0402';
  end if;
  with expired as (
    update public.payments p set status = 'expired', failure_reason = 'EXPIRED'
    where p.order_id = v_order.id and p.org_id = v_order.org_id and p.status = 'pending'
    returning 1)
  select count(*)::integer into v_expired from expired;
  -- The guard trigger refuses an order already being prepared (P0409).
  update public.orders set status = 'cancelled' where id = v_order.id;
  if v_order.venue_wa_id is not null then
    insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
    values (v_order.org_id, v_order.venue_wa_id, 'text',
      jsonb_build_object('type', 'text', 'text', jsonb_build_object('preview_url', false, 'body',
        case v_order.venue_locale
          when 'rw' then 'EasyMO: umukiriya yahagaritse itumiza ' || v_order.order_no || ' kuri '
            || v_order.venue_name || ' (' || private.rwf(v_order.total)
            || ', ntiryishyuwe). Ntimurigutegure.'
          when 'fr' then 'EasyMO : le client a annulé la commande ' || v_order.order_no || ' chez '
            || v_order.venue_name || ' (' || private.rwf(v_order.total)
            || ', non payée). Ne la préparez pas.'
          else 'EasyMO: the customer cancelled order ' || v_order.order_no || ' at '
            || v_order.venue_name || ' (' || private.rwf(v_order.total)
            || ', unpaid). Please do not prepare it.'
        end)),
      'order:' || v_order.id || ':customer-cancelled')
    on conflict (idempotency_key) do nothing
    returning id into v_told;
  end if;
  return query select v_order.id, v_order.order_no, v_order.venue_name, false, v_expired,
    v_told is not null;
end
$$;
revoke all on function private.cancel_my_order(uuid) from public;
grant execute on function private.cancel_my_order(uuid) to authenticated, service_role;
