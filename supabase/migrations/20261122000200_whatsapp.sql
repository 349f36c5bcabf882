-- WhatsApp channel: inbound deliveries (stored before the 200, deduplicated by
-- wamid, processed after), the outbox every outbound message goes through,
-- and each contact's 24-hour customer-service window.

-- Inbound: written by the webhook (connecting role) only; not exposed.
create table private.wa_inbound (
  wamid text primary key,
  phone_number_id text not null,
  from_wa_id text not null check (from_wa_id ~ '^[0-9]{6,15}$'),
  profile_name text,
  type text not null,
  message jsonb not null,
  context_wamid text,
  sent_at timestamptz not null,
  received_at timestamptz not null default now(),
  status text not null default 'pending' check (status in ('pending', 'processing', 'done', 'failed')),
  attempts int not null default 0,
  locked_until timestamptz,
  processed_at timestamptz,
  last_error text
);
-- The recovery sweep reads unfinished rows oldest first.
create index wa_inbound_unfinished_idx on private.wa_inbound (received_at)
  where status in ('pending', 'processing');
revoke all on private.wa_inbound from public, anon, authenticated;
alter table private.wa_inbound enable row level security;

-- The 24-hour window: opened (and reset) by each inbound message; our own
-- messages never reset it.
create table public.wa_contacts (
  wa_id text primary key check (wa_id ~ '^[0-9]{6,15}$'),
  org_id uuid not null references public.orgs (id) on delete cascade,
  profile_name text,
  last_inbound_at timestamptz,
  created_at timestamptz not null default now()
);
create index wa_contacts_org_id_idx on public.wa_contacts (org_id);
alter table public.wa_contacts enable row level security;
create policy wa_contacts_select on public.wa_contacts for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));

-- Outbound: every message is queued here (in the sender's transaction), then
-- dispatched after commit by the Graph API adapter or, locally, recorded.
create table public.wa_outbox (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id) on delete cascade,
  to_wa_id text not null check (to_wa_id ~ '^[0-9]{6,15}$'),
  kind text not null check (kind in ('text', 'buttons', 'list', 'template')),
  -- The Graph API message body, without `to`.
  body jsonb not null,
  -- Sent instead when the 24-hour window is closed (approved template).
  fallback_template jsonb,
  idempotency_key text not null unique check (length(idempotency_key) between 1 and 255),
  conversation_id uuid references public.conversations (id) on delete set null,
  status text not null default 'queued'
    check (status in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed')),
  wamid text unique,
  -- What Meta was given: the fallback template when the window was closed.
  sent_as_template boolean not null default false,
  attempts int not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error_code int,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  updated_at timestamptz not null default now()
);
create index wa_outbox_due_idx on public.wa_outbox (next_attempt_at) where status = 'queued';
create index wa_outbox_org_created_idx on public.wa_outbox (org_id, created_at);
create index wa_outbox_to_idx on public.wa_outbox (to_wa_id, created_at);
create index wa_outbox_conversation_id_idx on public.wa_outbox (conversation_id);
alter table public.wa_outbox enable row level security;
create policy wa_outbox_select on public.wa_outbox for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));

-- Statuses only move forward: queued < sending < sent < delivered < read;
-- failed ends a message that was not yet delivered.
create function private.wa_status_rank(p_status text) returns int
language sql immutable set search_path = ''
as $$
  select case p_status
    when 'queued' then 0 when 'sending' then 1 when 'sent' then 2
    when 'failed' then 3 when 'delivered' then 4 when 'read' then 5 end
$$;
revoke all on function private.wa_status_rank(text) from public;

-- Where the deterministic conversation handlers keep their step (the LangGraph
-- agent keeps its own checkpoints).
alter table public.conversations add column state jsonb not null default '{}'::jsonb;
-- One open WhatsApp conversation per user and org.
create unique index conversations_open_whatsapp_idx on public.conversations (org_id, user_id)
  where channel = 'whatsapp' and status <> 'closed';

-- Transcript rows that came from (or went to) WhatsApp carry the wamid, so a
-- re-processed delivery is written once.
alter table public.messages add column wamid text unique;
