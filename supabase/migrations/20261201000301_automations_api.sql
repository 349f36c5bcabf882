-- What staff clients read of automations through the Data API (PostgREST), in one schema:
-- `supabase/config.toml` lists `automations` in `api.schemas`, so a client asks with
-- `Accept-Profile: automations`. Read-only views over the rules and their runs, with
-- security_invoker so the tables' RLS applies as the caller (staff of the org only), beside the
-- catalog's service_capabilities (members: the shared rows and their org's). Writing stays with
-- the tools (deploy_automation checks what a direct insert would not). Anonymous callers have
-- no usage on the schema at all.

create view automations.rules with (security_invoker = true) as
  select id, org_id, name, trigger, event, condition, actions, status, next_run_at,
    created_by, created_at, updated_at
  from public.automations;
comment on view automations.rules is
  'A tenant''s automations, read-only; RLS of public.automations applies (staff of the org).';

create view automations.runs with (security_invoker = true) as
  select id, org_id, automation_id, event_id, trigger_key, status, results, error, started_at,
    finished_at
  from public.automation_runs;
comment on view automations.runs is
  'Runs of a tenant''s automations, read-only; RLS of public.automation_runs applies (staff).';

revoke all on automations.rules, automations.runs from public, anon, authenticated;
grant select on automations.rules, automations.runs to authenticated;
grant all on automations.rules, automations.runs to service_role;
-- The schema was never anon's; said again here, as the Data API now serves it.
revoke all on schema automations from anon;
