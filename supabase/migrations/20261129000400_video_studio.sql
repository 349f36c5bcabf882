-- Sora-2 Video (issue 27, seed 000 I): the tables behind `sora_generate_video`.
--
-- * `country_palettes`: the colours a country's ads may use (the country pack's palette, as
--   data). A tenant's palette is its country's (`orgs.country`); a brand kit or a prompt with a
--   colour outside it is refused before any provider call.
-- * `brand_kits`: a tenant's brand (name, palette, logo in Storage, tone of voice).
-- * `video_consents`: consent of a person who appears in a reference image (who, for what, when,
--   and the proof), revocable.
-- * `video_jobs`: one generation (or remix) job, from `queued` to `complete` or `failed`. The
--   model's sizes are a constraint here too, so no writer (the service included) stores a job
--   the provider would refuse.
--
-- Tenancy: staff of the org read and write their org's kits, consents and jobs; a customer,
-- a vendor or another tenant's staff reads nothing. Jobs move status only as the service (the
-- background poll): staff cannot mark a job complete.

create table public.country_palettes (
  country text primary key constraint country_palettes_country_check check (country ~ '^[A-Z]{2}$'),
  -- Upper-case #RRGGBB, 1 to 32 of them.
  colours text[] not null
    constraint country_palettes_colours_check
      check (cardinality(colours) between 1 and 32
        and array_to_string(colours, ',') ~ '^#[0-9A-F]{6}(,#[0-9A-F]{6})*$'),
  updated_at timestamptz not null default now()
);

comment on table public.country_palettes is
  'Colours a country''s video ads may use; a tenant''s palette is its country''s (orgs.country).';

create table public.brand_kits (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  name text not null constraint brand_kits_name_check check (length(btrim(name)) between 1 and 100),
  palette text[] not null
    constraint brand_kits_palette_check
      check (cardinality(palette) between 1 and 12
        and array_to_string(palette, ',') ~ '^#[0-9A-F]{6}(,#[0-9A-F]{6})*$'),
  -- `<org_id>/…` in the media bucket.
  logo_path text constraint brand_kits_logo_path_check
    check (logo_path ~ '^[0-9a-f-]{36}/[A-Za-z0-9._/-]{1,250}$'),
  tone text constraint brand_kits_tone_check check (length(tone) <= 500),
  created_at timestamptz not null default now(),
  unique (org_id, id),
  unique (org_id, name)
);

create table public.video_consents (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- The person who appears, as named on the consent.
  person text not null constraint video_consents_person_check
    check (length(btrim(person)) between 1 and 200),
  -- What the consent covers: video ads, or all marketing.
  scope text not null constraint video_consents_scope_check
    check (scope in ('video_ads', 'all_marketing')),
  given_at timestamptz not null,
  -- Where the signed form or recording is (a Storage path, a reference), never empty.
  proof text not null constraint video_consents_proof_check
    check (length(btrim(proof)) between 1 and 1000),
  revoked_at timestamptz,
  recorded_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (org_id, id),
  constraint video_consents_recorded_by_member_fkey foreign key (org_id, recorded_by)
    references public.org_members (org_id, user_id) on delete set null (recorded_by)
);

