-- Core schema: tenants (orgs), people, membership, conversations, staff
-- tickets, analytics, tool-call traces and the idempotency ledger.
--
-- Every table in `public` (the schema PostgREST exposes) has RLS on. Policies
-- read the caller's orgs through `private.*` helpers (security definer, fixed
-- search_path) so they do not recurse into org_members' own policies, and
-- call `auth.uid()` as `(select auth.uid())` so it runs once per statement.

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- Tenants ------------------------------------------------------------------

create table public.orgs (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{1,62}$'),
  name text not null check (length(name) between 1 and 200),
  -- Tenant tool policy: {"disabled_tools": [...], "enabled_tools": [...] | null,
  -- "rate_limits": {"<tool>": {"limit": n, "window_sec": s}}}
  tool_policy jsonb not null default '{}'::jsonb check (jsonb_typeof(tool_policy) = 'object'),
  created_at timestamptz not null default now()
);

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  -- E.164: + then 8 to 15 digits, first not 0.
  phone text unique check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  display_name text check (length(display_name) <= 200),
  locale text not null default 'en' check (locale in ('en', 'rw', 'fr')),
  created_at timestamptz not null default now()
);

create table public.org_members (
  org_id uuid not null references public.orgs (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role text not null check (role in ('customer', 'vendor', 'staff', 'admin')),
  created_at timestamptz not null default now(),
  primary key (org_id, user_id)
);
create index org_members_user_id_idx on public.org_members (user_id);

-- Policy helpers ------------------------------------------------------------

-- The orgs the caller belongs to (any role).
create function private.my_org_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select m.org_id from public.org_members m where m.user_id = (select auth.uid())
$$;

-- The orgs where the caller is staff or admin.
create function private.my_staff_org_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select m.org_id from public.org_members m
  where m.user_id = (select auth.uid()) and m.role in ('staff', 'admin')
$$;

revoke all on function private.my_org_ids() from public;
revoke all on function private.my_staff_org_ids() from public;
grant execute on function private.my_org_ids() to authenticated, service_role;
grant execute on function private.my_staff_org_ids() to authenticated, service_role;

-- Conversations --------------------------------------------------------------

create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  channel text not null default 'whatsapp' check (channel in ('whatsapp', 'web', 'api')),
  agent_id text,
  status text not null default 'open' check (status in ('open', 'handoff', 'closed')),
  assigned_staff_id uuid references public.profiles (id) on delete set null,
  last_inbound_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index conversations_org_id_idx on public.conversations (org_id);
create index conversations_user_id_idx on public.conversations (user_id);
create index conversations_assigned_staff_id_idx on public.conversations (assigned_staff_id);

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  -- The conversation's customer, copied here so the policy needs no join.
  user_id uuid not null references public.profiles (id) on delete cascade,
  direction text not null check (direction in ('inbound', 'outbound')),
  sender text not null check (sender in ('user', 'agent', 'staff', 'system')),
  body text,
  payload jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index messages_conversation_id_idx on public.messages (conversation_id, created_at);
create index messages_org_id_idx on public.messages (org_id);
create index messages_user_id_idx on public.messages (user_id);

-- Staff tickets (notify_staff) and what the local channel adapters record ---

create table public.staff_tickets (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  convo_id uuid references public.conversations (id) on delete set null,
  requester_user_id uuid references public.profiles (id) on delete set null,
  channel text not null check (channel in ('inbox', 'slack', 'sms')),
  reason text not null check (length(reason) between 1 and 200),
  summary text not null check (length(summary) between 1 and 2000),
  priority text not null default 'medium' check (priority in ('low', 'medium', 'high', 'urgent')),
  status text not null default 'open' check (status in ('open', 'claimed', 'resolved')),
  assigned_to uuid references public.profiles (id) on delete set null,
  trace_id text,
  created_at timestamptz not null default now(),
  claimed_at timestamptz,
  resolved_at timestamptz
);
create index staff_tickets_org_status_idx on public.staff_tickets (org_id, status, created_at);
create index staff_tickets_requester_idx on public.staff_tickets (requester_user_id);
create index staff_tickets_convo_id_idx on public.staff_tickets (convo_id);
create index staff_tickets_assigned_to_idx on public.staff_tickets (assigned_to);

create table public.notification_outbox (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  ticket_id uuid references public.staff_tickets (id) on delete cascade,
  channel text not null check (channel in ('slack', 'sms')),
  target text not null,
  body text not null,
  status text not null default 'recorded' check (status in ('recorded', 'sent', 'failed')),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now()
);
create index notification_outbox_org_id_idx on public.notification_outbox (org_id, created_at);
create index notification_outbox_ticket_id_idx on public.notification_outbox (ticket_id);
create index notification_outbox_created_by_idx on public.notification_outbox (created_by);

-- Queue figures for estimated response times, without exposing the tickets:
-- tickets open at this priority or higher (this one included), the median
-- time to pick one up over the last week, and how many staff can.
create function private.ticket_queue_stats(p_org_id uuid, p_priority text)
returns table (open_ahead int, median_handling_sec int, staff_count int)
language sql stable security definer set search_path = ''
as $$
  select
    (select count(*)::int from public.staff_tickets t
      where t.org_id = p_org_id and t.status <> 'resolved'
        and array_position(array['urgent', 'high', 'medium', 'low'], t.priority)
            <= array_position(array['urgent', 'high', 'medium', 'low'], p_priority)),
    (select coalesce(percentile_cont(0.5) within group (
        order by extract(epoch from (coalesce(t.claimed_at, t.resolved_at) - t.created_at))), 0)::int
      from public.staff_tickets t
      where t.org_id = p_org_id and t.priority = p_priority
        and coalesce(t.claimed_at, t.resolved_at) is not null
        and t.created_at > now() - interval '7 days'),
    (select count(*)::int from public.org_members m
      where m.org_id = p_org_id and m.role in ('staff', 'admin'))
  where p_org_id in (select private.my_org_ids())
     or (select auth.role()) = 'service_role'
$$;
revoke all on function private.ticket_queue_stats(uuid, text) from public;
grant execute on function private.ticket_queue_stats(uuid, text) to authenticated, service_role;

-- Analytics (PII minimised by analytics_log before it gets here) ------------

create table public.analytics_events (
  id bigint generated always as identity primary key,
  org_id uuid not null references public.orgs (id) on delete cascade,
  event text not null check (event ~ '^[a-z][a-z0-9_.:-]{0,63}$'),
  props jsonb not null default '{}'::jsonb,
  user_id uuid references public.profiles (id) on delete set null,
  convo_id uuid references public.conversations (id) on delete set null,
  trace_id text,
  created_at timestamptz not null default now()
);
create index analytics_events_org_event_idx on public.analytics_events (org_id, event, created_at);
create index analytics_events_user_id_idx on public.analytics_events (user_id);
create index analytics_events_convo_id_idx on public.analytics_events (convo_id);

-- Traces and the idempotency ledger ------------------------------------------

create table public.tool_calls (
  id bigint generated always as identity primary key,
  org_id uuid references public.orgs (id) on delete cascade,
  user_id uuid,
  agent_id text,
  convo_id uuid,
  trace_id text not null,
  tool text not null,
  ok boolean not null,
  error_code text,
  duration_ms double precision not null,
  bytes int not null default 0,
  over_budget boolean not null default false,
  replayed boolean not null default false,
  created_at timestamptz not null default now()
);
create index tool_calls_org_created_idx on public.tool_calls (org_id, created_at);
create index tool_calls_trace_id_idx on public.tool_calls (trace_id);

-- Not in an exposed schema: only the pipeline (connecting role) touches it.
create table private.idempotency_keys (
  scope text not null,
  key text not null check (length(key) between 1 and 255),
  tool text not null,
  fingerprint text not null,
  response jsonb,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '24 hours',
  primary key (scope, key)
);
create index idempotency_keys_expires_at_idx on private.idempotency_keys (expires_at);
revoke all on private.idempotency_keys from public, anon, authenticated;

-- Shops and stock: what search_supabase and the commerce tools read ---------

create table public.businesses (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  owner_user_id uuid references public.profiles (id) on delete set null,
  name text not null check (length(name) between 1 and 200),
  category text not null,
  tags text[] not null default '{}',
  address text,
  area text,
  lat double precision check (lat between -90 and 90),
  lng double precision check (lng between -180 and 180),
  phone text check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  is_active boolean not null default true,
  created_at timestamptz not null default now()
);
create index businesses_org_id_idx on public.businesses (org_id, category);
create index businesses_owner_user_id_idx on public.businesses (owner_user_id);

create table public.products (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  business_id uuid not null references public.businesses (id) on delete cascade,
  sku text not null,
  name text not null,
  -- Whole Rwandan francs: RWF has no minor unit in practice.
  price bigint not null check (price >= 0),
  currency text not null default 'RWF' check (currency ~ '^[A-Z]{3}$'),
  qty int not null default 0 check (qty >= 0),
  unit text not null default 'unit',
  is_available boolean not null default true,
  created_at timestamptz not null default now(),
  unique (business_id, sku)
);
create index products_org_id_idx on public.products (org_id);

-- Row level security ----------------------------------------------------------

alter table public.orgs enable row level security;
alter table public.profiles enable row level security;
alter table public.org_members enable row level security;
alter table public.conversations enable row level security;
alter table public.messages enable row level security;
alter table public.staff_tickets enable row level security;
alter table public.notification_outbox enable row level security;
alter table public.analytics_events enable row level security;
alter table public.tool_calls enable row level security;
alter table public.businesses enable row level security;
alter table public.products enable row level security;
alter table private.idempotency_keys enable row level security;

create policy orgs_select on public.orgs for select to authenticated
  using (id in (select private.my_org_ids()));

create policy profiles_select on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or id in (select m.user_id from public.org_members m
              where m.org_id in (select private.my_staff_org_ids()))
  );
