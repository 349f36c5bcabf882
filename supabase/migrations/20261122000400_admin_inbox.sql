-- Admin Inbox: internal notes on tickets, change times for the live queue,
-- and staff replies that reach the user on WhatsApp.

alter table public.staff_tickets add column updated_at timestamptz not null default now();
create index staff_tickets_org_updated_idx on public.staff_tickets (org_id, updated_at);

create function private.touch_updated_at() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger staff_tickets_touch before update on public.staff_tickets
  for each row execute function private.touch_updated_at();

create table public.ticket_notes (
  id uuid primary key default gen_random_uuid(),
  ticket_id uuid not null references public.staff_tickets (id) on delete cascade,
  org_id uuid not null references public.orgs (id) on delete cascade,
  author_id uuid not null references public.profiles (id) on delete cascade,
  body text not null check (length(body) between 1 and 4000),
  created_at timestamptz not null default now()
);
create index ticket_notes_ticket_id_idx on public.ticket_notes (ticket_id, created_at);
create index ticket_notes_org_id_idx on public.ticket_notes (org_id);
create index ticket_notes_author_id_idx on public.ticket_notes (author_id);
alter table public.ticket_notes enable row level security;
create policy ticket_notes_select on public.ticket_notes for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));
create policy ticket_notes_insert on public.ticket_notes for insert to authenticated
  with check (author_id = (select auth.uid()) and org_id in (select private.my_staff_org_ids()));

-- Staff notifications are staged in the tool's transaction and sent after
-- commit by the notification dispatcher, with retries.
alter table public.notification_outbox
  add column attempts int not null default 0,
  add column last_error text,
  add column sent_at timestamptz,
  add column next_attempt_at timestamptz not null default now();
create index notification_outbox_due_idx on public.notification_outbox (next_attempt_at)
  where status = 'recorded';
