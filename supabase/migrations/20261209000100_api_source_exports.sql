-- Each generated tool's definition in each export dialect (MCP, JSON Schema, Anthropic, Gemini),
-- made once by the instance that registered the source and read by every other instance, which
-- then lists the source's tools without converting them again. One row per source and dialect.
--
-- `content_key` is what the definitions are made of (the export code's version, the document's
-- hash and the stored plans' shape): a source registered again from a changed document has
-- another key, so its old row is never read (and is replaced by the next registration's). The
-- definitions are JSON text, not jsonb: jsonb reorders keys, and a listing is served as written.
--
-- Only the service writes (the instance's sync, after a registration); staff of the org read their
-- own sources' rows as they read the sources; other tenants and customers see nothing.

create table public.api_source_exports (
  org_id uuid not null,
  source_id uuid not null,
  format text not null constraint api_source_exports_format_check
    check (format ~ '^[a-z0-9:_-]{1,40}$'),
  content_key text not null constraint api_source_exports_content_key_check
    check (length(content_key) <= 512),
  tools integer not null constraint api_source_exports_tools_check check (tools >= 0),
  exports text not null constraint api_source_exports_exports_check
    check (octet_length(exports) <= 16 * 1024 * 1024 and jsonb_typeof(exports::jsonb) = 'object'),
  updated_at timestamptz not null default now(),
  primary key (source_id, format),
  foreign key (org_id, source_id) references public.api_sources (org_id, id) on delete cascade
);

create index api_source_exports_org_source_idx on public.api_source_exports (org_id, source_id);

comment on table public.api_source_exports is
  'Generated tools'' definitions per export dialect, made once and read by every instance (service writes only).';

alter table public.api_source_exports enable row level security;

create policy api_source_exports_select on public.api_source_exports for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));

revoke insert, update, delete, truncate on public.api_source_exports from anon, authenticated;
