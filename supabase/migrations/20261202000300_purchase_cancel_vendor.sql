-- Leaving buy & sell after choosing a vendor (issue 24, item 4): a buyer who
-- cancels the MoMo payment to the vendor they chose withdraws the request, and
-- that vendor, who had been given the buyer's number and was waiting to be
-- paid, is told the purchase is off (not merely "no need to answer"). Other
-- vendors asked are told the request was withdrawn, as before. Same caller,
-- same rows, same idempotency keys: repeating it tells nobody twice.
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
              when 'en' then 'EasyMO: the customer who chose you cancelled their purchase of '
                || left(v_inquiry.item, 120)
                || ' and their MoMo payment to you. No need to keep it for them. Thank you!'
              when 'fr' then 'EasyMO : le client qui vous avait choisi a annulé son achat de '
                || left(v_inquiry.item, 120)
                || ' et son paiement MoMo. Inutile de le lui garder. Merci !'
              else 'EasyMO: umukiriya wari wabahisemo yahagaritse kugura '
                || left(v_inquiry.item, 120)
                || ' n''ubwishyu bwe bwa MoMo. Ntimukeneye kukimubikira. Murakoze!'
            end
          else
            case m.vendor_language
              when 'en' then 'EasyMO: the customer withdrew their request for '
                || left(v_inquiry.item, 120) || '. No need to answer it. Thank you!'
              when 'fr' then 'EasyMO : le client a retiré sa demande de '
                || left(v_inquiry.item, 120) || '. Inutile d''y répondre. Merci !'
              else 'EasyMO: umukiriya yahagaritse icyifuzo cye cya ' || left(v_inquiry.item, 120)
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
revoke all on function private.cancel_my_inquiry(uuid) from public;
grant execute on function private.cancel_my_inquiry(uuid) to authenticated, service_role;
