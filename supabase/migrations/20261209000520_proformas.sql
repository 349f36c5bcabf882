-- Proformas: a priced quotation a customer asked for ("a proforma for 200 reams of A4"),
-- issued by `proforma_issue` from the stock's own prices and kept as issued: the number, whom
-- it is made out to, the lines, the total and how long the prices hold. The PDF is rendered from
-- this row (the same data gives the same bytes), so the row is the record.
--
-- A proforma's number (`PF-2026-000123`) is the database's, per org and year (its `issued_at` in
-- Kigali, so an injected clock decides the year), as legal cases' references are
-- (20261129000200): the counter row is taken with `insert … on conflict do update … returning`,
-- which locks it, so two proformas issued at once never share a number.

create table private.proforma_counters (
  org_id uuid not null references public.orgs (id) on delete cascade,
  year int not null check (year between 2000 and 9999),
  last_value int not null check (last_value >= 1),
  primary key (org_id, year)
);
revoke all on private.proforma_counters from public;

create table public.proformas (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null,
  customer_id uuid not null references public.profiles (id) on delete restrict,
  -- Set by proformas_number, never by the writer.
  number text not null check (number ~ '^PF-[0-9]{4}-[0-9]{6,}$'),
  customer_name text not null check (length(customer_name) between 2 and 120),
  language text not null default 'en' check (language in ('en', 'rw', 'fr')),
  -- [{sku, name, qty, unit_price}], priced from the stock when issued.
  lines jsonb not null check (jsonb_typeof(lines) = 'array' and jsonb_array_length(lines) between 1 and 50),
  total numeric(14, 2) not null check (total >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  issued_at timestamptz not null default now(),
  valid_until timestamptz not null,
  created_at timestamptz not null default now(),
  check (valid_until > issued_at),
  unique (org_id, number),
  unique (org_id, id),
  foreign key (org_id, business_id) references public.businesses (org_id, id) on delete cascade
);
create index proformas_customer_id_idx on public.proformas (customer_id);
create index proformas_org_customer_idx on public.proformas (org_id, customer_id);
create index proformas_org_business_idx on public.proformas (org_id, business_id);
alter table public.proformas
  add constraint proformas_customer_member_fkey
  foreign key (org_id, customer_id) references public.org_members (org_id, user_id);

comment on table public.proformas is
  'Priced quotations issued to customers (proforma_issue): number per org and year, lines, total, validity.';

create function private.assign_proforma_number() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_year int := extract(year from (new.issued_at at time zone 'Africa/Kigali'))::int;
  v_next int;
begin
  insert into private.proforma_counters as c (org_id, year, last_value)
  values (new.org_id, v_year, 1)
  on conflict (org_id, year) do update set last_value = c.last_value + 1
  returning c.last_value into v_next;
  new.number := 'PF-' || v_year || '-' || case
    when v_next < 1000000 then lpad(v_next::text, 6, '0') else v_next::text end;
  return new;
end;
$$;
-- A trigger function needs no grant to fire; nobody calls it directly.
revoke all on function private.assign_proforma_number() from public;

create trigger proformas_number before insert on public.proformas
  for each row execute function private.assign_proforma_number();

-- What was issued stays as issued: no update or delete policy, for anyone.
alter table public.proformas enable row level security;

-- A customer sees their own proformas; staff see their org's.
create policy proformas_select on public.proformas for select to authenticated
  using (
    customer_id = (select auth.uid())
    or org_id in (select v.org_id from private.my_staff_memberships v)
  );
create policy proformas_insert on public.proformas for insert to authenticated
  with check (
    customer_id = (select auth.uid())
    and org_id in (select v.org_id from private.my_memberships v)
  );
