-- Commerce, rides and mobile money (issue 13): order numbers and the order
-- state machine, table reservations with capacity per slot, drivers with
-- coarse-only locations, versioned tariffs, ride inquiries to drivers, and
-- MoMo charges with their settlement evidence (callbacks, forwarded SMS,
-- staff or vendor confirmation).
--
-- Conventions as in 20261122000100 and 20261123000100: RLS on every table,
-- `(select auth.uid())` in policies, security-definer helpers with
-- `set search_path = ''`, composite same-org foreign keys `(org_id, ref)` on
-- every reference to a tenant-owned row, an index on every foreign key.
--
-- State errors raise their own SQLSTATEs so the pipeline can tell them apart
-- from constraint violations:
--   P0409  the row's state forbids this (invalid order or ride transition,
--          slot full, offer no longer open, tariff already effective,
--          payment already final)                          → CONFLICT
--   P0402  fulfilment before the payment is settled       → CONFLICT
-- Times of day are Africa/Kigali local time: UTC+2 all year (no DST), so the
-- local time is computed as `utc + 2 hours`, which needs no tz database.

-- Shared helpers ----------------------------------------------------------------

-- cube gives the geosearch points below their type and GiST index. A new
-- hosted Supabase project does not have it enabled, so this migration creates
-- it, in `extensions` like every extension here. Added after this migration
-- first landed: where it was already applied cube necessarily existed, so the
-- statement changes nothing there (`supabase db push` does not re-run or
-- compare applied migrations); on a fresh database it is what lets the rest of
-- this file apply.
create extension if not exists cube with schema extensions;

-- Kigali wall-clock time of an instant.
create function private.kigali_local(p_at timestamptz) returns timestamp
language sql immutable parallel safe set search_path = ''
as $$ select (p_at at time zone 'UTC') + interval '2 hours' $$;

-- The point earthdistance's ll_to_earth gives, computed with schema-qualified
-- cube functions so it also works under `search_path = ''` (ll_to_earth's
-- own SQL body resolves `cube`/`earth` through the search path).
create function private.earth_point(p_lat double precision, p_lng double precision)
returns extensions.cube
language sql immutable strict parallel safe set search_path = ''
as $$
  select extensions.cube(extensions.cube(extensions.cube(
    6378168 * cos(radians(p_lat)) * cos(radians(p_lng))),
    6378168 * cos(radians(p_lat)) * sin(radians(p_lng))),
    6378168 * sin(radians(p_lat)))
$$;

-- Great-circle metres between two earth points (earthdistance's sec_to_gc of
-- the chord, qualified like earth_point).
create function private.earth_metres(p_a extensions.cube, p_b extensions.cube)
returns double precision
language sql immutable strict parallel safe set search_path = ''
as $$
  select 2 * 6378168 * asin(least(1.0, extensions.cube_distance(p_a, p_b) / (2 * 6378168)))
$$;

revoke all on function private.kigali_local(timestamptz) from public;
revoke all on function private.earth_point(double precision, double precision) from public;
revoke all on function private.earth_metres(extensions.cube, extensions.cube) from public;
grant execute on function private.kigali_local(timestamptz) to authenticated, service_role;
grant execute on function private.earth_point(double precision, double precision)
  to authenticated, service_role;
grant execute on function private.earth_metres(extensions.cube, extensions.cube)
  to authenticated, service_role;

