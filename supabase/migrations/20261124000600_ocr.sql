-- Document extractions (ocr_extract, issue 14): the fields read from a
-- customer's document photo, their confidence and validation notes, and the
-- redaction log of the raw image ("raw media redacted post-extraction").
-- The raw image itself lives in Storage (media bucket) until the extraction
-- deletes it; this row keeps only the Storage path it came from.

create table public.document_extractions (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  -- The customer whose document it is (the caller).
  user_id uuid not null references public.profiles (id) on delete cascade,
  conversation_id uuid,
  document_type text not null
    check (document_type in ('vehicle_registration', 'id_card', 'license', 'policy')),
  provider text not null check (provider in ('tesseract', 'openai')),
  -- {field: value}, {field: 0..1}, {field: note}
  fields jsonb not null,
  field_confidence jsonb not null,
  notes jsonb not null default '{}'::jsonb,
  confidence numeric(4, 3) not null check (confidence between 0 and 1),
  source_bucket text not null,
  source_path text not null check (length(source_path) <= 1024),
  -- Redaction log: when the raw image was deleted, or why it was not.
  raw_redacted_at timestamptz,
  raw_redaction_note text,
  extracted_at timestamptz not null default now(),
  foreign key (org_id, conversation_id) references public.conversations (org_id, id)
    on delete set null (conversation_id)
);
create index document_extractions_org_extracted_idx
  on public.document_extractions (org_id, extracted_at);
create index document_extractions_user_id_idx on public.document_extractions (user_id);
create index document_extractions_org_conversation_idx
  on public.document_extractions (org_id, conversation_id);

alter table public.document_extractions enable row level security;

-- The customer reads their own extractions; staff read their org's.
create policy document_extractions_select on public.document_extractions for select
  to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
-- ocr_extract writes as the customer, in one of the customer's orgs.
create policy document_extractions_insert on public.document_extractions for insert
  to authenticated
  with check (user_id = (select auth.uid()) and org_id in (select private.my_org_ids()));
-- The redaction log is filled in by the same call after the raw image is deleted.
create policy document_extractions_update on public.document_extractions for update
  to authenticated
  using (user_id = (select auth.uid()) and org_id in (select private.my_org_ids()))
  with check (user_id = (select auth.uid()) and org_id in (select private.my_org_ids()));

grant select, insert, update on public.document_extractions to authenticated;
grant select, insert, update, delete on public.document_extractions to service_role;
