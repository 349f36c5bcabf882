-- Legal intake (issue 27, item 2): the cases a client files with the Legal
-- Intake agent, the documents they sent with it, and each org's consultation
-- fee.
--
-- Conventions as in 20261124000500: RLS on every table, policies read the
-- caller's orgs from private.my_memberships / my_staff_memberships,
-- `(select auth.uid())`, functions with `set search_path = ''`, composite
-- same-org foreign keys (a person a row names is a member of the row's org),
-- an index on every foreign key.
--
-- A case's reference number (`LC-2026-000123`) is the database's: a trigger
-- takes the next number of the org's counter for the case's year (its
-- `created_at` in Kigali, so an injected clock decides the year), whatever
-- the insert said. The counter row is taken with `insert … on conflict do
-- update … returning`, which locks it: two cases filed at once wait on each
-- other for that row and never get the same number (a unique index backs it).

-- Settings ---------------------------------------------------------------------

-- What an org charges for a first consultation, and who is paid. No row, or a
-- null fee: no charge. A fee without a payee phone is paid to the org's own
-- merchant account (orgs.momo_merchant_code / momo_merchant_phone).
create table public.legal_intake_settings (
  org_id uuid primary key references public.orgs (id) on delete cascade,
  consultation_fee_rwf int check (consultation_fee_rwf between 1 and 5000000),
  payee_phone text check (payee_phone ~ '^\+2507[0-9]{8}$'),
  payee_name text check (length(payee_name) between 1 and 80),
  updated_at timestamptz not null default now(),
  check (payee_name is null or payee_phone is not null)
);

comment on table public.legal_intake_settings is
  'Per org: the legal consultation fee (whole RWF) and whose MoMo number is paid; none = free.';

-- Cases ------------------------------------------------------------------------

create table private.legal_case_counters (
  org_id uuid not null references public.orgs (id) on delete cascade,
  year int not null check (year between 2000 and 9999),
  last_value int not null check (last_value >= 1),
  primary key (org_id, year)
);
revoke all on private.legal_case_counters from public;

create table public.legal_cases (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  client_id uuid not null references public.profiles (id) on delete restrict,
  -- Set by legal_cases_reference, never by the writer.
  reference_number text not null check (reference_number ~ '^LC-[0-9]{4}-[0-9]{6,}$'),
  category text not null check (category in (
    'land', 'family', 'labour', 'tenancy', 'contract', 'debt', 'business', 'criminal',
    'notary', 'other')),
  summary text not null check (length(summary) between 10 and 2000),
  client_name text not null check (length(client_name) between 2 and 120),
  client_phone text not null check (client_phone ~ '^\+[1-9][0-9]{7,14}$'),
  language text not null default 'en' check (language in ('en', 'rw', 'fr')),
  status text not null default 'new'
    check (status in ('new', 'in_review', 'accepted', 'declined', 'closed')),
  created_at timestamptz not null default now(),
  unique (org_id, reference_number),
  unique (org_id, id)
);
create index legal_cases_client_id_idx on public.legal_cases (client_id);
create index legal_cases_org_client_idx on public.legal_cases (org_id, client_id);
create index legal_cases_org_created_idx on public.legal_cases (org_id, created_at);
alter table public.legal_cases
  add constraint legal_cases_client_id_member_fkey
  foreign key (org_id, client_id) references public.org_members (org_id, user_id);

create function private.assign_legal_case_reference() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_year int := extract(year from (new.created_at at time zone 'Africa/Kigali'))::int;
  v_next int;
begin
  insert into private.legal_case_counters as c (org_id, year, last_value)
  values (new.org_id, v_year, 1)
  on conflict (org_id, year) do update set last_value = c.last_value + 1
  returning c.last_value into v_next;
  new.reference_number := 'LC-' || v_year || '-' || case
    when v_next < 1000000 then lpad(v_next::text, 6, '0') else v_next::text end;
  return new;
end;
$$;
-- A trigger function needs no grant to fire; nobody calls it directly.
revoke all on function private.assign_legal_case_reference() from public;

create trigger legal_cases_reference before insert on public.legal_cases
  for each row execute function private.assign_legal_case_reference();

-- What was filed stays as filed: staff move a case's status, nothing else.
revoke update on public.legal_cases from authenticated;
grant update (status) on public.legal_cases to authenticated;

-- The staff ticket a case opened names it, so the Admin Inbox can show the case
-- (its reference is in the ticket's reason). Raised after the case, by the
-- same transaction; a client never edits either.
alter table public.staff_tickets add column legal_case_id uuid;
alter table public.staff_tickets
  add constraint staff_tickets_legal_case_same_org_fkey
  foreign key (org_id, legal_case_id) references public.legal_cases (org_id, id) on delete set null (legal_case_id);
create index staff_tickets_legal_case_idx on public.staff_tickets (org_id, legal_case_id);

-- Documents --------------------------------------------------------------------

-- A file the client sent with the case, as Storage keeps it (the `media`
-- bucket, under the org's folder): referenced, never copied.
create table public.legal_case_documents (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  case_id uuid not null,
  position int not null check (position between 0 and 9),
  bucket text not null check (bucket in ('media', 'documents')),
  path text not null check (length(path) between 3 and 1024 and path like org_id::text || '/%'),
  created_at timestamptz not null default now(),
  unique (case_id, position),
  foreign key (org_id, case_id) references public.legal_cases (org_id, id) on delete cascade
);
create index legal_case_documents_org_case_idx on public.legal_case_documents (org_id, case_id);

-- Policies ---------------------------------------------------------------------

alter table public.legal_intake_settings enable row level security;
alter table public.legal_cases enable row level security;
alter table public.legal_case_documents enable row level security;

create policy legal_intake_settings_select on public.legal_intake_settings
  for select to authenticated
  using (org_id in (select v.org_id from private.my_memberships v));
create policy legal_intake_settings_insert on public.legal_intake_settings
  for insert to authenticated
  with check (org_id in (select v.org_id from private.my_staff_memberships v));
create policy legal_intake_settings_update on public.legal_intake_settings
  for update to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));

-- A client sees their own cases; staff see their org's.
create policy legal_cases_select on public.legal_cases for select to authenticated
  using (
    client_id = (select auth.uid())
    or org_id in (select v.org_id from private.my_staff_memberships v)
  );
create policy legal_cases_insert on public.legal_cases for insert to authenticated
  with check (
    client_id = (select auth.uid())
    and org_id in (select v.org_id from private.my_memberships v)
  );
create policy legal_cases_update on public.legal_cases for update to authenticated
  using (org_id in (select v.org_id from private.my_staff_memberships v))
  with check (org_id in (select v.org_id from private.my_staff_memberships v));

-- A document is seen by whoever sees its case (legal_cases' own policy decides).
create policy legal_case_documents_select on public.legal_case_documents
  for select to authenticated
  using (case_id in (select c.id from public.legal_cases c));
create policy legal_case_documents_insert on public.legal_case_documents
  for insert to authenticated
  with check (
    case_id in (select c.id from public.legal_cases c where c.client_id = (select auth.uid()))
    and org_id in (select v.org_id from private.my_memberships v)
  );