create policy profiles_update on public.profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

create policy org_members_select on public.org_members for select to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));

create policy conversations_select on public.conversations for select to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy conversations_insert on public.conversations for insert to authenticated
  with check (user_id = (select auth.uid()) and org_id in (select private.my_org_ids()));
create policy conversations_update on public.conversations for update to authenticated
  using (org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_staff_org_ids()));

create policy messages_select on public.messages for select to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy messages_insert on public.messages for insert to authenticated
  with check (
    (user_id = (select auth.uid()) and sender = 'user' and org_id in (select private.my_org_ids()))
    or (org_id in (select private.my_staff_org_ids()) and sender = 'staff')
  );

create policy staff_tickets_select on public.staff_tickets for select to authenticated
  using (
    requester_user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids())
  );
create policy staff_tickets_insert on public.staff_tickets for insert to authenticated
  with check (
    requester_user_id = (select auth.uid()) and org_id in (select private.my_org_ids())
  );
create policy staff_tickets_update on public.staff_tickets for update to authenticated
  using (org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_staff_org_ids()));

create policy notification_outbox_select on public.notification_outbox for select to authenticated
  using (created_by = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy notification_outbox_insert on public.notification_outbox for insert to authenticated
  with check (created_by = (select auth.uid()) and org_id in (select private.my_org_ids()));

create policy analytics_events_select on public.analytics_events for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));
create policy analytics_events_insert on public.analytics_events for insert to authenticated
  with check (
    org_id in (select private.my_org_ids())
    and (user_id is null or user_id = (select auth.uid()))
  );

create policy tool_calls_select on public.tool_calls for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));

create policy businesses_select on public.businesses for select to authenticated
  using (org_id in (select private.my_org_ids()) and (is_active or owner_user_id = (select auth.uid())
    or org_id in (select private.my_staff_org_ids())));
create policy businesses_write on public.businesses for update to authenticated
  using (owner_user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()))
  with check (org_id in (select private.my_org_ids()));

create policy products_select on public.products for select to authenticated
  using (org_id in (select private.my_org_ids()));
create policy products_update on public.products for update to authenticated
  using (
    org_id in (select private.my_staff_org_ids())
    or business_id in (select b.id from public.businesses b where b.owner_user_id = (select auth.uid()))
  )
  with check (org_id in (select private.my_org_ids()));
