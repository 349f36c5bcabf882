-- Messages to venues and vendors carry their tenant's brand, not EasyMO's.
--
-- A new order, a table booked, moved or cancelled, an order or a purchase
-- request withdrawn: the five functions that tell a venue or vendor on the
-- tenant's behalf began their text with the literal "EasyMO:", so a second
-- tenant's venues were told in EasyMO's name. Each is redefined as it stood,
-- its opening word now the order's (booking's, request's) tenant's brand
-- (`orgs.brand_name`, else its name): `private.brand_of`.

-- The name a tenant speaks with. Only the definer functions below call it (as
-- their owner): callers are not granted it.
create function private.brand_of(p_org_id uuid) returns text
language sql stable set search_path = ''
as $$
  select coalesce(o.brand_name, o.name) from public.orgs o where o.id = p_org_id
$$;
revoke all on function private.brand_of(uuid) from public;

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
      when 'rw' then private.brand_of(v_order.org_id) || ': itumiza rishya ' || v_order.order_no || ' kuri ' || v_order.venue_name
        || coalesce(', ameza ' || v_order.table_no, '')
      when 'fr' then private.brand_of(v_order.org_id) || ' : nouvelle commande ' || v_order.order_no || ' chez ' || v_order.venue_name
        || coalesce(', table ' || v_order.table_no, '')
      else private.brand_of(v_order.org_id) || ': new order ' || v_order.order_no || ' at ' || v_order.venue_name
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

create or replace function private.notify_reservation(p_reservation_id uuid) returns integer
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
         coalesce(diner.locale, 'en') as diner_locale, me.phone as caller_phone,
         r.org_id in (select private.my_staff_org_ids()) as by_staff
    into v_res
  from public.reservations r
  join public.businesses b on b.id = r.business_id
  left join public.profiles owner on owner.id = b.owner_user_id
  left join public.profiles me on me.id = v_uid
  left join public.profiles diner on diner.phone = r.phone
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
          when 'rw' then private.brand_of(v_res.org_id) || ': ameza yafashwe kuri ' || v_res.venue_name || ': ' || v_res.name
            || ', abantu ' || v_res.party_size || ', ' || v_when || ' (' || v_res.phone || '). Kode: '
          when 'fr' then private.brand_of(v_res.org_id) || ' : table réservée chez ' || v_res.venue_name || ' : ' || v_res.name
            || ', ' || v_res.party_size || ' pers., ' || v_when || ' (' || v_res.phone || '). Code : '
          else private.brand_of(v_res.org_id) || ': table booked at ' || v_res.venue_name || ': ' || v_res.name || ', party of '
            || v_res.party_size || ', ' || v_when || ' (' || v_res.phone || '). Code: '
        end || v_res.confirmation_code)),
      'reservation:' || v_res.id || ':venue')
    on conflict (idempotency_key) do nothing;
    v_sent := v_sent + 1;
  end if;
  -- Staff booking for someone else: the diner is told here. A diner booking in their own
  -- conversation is answered there, by the agent (the offline flow or the model), in the
  -- conversation's language; a second message from here said it again in the profile's.
  if v_res.by_staff and v_res.phone is distinct from v_res.caller_phone then
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

create or replace function private.notify_reservation_change(p_reservation_id uuid, p_moved_to uuid default null)
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_res record;
  v_new record;
  v_when text;
  v_new_when text;
