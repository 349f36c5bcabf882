-- supabase_compat.sql: give a plain Postgres (Debian postgresql-15, PGlite) what
-- a NEW hosted Supabase project already has before its first migration, and
-- nothing more: the API roles, the `auth` schema with its helpers and a stand-in
-- auth.users, the `extensions` schema with the extensions Supabase enables by
-- default (pgcrypto, uuid-ossp, pg_stat_statements; pg_graphql and
-- supabase_vault do not exist outside Supabase), and Supabase's grants.
--
-- * Whatever our schema needs beyond that (cube, earthdistance, pg_trgm ...)
--   is created by supabase/migrations/, never here: CI applies this file and
--   then `supabase db push`, so a migration that relies on something a hosted
--   project lacks fails in CI, not on the operator's first deploy
--   (scripts/ci/check_supabase_cli.sh also refuses any extension this file
--   creates beyond the defaults).
-- * Run it BEFORE supabase/migrations/, as the role that will run them
--   (postgres). It lives outside supabase/migrations/ on purpose: hosted
--   Supabase already has all of this and must never get it from a migration.
-- * Idempotent: every object is created only where missing (checks against
--   pg_roles / pg_namespace / pg_proc / pg_class / pg_extension), and grants are
--   re-issued as they are. On a real Supabase database it changes nothing.
-- * Runs unchanged on Postgres 15 and on PGlite (Postgres 18 in WASM). PGlite
--   has only the contrib extensions passed to its constructor
--   (shared/db/pglite.ts); a default extension it lacks is skipped with a NOTICE.
-- * No psql meta-commands: it is executed as one multi-statement string too.
--
-- Mirrors Supabase's own setup (supabase/postgres initial schema + auth helpers).

-- ---------------------------------------------------------------------------
-- 1. API roles. Roles are cluster-wide, so tests that bootstrap several
--    databases in parallel can race: duplicate_object/unique_violation from a
--    concurrent CREATE ROLE is fine.
-- ---------------------------------------------------------------------------
do $compat$
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    begin
      create role anon nologin noinherit;
    exception when duplicate_object or unique_violation then null;
    end;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    begin
      create role authenticated nologin noinherit;
    exception when duplicate_object or unique_violation then null;
    end;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    begin
      create role service_role nologin noinherit bypassrls;
    exception when duplicate_object or unique_violation then null;
    end;
  end if;
  -- PostgREST logs in as authenticator and switches to one of the three.
  -- No password: our tests switch roles from the owner's connection instead.
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticator') then
    begin
      create role authenticator login noinherit;
    exception when duplicate_object or unique_violation then null;
    end;
  end if;
end
$compat$;

-- authenticator may become any API role; the role running migrations/tests
-- must be a member too so `set_config('role', 'authenticated', true)` and
-- `set local role ...` work even when it is not a superuser (as on Supabase,
-- where postgres is not one). Superusers are members of every role already.
do $compat$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated', 'service_role'] loop
    if not pg_catalog.pg_has_role('authenticator', r, 'member') then
      execute pg_catalog.format('grant %I to authenticator', r);
    end if;
    if not pg_catalog.pg_has_role(current_user, r, 'member') then
      execute pg_catalog.format('grant %I to %I', r, current_user);
    end if;
  end loop;
end
$compat$;

-- ---------------------------------------------------------------------------
-- 2. Schemas and extensions. Supabase keeps extensions in `extensions` and puts
--    that schema on the search_path of postgres and of API requests.
-- ---------------------------------------------------------------------------
do $compat$
begin
  if not exists (select 1 from pg_catalog.pg_namespace where nspname = 'extensions') then
    create schema extensions;
  end if;
  if not exists (select 1 from pg_catalog.pg_namespace where nspname = 'auth') then
    create schema auth;
  end if;
end
$compat$;

-- The extensions a new hosted project has enabled in `extensions` (supabase/
-- postgres tests them with extensions_are: plpgsql, pgcrypto, uuid-ossp,
-- pg_stat_statements, pg_graphql, supabase_vault; the last two are Supabase's
-- own and exist nowhere else). Do not add to this list: an extension our schema
-- needs is created by the migration that needs it.
do $compat$
declare
  ext text;
