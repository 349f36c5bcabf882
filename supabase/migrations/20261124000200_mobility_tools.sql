-- Mobility tools (issue 13 item 2): the gazetteer of known Kigali places a
-- rider may type instead of sharing a location, the rider's view of the
-- driver matched to their ride, drivers turning available or busy without a
-- new location, and the lookups the driver counterpart and the offer sweep
-- need. Conventions as in 20261123000600_commerce_mobility_payments.sql.

-- Known places ----------------------------------------------------------------
-- Public facts (a neighbourhood's rough centre), the same for every tenant:
-- readable by any signed-in caller, written only by migrations. Coordinates
-- are coarse on purpose (3 decimals, about 110 m).
create table public.places (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9_]{2,40}$'),
  name text not null check (length(name) between 1 and 80),
  -- Lower-case, unaccented words people type for it ("kimironko market", "mu mujyi").
  aliases text[] not null check (cardinality(aliases) between 1 and 12),
  lat double precision not null
    check (lat between -90 and 90 and lat = round(lat::numeric, 3)::double precision),
  lng double precision not null
    check (lng between -180 and 180 and lng = round(lng::numeric, 3)::double precision)
);
create index places_earth_idx on public.places using gist (private.earth_point(lat, lng));
alter table public.places enable row level security;
create policy places_select on public.places for select to authenticated using (true);
revoke insert, update, delete, truncate on public.places from anon, authenticated;

insert into public.places (slug, name, aliases, lat, lng) values
  ('kimironko_market', 'Kimironko market', '{kimironko market,isoko rya kimironko,marche de kimironko}', -1.949, 30.126),
  ('kimironko', 'Kimironko', '{kimironko}', -1.944, 30.129),
  ('nyabugogo', 'Nyabugogo', '{nyabugogo,nyabugogo bus park,gare routiere}', -1.939, 30.045),
  ('cbd', 'Downtown (CBD)', '{cbd,downtown,town,city centre,city center,mu mujyi,umujyi,centre ville,en ville,ville}', -1.944, 30.062),
  ('remera', 'Remera', '{remera,giporoso}', -1.956, 30.112),
  ('kacyiru', 'Kacyiru', '{kacyiru}', -1.936, 30.084),
  ('nyamirambo', 'Nyamirambo', '{nyamirambo}', -1.981, 30.045),
  ('kicukiro', 'Kicukiro', '{kicukiro,sonatubes}', -1.970, 30.104),
  ('airport_kgl', 'Kigali airport (KGL)', '{airport,kgl,kanombe,ikibuga cy''indege,ku kibuga cy''indege,aeroport}', -1.963, 30.135),
  ('convention_centre', 'Kigali Convention Centre', '{convention centre,convention center,kcc,kigali convention centre}', -1.954, 30.093),
  ('kigali_heights', 'Kigali Heights', '{kigali heights}', -1.953, 30.094),
  ('kisimenti', 'Kisimenti', '{kisimenti}', -1.956, 30.103),
  ('kimihurura', 'Kimihurura', '{kimihurura}', -1.951, 30.083),
  ('nyarutarama', 'Nyarutarama', '{nyarutarama}', -1.938, 30.106),
  ('gisozi', 'Gisozi', '{gisozi}', -1.917, 30.067),
  ('gikondo', 'Gikondo', '{gikondo}', -1.973, 30.078),
  ('kabeza', 'Kabeza', '{kabeza}', -1.968, 30.131),
  ('chuk', 'CHUK hospital', '{chuk}', -1.951, 30.060),
  ('kiyovu', 'Kiyovu', '{kiyovu}', -1.950, 30.063),
  ('gishushu', 'Gishushu', '{gishushu}', -1.954, 30.100)
on conflict (slug) do nothing;

-- The known place a text names (the longest alias found as whole words), or
-- none. `p_text` is lower-case and unaccented (the tool normalises it).
create function private.place_named(p_text text)
returns table (slug text, name text, lat double precision, lng double precision)
language sql stable set search_path = ''
as $$
  select p.slug, p.name, p.lat, p.lng
  from public.places p, unnest(p.aliases) as a (alias)
  where (' ' || p_text || ' ') like ('% ' || a.alias || ' %')
  order by length(a.alias) desc, p.slug
  limit 1
