-- Commerce tools (issue 13, item 1): who may move an order and how the venue
-- hears about a new one; table bookings told to the venue and the diner.
--
-- order_status_update runs as the service (it queues the customer's WhatsApp
-- message, which `authenticated` may not write), so the question "may this
-- caller move this order?" is answered here, in one definer function, from
-- the JWT the pipeline set: staff of the order's org or the venue's owner
-- (auth.uid()), or the venue's WhatsApp number for a service call that
-- carries no person (the commerce pack's venue counterpart).
--
-- Messages built here are in the recipient's language: the profile's locale
-- (the venue owner's for venues), English when there is none.

-- A WhatsApp id (digits, no "+") from an E.164 phone.
create function private.wa_id_of(p_phone text) returns text
language sql immutable parallel safe set search_path = ''
as $$ select case when p_phone ~ '^\+[1-9][0-9]{5,14}$' then substr(p_phone, 2) end $$;

-- Whole RWF the way people write them: 5,000.
create function private.rwf(p_amount bigint) returns text
language sql immutable parallel safe set search_path = ''
as $$ select to_char(p_amount, 'FM999,999,999,999,990') || ' RWF' $$;

revoke all on function private.wa_id_of(text) from public;
revoke all on function private.rwf(bigint) from public;
grant execute on function private.wa_id_of(text) to authenticated, service_role;
grant execute on function private.rwf(bigint) to authenticated, service_role;

-- The order a status move is about, by id or number within the caller's org,
-- locked for the rest of the caller's transaction once the caller is known
-- to be allowed. Refusals do not tell strangers an order exists:
--   P0002  no such order in this org, or not the caller's venue
--   42501  the order's own customer (only the venue moves it), a service
--          call with neither a person nor a venue number, or a venue number
--          sent by anyone but the service
create function private.order_for_move(p_org_id uuid, p_ref text, p_venue_wa_id text)
returns table (
  order_id uuid,
  order_no text,
  status text,
  payment_status text,
  updated_at timestamptz,
  business_id uuid,
  venue_name text,
  venue_wa_id text,
  customer_id uuid,
  customer_wa_id text,
  customer_locale text
)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_id uuid;
  v_order public.orders;
  v_venue public.businesses;
begin
  if p_ref ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    v_id := p_ref::uuid;
  end if;
  select o.* into v_order from public.orders o
  where o.org_id = p_org_id and (o.id = v_id or o.order_no = upper(p_ref));
  if not found then
    raise exception 'no order % in this org', p_ref using errcode = 'P0002';
  end if;
  select b.* into v_venue from public.businesses b where b.id = v_order.business_id;
  if p_venue_wa_id is not null then
    if (select auth.role()) is distinct from 'service_role' or v_uid is not null then
      raise exception 'venue commands come from the WhatsApp channel' using errcode = '42501';
    end if;
    if p_venue_wa_id is distinct from v_venue.owner_whatsapp
       and p_venue_wa_id is distinct from private.wa_id_of(v_venue.phone) then
      raise exception 'no order % for this venue', p_ref using errcode = 'P0002';
    end if;
  elsif v_uid is null then
    raise exception 'an order is moved by a person or its venue' using errcode = '42501';
  elsif not (v_order.org_id in (select private.my_staff_org_ids())
             or v_venue.owner_user_id is not distinct from v_uid) then
    if v_order.customer_id = v_uid then
      raise exception 'only the venue moves order %', v_order.order_no using errcode = '42501';
    end if;
    raise exception 'no order % in this org', p_ref using errcode = 'P0002';
  end if;
  -- Locked only now, so a stranger cannot hold someone else's order.
  select o.* into v_order from public.orders o where o.id = v_order.id for update;
  return query
    select v_order.id, v_order.order_no, v_order.status, v_order.payment_status,
           v_order.updated_at, v_venue.id, v_venue.name,
           coalesce(v_venue.owner_whatsapp, private.wa_id_of(v_venue.phone)),
           p.id, private.wa_id_of(p.phone), coalesce(p.locale, 'en')
    from (select 1) one
    left join public.profiles p on p.id = v_order.customer_id;
end
$$;
revoke all on function private.order_for_move(uuid, text, text) from public;
grant execute on function private.order_for_move(uuid, text, text) to service_role;

-- Tells a venue about a new order through the WhatsApp outbox: its number
-- (A-1042), each line by name with quantity and price, the total, and
-- buttons to confirm or cancel (ids `order:<order_no>:<status>`, which the
-- commerce pack's venue counterpart reads). Outside the venue's 24-hour
-- window the template `venue_new_order` goes instead, with the same payloads
-- on its quick replies. Customers may not write the outbox, so this definer
-- function does it for their own orders only.
create or replace function private.notify_venue_of_order(p_order_id uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_order record;
  v_lang text;
  v_lines text;
  v_summary text;
  v_body text;
  v_buttons jsonb;
  v_id uuid;
begin
  select o.id, o.org_id, o.order_no, o.total, o.table_no, o.notes, b.name as venue_name,
         coalesce(b.owner_whatsapp, private.wa_id_of(b.phone)) as venue_wa_id,
         coalesce(p.locale, 'en') as locale
    into v_order
  from public.orders o
  join public.businesses b on b.id = o.business_id
  left join public.profiles p on p.id = b.owner_user_id
  where o.id = p_order_id and o.customer_id = (select auth.uid());
  if not found or v_order.venue_wa_id is null then
    return null;
  end if;
  v_lang := case when v_order.locale in ('rw', 'fr') then v_order.locale else 'en' end;
  select string_agg(i.qty || ' × ' || i.name || ' — ' || private.rwf(i.line_total), E'\n'
                    order by i.name),
         string_agg(i.qty || ' × ' || i.name, ', ' order by i.name)
    into v_lines, v_summary
  from public.order_items i where i.order_id = p_order_id;
  v_body := case v_lang
      when 'rw' then 'EasyMO: itumiza rishya ' || v_order.order_no || ' kuri ' || v_order.venue_name
        || coalesce(', ameza ' || v_order.table_no, '')
      when 'fr' then 'EasyMO : nouvelle commande ' || v_order.order_no || ' chez ' || v_order.venue_name
        || coalesce(', table ' || v_order.table_no, '')
      else 'EasyMO: new order ' || v_order.order_no || ' at ' || v_order.venue_name
        || coalesce(' for table ' || v_order.table_no, '')
    end
    || E'\n' || left(coalesce(v_lines, ''), 700)
    || E'\n' || case v_lang when 'rw' then 'Igiteranyo: ' when 'fr' then 'Total : ' else 'Total: ' end
    || private.rwf(v_order.total)
    || coalesce(E'\n' || case v_lang when 'rw' then 'Icyitonderwa: ' when 'fr' then 'Note : '
                               else 'Note: ' end || v_order.notes, '')
    || E'\n' || case v_lang
      when 'rw' then 'Kanda buto cyangwa wandike urugero: EMEZA ' || v_order.order_no
      when 'fr' then 'Touchez un bouton ou écrivez par ex. CONFIRMER ' || v_order.order_no
      else 'Tap a button or type e.g. CONFIRM ' || v_order.order_no
    end;
  v_buttons := jsonb_build_array(
    jsonb_build_object('type', 'reply', 'reply', jsonb_build_object(
      'id', 'order:' || v_order.order_no || ':confirmed',
      'title', case v_lang when 'rw' then 'Emeza' when 'fr' then 'Confirmer' else 'Confirm' end)),
    jsonb_build_object('type', 'reply', 'reply', jsonb_build_object(
      'id', 'order:' || v_order.order_no || ':cancelled',
      'title', case v_lang when 'rw' then 'Hagarika' when 'fr' then 'Annuler' else 'Cancel' end)));
  insert into public.wa_outbox (org_id, to_wa_id, kind, body, fallback_template, idempotency_key)
  values (
    v_order.org_id, v_order.venue_wa_id, 'buttons',
    jsonb_build_object('type', 'interactive', 'interactive', jsonb_build_object(
      'type', 'button',
      'body', jsonb_build_object('text', left(v_body, 1024)),
      'action', jsonb_build_object('buttons', v_buttons))),
    -- Template parameters may not hold new lines: one line per parameter.
    jsonb_build_object('type', 'template', 'template', jsonb_build_object(
      'name', 'venue_new_order',
      'language', jsonb_build_object('code', case v_lang when 'rw' then 'rw_RW' else v_lang end),
      'components', jsonb_build_array(
        jsonb_build_object('type', 'body', 'parameters', jsonb_build_array(
          jsonb_build_object('type', 'text', 'text', v_order.order_no),
          jsonb_build_object('type', 'text', 'text', left(coalesce(v_summary, '-'), 500)),
          jsonb_build_object('type', 'text', 'text', private.rwf(v_order.total)))),
        jsonb_build_object('type', 'button', 'sub_type', 'quick_reply', 'index', 0,
          'parameters', jsonb_build_array(jsonb_build_object(
            'type', 'payload', 'payload', 'order:' || v_order.order_no || ':confirmed'))),
        jsonb_build_object('type', 'button', 'sub_type', 'quick_reply', 'index', 1,
          'parameters', jsonb_build_array(jsonb_build_object(
            'type', 'payload', 'payload', 'order:' || v_order.order_no || ':cancelled')))))),
    'order:' || v_order.id
  )
  on conflict (idempotency_key) do nothing
  returning id into v_id;
  return v_id;
end
$$;
revoke all on function private.notify_venue_of_order(uuid) from public;
grant execute on function private.notify_venue_of_order(uuid) to authenticated, service_role;

-- Tells the venue about a new table booking and sends the diner the
-- confirmation code. The diner's copy goes to the booking's phone only when
-- that is the caller's own number or the caller is staff (booking for a guest
-- who called): a customer cannot make us message a stranger. Definer: the
-- caller may not write the outbox; only their own bookings (or, for staff,
-- their org's) are told.
create function private.notify_reservation(p_reservation_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_res record;
  v_when text;
  v_lang text;
  v_sent integer := 0;
begin
  select r.id, r.org_id, r.name, r.phone, r.party_size, r.slot_start, r.confirmation_code,
         r.customer_id, b.name as venue_name,
         coalesce(b.owner_whatsapp, private.wa_id_of(b.phone)) as venue_wa_id,
         coalesce(owner.locale, 'en') as venue_locale,
         coalesce(me.locale, 'en') as diner_locale, me.phone as caller_phone,
         r.org_id in (select private.my_staff_org_ids()) as by_staff
    into v_res
  from public.reservations r
  join public.businesses b on b.id = r.business_id
  left join public.profiles owner on owner.id = b.owner_user_id
  left join public.profiles me on me.id = v_uid
  where r.id = p_reservation_id
    and (r.customer_id = v_uid or r.org_id in (select private.my_staff_org_ids()));
  if not found then
    return 0;
  end if;
  v_when := to_char(private.kigali_local(v_res.slot_start), 'YYYY-MM-DD HH24:MI');
  if v_res.venue_wa_id is not null then
    v_lang := v_res.venue_locale;
    insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
    values (v_res.org_id, v_res.venue_wa_id, 'text',
      jsonb_build_object('type', 'text', 'text', jsonb_build_object('preview_url', false, 'body',
        case v_lang
          when 'rw' then 'EasyMO: ameza yafashwe kuri ' || v_res.venue_name || ': ' || v_res.name
            || ', abantu ' || v_res.party_size || ', ' || v_when || ' (' || v_res.phone || '). Kode: '
          when 'fr' then 'EasyMO : table réservée chez ' || v_res.venue_name || ' : ' || v_res.name
            || ', ' || v_res.party_size || ' pers., ' || v_when || ' (' || v_res.phone || '). Code : '
          else 'EasyMO: table booked at ' || v_res.venue_name || ': ' || v_res.name || ', party of '
            || v_res.party_size || ', ' || v_when || ' (' || v_res.phone || '). Code: '
        end || v_res.confirmation_code)),
      'reservation:' || v_res.id || ':venue')
    on conflict (idempotency_key) do nothing;
    v_sent := v_sent + 1;
  end if;
  if v_res.phone = v_res.caller_phone or v_res.by_staff then
    v_lang := v_res.diner_locale;
    insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
    values (v_res.org_id, private.wa_id_of(v_res.phone), 'text',
      jsonb_build_object('type', 'text', 'text', jsonb_build_object('preview_url', false, 'body',
        case v_lang
          when 'rw' then '✅ Ameza yanyu kuri ' || v_res.venue_name || ' yafashwe: abantu '
            || v_res.party_size || ', ' || v_when || '. Kode: ' || v_res.confirmation_code
            || E'.\nAndika "menu" usubire ku rutonde.'
          when 'fr' then '✅ Table réservée chez ' || v_res.venue_name || ' : ' || v_res.party_size
            || ' pers., ' || v_when || '. Code : ' || v_res.confirmation_code
            || E'.\nÉcrivez « menu » pour revenir au menu.'
          else '✅ Table booked at ' || v_res.venue_name || ': party of ' || v_res.party_size || ', '
            || v_when || '. Confirmation code: ' || v_res.confirmation_code
            || E'.\nType "menu" for the main menu.'
        end)),
      'reservation:' || v_res.id || ':diner')
    on conflict (idempotency_key) do nothing;
    v_sent := v_sent + 1;
  end if;
  return v_sent;
end
$$;
revoke all on function private.notify_reservation(uuid) from public;
grant execute on function private.notify_reservation(uuid) to authenticated, service_role;
