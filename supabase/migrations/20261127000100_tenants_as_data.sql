-- Tenants are data: one deployment serves every tenant, and the tenant of a
-- WhatsApp message is the one that owns the business number it was sent to.
--
-- - `orgs` gains what agents and texts speak with: the brand (the name agents
--   speak as; the org's name when null), country (ISO 3166-1 alpha-2), time
--   zone (IANA), currency (ISO 4217) and the languages it serves (the first
--   is its default).
-- - `tenant_whatsapp_numbers` maps Meta's `phone_number_id` to its tenant.
--   Credentials are never stored: a row names the environment variables
--   (secrets) that hold the number's access token and its Meta app secret.
--   Members read their org's numbers; only the platform service writes.
-- - `private.wa_inbound.org_id` records the tenant the webhook picked for each
--   stored message, so processing never guesses it again.
-- - A WhatsApp user's 24-hour window is per tenant: the same person writing to
--   two tenants' numbers has two windows, each in its tenant's rows.

alter table public.orgs
  add column brand_name text
    constraint orgs_brand_name_check check (length(brand_name) between 1 and 100),
  add column country text
    constraint orgs_country_check check (country ~ '^[A-Z]{2}$'),
  add column time_zone text not null default 'UTC'
    constraint orgs_time_zone_check check (time_zone ~ '^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$'),
  add column currency text
    constraint orgs_currency_check check (currency ~ '^[A-Z]{3}$'),
  add column languages text[] not null default '{en}'
    constraint orgs_languages_check
      check (cardinality(languages) between 1 and 3 and languages <@ array['en', 'rw', 'fr']);

comment on column public.orgs.brand_name is
  'The name the tenant''s agents speak as; the org''s name when null.';
comment on column public.orgs.languages is
  'Languages the tenant serves (en, rw, fr); the first is its default.';

create table public.tenant_whatsapp_numbers (
  phone_number_id text primary key check (phone_number_id ~ '^[0-9]{1,32}$'),
  org_id uuid not null references public.orgs (id) on delete cascade,
  display_number text check (display_number ~ '^\+[1-9][0-9]{7,14}$'),
  -- Names of environment variables, never their values.
  token_secret_name text not null check (token_secret_name ~ '^[A-Z][A-Z0-9_]{0,99}$'),
  app_secret_name text not null check (app_secret_name ~ '^[A-Z][A-Z0-9_]{0,99}$'),
  created_at timestamptz not null default now()
);
create index tenant_whatsapp_numbers_org_idx on public.tenant_whatsapp_numbers (org_id);
revoke all on public.tenant_whatsapp_numbers from public, anon, authenticated;
grant select on public.tenant_whatsapp_numbers to authenticated;
alter table public.tenant_whatsapp_numbers enable row level security;
create policy tenant_whatsapp_numbers_select on public.tenant_whatsapp_numbers for select
  to authenticated using (org_id in (select org_id from private.my_memberships));

alter table private.wa_inbound
  add column org_id uuid references public.orgs (id) on delete cascade;
-- Removing an org removes its inbound rows through this index.
create index wa_inbound_org_idx on private.wa_inbound (org_id);
update private.wa_inbound i set org_id = n.org_id
  from public.tenant_whatsapp_numbers n where n.phone_number_id = i.phone_number_id;

alter table public.wa_contacts drop constraint wa_contacts_pkey;
alter table public.wa_contacts add primary key (org_id, wa_id);
create index wa_contacts_wa_id_idx on public.wa_contacts (wa_id);
