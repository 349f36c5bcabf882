-- Generated tools: (1) the plans a registration made, kept next to the document they came
-- from; (2) an org's admins set its document-URL allowlist; (3) a change of a tenant's settings
-- moves its catalog version.
--
-- (1)
-- Registration validates the document and maps every exposed operation (hundreds of
-- milliseconds for a large API); it now also stores the result: per tool its name, the input
-- and output JSON Schema it is listed with, a checked example and how it is sent. Every other
-- instance reads these instead of validating and mapping the document again, so a cold sync of
-- 200 tools costs milliseconds. `plans` is written in the same statement as `document`,
-- `document_hash` and `expose`, so it always belongs to them; a row without plans (registered
-- before this migration) is mapped from its document as before.
--
-- The column follows the row's policies (staff of the org). A plan gives staff nothing their
-- document does not: the functions accept a stored plan only under a name of the source's own
-- tools, and every call still goes through the SSRF-checked fetcher and the tenant's policy.

alter table public.api_sources
  add column plans jsonb
    constraint api_sources_plans_check
      check (plans is null or (jsonb_typeof(plans) = 'object' and pg_column_size(plans) <= 32 * 1024 * 1024));

comment on column public.api_sources.plans is
  'The operation plans registration made from document (version, tools with their JSON Schemas); null: map document.';

-- (2) The URL allowlist (hosts a document may be fetched from) is the org admins' to set,
-- through `api_url_allowlist_set` or directly: they may insert their org's row and change
-- `url_allowlist` (and `updated_at`), nothing else. Plain staff, customers and other tenants
-- cannot. `allow_private_network` stays the service's (an operator's) alone: it lets the
-- tenant's calls reach addresses next to ours (loopback, the private network, cloud metadata),
-- which is a decision about our network, not the tenant's; no grant below names it, so an
-- admin's insert takes its default (false) and no update by an admin can change it.

grant insert (org_id, url_allowlist, updated_at), update (url_allowlist, updated_at)
  on public.api_source_settings to authenticated;

create policy api_source_settings_admin_insert on public.api_source_settings for insert
  to authenticated
  with check (org_id in (select v.org_id from private.my_memberships v where v.role = 'admin'));
create policy api_source_settings_admin_update on public.api_source_settings for update
  to authenticated
  using (org_id in (select v.org_id from private.my_memberships v where v.role = 'admin'))
  with check (org_id in (select v.org_id from private.my_memberships v where v.role = 'admin'));

-- Host names only: lower case letters, digits, dots and hyphens (or an IP literal), each at
-- most 253 characters.
alter table public.api_source_settings
  add constraint api_source_settings_allowlist_hosts_check check (
    array_to_string(url_allowlist, ' ') ~ '^([a-z0-9.:-]{1,253}( |$))*$'
  );

-- (3) Instances key a source's tools on the tenant's private-network setting; the version
-- they poll must move when it (or the allowlist) changes, or they would keep the old binding.
create trigger api_source_settings_bump_catalog after insert or update or delete
  on public.api_source_settings
  for each row execute function private.bump_tool_catalog_version();
