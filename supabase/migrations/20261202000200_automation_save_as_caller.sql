-- deploy_automation saves its rule in the call's own transaction, as the
-- calling staff member (issue 28). Until now a service-role store wrote it
-- before the call's transaction opened: a failure after the save left the
-- rule behind, and a replayed call saved it again.
--
-- Signed-in callers still cannot insert or update rules (migration
-- 20261201000600): the checks a rule needs (the tenant's events, the tools
-- its policy allows, each action's arguments against the tool's schema)
-- read the platform's registry, which the database does not hold. This
-- function is the one way in, and it takes a rule only:
--   * for staff of the org, or the service (42501 otherwise);
--   * inside a call of the `deploy_automation` tool that the pipeline opened:
--     the call's idempotency key is claimed in this very transaction, by
--     this caller, for that tool, and not yet answered. Only the pipeline
--     writes private.idempotency_keys (no caller may), and it claims the key
--     as the connecting role before becoming the caller, so a staff member's
--     own SQL (the Data API does not expose `private` either) is refused;
--   * whose shape holds what the tool checked: a name, exactly one of an
--     event or a schedule (with its first slot), a condition with a known
--     operator, 1 to 10 actions each naming a tool that is not service-only
--     plumbing (an `internal` catalog tool), with object arguments.
-- Who deployed it is the caller (auth.uid()), never an argument.
create function private.automation_save(p_org_id uuid, p_rule jsonb, p_next_run_at timestamptz)
returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_role text := (select auth.role());
  v_uid uuid := (select auth.uid());
  v_trigger jsonb := p_rule -> 'trigger';
  v_schedule jsonb := v_trigger -> 'schedule';
  v_condition jsonb := nullif(p_rule -> 'condition', 'null'::jsonb);
  v_actions jsonb := p_rule -> 'actions';
  v_name text;
  v_event text;
  v_bad text;
  v_id uuid;
begin
  if p_org_id is null or not (
    v_role = 'service_role'
    or exists (select 1 from private.my_staff_memberships v where v.org_id = p_org_id)
  ) then
    raise exception 'only the org''s staff save its automations' using errcode = '42501';
  end if;
  if not exists (
    select 1 from private.idempotency_keys k
    where k.scope = p_org_id::text || ':' || coalesce(v_uid::text, v_role)
      and k.tool = 'deploy_automation' and k.response is null
      and k.xmin::text = (pg_catalog.pg_current_xact_id()::text::bigint % 4294967296)::text
  ) then
    raise exception 'automations are saved by a deploy_automation call only'
      using errcode = '42501';
  end if;

  if jsonb_typeof(p_rule) is distinct from 'object'
     or exists (select 1 from jsonb_object_keys(p_rule) k
                where k not in ('name', 'trigger', 'condition', 'actions')) then
    raise exception 'automation: unknown fields' using errcode = '22023';
  end if;
  v_name := btrim(p_rule ->> 'name');
  if jsonb_typeof(p_rule -> 'name') is distinct from 'string'
     or length(v_name) not between 1 and 100 then
    raise exception 'automation: name must be 1 to 100 characters' using errcode = '22023';
  end if;

  if jsonb_typeof(v_trigger) is distinct from 'object'
     or exists (select 1 from jsonb_object_keys(v_trigger) k where k not in ('event', 'schedule'))
     or (v_trigger ? 'event') = (v_trigger ? 'schedule') then
    raise exception 'automation: trigger must be an event or a schedule' using errcode = '22023';
  end if;
  if v_trigger ? 'event' then
    v_event := v_trigger ->> 'event';
    if jsonb_typeof(v_trigger -> 'event') is distinct from 'string'
       or v_event !~ '^[a-z][a-z0-9_]{0,63}$' or p_next_run_at is not null then
      raise exception 'automation: trigger.event must name an event (and no schedule slot)'
        using errcode = '22023';
    end if;
  elsif jsonb_typeof(v_schedule) is distinct from 'object'
     or exists (select 1 from jsonb_object_keys(v_schedule) k
                where k not in ('every_minutes', 'cron'))
     or (v_schedule ? 'every_minutes') = (v_schedule ? 'cron')
     or (v_schedule ? 'every_minutes' and not (
           jsonb_typeof(v_schedule -> 'every_minutes') = 'number'
           and (v_schedule ->> 'every_minutes') ~ '^[0-9]+$'
           and (v_schedule ->> 'every_minutes')::numeric between 1 and 10080))
     or (v_schedule ? 'cron' and not (
           jsonb_typeof(v_schedule -> 'cron') = 'string'
           and (v_schedule ->> 'cron') ~ '^\s*[0-9*,/-]+(\s+[0-9*,/-]+){4}\s*$'))
     or p_next_run_at is null then
    raise exception 'automation: trigger.schedule must be every_minutes or a cron, with its slot'
      using errcode = '22023';
  end if;

  if v_condition is not null and (
    jsonb_typeof(v_condition) <> 'object'
    or exists (select 1 from jsonb_object_keys(v_condition) k
               where k not in ('path', 'op', 'value', 'case_insensitive'))
    or jsonb_typeof(v_condition -> 'path') is distinct from 'string'
    or length(v_condition ->> 'path') not between 1 and 200
    or coalesce(v_condition ->> 'op', '') not in
      ('equals', 'not_equals', 'contains', 'starts_with', 'gt', 'lt', 'in', 'exists')
  ) then
    raise exception 'automation: condition must be {path, op, value, case_insensitive}'
      using errcode = '22023';
  end if;

  if jsonb_typeof(v_actions) is distinct from 'array'
     or jsonb_array_length(v_actions) not between 1 and 10
     or exists (
       select 1 from jsonb_array_elements(v_actions) a
       where jsonb_typeof(a) <> 'object'
          or exists (select 1 from jsonb_object_keys(a) k where k not in ('tool', 'args'))
          or jsonb_typeof(a -> 'tool') is distinct from 'string'
          or (a ->> 'tool') !~ '^[a-z][a-z0-9_.]{0,63}$'
          or jsonb_typeof(a -> 'args') is distinct from 'object') then
    raise exception 'automation: actions must be 1 to 10 {tool, args}' using errcode = '22023';
  end if;
  select a ->> 'tool' into v_bad
  from jsonb_array_elements(v_actions) a
  where exists (select 1 from public.service_tools t
                where t.name = a ->> 'tool' and t.org_id is null and t.internal)
  limit 1;
  if v_bad is not null then
    raise exception 'automation: % is service-only and runs in no automation', v_bad
      using errcode = '42501';
  end if;

  insert into public.automations
    (org_id, name, trigger, event, condition, actions, status, next_run_at, created_by)
  values (p_org_id, v_name, v_trigger, v_event, v_condition, v_actions, 'active', p_next_run_at,
          v_uid)
  on conflict (org_id, name) do update
    set trigger = excluded.trigger, event = excluded.event, condition = excluded.condition,
        actions = excluded.actions, status = 'active', next_run_at = excluded.next_run_at,
        updated_at = now()
  returning id into v_id;
  return v_id;
end
$$;
revoke all on function private.automation_save(uuid, jsonb, timestamptz) from public, anon;
grant execute on function private.automation_save(uuid, jsonb, timestamptz)
  to authenticated, service_role;