create table public.video_jobs (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- Who asked, and gets the video; cleared when they leave the org (the job stays the org's).
  requester_id uuid references public.profiles (id) on delete set null,
  model text not null constraint video_jobs_model_check check (model in ('sora-2', 'sora-2-pro')),
  size text not null,
  seconds int not null constraint video_jobs_seconds_check check (seconds in (4, 8, 12)),
  -- The structured brief as given, and the text sent to the provider.
  prompt jsonb not null,
  prompt_text text not null constraint video_jobs_prompt_text_check
    check (length(prompt_text) between 1 and 8000),
  brand_kit_id uuid not null,
  -- [{path, consent_ids}]: Storage paths in the org's media, and the consents of who they show.
  reference_images jsonb not null default '[]'::jsonb
    constraint video_jobs_reference_images_check check (jsonb_typeof(reference_images) = 'array'),
  provider_job_id text unique constraint video_jobs_provider_job_id_check
    check (length(provider_job_id) between 1 and 200),
  status text not null default 'queued'
    constraint video_jobs_status_check check (status in ('queued', 'processing', 'complete', 'failed')),
  progress int not null default 0 constraint video_jobs_progress_check check (progress between 0 and 100),
  error text constraint video_jobs_error_check check (length(error) <= 1000),
  -- `media/<org_id>/videos/<job id>.mp4` once complete.
  result_path text,
  result_bytes int,
  remix_of uuid,
  -- The requester's language, for the messages the poll sends them.
  language text not null default 'en' constraint video_jobs_language_check
    check (language in ('en', 'rw', 'fr')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  unique (org_id, id),
  constraint video_jobs_requester_id_member_fkey foreign key (org_id, requester_id)
    references public.org_members (org_id, user_id) on delete set null (requester_id),
  foreign key (org_id, brand_kit_id) references public.brand_kits (org_id, id) on delete restrict,
  foreign key (org_id, remix_of) references public.video_jobs (org_id, id) on delete set null (remix_of),
  -- sora-2 renders 1280x720 and 720x1280; sora-2-pro adds 1024x1792 and 1792x1024.
  constraint video_jobs_size_check check (
    size in ('1280x720', '720x1280')
    or (model = 'sora-2-pro' and size in ('1024x1792', '1792x1024'))
  ),
  constraint video_jobs_complete_check check (status <> 'complete' or result_path is not null),
  constraint video_jobs_failed_check check (status <> 'failed' or error is not null)
);

create index brand_kits_org_id_idx on public.brand_kits (org_id);
create index video_consents_org_id_idx on public.video_consents (org_id);
create index video_consents_recorded_by_idx on public.video_consents (recorded_by);
create index video_consents_org_recorded_by_idx on public.video_consents (org_id, recorded_by);
create index video_jobs_org_status_idx on public.video_jobs (org_id, status, created_at);
create index video_jobs_requester_id_idx on public.video_jobs (requester_id);
create index video_jobs_org_requester_idx on public.video_jobs (org_id, requester_id);
create index video_jobs_brand_kit_idx on public.video_jobs (org_id, brand_kit_id);
create index video_jobs_brand_kit_id_idx on public.video_jobs (brand_kit_id);
create index video_jobs_remix_of_idx on public.video_jobs (org_id, remix_of);
create index video_jobs_remix_of_id_idx on public.video_jobs (remix_of);

-- Row level security ------------------------------------------------------------------

alter table public.country_palettes enable row level security;
alter table public.brand_kits enable row level security;
alter table public.video_consents enable row level security;
alter table public.video_jobs enable row level security;

-- A country's palette is public knowledge; only the service changes it.
create policy country_palettes_select on public.country_palettes for select to authenticated
  using (true);
revoke insert, update, delete on public.country_palettes from anon, authenticated;

create policy brand_kits_select on public.brand_kits for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy brand_kits_insert on public.brand_kits for insert to authenticated
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy brand_kits_update on public.brand_kits for update to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy brand_kits_delete on public.brand_kits for delete to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));

create policy video_consents_select on public.video_consents for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy video_consents_insert on public.video_consents for insert to authenticated
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
-- Revoking is an update (revoked_at); a consent is never deleted, it is the record.
create policy video_consents_update on public.video_consents for update to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
revoke delete on public.video_consents from anon, authenticated;

create policy video_jobs_select on public.video_jobs for select to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v));
create policy video_jobs_insert on public.video_jobs for insert to authenticated
  with check (
    requester_id = (select auth.uid())
    and org_id in (select v.org_id from private.my_staff_memberships v)
    and status = 'queued' and provider_job_id is null and result_path is null
  );
-- Status, provider id and result are the background poll's (the service's) to write.
revoke update, delete on public.video_jobs from anon, authenticated;

-- Outbound video messages (the finished clip, by a signed Storage link).
alter table public.wa_outbox drop constraint wa_outbox_kind_check;
alter table public.wa_outbox add constraint wa_outbox_kind_check
  check (kind in ('text', 'buttons', 'list', 'template', 'image', 'document', 'video'));
