-- Property rentals (issue 27, item 1): listings, their exact addresses, the
-- landlord's viewing hours and the viewings renters book.
--
-- The rule that matters more than the happy path: a listing's exact address
-- and its contact are revealed only to the listing's own org staff, its
-- landlord (or agent), and a person holding a booked, not cancelled viewing of
-- that listing. They live in their own table, property_listing_addresses,
-- whose only read policy says exactly that: no tool, search, guessed id or
-- direct SQL as `authenticated` reads them any other way. search_supabase
-- never lists the table (the pack declares only the listings).
--
-- No double booking: a listing's viewing at one time is unique among booked
-- viewings (a partial unique index), so two renters booking the same slot at
-- once cannot both succeed, whatever the application does (23505 →
-- CONFLICT). A landlord or agent is not at two viewings at once either, across
-- their listings (the second partial unique index).
--
-- Conventions as in 20261123000600: RLS on every table, `(select auth.uid())`
-- in policies, the tenant fences read private.my_memberships /
-- my_staff_memberships (20261124001500), composite same-org foreign keys, an
-- index on every foreign key, people as org members (20261126000210). Money
-- is whole RWF (int).

-- Listings ------------------------------------------------------------------------

-- At most ten photos, each a Storage object `storage://<bucket>/<path>`.
create function private.valid_storage_refs(p_refs text[]) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(cardinality(p_refs), 0) <= 10
    and not exists (
      select 1 from unnest(p_refs) r
      where r is null or r !~ '^storage://[a-z0-9_-]+/[^/]' or length(r) > 400 or r ~ '\.\.'
    )
$$;
revoke all on function private.valid_storage_refs(text[]) from public;
grant execute on function private.valid_storage_refs(text[]) to authenticated, service_role;

create table public.property_listings (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- The landlord, or the agent who lists for them: who hosts viewings.
  landlord_id uuid not null references public.profiles (id) on delete cascade,
  title text not null check (length(title) between 1 and 120),
  description text check (length(description) <= 1000),
  -- Monthly rent, whole RWF.
  price int not null check (price between 1 and 100000000),
  bedrooms int not null check (bedrooms between 0 and 50),
  -- Kigali's sector and cell (e.g. Kimironko / Bibare): the area renters search by.
  sector text not null check (length(sector) between 1 and 60),
  cell text check (length(cell) between 1 and 60),
  -- A coarse point (3 decimals, ~100 m): where the area is, never the door.
  lat numeric(7, 3) check (lat between -90 and 90),
  lng numeric(7, 3) check (lng between -180 and 180),
  pets_allowed boolean not null default false,
  parking boolean not null default false,
  available_from date not null,
  status text not null default 'pending'
    check (status in ('draft', 'pending', 'published', 'rejected')),
  -- Storage objects, `storage://<bucket>/<path>`; signed for whoever reads the listing.
  photos text[] not null default '{}' check (private.valid_storage_refs(photos)),
  -- Length of one viewing; the landlord's hours are cut into slots of it.
  viewing_minutes int not null default 30 check (viewing_minutes between 15 and 240),
  reviewed_by uuid references public.profiles (id) on delete set null,
  reviewed_at timestamptz,
  reject_reason text check (length(reject_reason) <= 300),
  -- The review the landlord was last told of (the sweep tells them once per decision).
  landlord_told text check (landlord_told in ('published', 'rejected')),
  trace_id text,
  created_at timestamptz not null default now(),
  unique (org_id, id),
  check ((status = 'rejected') = (reject_reason is not null))
);
create index property_listings_search_idx
  on public.property_listings (org_id, status, price);
create index property_listings_org_landlord_idx on public.property_listings (org_id, landlord_id);
create index property_listings_landlord_id_idx on public.property_listings (landlord_id);
create index property_listings_org_reviewed_by_idx on public.property_listings (org_id, reviewed_by);
create index property_listings_reviewed_by_idx on public.property_listings (reviewed_by);
create index property_listings_untold_idx on public.property_listings (org_id)
  where status in ('published', 'rejected') and landlord_told is distinct from status;
alter table public.property_listings
  add constraint property_listings_landlord_id_member_fkey
  foreign key (org_id, landlord_id) references public.org_members (org_id, user_id),
  add constraint property_listings_reviewed_by_member_fkey
  foreign key (org_id, reviewed_by) references public.org_members (org_id, user_id)
  on delete set null (reviewed_by);

