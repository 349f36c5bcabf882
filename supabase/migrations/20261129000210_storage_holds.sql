-- Files a record still names outlive their bucket's retention (issue 27, item 2).
--
-- The retention sweep removes `media` files after 30 days: right for a photo
-- read once (a carte jaune), wrong for the documents a client filed with a
-- legal case, which the lawyers need as long as the case exists. A hold names
-- an object and what holds it; the sweep skips held objects. Holds are
-- written by triggers of the tables that reference files (here the legal
-- case documents), so no writer can forget one, and only the connecting role
-- reads them.

create table private.storage_holds (
  bucket_id text not null,
  name text not null,
  held_by text not null check (length(held_by) between 1 and 200),
  created_at timestamptz not null default now(),
  primary key (bucket_id, name, held_by)
);
create index storage_holds_held_by_idx on private.storage_holds (held_by);
revoke all on private.storage_holds from public;

create function private.hold_legal_case_document() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into private.storage_holds (bucket_id, name, held_by)
    values (new.bucket, new.path, 'legal_case_documents:' || new.id)
    on conflict do nothing;
    return new;
  end if;
  delete from private.storage_holds where held_by = 'legal_case_documents:' || old.id;
  return old;
end;
$$;
-- A trigger function needs no grant to fire; nobody calls it directly.
revoke all on function private.hold_legal_case_document() from public;

create trigger legal_case_documents_hold after insert or delete on public.legal_case_documents
  for each row execute function private.hold_legal_case_document();
