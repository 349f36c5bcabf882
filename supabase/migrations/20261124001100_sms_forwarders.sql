-- Forwarded MoMo SMS belong to the org whose merchant phone received them.
-- Each SMS-forwarding device is registered to one org; the payments function
-- files an SMS from a registered device under that org (where it can only
-- match that org's charges) and one from an unregistered device under the
-- operator's org (PAYMENTS_SMS_ORG), whose staff then see it.
create table public.sms_forwarders (
  device_id text primary key check (length(device_id) between 1 and 100),
  org_id uuid not null references public.orgs (id) on delete cascade,
  label text check (length(label) <= 200),
  created_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now()
);
create index sms_forwarders_org_idx on public.sms_forwarders (org_id);
create index sms_forwarders_created_by_idx on public.sms_forwarders (created_by);
alter table public.sms_forwarders enable row level security;

-- Staff register, see and remove their own org's devices; nobody else sees them.
create policy sms_forwarders_staff_select on public.sms_forwarders for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));
create policy sms_forwarders_staff_insert on public.sms_forwarders for insert to authenticated
  with check (org_id in (select private.my_staff_org_ids()));
create policy sms_forwarders_staff_delete on public.sms_forwarders for delete to authenticated
  using (org_id in (select private.my_staff_org_ids()));
revoke all on public.sms_forwarders from anon, authenticated;
grant select, insert, delete on public.sms_forwarders to authenticated;
grant all on public.sms_forwarders to service_role;
