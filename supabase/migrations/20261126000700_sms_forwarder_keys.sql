-- Each SMS-forwarding device proves which device it is with its own key.
--
-- Until now one secret (SMS_FORWARDER_SECRET) signed for every forwarder and
-- the body named the device: anyone holding that secret could file an SMS as
-- any registered device, under any org. Now a device signs its requests with
-- an HMAC key that only it and the payments function know; the function looks
-- the key up by the device id the request names (X-EasyMO-Device), so a
-- signature that verifies says which device sent it, and so which org it
-- speaks for.
--
-- The key is HMAC key material, not a hash: the function must recompute the
-- MAC over each body (which binds body and time, so a captured request cannot
-- be altered or re-dated). It lives in `private`, which only the owner reads;
-- staff see a device's label and dates, never its key.
--
-- Devices are issued, rotated and revoked only through the functions below (as
-- the operator's service role or the org's staff): a device row without a key
-- could never post, so staff no longer insert rows directly. Devices
-- registered before this migration have no key until rotated.

alter table public.sms_forwarders
  add column key_issued_at timestamptz,
  add column revoked_at timestamptz;

create table private.sms_forwarder_keys (
  device_id text primary key references public.sms_forwarders (device_id) on delete cascade,
  hmac_key bytea not null check (octet_length(hmac_key) between 32 and 256)
);
revoke all on private.sms_forwarder_keys from public, anon, authenticated, service_role;

drop policy sms_forwarders_staff_insert on public.sms_forwarders;
revoke insert on public.sms_forwarders from authenticated;

-- The service (the operator's CLI) manages any org's devices; staff and admins their own org's.
create function private.may_manage_forwarders(p_org_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select (select auth.role()) = 'service_role'
    or p_org_id in (select private.my_staff_org_ids())
$$;

-- Registers a device of `p_org_id` with its key; returns its row.
create function private.sms_forwarder_add(
  p_org_id uuid, p_device_id text, p_label text, p_key bytea
) returns public.sms_forwarders
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_row public.sms_forwarders;
begin
  if not private.may_manage_forwarders(p_org_id) then
    raise exception 'not allowed to register forwarders of org %', p_org_id using errcode = '42501';
  end if;
  insert into public.sms_forwarders (device_id, org_id, label, key_issued_at, created_by)
  values (p_device_id, p_org_id, p_label, now(), (select auth.uid()))
  returning * into v_row;
  insert into private.sms_forwarder_keys (device_id, hmac_key) values (p_device_id, p_key);
  return v_row;
end
$$;

-- The device locked, if the caller may manage it. Another org's device reads
-- as missing (P0002), so device ids of other orgs cannot be confirmed.
create function private.sms_forwarder_lock(p_device_id text) returns public.sms_forwarders
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_row public.sms_forwarders;
begin
  select f.* into v_row from public.sms_forwarders f where f.device_id = p_device_id for update;
  if not found or not private.may_manage_forwarders(v_row.org_id) then
    raise exception 'no forwarder %', p_device_id using errcode = 'P0002';
  end if;
  return v_row;
end
$$;

-- Replaces a device's key (the old one stops working at once); returns its row.
-- A revoked device stays revoked: register a new one instead (P0409).
create function private.sms_forwarder_rotate(p_device_id text, p_key bytea)
returns public.sms_forwarders
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_row public.sms_forwarders := private.sms_forwarder_lock(p_device_id);
begin
  if v_row.revoked_at is not null then
    raise exception 'forwarder % is revoked', p_device_id using errcode = 'P0409';
  end if;
  insert into private.sms_forwarder_keys (device_id, hmac_key) values (p_device_id, p_key)
  on conflict (device_id) do update set hmac_key = excluded.hmac_key;
  update public.sms_forwarders f set key_issued_at = now()
  where f.device_id = p_device_id returning * into v_row;
  return v_row;
end
$$;

-- Revokes a device for good: its key is deleted, so nothing it signs is accepted.
-- Revoking twice keeps the first time.
create function private.sms_forwarder_revoke(p_device_id text) returns public.sms_forwarders
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_row public.sms_forwarders := private.sms_forwarder_lock(p_device_id);
begin
  delete from private.sms_forwarder_keys k where k.device_id = p_device_id;
  update public.sms_forwarders f set revoked_at = coalesce(f.revoked_at, now())
  where f.device_id = p_device_id returning * into v_row;
  return v_row;
end
$$;

revoke all on function private.may_manage_forwarders(uuid) from public;
revoke all on function private.sms_forwarder_add(uuid, text, text, bytea) from public;
revoke all on function private.sms_forwarder_lock(text) from public;
revoke all on function private.sms_forwarder_rotate(text, bytea) from public;
revoke all on function private.sms_forwarder_revoke(text) from public;
grant execute on function private.may_manage_forwarders(uuid) to authenticated, service_role;
grant execute on function private.sms_forwarder_add(uuid, text, text, bytea)
  to authenticated, service_role;
grant execute on function private.sms_forwarder_rotate(text, bytea) to authenticated, service_role;
grant execute on function private.sms_forwarder_revoke(text) to authenticated, service_role;