-- Venues are searched by distance too (maps_geosearch kind venue/pharmacy/shop):
-- `private.earth_point(b.lat, b.lng) operator(extensions.<@)
--  extensions.cube_enlarge(private.earth_point($lat, $lng), $radius_m, 3)` uses it.
-- (An index on ll_to_earth itself breaks wherever the search path lacks
-- `extensions`, e.g. Postgres 17's maintenance commands.)
create index businesses_earth_idx on public.businesses using gist (private.earth_point(lat, lng));

-- Orders: human numbers and the state machine ----------------------------------

-- One counter per org: the upsert locks the org's row, so concurrent orders get
-- consecutive numbers and never the same one.
create table private.order_counters (
  org_id uuid primary key references public.orgs (id) on delete cascade,
  prefix text not null default 'A' check (prefix ~ '^[A-Z]{1,3}$'),
  last_no bigint not null default 1000 check (last_no >= 0)
);
alter table private.order_counters enable row level security;
revoke all on private.order_counters from public, anon, authenticated;

alter table public.orders
  add column order_no text,
  add column payment_status text not null default 'unpaid'
    check (payment_status in ('unpaid', 'pending', 'settled', 'failed', 'expired'));

create function private.assign_order_no() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_prefix text;
  v_no bigint;
begin
  insert into private.order_counters as c (org_id, last_no) values (new.org_id, 1001)
  on conflict (org_id) do update set last_no = c.last_no + 1
  returning c.prefix, c.last_no into v_prefix, v_no;
  new.order_no := v_prefix || '-' || v_no;
  new.status := 'pending';
  new.payment_status := 'unpaid';
  return new;
end
$$;

update public.orders o set order_no = 'A-' || (1000 + n.rn)
from (select id, row_number() over (partition by org_id order by created_at, id) as rn
      from public.orders) n
where n.id = o.id;
insert into private.order_counters (org_id, last_no)
select org_id, 1000 + count(*) from public.orders group by org_id;
alter table public.orders
  alter column order_no set not null,
  add constraint orders_order_no_format check (order_no ~ '^[A-Z]{1,3}-[0-9]{1,12}$'),
  add constraint orders_org_id_order_no_key unique (org_id, order_no);

create trigger orders_assign_order_no before insert on public.orders
  for each row execute function private.assign_order_no();

-- The allowed moves (shared/packs/commerce/order_states.ts says the same):
--   pending → confirmed | cancelled;  confirmed → preparing | cancelled;
--   preparing → ready;  ready → delivered;  delivered, cancelled: final.
-- Fulfilment gate: an order enters preparing, ready or delivered only when
-- its payment_status is settled. Confirming (the venue accepts the order)
-- and cancelling need no payment. Repeating the current status is a no-op.
create function private.order_transition_allowed(p_from text, p_to text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select (p_from, p_to) in (
    ('pending', 'confirmed'), ('pending', 'cancelled'),
    ('confirmed', 'preparing'), ('confirmed', 'cancelled'),
    ('preparing', 'ready'), ('ready', 'delivered'))
$$;
revoke all on function private.order_transition_allowed(text, text) from public;
grant execute on function private.order_transition_allowed(text, text) to authenticated, service_role;

create function private.guard_order_update() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.order_no is distinct from old.order_no or new.org_id is distinct from old.org_id then
    raise exception 'order % keeps its number and org', old.order_no using errcode = 'P0409';
  end if;
  if new.status is distinct from old.status then
    if not private.order_transition_allowed(old.status, new.status) then
      raise exception 'order % cannot move from % to %', old.order_no, old.status, new.status
        using errcode = 'P0409';
    end if;
    if new.status in ('preparing', 'ready', 'delivered') and new.payment_status <> 'settled' then
      raise exception 'order % is not paid yet (payment %)', old.order_no, new.payment_status
        using errcode = 'P0402';
    end if;
    new.updated_at := now();
  end if;
  return new;
end
$$;
create trigger orders_guard_update before update on public.orders
  for each row execute function private.guard_order_update();

-- Staff of the org and the venue's owner move orders; only the status column
-- is theirs to write (payment_status follows the payments table).
revoke update on public.orders from anon, authenticated;
grant update (status) on public.orders to authenticated;
create policy orders_update on public.orders for update to authenticated
  using (
    org_id in (select private.my_staff_org_ids())
    or business_id in (select b.id from public.businesses b where b.owner_user_id = (select auth.uid()))
  )
  with check (
    org_id in (select private.my_staff_org_ids())
    or business_id in (select b.id from public.businesses b where b.owner_user_id = (select auth.uid()))
  );

-- Reservations -------------------------------------------------------------------

create table public.venue_hours (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null references public.businesses (id) on delete cascade,
  -- ISO weekday: 1 = Monday … 7 = Sunday.
  weekday smallint not null check (weekday between 1 and 7),
  opens time not null,
  -- '24:00' closes at midnight; a venue open past midnight has a second row
  -- on the next weekday from 00:00.
  closes time not null check (closes > opens),
  unique (business_id, weekday, opens)
);
create index venue_hours_org_business_idx on public.venue_hours (org_id, business_id);
alter table public.venue_hours
  add constraint venue_hours_business_same_org_fkey
  foreign key (org_id, business_id) references public.businesses (org_id, id) on delete cascade;

create table public.venue_capacity (
  business_id uuid primary key references public.businesses (id) on delete cascade,
  org_id uuid not null references public.orgs (id) on delete cascade,
  seats_per_slot int not null check (seats_per_slot between 1 and 1000),
  slot_minutes int not null check (slot_minutes between 15 and 240 and 1440 % slot_minutes = 0),
  max_party int not null default 12 check (max_party >= 1)
);
create index venue_capacity_org_business_idx on public.venue_capacity (org_id, business_id);
alter table public.venue_capacity
  add constraint venue_capacity_business_same_org_fkey
  foreign key (org_id, business_id) references public.businesses (org_id, id) on delete cascade;

create table public.reservations (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null references public.businesses (id) on delete cascade,
  customer_id uuid references public.profiles (id) on delete set null,
  name text not null check (length(name) between 1 and 120),
  phone text not null check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  party_size int not null check (party_size between 1 and 1000),
  slot_start timestamptz not null,
  slot_end timestamptz not null,
  status text not null default 'confirmed' check (status in ('confirmed', 'cancelled')),
  -- Unambiguous alphabet (no 0/O, 1/I/L); shared/packs/waiter/slots.ts uses the same.
  confirmation_code text not null check (confirmation_code ~ '^[2-9A-HJKMNP-Z]{6}$'),
  trace_id text,
  created_at timestamptz not null default now(),
  unique (org_id, confirmation_code),
  check (slot_end > slot_start)
);
create index reservations_org_business_slot_idx on public.reservations (org_id, business_id, slot_start);
create index reservations_business_id_idx on public.reservations (business_id);
create index reservations_customer_id_idx on public.reservations (customer_id);
alter table public.reservations
  add constraint reservations_business_same_org_fkey
  foreign key (org_id, business_id) references public.businesses (org_id, id) on delete cascade;

-- Seats taken per venue and slot. Booking increments the slot's row with a
-- conditional UPDATE: under READ COMMITTED the row lock makes concurrent
-- bookings of one slot wait, and the condition is re-checked on the newest
-- row version, so the sum can never pass capacity. The check is the backstop.
create table private.reservation_slots (
  business_id uuid not null references public.businesses (id) on delete cascade,
  slot_start timestamptz not null,
  capacity int not null check (capacity >= 1),
  seats_taken int not null default 0 check (seats_taken >= 0 and seats_taken <= capacity),
  primary key (business_id, slot_start)
);
alter table private.reservation_slots enable row level security;
revoke all on private.reservation_slots from public, anon, authenticated;

create function private.new_confirmation_code() returns text
language sql volatile set search_path = ''
as $$
  select string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + (get_byte(b, i) % 31), 1), '' order by i)
  from (select decode(replace(gen_random_uuid()::text, '-', ''), 'hex') as b) r,
       generate_series(0, 5) as i
$$;
revoke all on function private.new_confirmation_code() from public;

-- Checks the booking against the venue's hours and capacity and takes the
-- seats. Security definer: customers may not read or write the slot counts.
create function private.book_reservation() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_cap public.venue_capacity;
  v_local timestamp;
  v_taken int;
