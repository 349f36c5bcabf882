-- Automations (seed 003's deploy_automation): per-tenant rules "when this
-- event arrives and this condition holds, call these tools".
--
-- automation_events is the outbox of the domain events packs declare
-- (Pack.events). A row is written in the same transaction as the change it
-- reports (a customer's message committed, an order's, a payment's or a
-- ticket's new status), keyed by the source (the message's wamid, the row's
-- id and new status): a re-delivered webhook or a replayed transaction adds
-- no second event. The runner claims rows with a lease, runs each matching
-- automation and marks the row processed.
--
-- automations holds the rules, automation_runs one row per (automation,
-- event or schedule slot) with each action's result code: what staff read
-- to see that a run failed and why.
--
-- Staff read their org's rows; they write automations through the
-- deploy/pause/resume/delete tools, under RLS. Events and runs are written
-- by the service (the runner) and by the triggers below only.

create table public.automation_events (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  event text not null check (event ~ '^[a-z][a-z0-9_]{0,63}$'),
  -- What the event is about, from its source: a re-delivery writes the same key.
  source_key text not null check (length(source_key) between 1 and 300),
  payload jsonb not null,
  occurred_at timestamptz not null default now(),
  -- The runner's lease and its mark once every matching automation ran.
  locked_until timestamptz,
  attempts int not null default 0,
  processed_at timestamptz,
  constraint automation_events_source_key unique (org_id, event, source_key)
);
create index automation_events_pending_idx on public.automation_events (occurred_at)
  where processed_at is null;

create table public.automations (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  -- {"event": "<name>"} or {"schedule": {"every_minutes": n} | {"cron": "m h dom mon dow"}}
  trigger jsonb not null,
  -- The event name when triggered by one (the runner's lookup), else null.
  event text,
  -- {"path", "op", "value", "case_insensitive"} or null (every event).
  condition jsonb,
  -- [{"tool", "args"}], 1 to 10.
  actions jsonb not null check (jsonb_typeof(actions) = 'array'),
  status text not null default 'active' check (status in ('active', 'paused')),
  -- Scheduled triggers: the next slot due, read by the runner with the platform's clock.
  next_run_at timestamptz,
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint automations_org_name_key unique (org_id, name),
  constraint automations_org_id_id_key unique (org_id, id)
);
create index automations_event_idx on public.automations (org_id, event) where status = 'active';
create index automations_due_idx on public.automations (next_run_at)
  where status = 'active' and next_run_at is not null;
create index automations_created_by_idx on public.automations (created_by);

create table public.automation_runs (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  automation_id uuid not null,
  event_id uuid references public.automation_events (id) on delete set null,
  -- The event's id, or `schedule:<slot>` for a scheduled run: one run per trigger.
  trigger_key text not null check (length(trigger_key) between 1 and 300),
  status text not null default 'running'
    check (status in ('running', 'succeeded', 'failed', 'skipped')),
  -- Per action: {"tool", "code"} (code "OK" or the error code).
  results jsonb not null default '[]'::jsonb,
  error text check (length(error) <= 1000),
  started_at timestamptz not null,
  finished_at timestamptz,
  constraint automation_runs_trigger_key unique (automation_id, trigger_key),
  constraint automation_runs_automation_fk foreign key (org_id, automation_id)
    references public.automations (org_id, id) on delete cascade
);
create index automation_runs_org_idx on public.automation_runs (org_id, started_at);
create index automation_runs_org_automation_idx on public.automation_runs (org_id, automation_id);
create index automation_runs_event_id_idx on public.automation_runs (event_id);

alter table public.automation_events enable row level security;
alter table public.automations enable row level security;
alter table public.automation_runs enable row level security;

revoke insert, update, delete on public.automation_events, public.automation_runs
  from anon, authenticated;
revoke all on public.automation_events, public.automations, public.automation_runs from anon;

create policy automation_events_select on public.automation_events for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy automation_runs_select on public.automation_runs for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy automations_select on public.automations for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy automations_insert on public.automations for insert to authenticated
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy automations_update on public.automations for update to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy automations_delete on public.automations for delete to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));

