-- Insurance quotes (issue 14, item 4): the insurers a tenant sells for, their
-- versioned tariffs, and the quotes price_insurance stores with the tariff
-- version each was priced on.
--
-- Conventions as in 20261123000600: RLS on every table, `(select auth.uid())`
-- in policies, functions with `set search_path = ''`, composite same-org
-- foreign keys `(org_id, ref)`, an index on every foreign key. Money is whole
-- RWF (int).
--
-- A tariff that has taken effect is history, like the mobility tariffs: it is
-- never changed or deleted (P0409 → CONFLICT); a new version takes over. The
-- price of a quote is computed by one function, private.insurance_price,
-- which the tool calls and a trigger re-runs on every stored quote, so a
-- quote written around the tool cannot carry a price its tariff does not
-- give (23514 → VALIDATION_ERROR).

-- Insurers ------------------------------------------------------------------------

create table public.insurers (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  name text not null check (length(name) between 1 and 120),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  unique (org_id, name),
  unique (org_id, id)
);

-- Tariffs -------------------------------------------------------------------------

-- Fee items: [{"code": "admin_fee", "amount_rwf": 2000, "vat": true,
--              "label": {"en": "...", "fr": "...", "rw": "..."}}, ...]
create function private.valid_fee_items(p_fees jsonb) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select jsonb_typeof(p_fees) = 'array' and jsonb_array_length(p_fees) <= 8
    and not exists (
      select 1 from jsonb_array_elements(p_fees) f
      where not (
        jsonb_typeof(f) = 'object'
        and coalesce(f ->> 'code', '') ~ '^[a-z][a-z0-9_]{1,39}$'
        and jsonb_typeof(f -> 'amount_rwf') = 'number'
        and (f ->> 'amount_rwf') ~ '^[0-9]{1,9}$'
        and jsonb_typeof(f -> 'vat') = 'boolean'
        and jsonb_typeof(f -> 'label') = 'object'
        and length(coalesce(f -> 'label' ->> 'en', '')) between 1 and 80
        and length(coalesce(f -> 'label' ->> 'fr', '')) between 1 and 80
        and length(coalesce(f -> 'label' ->> 'rw', '')) between 1 and 80
      )
    )
$$;
revoke all on function private.valid_fee_items(jsonb) from public;
grant execute on function private.valid_fee_items(jsonb) to authenticated, service_role;