begin
  -- This trigger runs before RLS and foreign keys: refuse strangers and
  -- foreign venues first, so nobody learns another tenant's hours or seats.
  if (select auth.role()) = 'authenticated'
     and new.org_id not in (select private.my_org_ids()) then
    raise exception 'not a member of this org' using errcode = '42501';
  end if;
  if not exists (
    select 1 from public.businesses b where b.id = new.business_id and b.org_id = new.org_id
  ) then
    raise exception 'no such venue in this org' using errcode = '23503';
  end if;
  select * into v_cap from public.venue_capacity c
  where c.business_id = new.business_id and c.org_id = new.org_id;
  if not found then
    raise exception 'venue takes no reservations' using errcode = 'P0409';
  end if;
  if new.party_size > v_cap.max_party or new.party_size > v_cap.seats_per_slot then
    raise exception 'party of % is larger than the venue takes (%)',
      new.party_size, least(v_cap.max_party, v_cap.seats_per_slot) using errcode = '23514';
  end if;
  if new.slot_start <= now() then
    raise exception 'reservation time must be in the future' using errcode = '23514';
  end if;
  v_local := private.kigali_local(new.slot_start);
  -- Slots start on multiples of their length on the Kigali clock (12:00, 12:30 …).
  if extract(epoch from v_local)::bigint % (v_cap.slot_minutes * 60) <> 0 then
    raise exception 'reservation must start on a % minute slot', v_cap.slot_minutes
      using errcode = '23514';
  end if;
  new.slot_end := new.slot_start + make_interval(mins => v_cap.slot_minutes);
  -- The whole slot lies inside one opening period of that weekday; a slot
  -- ending at midnight needs closes = '24:00'.
  if not exists (
    select 1 from public.venue_hours h
    where h.business_id = new.business_id
      and h.weekday = extract(isodow from v_local)
      and h.opens <= v_local::time
      and case
        when (v_local + make_interval(mins => v_cap.slot_minutes))::date = v_local::date
          then (v_local + make_interval(mins => v_cap.slot_minutes))::time <= h.closes
        else h.closes = '24:00'::time
          and v_local + make_interval(mins => v_cap.slot_minutes) = v_local::date + 1
      end
  ) then
    raise exception 'venue is closed at that time' using errcode = 'P0409';
  end if;
  new.status := 'confirmed';
  new.confirmation_code := coalesce(new.confirmation_code, private.new_confirmation_code());

  insert into private.reservation_slots (business_id, slot_start, capacity)
  values (new.business_id, new.slot_start, v_cap.seats_per_slot)
  on conflict (business_id, slot_start) do nothing;
  update private.reservation_slots s set seats_taken = s.seats_taken + new.party_size
  where s.business_id = new.business_id and s.slot_start = new.slot_start
    and s.seats_taken + new.party_size <= s.capacity
  returning s.seats_taken into v_taken;
  if v_taken is null then
    raise exception 'no seats left for % at that time', new.party_size using errcode = 'P0409';
  end if;
  return new;
end
$$;
create trigger reservations_book before insert on public.reservations
  for each row execute function private.book_reservation();

-- Cancelling gives the seats back; nothing else about a booking changes.
create function private.guard_reservation_update() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if (new.org_id, new.business_id, new.slot_start, new.slot_end, new.party_size, new.confirmation_code)
     is distinct from
     (old.org_id, old.business_id, old.slot_start, old.slot_end, old.party_size, old.confirmation_code) then
    raise exception 'a reservation is cancelled and booked again, not moved' using errcode = 'P0409';
  end if;
  if old.status = 'cancelled' and new.status <> 'cancelled' then
    raise exception 'reservation % is cancelled', old.confirmation_code using errcode = 'P0409';
  end if;
  if old.status = 'confirmed' and new.status = 'cancelled' then
    update private.reservation_slots s set seats_taken = greatest(0, s.seats_taken - old.party_size)
    where s.business_id = old.business_id and s.slot_start = old.slot_start;
  end if;
  return new;
end
$$;
create trigger reservations_guard_update before update on public.reservations
  for each row execute function private.guard_reservation_update();

-- Seats taken per slot of one venue, for suggesting free slots, without
-- showing who booked them.
create function private.venue_slot_usage(p_business_id uuid, p_from timestamptz, p_to timestamptz)
returns table (slot_start timestamptz, seats_taken int, capacity int)
language sql stable security definer set search_path = ''
as $$
  select s.slot_start, s.seats_taken, s.capacity
  from private.reservation_slots s
  join public.businesses b on b.id = s.business_id
  where s.business_id = p_business_id and s.slot_start >= p_from and s.slot_start < p_to
    and (b.org_id in (select private.my_org_ids()) or (select auth.role()) = 'service_role')
  order by s.slot_start
$$;

revoke all on function private.book_reservation() from public;
revoke all on function private.guard_reservation_update() from public;
revoke all on function private.venue_slot_usage(uuid, timestamptz, timestamptz) from public;
grant execute on function private.venue_slot_usage(uuid, timestamptz, timestamptz)
  to authenticated, service_role;

revoke update on public.reservations from anon, authenticated;
grant update (status) on public.reservations to authenticated;

-- Drivers, locations, tariffs ------------------------------------------------------

create table public.drivers (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  user_id uuid references public.profiles (id) on delete set null,
  display_name text not null check (length(display_name) between 1 and 120),
  phone text not null check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  vehicle_type text not null check (vehicle_type in ('moto', 'cab')),
  vehicle_desc text check (length(vehicle_desc) <= 120),
  -- Rwandan plates: cars "RAD 123 A", motorcycles "RD 117 B".
  plate text not null check (plate ~ '^R[A-Z]{1,2} [0-9]{3} [A-Z]$'),
  -- Available while this lies in the future: availability lapses by itself.
  available_until timestamptz,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  unique (org_id, plate),
  unique (org_id, id)
);
create index drivers_user_id_idx on public.drivers (user_id);
create index drivers_org_available_idx on public.drivers (org_id, vehicle_type, available_until);

-- Exact positions live outside the exposed schema: nothing is granted on this
-- table, so callers only ever see what private.drivers_near rounds.
create table private.driver_locations (
  driver_id uuid primary key references public.drivers (id) on delete cascade,
  lat double precision not null check (lat between -90 and 90),
  lng double precision not null check (lng between -180 and 180),
  earth extensions.cube generated always as (private.earth_point(lat, lng)) stored,
  updated_at timestamptz not null default now()
);
create index driver_locations_earth_idx on private.driver_locations using gist (earth);
alter table private.driver_locations enable row level security;
revoke all on private.driver_locations from public, anon, authenticated;