$$;

-- The known place nearest a point within 3 km (a pickup's area name for a
-- driver's offer), or none.
create function private.place_near(p_lat double precision, p_lng double precision)
returns table (slug text, name text, distance_m int)
language sql stable set search_path = ''
as $$
  select p.slug, p.name,
         round(private.earth_metres(private.earth_point(p.lat, p.lng),
                                    private.earth_point(p_lat, p_lng)))::int
  from public.places p
  where private.earth_point(p.lat, p.lng) operator(extensions.<@)
        extensions.cube_enlarge(private.earth_point(p_lat, p_lng), 3000, 3)
  order by extensions.cube_distance(private.earth_point(p.lat, p.lng),
                                    private.earth_point(p_lat, p_lng)), p.slug
  limit 1
$$;

revoke all on function private.place_named(text) from public;
revoke all on function private.place_near(double precision, double precision) from public;
grant execute on function private.place_named(text) to authenticated, service_role;
grant execute on function private.place_near(double precision, double precision)
  to authenticated, service_role;

-- Drivers ---------------------------------------------------------------------------
-- The driver counterpart finds a driver by the number a message comes from.
create index drivers_org_phone_idx on public.drivers (org_id, phone);

-- A driver taps "available" or "busy" without sharing a new location:
-- available needs a location shared before (nobody is offered rides from
-- nowhere), so it answers whether one exists; busy (p_minutes = 0) always
-- works. Same callers as private.driver_check_in.
create function private.driver_set_availability(p_driver_id uuid, p_minutes int)
returns table (has_location boolean, available_until timestamptz)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_has_location boolean;
  v_until timestamptz;
begin
  if p_minutes is null or p_minutes < 0 or p_minutes > 720 then
    raise exception 'available minutes must be between 0 and 720' using errcode = '23514';
  end if;
  if not exists (
    select 1 from public.drivers d
    where d.id = p_driver_id and d.is_active
      and (d.user_id = (select auth.uid())
           or d.org_id in (select private.my_staff_org_ids())
           or (select auth.role()) = 'service_role')
  ) then
    raise exception 'no such driver for this caller' using errcode = '42501';
  end if;
  v_has_location := exists (select 1 from private.driver_locations l where l.driver_id = p_driver_id);
  if p_minutes > 0 and not v_has_location then
    return query select false, null::timestamptz;
    return;
  end if;
  update public.drivers d
    set available_until = case when p_minutes = 0 then null
                               else now() + make_interval(mins => p_minutes) end
  where d.id = p_driver_id
  returning d.available_until into v_until;
  return query select v_has_location, v_until;
end
$$;
revoke all on function private.driver_set_availability(uuid, int) from public;
grant execute on function private.driver_set_availability(uuid, int) to authenticated, service_role;

-- Rides -------------------------------------------------------------------------------
-- The matched driver as the rider sees them: name, vehicle, plate and number,
-- never a position. The rider, staff of the ride's org or the service only;
-- nothing before the ride is matched.
create function private.ride_driver_contact(p_ride_id uuid)
returns table (
  display_name text, vehicle_type text, vehicle_desc text, plate text, phone text
)
language sql stable security definer set search_path = ''
as $$
  select d.display_name, d.vehicle_type, d.vehicle_desc, d.plate, d.phone
  from public.ride_requests r
  join public.drivers d on d.id = r.matched_driver_id and d.org_id = r.org_id
  where r.id = p_ride_id and r.status in ('matched', 'completed')
    and (r.rider_id = (select auth.uid())
         or r.org_id in (select private.my_staff_org_ids())
         or (select auth.role()) = 'service_role')
$$;
revoke all on function private.ride_driver_contact(uuid) from public;
grant execute on function private.ride_driver_contact(uuid) to authenticated, service_role;

-- The offer sweep looks for pending offers past their expiry.
create index ride_offers_pending_expiry_idx on public.ride_offers (expires_at)
  where status = 'pending';
create index ride_requests_open_expiry_idx on public.ride_requests (expires_at)
  where status = 'open';

-- The rider's language, so what drivers' answers trigger (matched, nobody
-- accepted) reaches the rider in it.
alter table public.ride_requests
  add column language text not null default 'en' check (language in ('en', 'rw', 'fr'));