begin
  select r.id, r.org_id, r.name, r.phone, r.party_size, r.slot_start, r.confirmation_code,
         r.status, b.name as venue_name,
         coalesce(b.owner_whatsapp, private.wa_id_of(b.phone)) as venue_wa_id,
         coalesce(owner.locale, 'en') as venue_locale
    into v_res
  from public.reservations r
  join public.businesses b on b.id = r.business_id
  left join public.profiles owner on owner.id = b.owner_user_id
  where r.id = p_reservation_id
    and (r.customer_id = v_uid or r.org_id in (select private.my_staff_org_ids()));
  if not found or v_res.status <> 'cancelled' or v_res.venue_wa_id is null then
    return 0;
  end if;
  v_when := to_char(private.kigali_local(v_res.slot_start), 'YYYY-MM-DD HH24:MI');
  -- The message below names v_new's fields in a branch a cancel never takes; Postgres 15 still
  -- reads them, and an unassigned record fails ("record v_new is not assigned yet").
  select null::integer as party_size, null::timestamptz as slot_start,
         null::text as confirmation_code
    into v_new;
  if p_moved_to is not null then
    select r.party_size, r.slot_start, r.confirmation_code into v_new
    from public.reservations r
    where r.id = p_moved_to and r.org_id = v_res.org_id and r.status = 'confirmed'
      and (r.customer_id = v_uid or r.org_id in (select private.my_staff_org_ids()));
    if not found then
      return 0;
    end if;
    v_new_when := to_char(private.kigali_local(v_new.slot_start), 'YYYY-MM-DD HH24:MI');
  end if;
  insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
  values (v_res.org_id, v_res.venue_wa_id, 'text',
    jsonb_build_object('type', 'text', 'text', jsonb_build_object('preview_url', false, 'body',
      case
        when p_moved_to is null then
          case v_res.venue_locale
            when 'rw' then private.brand_of(v_res.org_id) || ': ameza yahagaritswe kuri ' || v_res.venue_name || ': ' || v_res.name
              || ', abantu ' || v_res.party_size || ', ' || v_when || ' (' || v_res.phone || '). Kode: '
              || v_res.confirmation_code
            when 'fr' then private.brand_of(v_res.org_id) || ' : réservation annulée chez ' || v_res.venue_name || ' : ' || v_res.name
              || ', ' || v_res.party_size || ' pers., ' || v_when || ' (' || v_res.phone || '). Code : '
              || v_res.confirmation_code
            else private.brand_of(v_res.org_id) || ': booking cancelled at ' || v_res.venue_name || ': ' || v_res.name
              || ', party of ' || v_res.party_size || ', ' || v_when || ' (' || v_res.phone
              || '). Code: ' || v_res.confirmation_code
          end
        else
          case v_res.venue_locale
            when 'rw' then private.brand_of(v_res.org_id) || ': ameza ya ' || v_res.name || ' kuri ' || v_res.venue_name
              || ' yimuwe: ' || v_when || ' → ' || v_new_when || ', abantu ' || v_new.party_size
              || ' (' || v_res.phone || '). Kode nshya: ' || v_new.confirmation_code
            when 'fr' then private.brand_of(v_res.org_id) || ' : réservation de ' || v_res.name || ' chez ' || v_res.venue_name
              || ' déplacée : ' || v_when || ' → ' || v_new_when || ', ' || v_new.party_size
              || ' pers. (' || v_res.phone || '). Nouveau code : ' || v_new.confirmation_code
            else private.brand_of(v_res.org_id) || ': ' || v_res.name || '''s booking at ' || v_res.venue_name || ' moved: '
              || v_when || ' → ' || v_new_when || ', party of ' || v_new.party_size || ' ('
              || v_res.phone || '). New code: ' || v_new.confirmation_code
          end
      end)),
    'reservation:' || v_res.id || case when p_moved_to is null then ':cancelled' else ':moved' end)
  on conflict (idempotency_key) do nothing;
  return 1;
end
$$;

create or replace function private.cancel_my_order(p_order_id uuid)
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
          when 'rw' then private.brand_of(v_order.org_id) || ': umukiriya yahagaritse itumiza ' || v_order.order_no || ' kuri '
            || v_order.venue_name || ' (' || private.rwf(v_order.total)
            || ', ntiryishyuwe). Ntimurigutegure.'
          when 'fr' then private.brand_of(v_order.org_id) || ' : le client a annulé la commande ' || v_order.order_no || ' chez '
            || v_order.venue_name || ' (' || private.rwf(v_order.total)
            || ', non payée). Ne la préparez pas.'
          else private.brand_of(v_order.org_id) || ': the customer cancelled order ' || v_order.order_no || ' at '
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

create or replace function private.cancel_my_inquiry(p_inquiry_id uuid)
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
        case
          when m.chosen_at is not null then
            case m.vendor_language
              when 'en' then private.brand_of(v_inquiry.org_id) || ': the customer who chose you cancelled their purchase of '
                || left(v_inquiry.item, 120)
                || ' and their MoMo payment to you. No need to keep it for them. Thank you!'
              when 'fr' then private.brand_of(v_inquiry.org_id) || ' : le client qui vous avait choisi a annulé son achat de '
                || left(v_inquiry.item, 120)
                || ' et son paiement MoMo. Inutile de le lui garder. Merci !'
              else private.brand_of(v_inquiry.org_id) || ': umukiriya wari wabahisemo yahagaritse kugura '
                || left(v_inquiry.item, 120)
                || ' n''ubwishyu bwe bwa MoMo. Ntimukeneye kukimubikira. Murakoze!'
            end
          else
            case m.vendor_language
              when 'en' then private.brand_of(v_inquiry.org_id) || ': the customer withdrew their request for '
                || left(v_inquiry.item, 120) || '. No need to answer it. Thank you!'
              when 'fr' then private.brand_of(v_inquiry.org_id) || ' : le client a retiré sa demande de '
                || left(v_inquiry.item, 120) || '. Inutile d''y répondre. Merci !'
              else private.brand_of(v_inquiry.org_id) || ': umukiriya yahagaritse icyifuzo cye cya ' || left(v_inquiry.item, 120)
                || '. Ntimukeneye kugisubiza. Murakoze!'
            end
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