-- A driver shares a location and taps "available": stored, and available for
-- p_minutes (at most 12 hours). Callable by the driver themself, staff of
-- the driver's org, or the service.
create function private.driver_check_in(
  p_driver_id uuid, p_lat double precision, p_lng double precision, p_minutes int
) returns timestamptz
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_until timestamptz;
begin
  if p_minutes is null or p_minutes < 0 or p_minutes > 720 then
    raise exception 'available minutes must be between 0 and 720' using errcode = '23514';
  end if;
  update public.drivers d
    set available_until = case when p_minutes = 0 then null else now() + make_interval(mins => p_minutes) end
  where d.id = p_driver_id and d.is_active
    and (d.user_id = (select auth.uid())
         or d.org_id in (select private.my_staff_org_ids())
         or (select auth.role()) = 'service_role')
  returning d.available_until into v_until;
  if not found then
    raise exception 'no such driver for this caller' using errcode = '42501';
  end if;
  insert into private.driver_locations (driver_id, lat, lng, updated_at)
  values (p_driver_id, p_lat, p_lng, now())
  on conflict (driver_id) do update set lat = excluded.lat, lng = excluded.lng, updated_at = now();
  return v_until;
end
$$;

-- Available drivers within p_radius_m of a point, nearest first. Positions
-- are rounded to 3 decimals (about 110 m) and the distance is measured from
-- the rounded position, so neither reveals more than the rounding allows.
-- The box test is the GiST index condition; the exact distance filters it.
create function private.drivers_near(
  p_org_id uuid, p_lat double precision, p_lng double precision, p_radius_m double precision,
  p_vehicle_type text default null, p_limit int default 10
) returns table (
  driver_id uuid, display_name text, vehicle_type text, vehicle_desc text,
  lat double precision, lng double precision, distance_m int, available_until timestamptz
)
language sql stable security definer set search_path = ''
as $$
  select d.id, d.display_name, d.vehicle_type, d.vehicle_desc,
         round(l.lat::numeric, 3)::double precision,
         round(l.lng::numeric, 3)::double precision,
         round(private.earth_metres(
           private.earth_point(p_lat, p_lng),
           private.earth_point(round(l.lat::numeric, 3)::double precision,
                               round(l.lng::numeric, 3)::double precision)))::int,
         d.available_until
  from private.driver_locations l
  join public.drivers d on d.id = l.driver_id
  where l.earth operator(extensions.<@)
          extensions.cube_enlarge(private.earth_point(p_lat, p_lng), p_radius_m, 3)
    -- The chord for the radius, compared with the C cube_distance: no SQL
    -- function call per candidate row.
    and extensions.cube_distance(l.earth, private.earth_point(p_lat, p_lng))
        <= 2 * 6378168 * sin(least(p_radius_m, 50000) / (2 * 6378168))
    and d.org_id = p_org_id and d.is_active and d.available_until > now()
    and (p_vehicle_type is null or d.vehicle_type = p_vehicle_type)
    and (p_org_id in (select private.my_org_ids()) or (select auth.role()) = 'service_role')
    and p_radius_m between 1 and 50000
  order by extensions.cube_distance(l.earth, private.earth_point(p_lat, p_lng)), d.id
  limit least(greatest(coalesce(p_limit, 10), 1), 50)
$$;

revoke all on function private.driver_check_in(uuid, double precision, double precision, int) from public;
revoke all on function private.drivers_near(uuid, double precision, double precision, double precision, text, int)
  from public;
grant execute on function private.driver_check_in(uuid, double precision, double precision, int)
  to authenticated, service_role;
grant execute on function private.drivers_near(uuid, double precision, double precision, double precision, text, int)
  to authenticated, service_role;

create table public.tariffs (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  vehicle_type text not null check (vehicle_type in ('moto', 'cab')),
  version int not null check (version >= 1),
  -- Whole RWF.
  base_fare int not null check (base_fare >= 0),
  per_km int not null check (per_km >= 0),
  per_minute int not null check (per_minute >= 0),
  minimum_fare int not null check (minimum_fare >= 0),
  -- Surcharges in percent of the fare, inside Kigali local-time windows.
  night_surcharge_pct int not null default 0 check (night_surcharge_pct between 0 and 200),
  night_from time not null default '22:00',
  night_to time not null default '05:00',
  peak_surcharge_pct int not null default 0 check (peak_surcharge_pct between 0 and 200),
  -- [["07:00","09:00"],["17:00","19:30"]]: local-time windows, start inclusive.
  peak_windows jsonb not null default '[]'::jsonb
    check (jsonb_typeof(peak_windows) = 'array' and jsonb_array_length(peak_windows) <= 4),
  -- Average speeds for ETAs, km/h.
  speed_kmh int not null check (speed_kmh between 5 and 120),
  peak_speed_kmh int not null check (peak_speed_kmh between 5 and 120),
  night_speed_kmh int not null check (night_speed_kmh between 5 and 120),
  -- Estimate window around the point estimate, in percent.
  window_pct int not null default 15 check (window_pct between 0 and 100),
  effective_from timestamptz not null,
  effective_to timestamptz,
  created_at timestamptz not null default now(),
  unique (org_id, vehicle_type, version),
  unique (org_id, vehicle_type, effective_from),
  unique (org_id, id),
  check (effective_to is null or effective_to > effective_from)
);

-- A tariff that has taken effect is history: estimates point at it. The only
-- change allowed is closing it (effective_to from open to a time not in the
-- past) when the next version takes over; it is never deleted.
create function private.guard_tariff_change() returns trigger
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
  raise exception 'tariff % v% is in effect since %: add a new version instead',
    old.vehicle_type, old.version, old.effective_from using errcode = 'P0409';
end
$$;
create trigger tariffs_guard_change before update or delete on public.tariffs
  for each row execute function private.guard_tariff_change();