-- The exact address and contact: the secret half of a listing -----------------------

create table public.property_listing_addresses (
  listing_id uuid primary key references public.property_listings (id) on delete cascade,
  org_id uuid not null references public.orgs (id) on delete cascade,
  address text not null check (length(address) between 3 and 300),
  contact_name text not null check (length(contact_name) between 1 and 120),
  contact_phone text not null check (contact_phone ~ '^\+[1-9][0-9]{7,14}$'),
  created_at timestamptz not null default now()
);
create index property_listing_addresses_org_listing_idx
  on public.property_listing_addresses (org_id, listing_id);
alter table public.property_listing_addresses
  add constraint property_listing_addresses_listing_same_org_fkey
  foreign key (org_id, listing_id) references public.property_listings (org_id, id)
  on delete cascade;

-- Viewing hours (Kigali time, ISO weekday 1 = Monday) -------------------------------

create table public.property_viewing_hours (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  listing_id uuid not null references public.property_listings (id) on delete cascade,
  weekday int not null check (weekday between 1 and 7),
  opens time not null,
  closes time not null,
  unique (listing_id, weekday, opens),
  check (closes > opens)
);
create index property_viewing_hours_org_listing_idx
  on public.property_viewing_hours (org_id, listing_id);
alter table public.property_viewing_hours
  add constraint property_viewing_hours_listing_same_org_fkey
  foreign key (org_id, listing_id) references public.property_listings (org_id, id)
  on delete cascade;

-- Viewings ---------------------------------------------------------------------------

create table public.property_viewings (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  listing_id uuid not null references public.property_listings (id) on delete cascade,
  -- Copied from the listing on insert (trigger): the host is one person at one time.
  host_id uuid not null references public.profiles (id) on delete cascade,
  renter_id uuid not null references public.profiles (id) on delete cascade,
  name text not null check (length(name) between 1 and 120),
  phone text not null check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  notes text check (length(notes) <= 500),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  status text not null default 'booked' check (status in ('booked', 'cancelled')),
  cancelled_by text check (cancelled_by in ('renter', 'host', 'staff')),
  -- Who made the latest change (booked, moved, cancelled), and the start it moved from.
  changed_by text not null default 'renter' check (changed_by in ('renter', 'host', 'staff')),
  previous_starts_at timestamptz,
  -- Each change bumps `version`; the sweep (service) tells the other side and
  -- catches `told_version` up: a notice leaves once, with the change or not at all.
  version int not null default 1,
  told_version int not null default 0,
  -- When the reminder before the viewing went out (once per time it is at).
  reminded_at timestamptz,
  -- When the renter was sent the confirmation PDF (once per time it is at).
  confirmation_sent_at timestamptz,
  trace_id text,
  created_at timestamptz not null default now(),
  unique (org_id, id),
  check (ends_at > starts_at),
  check ((status = 'cancelled') = (cancelled_by is not null))
);
-- The rule of no double booking, held by the database under any concurrency.
create unique index property_viewings_one_per_slot
  on public.property_viewings (listing_id, starts_at) where status = 'booked';
create unique index property_viewings_host_one_at_a_time
  on public.property_viewings (host_id, starts_at) where status = 'booked';
create index property_viewings_listing_id_idx on public.property_viewings (listing_id);
create index property_viewings_org_listing_idx on public.property_viewings (org_id, listing_id);
create index property_viewings_org_renter_idx on public.property_viewings (org_id, renter_id);
create index property_viewings_renter_id_idx on public.property_viewings (renter_id);
create index property_viewings_org_host_idx on public.property_viewings (org_id, host_id);
create index property_viewings_host_id_idx on public.property_viewings (host_id);
create index property_viewings_due_idx on public.property_viewings (org_id, starts_at)
  where status = 'booked' and reminded_at is null;
create index property_viewings_untold_idx on public.property_viewings (org_id)
  where told_version < version;
alter table public.property_viewings
  add constraint property_viewings_listing_same_org_fkey
  foreign key (org_id, listing_id) references public.property_listings (org_id, id)
  on delete cascade,
  add constraint property_viewings_renter_id_member_fkey
  foreign key (org_id, renter_id) references public.org_members (org_id, user_id),
  add constraint property_viewings_host_id_member_fkey
  foreign key (org_id, host_id) references public.org_members (org_id, user_id);