-- A tenant's Slack incoming webhook (slack_notify): a secret, kept where no
-- caller but the service reads it.
create table private.slack_webhooks (
  org_id uuid primary key references public.orgs (id) on delete cascade,
  url text not null check (url ~ '^https?://'),
  updated_by uuid references public.profiles (id) on delete set null,
  updated_at timestamptz not null default now()
);
create index slack_webhooks_updated_by_idx on private.slack_webhooks (updated_by);
revoke all on private.slack_webhooks from public, anon, authenticated;
-- slack_webhook_set and slack_notify run as the service and scope by the call's org.
grant select, insert, update on private.slack_webhooks to service_role;
alter table private.slack_webhooks enable row level security;

-- Writes one event; a second write of the same source is nothing. Definer:
-- the change may be a customer's or a staff member's, who may not write the
-- outbox themselves.
create or replace function private.emit_automation_event(
  p_org_id uuid, p_event text, p_source_key text, p_payload jsonb
) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.automation_events (org_id, event, source_key, payload)
  values (p_org_id, p_event, p_source_key, p_payload)
  on conflict (org_id, event, source_key) do nothing;
$$;
revoke all on function private.emit_automation_event(uuid, text, text, jsonb)
  from public, anon, authenticated;

-- order_status_changed: the commerce pack's event, for every path that moves an order.
create or replace function private.order_status_event() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    perform private.emit_automation_event(
      new.org_id, 'order_status_changed', new.id::text || ':' || new.status,
      jsonb_build_object(
        'order_id', new.id,
        'order_no', new.order_no,
        'venue_id', new.business_id,
        'venue_name', (select b.name from public.businesses b where b.id = new.business_id),
        'status_from', old.status,
        'status_to', new.status,
        'total', new.total,
        'currency', new.currency));
  end if;
  return new;
end;
$$;
create trigger orders_status_event after update of status on public.orders
  for each row execute function private.order_status_event();

-- payment_status_changed: the payments pack's event.
create or replace function private.payment_status_event() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    perform private.emit_automation_event(
      new.org_id, 'payment_status_changed', new.id::text || ':' || new.status,
      jsonb_build_object(
        'charge_id', new.id,
        'amount', new.amount,
        'currency', new.currency,
        'payee', coalesce(new.payee_merchant_code, new.payee_phone),
        'payer_phone', new.payer_phone,
        'status_from', old.status,
        'status_to', new.status,
        'order_id', new.order_id));
  end if;
  return new;
end;
$$;
create trigger payments_status_event after update of status on public.payments
  for each row execute function private.payment_status_event();

-- ticket_created and ticket_updated: the support pack's events (a hand-off to staff).
create or replace function private.ticket_event() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_payload jsonb;
begin
  if tg_op = 'UPDATE' and new.status is not distinct from old.status
     and new.priority is not distinct from old.priority then
    return new;
  end if;
  select jsonb_build_object(
      'ticket_id', new.id,
      'reason', new.reason,
      'summary', new.summary,
      'priority', new.priority,
      'status', new.status,
      'status_from', case when tg_op = 'UPDATE' then old.status end,
      'conversation_id', new.convo_id,
      'customer_phone', p.phone,
      'customer_name', p.display_name)
    into v_payload
  from (select 1) one
  left join public.profiles p on p.id = new.requester_user_id;
  if tg_op = 'INSERT' then
    perform private.emit_automation_event(new.org_id, 'ticket_created', new.id::text, v_payload);
  else
    perform private.emit_automation_event(
      new.org_id, 'ticket_updated', new.id::text || ':' || new.status || ':' || new.priority,
      v_payload);
  end if;
  return new;
end;
$$;
create trigger staff_tickets_event after insert or update of status, priority
  on public.staff_tickets for each row execute function private.ticket_event();

-- Triggers only: no caller executes them.
revoke all on function private.order_status_event() from public;
revoke all on function private.payment_status_event() from public;
revoke all on function private.ticket_event() from public;