create table public.ride_requests (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  rider_id uuid not null references public.profiles (id) on delete cascade,
  vehicle_type text not null check (vehicle_type in ('moto', 'cab')),
  pax int not null default 1 check (pax between 1 and 8),
  pickup_lat double precision not null check (pickup_lat between -90 and 90),
  pickup_lng double precision not null check (pickup_lng between -180 and 180),
  pickup_name text check (length(pickup_name) <= 200),
  dest_lat double precision not null check (dest_lat between -90 and 90),
  dest_lng double precision not null check (dest_lng between -180 and 180),
  dest_name text check (length(dest_name) <= 200),
  tariff_id uuid references public.tariffs (id) on delete restrict,
  estimate_rwf int check (estimate_rwf >= 0),
  estimate_min_rwf int check (estimate_min_rwf >= 0),
  estimate_max_rwf int check (estimate_max_rwf >= 0),
  status text not null default 'open'
    check (status in ('open', 'matched', 'completed', 'cancelled', 'expired')),
  matched_driver_id uuid references public.drivers (id) on delete set null,
  matched_at timestamptz,
  payment_status text not null default 'unpaid'
    check (payment_status in ('unpaid', 'pending', 'settled', 'failed', 'expired')),
  expires_at timestamptz not null,
  trace_id text,
  created_at timestamptz not null default now(),
  unique (org_id, id),
  check ((status = 'matched') <= (matched_driver_id is not null))
);
create index ride_requests_org_created_idx on public.ride_requests (org_id, created_at);
create index ride_requests_rider_id_idx on public.ride_requests (rider_id);
create index ride_requests_tariff_id_idx on public.ride_requests (tariff_id);
create index ride_requests_matched_driver_id_idx on public.ride_requests (matched_driver_id);
create index ride_requests_org_tariff_idx on public.ride_requests (org_id, tariff_id);
create index ride_requests_org_driver_idx on public.ride_requests (org_id, matched_driver_id);
alter table public.ride_requests
  add constraint ride_requests_tariff_same_org_fkey
  foreign key (org_id, tariff_id) references public.tariffs (org_id, id) on delete restrict,
  add constraint ride_requests_driver_same_org_fkey
  foreign key (org_id, matched_driver_id) references public.drivers (org_id, id)
  on delete set null (matched_driver_id);

create table public.ride_offers (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  request_id uuid not null references public.ride_requests (id) on delete cascade,
  driver_id uuid not null references public.drivers (id) on delete cascade,
  status text not null default 'pending'
    check (status in ('pending', 'accepted', 'declined', 'expired', 'lost')),
  sent_at timestamptz not null default now(),
  expires_at timestamptz not null,
  responded_at timestamptz,
  unique (request_id, driver_id)
);
-- First accept wins: a second accepted offer for the same request is a
-- unique violation, whichever transaction commits first.
create unique index ride_offers_one_accept_idx on public.ride_offers (request_id)
  where status = 'accepted';
create index ride_offers_org_request_idx on public.ride_offers (org_id, request_id);
create index ride_offers_org_driver_idx on public.ride_offers (org_id, driver_id);
create index ride_offers_driver_id_idx on public.ride_offers (driver_id, status);
alter table public.ride_offers
  add constraint ride_offers_request_same_org_fkey
  foreign key (org_id, request_id) references public.ride_requests (org_id, id) on delete cascade,
  add constraint ride_offers_driver_same_org_fkey
  foreign key (org_id, driver_id) references public.drivers (org_id, id) on delete cascade;

-- Offer moves: pending → accepted | declined (the driver, before expiry),
-- pending → expired (the sweep), pending → lost (another driver won).
create function private.guard_offer_update() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if (new.org_id, new.request_id, new.driver_id, new.expires_at)
     is distinct from (old.org_id, old.request_id, old.driver_id, old.expires_at) then
    raise exception 'an offer keeps its request, driver and expiry' using errcode = 'P0409';
  end if;
  if new.status = old.status then
    return new;
  end if;
  if old.status <> 'pending' then
    raise exception 'offer is already %', old.status using errcode = 'P0409';
  end if;
  if new.status in ('accepted', 'declined') and old.expires_at <= now() then
    raise exception 'offer expired' using errcode = 'P0409';
  end if;
  if new.status = 'accepted' and not exists (
    select 1 from public.ride_requests r where r.id = new.request_id and r.status = 'open'
  ) then
    raise exception 'ride is no longer open' using errcode = 'P0409';
  end if;
  new.responded_at := now();
  return new;
end
$$;
create trigger ride_offers_guard_update before update on public.ride_offers
  for each row execute function private.guard_offer_update();

-- The winning accept matches the request and closes the other offers.
create function private.match_ride_on_accept() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update public.ride_requests r
    set status = 'matched', matched_driver_id = new.driver_id, matched_at = now()
  where r.id = new.request_id and r.status = 'open';
  if not found then
    raise exception 'ride is no longer open' using errcode = 'P0409';
  end if;
  -- Offers locked by a concurrent accept are skipped (that accept fails on
  -- ride_offers_one_accept_idx); waiting for them here would deadlock.
  update public.ride_offers o set status = 'lost'
  where o.id in (
    select x.id from public.ride_offers x
    where x.request_id = new.request_id and x.id <> new.id and x.status = 'pending'
    for update skip locked
  );
  return null;
end
$$;
create trigger ride_offers_match after update of status on public.ride_offers
  for each row when (new.status = 'accepted' and old.status = 'pending')
  execute function private.match_ride_on_accept();

create function private.guard_ride_update() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.status = old.status then
    return new;
  end if;
  if not (old.status, new.status) in (
    ('open', 'matched'), ('open', 'cancelled'), ('open', 'expired'),
    ('matched', 'completed'), ('matched', 'cancelled')) then
    raise exception 'ride cannot move from % to %', old.status, new.status using errcode = 'P0409';
  end if;
  if new.status = 'completed' and new.payment_status <> 'settled' then
    raise exception 'ride is not paid yet (payment %)', new.payment_status using errcode = 'P0402';
  end if;
  return new;
