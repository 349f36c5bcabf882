-- The tool catalog in the database (seed 003): one row per registered tool,
-- grouped by service (a pack's domain, the platform's own tools, a tenant's
-- API source), and per service what automations may start on. The catalog
-- sync (shared/tools/catalog/) keeps it in step with the registry: a tool
-- that leaves the registry is deactivated, never deleted, so what an agent
-- or automation once named stays explainable.
--
-- Tenancy: `org_id` is null for the shared tools every tenant sees, and set
-- for a tenant's own (generated, registered at run time); a member of an org
-- reads the shared rows and that org's only. Nobody but the service writes.
-- Names are unique per (org, name) and a tenant's tool never takes a shared
-- tool's name (nor a shared tool a tenant's), as in the registry.

create schema if not exists automations;
revoke all on schema automations from public;
grant usage on schema automations to authenticated, service_role;

create table public.services (
  id uuid primary key default gen_random_uuid(),
  org_id uuid references public.orgs (id) on delete cascade,
  name text not null check (name ~ '^[a-z][a-z0-9_]{0,63}$'),
  title text not null check (length(title) between 1 and 200),
  -- What the service is for, one line: the index shows it over its tools.
  summary text not null default '' check (length(summary) <= 300),
  -- Words search finds its tools by besides their own: its agents' example requests in
  -- en/rw/fr, so a need in any of our languages reaches tools described in English.
  keywords text not null default '' check (length(keywords) <= 20000),
  kind text not null check (kind in ('pack', 'platform', 'tenant_api')),
  content_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique nulls not distinct (org_id, name)
);
alter table public.services enable row level security;

create table public.service_tools (
  id uuid primary key default gen_random_uuid(),
  org_id uuid references public.orgs (id) on delete cascade,
  service_id uuid not null references public.services (id) on delete cascade,
  name text not null check (name ~ '^[a-z][a-z0-9_.]{0,63}$'),
  title text not null check (length(title) between 1 and 200),
  -- One line (the index); `description` is the whole text (fetched schemas).
  summary text not null check (length(summary) between 1 and 200),
  description text not null check (length(description) <= 4000),
  category text not null check (length(category) between 1 and 64),
  -- JSON Schema of the input, and of `data` on success.
  parameters jsonb not null,
  returns jsonb not null,
  side_effects text not null check (length(side_effects) between 1 and 100),
  auth text not null check (auth in ('none', 'user', 'service')),
  confirm_required boolean not null default false,
  idempotent boolean not null default true,
  -- Service-only tools are kept for the record but never shown to members.
  internal boolean not null default false,
  -- Words search ranks on besides name, summary and category (parameter names and descriptions).
  keywords text not null default '' check (length(keywords) <= 8000),
  content_hash text not null,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique nulls not distinct (org_id, name)
);
alter table public.service_tools enable row level security;
create index service_tools_service_idx on public.service_tools (service_id);

create table automations.service_capabilities (
  service_id uuid primary key references public.services (id) on delete cascade,
  org_id uuid references public.orgs (id) on delete cascade,
  service_name text not null,
  supports_webhooks boolean not null default false,
  webhook_events text[] not null default '{}',
  -- event → {description, trigger_data_fields: {"event.<path>": description}}
  webhook_payload_schemas jsonb not null default '{}',
  supports_polling boolean not null default true,
  polling_endpoints jsonb not null default '[]',
  notes text not null default '' check (length(notes) <= 2000),
  auth_types text[] not null default array['user'],
  content_hash text not null,
  updated_at timestamptz not null default now(),
  unique nulls not distinct (org_id, service_name)
);
alter table automations.service_capabilities enable row level security;

-- A tenant's tool never shadows a shared one, and a shared tool never
-- arrives under a name a tenant already uses (the registry refuses both;
-- this holds for every writer). Runs as the writer: the service.
create function private.service_tool_name_free() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if exists (
    select 1 from public.service_tools t
    where t.name = new.name and t.id <> new.id
      and (new.org_id is null or t.org_id is null)
      and t.org_id is distinct from new.org_id
  ) then
    raise exception 'service_tools: the name % is taken by a % tool', new.name,
      case when new.org_id is null then 'tenant''s' else 'shared' end
      using errcode = '23505';
  end if;
  return new;
end
$$;
revoke all on function private.service_tool_name_free() from public;
create trigger service_tools_name_free
  before insert or update of name, org_id on public.service_tools
  for each row execute function private.service_tool_name_free();
create index service_tools_name_idx on public.service_tools (name);

-- Members read the shared rows and their own org's; one permissive policy per action.
create policy services_read on public.services for select to authenticated
  using (org_id is null or org_id in (select v.org_id from private.my_memberships v));
create policy service_tools_read on public.service_tools for select to authenticated
  using (not internal
    and (org_id is null or org_id in (select v.org_id from private.my_memberships v)));
create policy service_capabilities_read on automations.service_capabilities
  for select to authenticated
  using (org_id is null or org_id in (select v.org_id from private.my_memberships v));

revoke all on public.services, public.service_tools, automations.service_capabilities
  from anon, authenticated;
grant select on public.services, public.service_tools, automations.service_capabilities
  to authenticated;
grant all on public.services, public.service_tools, automations.service_capabilities
  to service_role;
