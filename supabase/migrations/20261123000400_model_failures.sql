-- The model failing is never silence (issue 10, item 9): a turn the model
-- could not answer (bad or expired key, timeout, 5xx, unreachable endpoint) is
-- answered by the offline flow and counted here, one row per turn (trace_id is
-- the inbound wamid, so re-processing a message does not count it twice).
-- Repeated failures in a window raise one staff ticket (see
-- shared/agent/model_failures.ts). Written by the server only; staff of the
-- org can read the count.
create table public.model_failures (
  id bigint generated always as identity primary key,
  org_id uuid not null references public.orgs (id) on delete cascade,
  convo_id uuid references public.conversations (id) on delete set null,
  trace_id text not null check (length(trace_id) between 1 and 200),
  agent_id text check (length(agent_id) <= 100),
  reason text not null
    check (reason in ('http', 'timeout', 'connection', 'aborted', 'invalid_response')),
  http_status int,
  code text check (length(code) <= 100),
  created_at timestamptz not null default now(),
  unique (org_id, trace_id)
);
create index model_failures_org_created_idx on public.model_failures (org_id, created_at);
create index model_failures_convo_id_idx on public.model_failures (convo_id);

alter table public.model_failures enable row level security;
revoke insert, update, delete, truncate on public.model_failures from public, anon, authenticated;
create policy model_failures_select on public.model_failures for select to authenticated
  using (org_id in (select private.my_staff_org_ids()));