end
$$;
create trigger ride_requests_guard_update before update on public.ride_requests
  for each row execute function private.guard_ride_update();

revoke all on function private.guard_offer_update() from public;
revoke all on function private.match_ride_on_accept() from public;

revoke update on public.ride_requests from anon, authenticated;
grant update (status) on public.ride_requests to authenticated;
revoke update on public.ride_offers from anon, authenticated;
grant update (status) on public.ride_offers to authenticated;

-- Payments --------------------------------------------------------------------------

create table public.payments (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  created_by uuid references public.profiles (id) on delete set null,
  payer_id uuid references public.profiles (id) on delete set null,
  -- Rwandan mobile money numbers only.
  payer_phone text not null check (payer_phone ~ '^\+2507[0-9]{8}$'),
  -- Who is paid: a MoMoPay merchant code or a phone (the USSD code differs).
  payee_merchant_code text check (payee_merchant_code ~ '^[0-9]{4,10}$'),
  payee_phone text check (payee_phone ~ '^\+2507[0-9]{8}$'),
  -- Whole RWF. The tool applies the configurable cap; this is the hard ceiling.
  amount bigint not null check (amount > 0 and amount <= 10000000),
  currency text not null default 'RWF' check (currency = 'RWF'),
  momo_ref text not null unique check (momo_ref ~ '^[A-Z0-9][A-Z0-9-]{3,31}$'),
  memo text check (length(memo) <= 140),
  idempotency_key text check (length(idempotency_key) between 1 and 255),
  status text not null default 'pending' check (status in ('pending', 'settled', 'failed', 'expired')),
  failure_reason text check (failure_reason in ('PAYMENT_FAILED', 'INSUFFICIENT_FUNDS', 'EXPIRED')),
  expires_at timestamptz not null,
  settled_at timestamptz,
  settled_by text check (settled_by in ('callback', 'sms', 'staff', 'vendor')),
  settled_by_user_id uuid references public.profiles (id) on delete set null,
  provider_txn_id text unique check (length(provider_txn_id) between 1 and 64),
  order_id uuid references public.orders (id) on delete set null,
  ride_request_id uuid references public.ride_requests (id) on delete set null,
  trace_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id),
  unique (org_id, idempotency_key),
  check ((payee_merchant_code is null) <> (payee_phone is null)),
  check (num_nonnulls(order_id, ride_request_id) <= 1),
  check ((status in ('failed', 'expired')) = (failure_reason is not null)),
  check (status <> 'expired' or failure_reason = 'EXPIRED'),
  check ((status = 'settled') = (settled_by is not null and settled_at is not null)),
  check (settled_by not in ('staff', 'vendor') or settled_by_user_id is not null)
);
create index payments_org_status_idx on public.payments (org_id, status, expires_at);
create index payments_created_by_idx on public.payments (created_by);
create index payments_payer_id_idx on public.payments (payer_id);
create index payments_settled_by_user_id_idx on public.payments (settled_by_user_id);
create index payments_order_id_idx on public.payments (order_id);
create index payments_ride_request_id_idx on public.payments (ride_request_id);
create index payments_org_order_idx on public.payments (org_id, order_id);
create index payments_org_ride_idx on public.payments (org_id, ride_request_id);
-- SMS matching by amount and payer among open charges.
create index payments_open_amount_idx on public.payments (org_id, amount) where status = 'pending';
alter table public.payments
  add constraint payments_order_same_org_fkey
  foreign key (org_id, order_id) references public.orders (org_id, id) on delete set null (order_id),
  add constraint payments_ride_same_org_fkey
  foreign key (org_id, ride_request_id) references public.ride_requests (org_id, id)
  on delete set null (ride_request_id);

-- A payment is created pending and ends settled, failed or expired, once.
-- The linked order or ride follows its payment_status.
create function private.guard_payment_change() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.status <> 'pending' then
      raise exception 'a payment starts pending' using errcode = '23514';
    end if;
  elsif (to_jsonb(new) - array['status', 'failure_reason', 'settled_at', 'settled_by',
           'settled_by_user_id', 'provider_txn_id', 'updated_at'])
        <> (to_jsonb(old) - array['status', 'failure_reason', 'settled_at', 'settled_by',
           'settled_by_user_id', 'provider_txn_id', 'updated_at']) then
    raise exception 'payment % can only change its status', old.momo_ref using errcode = 'P0409';
  elsif new.status is distinct from old.status then
    if old.status <> 'pending' then
      raise exception 'payment % is already %', old.momo_ref, old.status using errcode = 'P0409';
    end if;
    new.updated_at := now();
  elsif (to_jsonb(new) - 'updated_at') <> (to_jsonb(old) - 'updated_at') then
    raise exception 'payment % is already %', old.momo_ref, old.status using errcode = 'P0409';
  end if;
  update public.orders o set payment_status = new.status
  where o.id = new.order_id and o.org_id = new.org_id and o.payment_status <> 'settled';
  update public.ride_requests r set payment_status = new.status
  where r.id = new.ride_request_id and r.org_id = new.org_id and r.payment_status <> 'settled';
  return new;
end
$$;
create trigger payments_guard_change before insert or update on public.payments
  for each row execute function private.guard_payment_change();

