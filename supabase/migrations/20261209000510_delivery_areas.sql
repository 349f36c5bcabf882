-- Delivery as tenant data: where each place delivers and for how much, or that
-- it does not deliver and its customers pick up. "Do you deliver to Remera?",
-- « vous livrez à Kicukiro ? », "mukora delivery i Remera?" are answered from
-- these rows in the customer's language; a place with neither areas nor
-- `pickup_only` has no delivery data, and the customer is told so and offered
-- a person.
--
-- Conventions as in 20261123000600 (venue_hours): RLS, members of the org read
-- (fenced by the membership view, 20261124001500),
-- who may stock the place writes, a same-org composite foreign key, an index on
-- every foreign key.

-- The place takes no deliveries: its customers collect at its address.
alter table public.businesses add column pickup_only boolean not null default false;

create table public.delivery_areas (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null,
  -- As people name it: a district, sector or neighbourhood ("Remera", "Nyamata").
  area text not null check (length(area) between 2 and 80),
  -- Whole units of the org's currency; 0 = free delivery.
  fee int not null check (fee between 0 and 1000000),
  created_at timestamptz not null default now(),
  foreign key (org_id, business_id) references public.businesses (org_id, id) on delete cascade
);
create unique index delivery_areas_business_area_key
  on public.delivery_areas (business_id, lower(area));
create index delivery_areas_org_business_idx on public.delivery_areas (org_id, business_id);

comment on table public.delivery_areas is
  'Where a place delivers and its fee (org currency, 0 = free); none and not pickup_only: unknown.';

alter table public.delivery_areas enable row level security;

create policy delivery_areas_select on public.delivery_areas for select to authenticated
  using (org_id in (select org_id from private.my_memberships));
create policy delivery_areas_insert on public.delivery_areas for insert to authenticated
  with check (private.may_stock_business(org_id, business_id));
create policy delivery_areas_update on public.delivery_areas for update to authenticated
  using (private.may_stock_business(org_id, business_id))
  with check (private.may_stock_business(org_id, business_id));
create policy delivery_areas_delete on public.delivery_areas for delete to authenticated
  using (private.may_stock_business(org_id, business_id));

