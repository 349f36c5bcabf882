-- Leaving a flow ends what it started (issue 24, item 4) for flows whose
-- charge pays no order and no ride: an insurance premium, a legal
-- consultation fee, a payment to a number. A customer who leaves with such a
-- charge waiting may cancel it: the charge ends as failed with the reason
-- CANCELLED, so no one shows it as waiting (item 3) and no SMS or callback can
-- settle it. Money that still arrives for it is evidence on an ended charge:
-- recorded, and a payment ticket asks staff to refund it (settlement.ts), the
-- payer told so.

alter table public.payments drop constraint payments_failure_reason_check;
alter table public.payments add constraint payments_failure_reason_check
  check (failure_reason in ('PAYMENT_FAILED', 'INSUFFICIENT_FUNDS', 'EXPIRED', 'CANCELLED'));

-- Cancels the caller's own waiting charge (they made it or are asked to pay
-- it) that pays no order and no ride: those end with their order or ride
-- (order_cancel, ride_cancel). Returns the charge as it now is; `already`
-- when it had ended before (cancelled, paid, failed or expired), so a second
-- cancel changes nothing. Nothing when it is not the caller's.
create function private.cancel_my_charge(p_momo_ref text)
returns table (momo_ref text, amount bigint, payee text, status text, failure_reason text,
  already boolean)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_charge record;
begin
  select p.id, p.momo_ref, p.amount, p.status, p.failure_reason, p.order_id, p.ride_request_id,
         coalesce(p.metadata ->> 'payee_name', p.payee_phone, p.payee_merchant_code) as payee
    into v_charge
  from public.payments p
  where p.momo_ref = p_momo_ref and v_uid is not null
    and (p.payer_id = v_uid or p.created_by = v_uid)
  for update of p;
  if not found then
    return;
  end if;
  if v_charge.order_id is not null or v_charge.ride_request_id is not null then
    raise exception 'payment % pays an order or a ride: cancel that instead', v_charge.momo_ref
      using errcode = 'P0409';
  end if;
  if v_charge.status <> 'pending' then
    return query select v_charge.momo_ref, v_charge.amount, v_charge.payee, v_charge.status,
      v_charge.failure_reason, true;
    return;
  end if;
  update public.payments set status = 'failed', failure_reason = 'CANCELLED'
  where id = v_charge.id;
  return query select v_charge.momo_ref, v_charge.amount, v_charge.payee, 'failed'::text,
    'CANCELLED'::text, false;
end
$$;
revoke all on function private.cancel_my_charge(text) from public;
grant execute on function private.cancel_my_charge(text) to authenticated, service_role;