-- Every piece of settlement evidence, idempotent per source and key (the
-- provider's transaction id, or the momo_ref and status for sources without one).
create table public.payment_events (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete set null,
  source text not null check (source in ('callback', 'sms', 'staff', 'vendor', 'sweep')),
  dedupe_key text not null check (length(dedupe_key) between 1 and 200),
  momo_ref text,
  provider_txn_id text check (length(provider_txn_id) <= 64),
  reported_status text not null
    check (reported_status in ('settled', 'failed', 'insufficient_funds', 'expired', 'unmatched')),
  amount bigint check (amount >= 0),
  actor_user_id uuid references public.profiles (id) on delete set null,
  payload jsonb not null default '{}'::jsonb,
  received_at timestamptz not null default now(),
  unique (org_id, source, dedupe_key)
);
create index payment_events_payment_id_idx on public.payment_events (payment_id);
create index payment_events_org_payment_idx on public.payment_events (org_id, payment_id);
create index payment_events_actor_user_id_idx on public.payment_events (actor_user_id);
create index payment_events_momo_ref_idx on public.payment_events (momo_ref);
alter table public.payment_events
  add constraint payment_events_payment_same_org_fkey
  foreign key (org_id, payment_id) references public.payments (org_id, id)
  on delete set null (payment_id);

-- Confirmation SMS forwarded from a merchant's phone. Anything not matched to
-- exactly one open charge waits for staff; it never settles by itself.
create table public.sms_inbox (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  device_id text not null check (length(device_id) between 1 and 100),
  sender text check (length(sender) <= 40),
  raw_text text not null check (length(raw_text) between 1 and 2000),
  text_sha256 text not null check (text_sha256 ~ '^[0-9a-f]{64}$'),
  provider text check (provider in ('mtn', 'airtel')),
  parsed jsonb,
  amount bigint check (amount >= 0),
  provider_txn_id text check (length(provider_txn_id) <= 64),
  match_status text not null
    check (match_status in ('matched', 'unmatched', 'ambiguous', 'unparsed', 'resolved', 'ignored')),
  payment_id uuid references public.payments (id) on delete set null,
  needs_staff boolean generated always as (match_status in ('unmatched', 'ambiguous', 'unparsed')) stored,
  resolved_by_user_id uuid references public.profiles (id) on delete set null,
  resolved_at timestamptz,
  received_at timestamptz not null default now(),
  unique (org_id, text_sha256),
  check ((match_status in ('matched', 'resolved')) = (payment_id is not null))
);
create index sms_inbox_org_needs_staff_idx on public.sms_inbox (org_id, needs_staff, received_at);
create index sms_inbox_payment_id_idx on public.sms_inbox (payment_id);
create index sms_inbox_org_payment_idx on public.sms_inbox (org_id, payment_id);
create index sms_inbox_resolved_by_idx on public.sms_inbox (resolved_by_user_id);
alter table public.sms_inbox
  add constraint sms_inbox_payment_same_org_fkey
  foreign key (org_id, payment_id) references public.payments (org_id, id)
  on delete set null (payment_id);

-- Staff (Admin Inbox) or the venue's owner (a vendor's `PAID <ref>`) confirm a
-- payment by hand; the event records who. Returns the payment's status after.
create function private.confirm_payment_manually(p_momo_ref text, p_as text)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_pay public.payments;
  v_uid uuid := (select auth.uid());
begin
  if p_as not in ('staff', 'vendor') or v_uid is null then
    raise exception 'confirmations come from staff or a vendor' using errcode = '42501';
  end if;
  select p.* into v_pay from public.payments p where p.momo_ref = p_momo_ref for update;
  if not found then
    raise exception 'no payment %', p_momo_ref using errcode = 'P0002';
  end if;
  if not (
    (p_as = 'staff' and v_pay.org_id in (select private.my_staff_org_ids()))
    or (p_as = 'vendor' and exists (
      select 1 from public.orders o join public.businesses b on b.id = o.business_id
      where o.id = v_pay.order_id and b.owner_user_id = v_uid))
  ) then
    raise exception 'not allowed to confirm payment %', p_momo_ref using errcode = '42501';
  end if;
  insert into public.payment_events
    (org_id, payment_id, source, dedupe_key, momo_ref, reported_status, amount, actor_user_id)
  values (v_pay.org_id, v_pay.id, p_as, v_pay.momo_ref || ':settled', v_pay.momo_ref, 'settled',
          v_pay.amount, v_uid)
  on conflict (org_id, source, dedupe_key) do nothing;
  if v_pay.status = 'pending' then
    update public.payments p
      set status = 'settled', settled_at = now(), settled_by = p_as, settled_by_user_id = v_uid
    where p.id = v_pay.id;
    return 'settled';
  end if;
  return v_pay.status;
end
$$;

-- May the caller point at this order or ride? Their own, or staff of its org.
create function private.may_reference_order(p_org_id uuid, p_order_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.orders o
    where o.id = p_order_id and o.org_id = p_org_id
      and (o.customer_id = (select auth.uid()) or o.org_id in (select private.my_staff_org_ids()))
  )
$$;
create function private.may_reference_ride(p_org_id uuid, p_ride_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.ride_requests r
    where r.id = p_ride_id and r.org_id = p_org_id
      and (r.rider_id = (select auth.uid()) or r.org_id in (select private.my_staff_org_ids()))
  )