create table public.insurance_tariffs (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  insurer_id uuid not null references public.insurers (id) on delete restrict,
  product text not null check (product in ('motor', 'travel', 'health')),
  -- motor: car, moto, minibus, truck; travel: regional, worldwide, schengen;
  -- health: individual, family (the tool's schema lists them).
  category text not null check (category ~ '^[a-z][a-z_]{1,39}$'),
  usage text not null default 'private' check (usage in ('private', 'commercial')),
  -- Motor: third_party or comprehensive; travel and health: standard.
  cover text not null check (cover in ('third_party', 'comprehensive', 'standard')),
  version int not null check (version >= 1),
  -- 'fixed': base_rate_rwf per period_days; 'declared_value': rate_bp basis
  -- points of the declared value per period_days. Prorated by the days asked.
  rate_basis text not null check (rate_basis in ('fixed', 'declared_value')),
  base_rate_rwf int not null default 0 check (base_rate_rwf >= 0),
  rate_bp int not null default 0 check (rate_bp between 0 and 10000),
  period_days int not null check (period_days between 1 and 366),
  min_base_rwf int not null default 0 check (min_base_rwf >= 0),
  -- Fixed per policy, never prorated.
  fees jsonb not null default '[]'::jsonb check (private.valid_fee_items(fees)),
  -- VAT in basis points (1800 = 18 %) of base + the fees marked vat.
  vat_rate_bp int not null default 1800 check (vat_rate_bp between 0 and 10000),
  -- Underwriting rules; null = no limit.
  min_vehicle_year int check (min_vehicle_year between 1900 and 2200),
  max_vehicle_age_years int check (max_vehicle_age_years between 0 and 100),
  min_driver_age int check (min_driver_age between 0 and 120),
  max_driver_age int check (max_driver_age between 0 and 120),
  min_days int not null default 1 check (min_days >= 1),
  max_days int not null default 366 check (max_days >= min_days),
  min_declared_value_rwf int check (min_declared_value_rwf >= 0),
  max_declared_value_rwf int check (max_declared_value_rwf >= 0),
  -- How long a quote on this tariff holds (never past effective_to).
  quote_valid_days int not null default 7 check (quote_valid_days between 1 and 90),
  effective_from timestamptz not null,
  effective_to timestamptz,
  created_at timestamptz not null default now(),
  unique (org_id, insurer_id, product, category, usage, cover, version),
  unique (org_id, insurer_id, product, category, usage, cover, effective_from),
  unique (org_id, id),
  unique (id, version),
  check (effective_to is null or effective_to > effective_from),
  check ((rate_basis = 'declared_value') = (rate_bp > 0)),
  check ((product = 'motor') = (cover <> 'standard')),
  check (product = 'motor' or usage = 'private')
);
create index insurance_tariffs_insurer_id_idx on public.insurance_tariffs (insurer_id);
create index insurance_tariffs_org_insurer_idx on public.insurance_tariffs (org_id, insurer_id);
create index insurance_tariffs_line_idx
  on public.insurance_tariffs (org_id, product, category, usage, cover, effective_from);
alter table public.insurance_tariffs
  add constraint insurance_tariffs_insurer_same_org_fkey
  foreign key (org_id, insurer_id) references public.insurers (org_id, id) on delete restrict;

-- Effective tariffs are history; the only change allowed is closing one
-- (effective_to from open to a time not in the past) when its next version
-- takes over.
create function private.guard_insurance_tariff_change() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if old.effective_from > now() then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  if tg_op = 'UPDATE'
     and old.effective_to is null and new.effective_to is not null and new.effective_to >= now()
     and (to_jsonb(new) - 'effective_to') = (to_jsonb(old) - 'effective_to') then
    return new;
  end if;
  raise exception 'insurance tariff %/%/% v% is in effect since %: add a new version instead',
    old.product, old.category, old.cover, old.version, old.effective_from using errcode = 'P0409';
end
$$;
create trigger insurance_tariffs_guard_change before update or delete on public.insurance_tariffs
  for each row execute function private.guard_insurance_tariff_change();

-- The price of a tariff for a number of days (and a declared value when the
-- tariff is a rate of it), as jsonb {base, fees, tax, premium, vat_base,
-- vat_rate_bp, fee_items}; null when the inputs cannot be priced.
--   base  = max(min_base, round(rate × days / period_days)), where rate is
--           base_rate_rwf, or declared value × rate_bp / 10000
--   fees  = the sum of the fee items (per policy, not prorated)
--   tax   = round((base + fees marked vat) × vat_rate_bp / 10000)
--   premium = base + fees + tax, exactly
-- round() on numeric takes halves away from zero: amounts are positive, so
-- half a franc rounds up.
create function private.insurance_price(p_tariff_id uuid, p_days int, p_declared_value int)
returns jsonb
language plpgsql stable set search_path = ''
as $$
declare
  t public.insurance_tariffs;
  v_base bigint;
  v_fees bigint := 0;
  v_taxable bigint;
  v_tax bigint;
  v_items jsonb := '[]'::jsonb;
  f jsonb;
begin
  select * into t from public.insurance_tariffs where id = p_tariff_id;
  if not found or p_days is null or p_days < 1 then
    return null;
  end if;
  if t.rate_basis = 'declared_value' then
    if p_declared_value is null or p_declared_value < 0 then
      return null;
    end if;
    v_base := round(p_declared_value::numeric * t.rate_bp * p_days / (10000::numeric * t.period_days));
  else
    v_base := round(t.base_rate_rwf::numeric * p_days / t.period_days);
  end if;
  v_base := greatest(v_base, t.min_base_rwf);
  v_taxable := v_base;
  for f in select value from jsonb_array_elements(t.fees) loop
    v_fees := v_fees + (f ->> 'amount_rwf')::bigint;
    if (f ->> 'vat')::boolean then
      v_taxable := v_taxable + (f ->> 'amount_rwf')::bigint;
    end if;
    v_items := v_items || jsonb_build_array(jsonb_build_object(
      'code', f ->> 'code', 'amount', (f ->> 'amount_rwf')::bigint,
      'vat', (f ->> 'vat')::boolean, 'label', f -> 'label'));
  end loop;
  v_tax := round(v_taxable::numeric * t.vat_rate_bp / 10000);
  return jsonb_build_object(
    'base', v_base, 'fees', v_fees, 'tax', v_tax, 'premium', v_base + v_fees + v_tax,
    'vat_base', v_taxable, 'vat_rate_bp', t.vat_rate_bp, 'fee_items', v_items);
end
$$;
revoke all on function private.insurance_price(uuid, int, int) from public;
grant execute on function private.insurance_price(uuid, int, int) to authenticated, service_role;

-- Quotes --------------------------------------------------------------------------

create table public.insurance_quotes (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  customer_id uuid not null references public.profiles (id) on delete cascade,
  -- One price_insurance call: its quotes, one per insurer.
  request_id uuid not null,
  insurer_id uuid not null references public.insurers (id) on delete restrict,
  tariff_id uuid not null,
  tariff_version int not null,
  product text not null check (product in ('motor', 'travel', 'health')),
  category text not null,
  usage text not null,
  cover text not null,
  coverage_days int not null check (coverage_days between 1 and 3660),
  declared_value_rwf int check (declared_value_rwf >= 0),
  -- vehicle, driver, destination as asked.
  inputs jsonb not null default '{}'::jsonb check (jsonb_typeof(inputs) = 'object'),
  base_rwf int not null check (base_rwf >= 0),
  tax_rwf int not null check (tax_rwf >= 0),
  fees_rwf int not null check (fees_rwf >= 0),
  premium_rwf int not null check (premium_rwf >= 0),
  fee_items jsonb not null default '[]'::jsonb check (jsonb_typeof(fee_items) = 'array'),
  -- The instant the tariff was read at (the call's as_of).
  priced_at timestamptz not null,
  valid_until timestamptz not null,
  trace_id text check (length(trace_id) <= 200),
  created_at timestamptz not null default now(),
  unique (org_id, id),
  check (base_rwf + tax_rwf + fees_rwf = premium_rwf),
  check (valid_until > priced_at)
);
create index insurance_quotes_org_created_idx on public.insurance_quotes (org_id, created_at);
create index insurance_quotes_customer_id_idx on public.insurance_quotes (customer_id);
create index insurance_quotes_request_id_idx on public.insurance_quotes (request_id);
create index insurance_quotes_insurer_id_idx on public.insurance_quotes (insurer_id);
create index insurance_quotes_org_insurer_idx on public.insurance_quotes (org_id, insurer_id);
create index insurance_quotes_tariff_idx on public.insurance_quotes (tariff_id, tariff_version);
create index insurance_quotes_org_tariff_idx on public.insurance_quotes (org_id, tariff_id);
alter table public.insurance_quotes
  add constraint insurance_quotes_insurer_same_org_fkey
  foreign key (org_id, insurer_id) references public.insurers (org_id, id) on delete restrict,
  add constraint insurance_quotes_tariff_same_org_fkey
  foreign key (org_id, tariff_id) references public.insurance_tariffs (org_id, id) on delete restrict,
  add constraint insurance_quotes_tariff_version_fkey
  foreign key (tariff_id, tariff_version) references public.insurance_tariffs (id, version)
  on delete restrict;

-- A stored quote carries exactly what its tariff gives for its inputs, at an
-- instant the tariff was in effect.
create function private.check_insurance_quote() returns trigger
language plpgsql set search_path = ''
as $$
declare
  t public.insurance_tariffs;
  p jsonb;
begin
  select * into t from public.insurance_tariffs where id = new.tariff_id;
  if not found then
    raise exception 'unknown insurance tariff' using errcode = 'P0002';
  end if;
  if new.priced_at < t.effective_from or (t.effective_to is not null and new.priced_at >= t.effective_to)
     or (new.insurer_id, new.product, new.category, new.usage, new.cover)
        is distinct from (t.insurer_id, t.product, t.category, t.usage, t.cover) then
    raise exception 'quote does not match tariff % v%', t.id, t.version using errcode = '23514';
  end if;
  p := private.insurance_price(new.tariff_id, new.coverage_days, new.declared_value_rwf);
  if p is null
     or (p ->> 'base')::int <> new.base_rwf or (p ->> 'tax')::int <> new.tax_rwf
     or (p ->> 'fees')::int <> new.fees_rwf or (p ->> 'premium')::int <> new.premium_rwf then
    raise exception 'quote price differs from tariff % v%', t.id, t.version using errcode = '23514';
  end if;
  new.fee_items := p -> 'fee_items';
  return new;
end
$$;
create trigger insurance_quotes_check_price before insert on public.insurance_quotes
  for each row execute function private.check_insurance_quote();

-- Quotes are records: written once, never changed by callers.
revoke update, delete on public.insurance_quotes from anon, authenticated;

-- Row level security ------------------------------------------------------------------

alter table public.insurers enable row level security;
alter table public.insurance_tariffs enable row level security;
alter table public.insurance_quotes enable row level security;

create policy insurers_select on public.insurers for select to authenticated
  using (org_id in (select private.my_org_ids()));
create policy insurers_insert on public.insurers for insert to authenticated
  with check (org_id in (select private.my_staff_org_ids()));
create policy insurers_update on public.insurers for update to authenticated
  using (org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_staff_org_ids()));

create policy insurance_tariffs_select on public.insurance_tariffs for select to authenticated
  using (org_id in (select private.my_org_ids()));
create policy insurance_tariffs_insert on public.insurance_tariffs for insert to authenticated
  with check (org_id in (select private.my_staff_org_ids()));
create policy insurance_tariffs_update on public.insurance_tariffs for update to authenticated
  using (org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_staff_org_ids()));
create policy insurance_tariffs_delete on public.insurance_tariffs for delete to authenticated
  using (org_id in (select private.my_staff_org_ids()));

-- A customer sees their own quotes; staff see their org's.
create policy insurance_quotes_select on public.insurance_quotes for select to authenticated
  using (customer_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy insurance_quotes_insert on public.insurance_quotes for insert to authenticated
  with check (customer_id = (select auth.uid()) and org_id in (select private.my_org_ids()));
