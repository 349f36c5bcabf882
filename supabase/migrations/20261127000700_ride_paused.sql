-- A ride held while its rider is with staff (issue 24, item 4 on an urgent
-- hand-off): the rider is handed to a person at once and asked whether to
-- cancel the ride or keep it; until they answer, the ride is 'paused'. A
-- paused ride is not open, so the accept guard (private.guard_offer_update)
-- refuses every driver's accept and nobody receives the rider's details.
-- "Keep" reopens it; "cancel" cancels it and tells the drivers asked.
alter table public.ride_requests drop constraint ride_requests_status_check;
alter table public.ride_requests add constraint ride_requests_status_check
  check (status in ('open', 'paused', 'matched', 'completed', 'cancelled', 'expired'));

create or replace function private.guard_ride_update() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.status = old.status then
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
  return new;
end
$$;
revoke all on function private.guard_ride_update() from public;