-- The host is the listing's landlord, whatever the writer says; the listing
-- is read past RLS (a renter cannot see another's rows, but the host column
-- is the listing's own).
create function private.property_viewing_host() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  select l.landlord_id into new.host_id
  from public.property_listings l where l.id = new.listing_id;
  return new;
end
$$;
revoke all on function private.property_viewing_host() from public;
create trigger property_viewings_host before insert or update of listing_id
  on public.property_viewings for each row execute function private.property_viewing_host();

-- Row-level security -------------------------------------------------------------------

alter table public.property_listings enable row level security;
alter table public.property_listing_addresses enable row level security;
alter table public.property_viewing_hours enable row level security;
alter table public.property_viewings enable row level security;

-- Members of the org see published listings; a landlord their own; staff all of the org's.
create policy property_listings_select on public.property_listings for select to authenticated
  using (
    (status = 'published' and org_id in (select org_id from private.my_memberships))
    or landlord_id = (select auth.uid())
    or org_id in (select org_id from private.my_staff_memberships)
  );
-- A member lists as themselves, for review: never published by their own hand.
create policy property_listings_insert on public.property_listings for insert to authenticated
  with check (
    (landlord_id = (select auth.uid()) and status in ('draft', 'pending')
      and reviewed_by is null and org_id in (select org_id from private.my_memberships))
    or org_id in (select org_id from private.my_staff_memberships)
  );
-- Staff change the org's listings; a landlord their own while draft or pending, never
-- publishing or reviewing them (one policy: permissive policies for one action are OR-ed anyway).
create policy property_listings_update on public.property_listings for update
  to authenticated
  using (
    org_id in (select org_id from private.my_staff_memberships)
    or (landlord_id = (select auth.uid()) and status in ('draft', 'pending'))
  )
  with check (
    org_id in (select org_id from private.my_staff_memberships)
    or (landlord_id = (select auth.uid()) and status in ('draft', 'pending')
      and reviewed_by is null)
  );

-- THE address rule: the org's staff, the listing's landlord, or a booked viewer.
create policy property_listing_addresses_select on public.property_listing_addresses
  for select to authenticated
  using (
    org_id in (select org_id from private.my_staff_memberships)
    or exists (
      select 1 from public.property_listings l
      where l.id = property_listing_addresses.listing_id
        and l.org_id = property_listing_addresses.org_id
        and l.landlord_id = (select auth.uid())
    )
    or exists (
      select 1 from public.property_viewings v
      where v.listing_id = property_listing_addresses.listing_id
        and v.org_id = property_listing_addresses.org_id
        and v.renter_id = (select auth.uid())
        and v.status = 'booked'
    )
  );
create policy property_listing_addresses_insert on public.property_listing_addresses
  for insert to authenticated
  with check (
    org_id in (select org_id from private.my_staff_memberships)
    or exists (
      select 1 from public.property_listings l
      where l.id = property_listing_addresses.listing_id
        and l.org_id = property_listing_addresses.org_id
        and l.landlord_id = (select auth.uid())
    )
  );
create policy property_listing_addresses_update on public.property_listing_addresses
  for update to authenticated
  using (org_id in (select org_id from private.my_staff_memberships))
  with check (org_id in (select org_id from private.my_staff_memberships));

-- Hours are as public as the listing; its landlord and staff keep them.
create policy property_viewing_hours_select on public.property_viewing_hours for select
  to authenticated
  using (exists (select 1 from public.property_listings l where l.id = listing_id));
-- Written per action, so reading has one policy (the select above).
create policy property_viewing_hours_insert on public.property_viewing_hours for insert
  to authenticated
  with check (
    org_id in (select org_id from private.my_staff_memberships)
    or exists (select 1 from public.property_listings l
               where l.id = listing_id and l.org_id = property_viewing_hours.org_id
                 and l.landlord_id = (select auth.uid()))
  );
create policy property_viewing_hours_update on public.property_viewing_hours for update
  to authenticated
  using (
    org_id in (select org_id from private.my_staff_memberships)
    or exists (select 1 from public.property_listings l
               where l.id = listing_id and l.landlord_id = (select auth.uid()))
  )
  with check (
    org_id in (select org_id from private.my_staff_memberships)
    or exists (select 1 from public.property_listings l
               where l.id = listing_id and l.org_id = property_viewing_hours.org_id
                 and l.landlord_id = (select auth.uid()))
  );
create policy property_viewing_hours_delete on public.property_viewing_hours for delete
  to authenticated
  using (
    org_id in (select org_id from private.my_staff_memberships)
    or exists (select 1 from public.property_listings l
               where l.id = listing_id and l.landlord_id = (select auth.uid()))
  );

-- A renter sees and changes their own viewings; the host and staff theirs.
create policy property_viewings_select on public.property_viewings for select to authenticated
  using (
    renter_id = (select auth.uid())
    or host_id = (select auth.uid())
    or org_id in (select org_id from private.my_staff_memberships)
  );
-- A renter books only a listing they can see published, as themselves.
create policy property_viewings_insert on public.property_viewings for insert to authenticated
  with check (
    renter_id = (select auth.uid()) and status = 'booked'
    and org_id in (select org_id from private.my_memberships)
    and exists (select 1 from public.property_listings l
                where l.id = listing_id and l.org_id = property_viewings.org_id
                  and l.status = 'published')
  );
create policy property_viewings_update on public.property_viewings for update to authenticated
  using (
    renter_id = (select auth.uid())
    or host_id = (select auth.uid())
    or org_id in (select org_id from private.my_staff_memberships)
  )
  with check (
    renter_id = (select auth.uid())
    or host_id = (select auth.uid())
    or org_id in (select org_id from private.my_staff_memberships)
  );

-- A viewing keeps its listing, renter and org: only its time, status and notes move.
create function private.guard_property_viewing_change() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.listing_id <> old.listing_id or new.renter_id <> old.renter_id
     or new.org_id <> old.org_id or new.host_id <> old.host_id then
    raise exception 'a viewing keeps its listing, renter and host' using errcode = '23514';
  end if;
  if old.status = 'cancelled' and new.status = 'booked' then
    raise exception 'a cancelled viewing stays cancelled: book again' using errcode = 'P0409';
  end if;
  -- Only the service's sweep marks notices and reminders as sent.
  if (select auth.role()) is distinct from 'service_role'
     and (new.told_version <> old.told_version or new.version <> old.version
          or (new.reminded_at is not null and new.reminded_at is distinct from old.reminded_at)
          or (new.confirmation_sent_at is not null
              and new.confirmation_sent_at is distinct from old.confirmation_sent_at)) then
    raise exception 'notices of a viewing are the service''s to mark' using errcode = '42501';
  end if;
  if new.status <> old.status or new.starts_at <> old.starts_at then
    new.version := old.version + 1;
    new.previous_starts_at := case when new.starts_at <> old.starts_at then old.starts_at end;
  end if;
  return new;
end
$$;
revoke all on function private.guard_property_viewing_change() from public;
create trigger property_viewings_guard_change before update on public.property_viewings
  for each row execute function private.guard_property_viewing_change();

-- Callable helpers ----------------------------------------------------------------------

-- The booked starts of a listing between two times: only the times, never who
-- booked, so a renter's tool can offer free slots though RLS hides other
-- renters' viewings. Only for a listing the caller may see (published in one
-- of their orgs, their own, or their org's as staff) or the service.
create function private.property_booked_starts(
  p_listing_id uuid, p_from timestamptz, p_to timestamptz
) returns setof timestamptz
language sql stable security definer set search_path = ''
as $$
  select v.starts_at
  from public.property_viewings v
  join public.property_listings l on l.id = v.listing_id
  where v.listing_id = p_listing_id and v.status = 'booked'
    and v.starts_at >= p_from and v.starts_at < p_to
    and ((select auth.role()) = 'service_role'
      or (l.status = 'published'
          and l.org_id in (select m.org_id from private.my_memberships m))
      or l.landlord_id = (select auth.uid())
      or l.org_id in (select m.org_id from private.my_staff_memberships m))
  order by v.starts_at
$$;
revoke all on function private.property_booked_starts(uuid, timestamptz, timestamptz) from public;
grant execute on function private.property_booked_starts(uuid, timestamptz, timestamptz)
  to authenticated, service_role;
