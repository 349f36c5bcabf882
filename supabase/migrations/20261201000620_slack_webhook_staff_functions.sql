-- slack_webhook_set and slack_notify are staff tools now (`auth: "staff"`,
-- run as the caller): the pipeline refuses anyone but the org's staff and the
-- service before reading their arguments. The webhook URL (a secret) stays in
-- private.slack_webhooks, which no caller reads or writes; these two
-- functions are the only way to it, for the org's staff and the service only.

-- Keeps the org's webhook URL (who set it: the caller).
create function private.slack_webhook_put(p_org_id uuid, p_url text, p_at timestamptz)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if not ((select auth.role()) = 'service_role'
          or exists (select 1 from private.my_staff_memberships v where v.org_id = p_org_id)) then
    raise exception 'only the org''s staff set its Slack webhook' using errcode = '42501';
  end if;
  insert into private.slack_webhooks (org_id, url, updated_by, updated_at)
  values (p_org_id, p_url, (select auth.uid()), p_at)
  on conflict (org_id) do update
    set url = excluded.url, updated_by = excluded.updated_by, updated_at = excluded.updated_at;
end
$$;

-- The org's webhook URL for slack_notify to post to; null for anyone but its
-- staff and the service (and when none is set).
create function private.slack_webhook_url(p_org_id uuid)
returns text
language sql stable security definer set search_path = ''
as $$
  select w.url from private.slack_webhooks w
  where w.org_id = p_org_id
    and ((select auth.role()) = 'service_role'
         or exists (select 1 from private.my_staff_memberships v where v.org_id = p_org_id))
$$;

revoke all on function private.slack_webhook_put(uuid, text, timestamptz) from public, anon;
revoke all on function private.slack_webhook_url(uuid) from public, anon;
grant execute on function private.slack_webhook_put(uuid, text, timestamptz)
  to authenticated, service_role;
grant execute on function private.slack_webhook_url(uuid) to authenticated, service_role;
