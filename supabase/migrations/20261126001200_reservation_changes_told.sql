-- A diner can cancel a booking or move it to another time (issue 24, item 7):
-- the venue is told on WhatsApp, in its owner's language, the same way
-- private.notify_reservation tells it of a new booking (a wa_outbox row, one
-- per change thanks to its idempotency key). A move is a new booking and the
-- old one cancelled (the guard trigger refuses changing a slot in place), so
-- the venue gets one "moved" message naming both times instead of two.
create function private.notify_reservation_change(p_reservation_id uuid, p_moved_to uuid default null)
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
            when 'rw' then 'EasyMO: ameza yahagaritswe kuri ' || v_res.venue_name || ': ' || v_res.name
              || ', abantu ' || v_res.party_size || ', ' || v_when || ' (' || v_res.phone || '). Kode: '
              || v_res.confirmation_code
            when 'fr' then 'EasyMO : réservation annulée chez ' || v_res.venue_name || ' : ' || v_res.name
              || ', ' || v_res.party_size || ' pers., ' || v_when || ' (' || v_res.phone || '). Code : '
              || v_res.confirmation_code
            else 'EasyMO: booking cancelled at ' || v_res.venue_name || ': ' || v_res.name
              || ', party of ' || v_res.party_size || ', ' || v_when || ' (' || v_res.phone
              || '). Code: ' || v_res.confirmation_code
          end
        else
          case v_res.venue_locale
            when 'rw' then 'EasyMO: ameza ya ' || v_res.name || ' kuri ' || v_res.venue_name
              || ' yimuwe: ' || v_when || ' → ' || v_new_when || ', abantu ' || v_new.party_size
              || ' (' || v_res.phone || '). Kode nshya: ' || v_new.confirmation_code
            when 'fr' then 'EasyMO : réservation de ' || v_res.name || ' chez ' || v_res.venue_name
              || ' déplacée : ' || v_when || ' → ' || v_new_when || ', ' || v_new.party_size
              || ' pers. (' || v_res.phone || '). Nouveau code : ' || v_new.confirmation_code
            else 'EasyMO: ' || v_res.name || '''s booking at ' || v_res.venue_name || ' moved: '
              || v_when || ' → ' || v_new_when || ', party of ' || v_new.party_size || ' ('
              || v_res.phone || '). New code: ' || v_new.confirmation_code
          end
      end)),
    'reservation:' || v_res.id || case when p_moved_to is null then ':cancelled' else ':moved' end)
  on conflict (idempotency_key) do nothing;
  return 1;
end
$$;
revoke all on function private.notify_reservation_change(uuid, uuid) from public;
grant execute on function private.notify_reservation_change(uuid, uuid) to authenticated, service_role;