begin
  foreach ext in array array['pgcrypto', 'uuid-ossp', 'pg_stat_statements'] loop
    if exists (select 1 from pg_catalog.pg_extension where extname = ext) then
      continue;
    end if;
    if exists (select 1 from pg_catalog.pg_available_extensions where name = ext) then
      begin
        execute pg_catalog.format('create extension if not exists %I with schema extensions', ext);
      exception when insufficient_privilege then
        -- pg_stat_statements is not a trusted extension: a non-superuser on
        -- plain Postgres cannot create it (Supabase's supautils allows it).
        raise warning 'supabase_compat: cannot create extension %: %', ext, sqlerrm;
      end;
    else
      raise notice 'supabase_compat: extension % is not available here; skipped', ext;
    end if;
  end loop;
end
$compat$;

-- Supabase's postgres role sees "$user", public, extensions. Plain Postgres has
-- no `extensions` on its path: set it on the running role (like Supabase does;
-- a role setting, unlike a database one, survives CREATE DATABASE ... TEMPLATE)
-- and for this session. PGlite ignores role and database settings when it
-- starts (every instance, also one loaded from a dumped data dir, begins with
-- search_path = public), so re-run this script (~15 ms when nothing is
-- missing) or set search_path after opening one. Skipped where the path
-- already has `extensions`, i.e. on Supabase. Note that the role setting is
-- cluster-wide: it applies to every database this role connects to.
do $compat$
begin
  if pg_catalog.strpos(pg_catalog.current_setting('search_path'), 'extensions') = 0 then
    execute pg_catalog.format(
      'alter role %I set search_path = "$user", public, extensions', current_user
    );
    perform pg_catalog.set_config('search_path', '"$user", public, extensions', false);
  end if;
end
$compat$;

-- ---------------------------------------------------------------------------
-- 3. auth helpers, exactly as Supabase defines them: claims come from the
--    transaction-local `request.jwt.claims` (JSON) that PostgREST sets; the
--    legacy per-claim settings (request.jwt.claim.sub ...) are honoured first.
--    Created only if missing, never replaced.
-- ---------------------------------------------------------------------------
do $compat$
begin
  if not exists (
    select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'auth' and p.proname = 'uid' and p.pronargs = 0
  ) then
    execute $fn$
      create function auth.uid() returns uuid
      language sql stable
      as $body$
        select coalesce(
          nullif(current_setting('request.jwt.claim.sub', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
        )::uuid
      $body$
    $fn$;
    comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';
  end if;

  if not exists (
    select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'auth' and p.proname = 'role' and p.pronargs = 0
  ) then
    execute $fn$
      create function auth.role() returns text
      language sql stable
      as $body$
        select coalesce(
          nullif(current_setting('request.jwt.claim.role', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
        )::text
      $body$
    $fn$;
  end if;

  if not exists (
    select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'auth' and p.proname = 'email' and p.pronargs = 0
  ) then
    execute $fn$
      create function auth.email() returns text
      language sql stable
      as $body$
        select coalesce(
          nullif(current_setting('request.jwt.claim.email', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
        )::text
      $body$
    $fn$;
  end if;

  if not exists (
    select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'auth' and p.proname = 'jwt' and p.pronargs = 0
  ) then
    execute $fn$
      create function auth.jwt() returns jsonb
      language sql stable
      as $body$
        select coalesce(
          nullif(current_setting('request.jwt.claim', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')
        )::jsonb
      $body$
    $fn$;
  end if;
end
$compat$;

-- ---------------------------------------------------------------------------
-- 4. auth.users: a small subset of GoTrue's table, enough for foreign keys
--    (references auth.users (id) on delete cascade) and seed data. Like on
--    Supabase, the API roles get no table privileges on it.
-- ---------------------------------------------------------------------------
do $compat$
begin
  if not exists (
    select 1 from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'auth' and c.relname = 'users'
  ) then
    create table auth.users (
      id uuid primary key,
      aud varchar(255),
      role varchar(255),
      email text,
      phone text,
      encrypted_password varchar(255),
      email_confirmed_at timestamptz,
      phone_confirmed_at timestamptz,
      last_sign_in_at timestamptz,
      raw_app_meta_data jsonb,
      raw_user_meta_data jsonb,
      is_anonymous boolean not null default false,
      created_at timestamptz default now(),
      updated_at timestamptz
    );
    create unique index users_phone_key on auth.users (phone);
    create index users_email_idx on auth.users (email);
    comment on table auth.users is
      'supabase_compat: minimal stand-in for GoTrue''s auth.users (plain Postgres only)';
  end if;
end
$compat$;

-- ---------------------------------------------------------------------------
-- 5. Privileges the way Supabase grants them. Tables in public are fully
--    granted to the API roles; row level security is what fences rows.
--    (Default privileges apply to objects later created by current_user, the
--    role that runs the migrations.)
-- ---------------------------------------------------------------------------
grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
grant usage on schema auth to anon, authenticated, service_role;

alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
