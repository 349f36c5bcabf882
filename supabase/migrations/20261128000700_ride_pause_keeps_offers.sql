-- A paused ride keeps its drivers' offers, frozen (issue 24, item 4 on an
-- urgent hand-off). While the rider is with staff the ride is 'paused': no
-- driver can accept it (private.guard_offer_update already requires an open
-- ride), and now its offers neither expire nor run out their time. When the
-- rider keeps the ride it reopens with the time every offer had left when it
-- paused, so the drivers who were asked can accept again without being asked
-- anew; when the rider cancels, the offers are withdrawn as for any
-- cancelled ride. The clock is the database's: paused_at is set and cleared
-- here, never by callers.
alter table public.ride_requests add column paused_at timestamptz;
update public.ride_requests set paused_at = now() where status = 'paused';
alter table public.ride_requests add constraint ride_requests_paused_at_check
  check ((status = 'paused') = (paused_at is not null));

create or replace function private.guard_ride_update() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.status = old.status then
    if new.paused_at is distinct from old.paused_at then
      raise exception 'a ride''s pause time is kept by the database' using errcode = 'P0409';
    end if;
    return new;
  end if;
  if not (old.status, new.status) in (
    ('open', 'matched'), ('open', 'cancelled'), ('open', 'expired'),
    ('open', 'paused'), ('paused', 'open'), ('paused', 'cancelled'), ('paused', 'expired'),
    ('matched', 'completed'), ('matched', 'cancelled')) then
    raise exception 'ride cannot move from % to %', old.status, new.status using errcode = 'P0409';
  end if;
  if new.status = 'completed' and new.payment_status <> 'settled' then
    raise exception 'ride is not paid yet (payment %)', new.payment_status using errcode = 'P0402';
  end if;
  if new.status = 'paused' then
    new.paused_at := now();
  elsif old.status = 'paused' then
    new.paused_at := null;
    -- Reopened: the ride's own clock restarts where it stopped.
    if new.status = 'open' then
      new.expires_at := old.expires_at + (now() - old.paused_at);
    end if;
  end if;
  return new;
end
$$;
revoke all on function private.guard_ride_update() from public;

-- Reopened: every offer still pending gets back the time it had left. Runs
-- as a trigger so the offers' expiry moves only here (see the offer guard).
create function private.resume_ride_offers() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update public.ride_offers o set expires_at = o.expires_at + (now() - old.paused_at)
  where o.request_id = new.id and o.status = 'pending';
  return null;
end
$$;
revoke all on function private.resume_ride_offers() from public;
create trigger ride_requests_resume_offers after update of status on public.ride_requests
  for each row when (old.status = 'paused' and new.status = 'open')
  execute function private.resume_ride_offers();

-- Offer moves: pending → accepted (the driver, before expiry, while the ride
-- is open), pending → declined (the driver, before expiry, even while the
-- ride is paused: their answer stands), pending → expired (the sweep, or the
-- ride cancelled; never while the ride is paused: its offers are kept),
-- pending → lost (another driver won). A paused offer's time stops at the
-- pause; its expiry moves only when its ride reopens (a nested trigger).
create or replace function private.guard_offer_update() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  ride_status text;
  ride_paused_at timestamptz;
begin
  if (new.org_id, new.request_id, new.driver_id)
     is distinct from (old.org_id, old.request_id, old.driver_id) then
    raise exception 'an offer keeps its request, driver and expiry' using errcode = 'P0409';
  end if;
  if new.expires_at is distinct from old.expires_at
     and (pg_trigger_depth() < 2 or new.status <> 'pending' or old.status <> 'pending') then
    raise exception 'an offer keeps its request, driver and expiry' using errcode = 'P0409';
  end if;
  if new.status = old.status then
    return new;
  end if;
  if old.status <> 'pending' then
    raise exception 'offer is already %', old.status using errcode = 'P0409';
  end if;
  select r.status, r.paused_at into ride_status, ride_paused_at
  from public.ride_requests r where r.id = new.request_id;
  if new.status in ('accepted', 'declined') and old.expires_at <= coalesce(ride_paused_at, now()) then
    raise exception 'offer expired' using errcode = 'P0409';
  end if;
  if new.status = 'accepted' and ride_status is distinct from 'open' then
    raise exception 'ride is no longer open' using errcode = 'P0409';
  end if;
  if new.status = 'expired' and ride_status = 'paused' then
    raise exception 'a paused ride keeps its offers' using errcode = 'P0409';
  end if;
  new.responded_at := now();
  return new;
end
$$;
revoke all on function private.guard_offer_update() from public;

-- How far each driver still asked is from a ride's pickup, as the offer
-- said it (their position rounded to 3 decimals, as in drivers_near): the
-- "open again" message repeats the offer. Positions stay private.
create function private.ride_offer_distances(p_request_id uuid)
returns table (offer_id uuid, distance_m int)
language sql stable security definer set search_path = ''
as $$
  select o.id,
         round(private.earth_metres(
           private.earth_point(r.pickup_lat, r.pickup_lng),
           private.earth_point(round(l.lat::numeric, 3)::double precision,
                               round(l.lng::numeric, 3)::double precision)))::int
  from public.ride_offers o
  join public.ride_requests r on r.id = o.request_id
  join private.driver_locations l on l.driver_id = o.driver_id
  where o.request_id = p_request_id and o.status = 'pending'
$$;
revoke all on function private.ride_offer_distances(uuid) from public;
grant execute on function private.ride_offer_distances(uuid) to service_role;
