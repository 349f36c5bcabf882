-- A tenant's own MoMo merchant account: where a charge that names no order,
-- ride or payee is paid (seed 000's `momo_charge({amount, currency, phone,
-- memo, idempotency_key})`). Either a MoMoPay merchant code, dialled
-- `*182*8*1*<code>*<amount>#`, or an MTN/Airtel number, dialled
-- `*182*1*1*<07…>*<amount>#`; never both. Null: the tenant takes no
-- payments of its own, and such a charge is refused saying so.
--
-- The same rules as `payments.payee_merchant_code` / `payee_phone`, narrowed
-- to the networks that carry Mobile Money (072/073 Airtel, 078/079 MTN), so a
-- stored account always makes a valid charge. The payments pack checks them
-- again at start and names the tenant and the column when one does not hold.
-- Members read their org's row (orgs_select); only the service writes it.
alter table public.orgs
  add column momo_merchant_code text
    constraint orgs_momo_merchant_code_check check (momo_merchant_code ~ '^[0-9]{4,10}$'),
  add column momo_merchant_phone text
    constraint orgs_momo_merchant_phone_check check (momo_merchant_phone ~ '^\+2507[2389][0-9]{7}$'),
  add constraint orgs_one_momo_merchant_check
    check (momo_merchant_code is null or momo_merchant_phone is null);

comment on column public.orgs.momo_merchant_code is
  'MoMoPay merchant code (4-10 digits) paid by charges that name no order, ride or payee.';
comment on column public.orgs.momo_merchant_phone is
  'E.164 MTN/Airtel number (+2507[2389]...) paid by such charges when there is no merchant code.';