$$;
-- May the caller offer this ride to this driver? Staff of the org only.
create function private.may_offer_ride(p_org_id uuid, p_ride_id uuid, p_driver_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_org_id in (select private.my_staff_org_ids())
    and exists (select 1 from public.ride_requests r where r.id = p_ride_id and r.org_id = p_org_id)
    and exists (select 1 from public.drivers d where d.id = p_driver_id and d.org_id = p_org_id)
$$;
-- Is the caller the driver of this driver row?
create function private.is_driver(p_driver_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.drivers d where d.id = p_driver_id and d.user_id = (select auth.uid())
  )
$$;
-- The rides the caller is a rider of, or was offered as a driver.
create function private.my_ride_ids()
returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select r.id from public.ride_requests r where r.rider_id = (select auth.uid())
  union
  select o.request_id from public.ride_offers o
  join public.drivers d on d.id = o.driver_id
  where d.user_id = (select auth.uid())
$$;

revoke all on function private.guard_payment_change() from public;
revoke all on function private.assign_order_no() from public;
revoke all on function private.confirm_payment_manually(text, text) from public;
revoke all on function private.may_reference_order(uuid, uuid) from public;
revoke all on function private.may_reference_ride(uuid, uuid) from public;
revoke all on function private.may_offer_ride(uuid, uuid, uuid) from public;
revoke all on function private.is_driver(uuid) from public;
revoke all on function private.my_ride_ids() from public;
grant execute on function private.confirm_payment_manually(text, text) to authenticated, service_role;
grant execute on function private.may_reference_order(uuid, uuid) to authenticated, service_role;
grant execute on function private.may_reference_ride(uuid, uuid) to authenticated, service_role;
grant execute on function private.may_offer_ride(uuid, uuid, uuid) to authenticated, service_role;
grant execute on function private.is_driver(uuid) to authenticated, service_role;
grant execute on function private.my_ride_ids() to authenticated, service_role;

-- Payments are written by their creator (momo_charge) and settled only by
-- the service (callback, SMS) or private.confirm_payment_manually.
revoke update, delete on public.payments from anon, authenticated;
revoke insert, update, delete on public.payment_events from anon, authenticated;
revoke insert, update, delete on public.sms_inbox from anon, authenticated;
grant update (match_status, payment_id, resolved_by_user_id, resolved_at) on public.sms_inbox
  to authenticated;

-- Row level security ------------------------------------------------------------------

alter table public.venue_hours enable row level security;
alter table public.venue_capacity enable row level security;
alter table public.reservations enable row level security;
alter table public.drivers enable row level security;
alter table public.tariffs enable row level security;
alter table public.ride_requests enable row level security;
alter table public.ride_offers enable row level security;
alter table public.payments enable row level security;
alter table public.payment_events enable row level security;
alter table public.sms_inbox enable row level security;

create policy venue_hours_select on public.venue_hours for select to authenticated
  using (org_id in (select private.my_org_ids()));
create policy venue_hours_insert on public.venue_hours for insert to authenticated
  with check (private.may_stock_business(org_id, business_id));
create policy venue_hours_update on public.venue_hours for update to authenticated
  using (private.may_stock_business(org_id, business_id))
  with check (private.may_stock_business(org_id, business_id));
create policy venue_hours_delete on public.venue_hours for delete to authenticated
  using (private.may_stock_business(org_id, business_id));

create policy venue_capacity_select on public.venue_capacity for select to authenticated
  using (org_id in (select private.my_org_ids()));
create policy venue_capacity_insert on public.venue_capacity for insert to authenticated
  with check (private.may_stock_business(org_id, business_id));
create policy venue_capacity_update on public.venue_capacity for update to authenticated
  using (private.may_stock_business(org_id, business_id))
  with check (private.may_stock_business(org_id, business_id));
create policy venue_capacity_delete on public.venue_capacity for delete to authenticated
  using (private.may_stock_business(org_id, business_id));

-- Diners see and cancel their own bookings; the venue's owner and staff see
-- the venue's. Staff may book for a guest who called (customer_id null).
create policy reservations_select on public.reservations for select to authenticated
  using (
    customer_id = (select auth.uid())
    or org_id in (select private.my_staff_org_ids())
    or business_id in (select b.id from public.businesses b where b.owner_user_id = (select auth.uid()))
  );
create policy reservations_insert on public.reservations for insert to authenticated
  with check (
    (customer_id = (select auth.uid()) and org_id in (select private.my_org_ids()))
    or (customer_id is null and org_id in (select private.my_staff_org_ids()))
  );
create policy reservations_update on public.reservations for update to authenticated
  using (customer_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()))
  with check (customer_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));

-- A driver's phone and plate are for staff and the driver; riders learn the
-- matched driver's contact from the ride flow, and nearby drivers only
-- through private.drivers_near.
create policy drivers_select on public.drivers for select to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy drivers_insert on public.drivers for insert to authenticated
  with check (org_id in (select private.my_staff_org_ids()));
create policy drivers_update on public.drivers for update to authenticated
  using (org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_staff_org_ids()));

create policy tariffs_select on public.tariffs for select to authenticated
  using (org_id in (select private.my_org_ids()));
create policy tariffs_insert on public.tariffs for insert to authenticated
  with check (org_id in (select private.my_staff_org_ids()));
create policy tariffs_update on public.tariffs for update to authenticated
  using (org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_staff_org_ids()));
create policy tariffs_delete on public.tariffs for delete to authenticated
  using (org_id in (select private.my_staff_org_ids()));

create policy ride_requests_select on public.ride_requests for select to authenticated
  using (id in (select private.my_ride_ids()) or org_id in (select private.my_staff_org_ids()));
create policy ride_requests_insert on public.ride_requests for insert to authenticated
  with check (rider_id = (select auth.uid()) and org_id in (select private.my_org_ids()));
create policy ride_requests_update on public.ride_requests for update to authenticated
  using (rider_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()))
  with check (rider_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));

create policy ride_offers_select on public.ride_offers for select to authenticated
  using (
    private.is_driver(driver_id)
    or request_id in (select r.id from public.ride_requests r where r.rider_id = (select auth.uid()))
    or org_id in (select private.my_staff_org_ids())
  );
create policy ride_offers_insert on public.ride_offers for insert to authenticated
  with check (private.may_offer_ride(org_id, request_id, driver_id));
create policy ride_offers_update on public.ride_offers for update to authenticated
  using (private.is_driver(driver_id) or org_id in (select private.my_staff_org_ids()))
  with check (private.is_driver(driver_id) or org_id in (select private.my_staff_org_ids()));

create policy payments_select on public.payments for select to authenticated
  using (
    payer_id = (select auth.uid()) or created_by = (select auth.uid())
    or org_id in (select private.my_staff_org_ids())
  );
create policy payments_insert on public.payments for insert to authenticated
  with check (created_by = (select auth.uid()) and org_id in (select private.my_org_ids()));
create policy payments_insert_refs on public.payments
  as restrictive for insert to authenticated
  with check (
    (order_id is null or private.may_reference_order(org_id, order_id))
    and (ride_request_id is null or private.may_reference_ride(org_id, ride_request_id))
    and (payer_id is null or payer_id = (select auth.uid())
         or org_id in (select private.my_staff_org_ids()))
  );

create policy payment_events_select on public.payment_events for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));

create policy sms_inbox_select on public.sms_inbox for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));
create policy sms_inbox_update on public.sms_inbox for update to authenticated
  using (org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_staff_org_ids()) and resolved_by_user_id = (select auth.uid()));
