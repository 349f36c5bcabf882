-- A diner who booked a table in their own WhatsApp conversation got the
-- confirmation twice: once from private.notify_reservation (in their profile's
-- language) and once as the agent's answer (in the conversation's). The
-- function now tells the diner only when staff book for them, in the diner's
-- own language (it used the staff member's); the venue is still told of
-- every booking.
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
