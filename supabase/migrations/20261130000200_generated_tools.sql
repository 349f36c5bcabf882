-- Tools generated per tenant from its own OpenAPI or GraphQL API (issue 28, seed 001
-- `dynamicApiTools`).
--
-- * `api_sources`: one API a tenant registered, with its document (OpenAPI JSON/YAML, or
--   GraphQL SDL) and the document's SHA-256, the base URL calls go to, and which operations
--   or fields the tenant exposed. The tools are generated from these rows on every instance
--   (cached by hash), so a tool registered through one instance is callable through another.
-- * `api_credentials`: the tenant's secret for one security scheme of a source, AES-GCM
--   encrypted by the functions (the key is `GENERATED_TOOLS_KEY`, never in the database): a
--   reader of this table holds ciphertext only.
-- * `api_source_settings`: per tenant, the hosts a document URL may be fetched from and
--   whether its APIs may live on a private network. Only the service (an operator) writes it:
--   a model, even one acting for staff, cannot open the private network.
-- * `tool_catalog_versions`: the tenant's run-time tool catalog version, bumped by triggers in
--   the same transaction as any change to its sources or credentials; instances poll it (one
--   primary-key read) to know when to regenerate.
--
-- Tenancy: staff of the org read and write their org's sources and credentials (the tools
-- run as them); customers and other tenants read nothing.

create table public.api_sources (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- The prefix of every tool generated from it (`petstore` → `petstore_list_pets`).
  name text not null constraint api_sources_name_check check (name ~ '^[a-z][a-z0-9]{0,23}$'),
  kind text not null constraint api_sources_kind_check check (kind in ('openapi', 'graphql')),
  document text not null
    constraint api_sources_document_check check (octet_length(document) <= 5 * 1024 * 1024),
  document_hash text not null constraint api_sources_document_hash_check
    check (document_hash ~ '^[0-9a-f]{64}$'),
  -- Where the document was fetched from, when it came by URL.
  source_url text constraint api_sources_source_url_check check (length(source_url) <= 2000),
  base_url text not null
    constraint api_sources_base_url_check check (base_url ~ '^https?://' and length(base_url) <= 2000),
  -- Operation ids (OpenAPI) or `query.<field>` / `mutation.<field>` (GraphQL) the tenant chose
  -- beyond those the document marks `x-agent: {action: true}`.
  expose text[] not null default '{}'
    constraint api_sources_expose_check check (cardinality(expose) <= 500),
  -- The names of the tools generated, as listed back to staff.
  tools text[] not null default '{}',
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id),
  unique (org_id, name)
);

create table public.api_credentials (
  org_id uuid not null references public.orgs (id) on delete cascade,
  source_id uuid not null,
  -- The security scheme's name in the document (`components.securitySchemes`), or `default`.
  scheme text not null constraint api_credentials_scheme_check
    check (scheme ~ '^[A-Za-z0-9_.-]{1,64}$'),
  -- base64(iv ‖ AES-GCM ciphertext) of the JSON secret; `key_id` names the key it needs.
  ciphertext text not null constraint api_credentials_ciphertext_check
    check (length(ciphertext) between 24 and 20000),
  key_id text not null constraint api_credentials_key_id_check check (key_id ~ '^[0-9a-f]{8,64}$'),
  updated_at timestamptz not null default now(),
  primary key (source_id, scheme),
  foreign key (org_id, source_id) references public.api_sources (org_id, id) on delete cascade
);

create table public.api_source_settings (
  org_id uuid primary key references public.orgs (id) on delete cascade,
  -- Host names (lower case, exact) a document URL may be fetched from.
  url_allowlist text[] not null default '{}'
    constraint api_source_settings_allowlist_check check (cardinality(url_allowlist) <= 100),
  -- Calls and document fetches may reach loopback and private addresses (a tenant whose API
  -- runs beside ours; tests). Off by default: the SSRF guard refuses them.
  allow_private_network boolean not null default false,
  updated_at timestamptz not null default now()
);

create table public.tool_catalog_versions (
  org_id uuid primary key references public.orgs (id) on delete cascade,
  version bigint not null default 0,
  updated_at timestamptz not null default now()
);

create index api_sources_created_by_idx on public.api_sources (created_by);
create index api_credentials_org_source_idx on public.api_credentials (org_id, source_id);
create index api_credentials_org_id_idx on public.api_credentials (org_id);

-- The catalog version moves with every change, in the changing transaction.
create function private.bump_tool_catalog_version() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  changed uuid := coalesce(new.org_id, old.org_id);
begin
  insert into public.tool_catalog_versions as v (org_id, version, updated_at)
  values (changed, 1, now())
  on conflict (org_id) do update set version = v.version + 1, updated_at = now();
  return null;
end
$$;
revoke all on function private.bump_tool_catalog_version() from public;

create trigger api_sources_bump_catalog after insert or update or delete on public.api_sources
  for each row execute function private.bump_tool_catalog_version();
create trigger api_credentials_bump_catalog after insert or update or delete
  on public.api_credentials
  for each row execute function private.bump_tool_catalog_version();

-- Row level security ------------------------------------------------------------------

alter table public.api_sources enable row level security;
alter table public.api_credentials enable row level security;
alter table public.api_source_settings enable row level security;
alter table public.tool_catalog_versions enable row level security;

create policy api_sources_select on public.api_sources for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy api_sources_insert on public.api_sources for insert to authenticated
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy api_sources_update on public.api_sources for update to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy api_sources_delete on public.api_sources for delete to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));

create policy api_credentials_select on public.api_credentials for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy api_credentials_insert on public.api_credentials for insert to authenticated
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy api_credentials_update on public.api_credentials for update to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy api_credentials_delete on public.api_credentials for delete to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));

-- Staff see their settings; only the service (an operator) changes them.
create policy api_source_settings_select on public.api_source_settings for select
  to authenticated using (org_id in (select v.org_id from private.my_staff_memberships v));
revoke insert, update, delete on public.api_source_settings from anon, authenticated;

-- Instances read versions as the service; nobody else needs them.
revoke all on public.tool_catalog_versions from anon, authenticated;
