-- MoMo charges and their settlement (issue 13, item 3): who a venue is paid
-- through, what a charge remembers of its request, and payment tickets in the
-- Admin Inbox. The tables and the state machine are in
-- 20261123000600_commerce_mobility_payments.sql; settlement itself is written
-- by the payments tools as the service (callbacks, forwarded SMS, a vendor's
-- `PAID <ref>`, the expiry sweep) or by staff through
-- private.confirm_payment_manually.

-- How a venue is paid: a MoMoPay merchant code, else a MoMo phone. A charge
-- for an order pays the venue through one of them (momo_charge picks the
-- code first).
alter table public.businesses
  add column momo_merchant_code text check (momo_merchant_code ~ '^[0-9]{4,10}$'),
  add column momo_phone text check (momo_phone ~ '^\+2507[0-9]{8}$');

-- What the charge was asked with beyond its columns (the caller's metadata)
-- and the payer's language, so every later message (settled, failed,
-- expired) speaks it. Both are fixed at creation: guard_payment_change
-- refuses any later change to them.
alter table public.payments
  add column metadata jsonb not null default '{}'::jsonb
    check (jsonb_typeof(metadata) = 'object' and octet_length(metadata::text) <= 4096),
  add column language text not null default 'en' check (language in ('en', 'rw', 'fr'));

-- Recent charges of a payer (the Payments agent's "my payment didn't go
-- through") and open charges due for the sweep.
create index payments_payer_phone_idx on public.payments (payer_phone, created_at);
create index payments_pending_expiry_idx on public.payments (expires_at) where status = 'pending';

-- A payment ticket: the Admin Inbox offers "Confirm payment" on it. Same-org
-- composite key, as every tenant reference.
alter table public.staff_tickets add column payment_id uuid;
alter table public.staff_tickets
  add constraint staff_tickets_payment_same_org_fkey
  foreign key (org_id, payment_id) references public.payments (org_id, id)
  on delete set null (payment_id);
create index staff_tickets_org_payment_idx on public.staff_tickets (org_id, payment_id);

-- Whom a charge for an order or a ride pays, for a caller who may point at
-- it (their own order or ride, or staff of its org): the venue's MoMo
-- merchant code or phone, or the matched driver's phone. Security definer
-- because a rider may not read drivers' rows; it reveals only the payee of
-- the caller's own order or ride.
create function private.charge_payee(p_org_id uuid, p_order_id uuid, p_ride_id uuid)
returns table (
  label text, payee_name text, merchant_code text, phone text, state text,
  payment_status text, total bigint
)
language sql stable security definer set search_path = ''
as $$
  select o.order_no, b.name, b.momo_merchant_code, b.momo_phone, o.status, o.payment_status, o.total
  from public.orders o
  join public.businesses b on b.id = o.business_id and b.org_id = o.org_id
  where p_order_id is not null and o.id = p_order_id and o.org_id = p_org_id
    and private.may_reference_order(p_org_id, p_order_id)
  union all
  select null, d.display_name, null, d.phone, r.status, r.payment_status, r.estimate_rwf::bigint
  from public.ride_requests r
  left join public.drivers d on d.id = r.matched_driver_id and d.org_id = r.org_id
  where p_ride_id is not null and r.id = p_ride_id and r.org_id = p_org_id
    and private.may_reference_ride(p_org_id, p_ride_id)
$$;
revoke all on function private.charge_payee(uuid, uuid, uuid) from public;
grant execute on function private.charge_payee(uuid, uuid, uuid) to authenticated, service_role;
