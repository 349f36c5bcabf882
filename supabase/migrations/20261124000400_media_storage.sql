-- Media and documents in Storage (issue 14).
--
-- Supabase keeps file metadata in storage.buckets / storage.objects and
-- enforces RLS on storage.objects for every Storage API request. On Supabase
-- that schema exists; on a plain Postgres (PGlite, Debian's Postgres 15, the
-- CLI check) the minimal shape our local Storage server uses is created here
-- only when it is absent, so this one migration runs on all of them.
--
-- Path convention, in both buckets: `<org_id>/<conversation_id>/<file>`, or
-- `<org_id>/<folder>/<file>` for files of no conversation. Staff and admins
-- reach their own org's files; a customer reaches only the files of their
-- own conversations (the second segment), in an org they belong to.

do $storage$
begin
  if not exists (select 1 from pg_catalog.pg_namespace where nspname = 'storage') then
    create schema storage;
  end if;
  if to_regclass('storage.buckets') is null then
    create table storage.buckets (
      id text primary key,
      name text not null unique,
      owner uuid,
      public boolean not null default false,
      file_size_limit bigint,
      allowed_mime_types text[],
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    alter table storage.buckets enable row level security;
  end if;
  if to_regclass('storage.objects') is null then
    create table storage.objects (
      id uuid primary key default gen_random_uuid(),
      bucket_id text not null references storage.buckets (id),
      name text not null,
      owner uuid,
      owner_id text,
      metadata jsonb,
      user_metadata jsonb,
      version text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_accessed_at timestamptz not null default now(),
      unique (bucket_id, name)
    );
    alter table storage.objects enable row level security;
    -- What the retention sweep reads: a bucket's objects oldest first.
    create index objects_bucket_created_idx on storage.objects (bucket_id, created_at);
    -- Supabase grants these itself; here the roles get what the Storage API's would.
    grant usage on schema storage to authenticated, service_role;
    grant select, insert, update, delete on storage.objects to authenticated, service_role;
    grant select on storage.buckets to authenticated, service_role;
    grant insert, update, delete on storage.buckets to service_role;
  end if;
end
$storage$;

-- Both private: every read goes through RLS or a signed URL that expires.
-- Caps follow WhatsApp's own media limits (docs/whatsapp.md): 100 MB documents.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('media', 'media', false, 104857600, null),
  ('documents', 'documents', false, 104857600, array['application/pdf'])
on conflict (id) do nothing;

-- The conversations the caller is the customer of (a security definer read,
-- so the policy needs no join through conversations' own RLS).
create function private.my_conversation_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select c.id from public.conversations c where c.user_id = (select auth.uid())
$$;
revoke all on function private.my_conversation_ids() from public;
grant execute on function private.my_conversation_ids() to authenticated, service_role;

-- One policy per action (several permissive ones would be OR-ed and flagged).
create policy easymo_files_select on storage.objects for select to authenticated
  using (
    bucket_id in ('media', 'documents')
    and (
      split_part(name, '/', 1) in (select s::text from private.my_staff_org_ids() s)
      or (
        split_part(name, '/', 1) in (select o::text from private.my_org_ids() o)
        and split_part(name, '/', 2) in (select c::text from private.my_conversation_ids() c)
      )
    )
  );
create policy easymo_files_insert on storage.objects for insert to authenticated
  with check (
    bucket_id in ('media', 'documents')
    and split_part(name, '/', 1) in (select s::text from private.my_staff_org_ids() s)
  );
create policy easymo_files_update on storage.objects for update to authenticated
  using (
    bucket_id in ('media', 'documents')
    and split_part(name, '/', 1) in (select s::text from private.my_staff_org_ids() s)
  )
  with check (
    bucket_id in ('media', 'documents')
    and split_part(name, '/', 1) in (select s::text from private.my_staff_org_ids() s)
  );
create policy easymo_files_delete on storage.objects for delete to authenticated
  using (
    bucket_id in ('media', 'documents')
    and split_part(name, '/', 1) in (select s::text from private.my_staff_org_ids() s)
  );

-- Retention: how long each bucket keeps a file before the sweep removes it
-- (through the Storage API, so the bytes go too). Raw media is personal data
-- (ID cards, registrations): kept 30 days unless the OCR step removes it
-- sooner; generated documents 400 days (a certificate outlives its year).
create table private.storage_retention (
  bucket_id text primary key,
  keep_for interval not null check (keep_for > interval '0')
);
alter table private.storage_retention enable row level security;
insert into private.storage_retention (bucket_id, keep_for)
values ('media', interval '30 days'), ('documents', interval '400 days')
on conflict (bucket_id) do nothing;
